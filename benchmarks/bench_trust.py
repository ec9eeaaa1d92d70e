"""Benchmark of `s2lct trust` on minilm-sst2: wall time and peak RSS of the card, and per explainer
the documents/s on hybrid documents against its floor — the same number of model evaluations
(forwards, plus backwards where the method takes them) run as plain batched calls in this process.

Usage: python benchmarks/bench_trust.py [--documents N] [--agreement-items N] [--suite-cases N] [--threads T]
(defaults: the card's defaults). Targets (issue 13): the default card ≤ 20 min and ≤ 4 GB on 2 cores.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def floor_seconds(handle, text: str, evaluations: int, backwards: int) -> float:
    """Time of ``evaluations`` forwards of ``text`` in batches of 64 (+ ``backwards`` forward-backward passes)."""
    import torch

    from s2lct.explain.adapters import run_logits

    clf = handle.torch
    ids = clf.encode(text).ids
    t0 = time.perf_counter()
    run_logits(clf, [ids] * max(0, evaluations - backwards), 64)
    if backwards:
        x = torch.tensor([ids] * min(backwards, 64))
        for start in range(0, backwards, 64):
            n = min(64, backwards - start)
            out = clf.logits(x[:n], torch.ones_like(x[:n]))
            out[:, 0].sum().backward()
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--documents", type=int, default=100)
    ap.add_argument("--agreement-items", type=int, default=100)
    ap.add_argument("--suite-cases", type=int, default=60)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--floor-sample", type=int, default=5, help="documents per explainer timed for the floor")
    args = ap.parse_args()
    env = dict(os.environ)
    env.setdefault("S2LCT_CACHE_DIR", tempfile.mkdtemp(prefix="bench-trust-"))
    out = Path(tempfile.mkdtemp(prefix="bench-trust-out-"))
    cmd = [sys.executable, "-m", "s2lct.cli", "trust", "--model", "minilm-sst2", "--out", str(out), "--no-cache", "-q",
           "--documents", str(args.documents), "--agreement-items", str(args.agreement_items), "--suite-cases", str(args.suite_cases),
           "--threads", str(args.threads), "--suite", str(REPO / "generated")]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, env=env, cwd=REPO, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode:
        print(f"card failed (exit {proc.returncode}): {proc.stderr.strip().splitlines()[-1:]}")
        sys.exit(1)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    card = json.loads((out / "card.json").read_text())
    print(f"default card on minilm-sst2: wall {wall / 60:.1f} min (target ≤ 20), peak RSS {peak_mb:.0f} MiB (target ≤ 4096)")

    import torch

    torch.set_num_threads(args.threads)
    from s2lct.explain.adapters import prepare_model
    from s2lct.models import load_model
    from s2lct.trust.hybrid import build_documents, load_pool

    handle = prepare_model(load_model("minilm-sst2"))
    docs = build_documents(load_pool(), args.floor_sample, card["options"]["fragments"], card["options"]["seed"])
    from s2lct.explain.registry import get_explainer

    print(f"{'explainer':<14}{'docs/s':>9}{'floor docs/s':>14}{'ratio':>8}")
    for name, e in card["paradigms"]["hybrid"]["explainers"].items():
        explainer = get_explainer(name)
        secs = floor = 0.0
        for d in docs:
            t = time.perf_counter()
            exp = explainer.explain(handle, d.text, "positive")
            secs += time.perf_counter() - t
            floor += floor_seconds(handle, d.text, int(exp.info.get("evaluations") or 1), int(exp.info.get("backwards") or 0))
        print(f"{name:<14}{len(docs) / secs:>9.2f}{len(docs) / floor:>14.2f}{secs / floor:>8.2f}   (in the card: {e['items_per_second']} docs/s)")


if __name__ == "__main__":
    main()
