"""Draw candidates of the slot-kind engine (as ``s2lct generate`` runs it) for annotation.

    python benchmarks/draw_kinds.py --rng 7 --per-capability 15 --pick 9090 --n 160 --out FILE
    python benchmarks/draw_kinds.py --rng 11 --per-capability 15 --pick 9191 --n 100 --high 100 --out FILE

Seeds: for each capability of ``--suite`` (default: the committed ``generated/``), the distinct SST
seeds (split, index, label) of its seed cases, sorted; ``random.Random(--rng).sample`` of
``--per-capability``. They are expanded afresh (a new store) by ``pipeline_expander``'s
configuration with every fluency check scored on every candidate (``cascade=False``). The pool:
candidates that pass PoS, neutrality, every check but the selector, and keep the seed's label
(``keeps_label``), minus the seeds of every annotated file in tests/data; sorted. Drawn with
``random.Random(--pick)``: ``--n`` uniformly, then ``--high`` of the rest whose selector score is
at least ``--high-from`` (the threshold region), shuffled together; each row says its
``stratum``. The file holds what ``train_selector.py`` reads, ``valid`` unset (null) for the
annotator; the candidates are printed with the fills in brackets and the seed label only.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_deletion  # noqa: E402  (sets the offline resources)

REPO = bench_deletion.REPO


def suite_seeds(suite: Path, per_capability: int, rng_seed: int) -> dict[tuple[str, ...], str]:
    """Seed tokens → SST label, ``per_capability`` sampled from each capability's seed cases."""
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst

    sst = {(s.split, s.index): s.tokens for s in load_sst(get_settings().data_root)}
    rng = random.Random(rng_seed)
    seeds: dict[tuple[str, ...], str] = {}
    for f in sorted(suite.glob("LC*.jsonl")):
        refs = set()
        for line in f.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            if case["expansion"] is None:
                refs.update((s["split"], s["index"], s["label"]) for s in case["seeds"] if s["source"] == "sst")
        for split, index, label in rng.sample(sorted(refs), min(per_capability, len(refs))):
            seeds.setdefault(sst[(split, index)], label)
    return seeds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--suite", type=Path, default=REPO / "generated")
    ap.add_argument("--rng", type=int, required=True, help="seed of the seed draw")
    ap.add_argument("--per-capability", type=int, default=15)
    ap.add_argument("--pick", type=int, required=True, help="seed of the candidate draw")
    ap.add_argument("--n", type=int, default=160, help="candidates drawn uniformly from the pool")
    ap.add_argument("--high", type=int, default=0, help="further candidates drawn among those the selector scores >= --high-from")
    ap.add_argument("--high-from", type=float, default=0.6)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()

    from s2lct.expand.boosters import keeps_label
    from s2lct.expand.checks import FluencyFilter, make_check
    from s2lct.expand.slots import KINDS_CHECKS
    from s2lct.expand.suite_expansion import pipeline_expander

    seeds = suite_seeds(args.suite, args.per_capability, args.rng)
    base = pipeline_expander()
    store = Path(tempfile.mkdtemp(prefix="s2lct-draw-")) / "expansions.sqlite3"
    from s2lct.expand.expander import SeedExpander

    expander = SeedExpander(base.config, store=store, fluency=FluencyFilter([make_check(n) for n in KINDS_CHECKS], cascade=False))
    results = expander.expand_results(list(seeds))
    seen = {tuple(json.loads(line)["seed"]) for f in sorted((REPO / "tests" / "data").glob("expansions_*.jsonl"))
            for line in f.read_text(encoding="utf-8").splitlines() if line.strip()}
    pool = []
    for seed, res in results.items():
        if seed in seen:
            continue
        for c in (*res.candidates, *res.rejected):
            cheap = all(v["pass"] if isinstance(v, dict) else v for k, v in c.checks.items() if k != "selector")
            if cheap and keeps_label([(m.word, m.symbol) for m in c.masks], seeds[seed]):
                pool.append(c)
    pool.sort(key=lambda c: (c.seed, c.tokens))
    rng = random.Random(args.pick)
    uniform = rng.sample(pool, min(args.n, len(pool)))
    taken = {id(c) for c in uniform}
    high = [c for c in pool if id(c) not in taken and c.checks.get("selector", {}).get("score", 0.0) >= args.high_from]
    drawn = [(c, "uniform") for c in uniform] + [(c, f"selector>={args.high_from}") for c in rng.sample(high, min(args.high, len(high)))]
    rng.shuffle(drawn)
    print(f"pool {len(pool)}, above {args.high_from}: {len(high) + sum(c.checks.get('selector', {}).get('score', 0.0) >= args.high_from for c in uniform)}", file=sys.stderr)
    trees = dict(zip(sorted({c.seed for c, _ in drawn}), expander.parser.parse(sorted({c.seed for c, _ in drawn}))))
    lines = []
    for i, (c, stratum) in enumerate(drawn):
        row = {**c.to_json(), "seed_tags": [t for _, t in trees[c.seed].pos()], "seed_label": seeds[c.seed], "stratum": stratum, "valid": None}
        lines.append(json.dumps(row))
        toks = list(c.tokens)
        for m in c.masks:
            toks[m.position] = f"[{toks[m.position]}]"
        print(i, seeds[c.seed][:3], " ".join(toks))
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
