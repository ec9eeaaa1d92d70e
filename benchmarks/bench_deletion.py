"""Deletion-recall benchmark: does the expander give back a word that a real sentence had?

    python benchmarks/bench_deletion.py --n 300                  # the default engine (the pipeline's)
    python benchmarks/bench_deletion.py --n 300 --slots paper    # the paper's engine (METHOD §1.3 as written)
    python benchmarks/bench_deletion.py --n 300 --json out.json  # figures as JSON as well

Pairs (``s2lct.expand.deletion``): SST dev and test sentences (held out from anything trained on
SST train), parsed by the configured parser, minus one optional constituent; one pair per
sentence (``random.Random(--rng)`` picks which), then a sample of ``--n`` pairs. Each remainder is
expanded as a seed; per pair the first stage that loses the original is counted:

- ``no_slot``: no masked sentence, uncapped, has its masks exactly where the deleted words were;
- ``over_budget``: the slot exists but is not among the masked sentences the engine keeps;
- ``not_offered``: the masked LM's top fills lack the words, or PoS/neutrality refused them;
- ``rejected:<check>``: offered, tagged and neutral, then refused by that fluency check
  (the seed's label is not known here: a booster word counts as passing neutrality);
- ``accepted``: recall@accepted.

Also: recall@proposed (the original among all candidates that passed PoS and neutrality) and
accepted expansions per seed. Resources: the offline models in ../shared unless S2LCT_* say otherwise;
the slot-kind engine's selector from ``$S2LCT_SELECTOR`` (``--cache-dir`` is a fresh folder by default).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from calibrate_fluency import REPO, SHARED  # noqa: E402,F401  (also sets the offline resources)


def sst_sentences(splits: tuple[str, ...]) -> list[tuple[str, ...]]:
    from nltk import Tree

    out: dict[tuple[str, ...], None] = {}
    for split in splits:
        with open(SHARED / "data" / "sst" / "trees" / f"{split}.txt", encoding="utf-8") as fh:
            for line in fh:
                out[tuple(Tree.fromstring(line).leaves())] = None
    return list(out)


def build_pairs(expander, splits: tuple[str, ...], n: int, rng_seed: int, kinds: tuple[str, ...] | None = None):
    """One deletion pair per parsed sentence (drawn with ``rng_seed``), then ``n`` of them."""
    from s2lct.expand.deletion import deletion_pairs

    sents = sst_sentences(splits)
    trees = expander.parser.parse(sents)
    rng = random.Random(rng_seed)
    pairs = []
    for tree in trees:
        if tree is None:
            continue
        found = [p for p in deletion_pairs(tree, expander.grammar.counts) if kinds is None or p.kind in kinds]
        if found:
            pairs.append(rng.choice(found))
    pairs = [p for p in dict((p.seed, p) for p in pairs).values()]  # one pair per remainder
    return rng.sample(pairs, min(n, len(pairs)))


def evaluate(expander, pairs) -> dict:
    from s2lct.expand.deletion import is_recovered

    t0 = time.perf_counter()
    results = expander.expand_results([p.seed for p in pairs])
    seconds = time.perf_counter() - t0
    seed_trees = dict(zip([p.seed for p in pairs], expander.parser.parse([p.seed for p in pairs])))
    stage: Counter = Counter()
    by_kind: dict[str, Counter] = {}
    accepted_total = 0
    for p in pairs:
        r = results[p.seed]
        accepted_total += len(r.candidates)
        span = tuple(range(p.start, p.start + len(p.words)))
        tree = seed_trees[p.seed]
        if tree is None:
            where = "parse_failed"
        elif any(is_recovered(p.original, c.tokens) for c in r.candidates):
            where = "accepted"
        elif (rej := next((c for c in r.rejected if is_recovered(p.original, c.tokens)), None)) is not None:
            where = "rejected:" + next(name for name, v in rej.checks.items() if isinstance(v, dict) and not v["pass"])
        else:
            kept = expander.masked(tree)
            if any(ms.mask_positions == span for ms in kept):
                where = "not_offered"
            elif any(ms.mask_positions == span for ms in expander.masked(tree, uncapped=True)):
                where = "over_budget"
            else:
                where = "no_slot"
        stage[where] += 1
        by_kind.setdefault(p.kind, Counter())[where] += 1
    n = len(pairs)
    proposed = stage["accepted"] + sum(v for k, v in stage.items() if k.startswith("rejected:"))
    return {
        "pairs": n,
        "pairs_by_kind": {k: sum(c.values()) for k, c in sorted(by_kind.items())},
        "recall_at_accepted": round(stage["accepted"] / n, 3),
        "recall_at_proposed": round(proposed / n, 3),
        "recall_at_accepted_by_kind": {k: round(c["accepted"] / sum(c.values()), 3) for k, c in sorted(by_kind.items())},
        "first_loss": dict(stage.most_common()),
        "first_loss_by_kind": {k: dict(c.most_common()) for k, c in sorted(by_kind.items())},
        "accepted_per_seed": round(accepted_total / n, 3),
        "seconds_per_seed": round(seconds / n, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--rng", type=int, default=2222)
    ap.add_argument("--splits", default="dev,test")
    ap.add_argument("--slots", choices=["paper", "kinds"], default=None, help="the expander's slot policy (default: the pipeline's)")
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    os.environ.setdefault("S2LCT_CACHE_DIR", str(args.cache_dir or Path(tempfile.mkdtemp(prefix="s2lct-del-"))))

    from dataclasses import replace

    from s2lct.expand.expander import ExpansionConfig, SeedExpander

    from s2lct.expand.suite_expansion import pipeline_expander

    pipeline = pipeline_expander().config  # what `s2lct generate` runs (the slot-kind engine)
    config = {None: pipeline, "paper": ExpansionConfig(), "kinds": replace(pipeline, slots="kinds")}[args.slots]
    ex = SeedExpander(config)
    pairs = build_pairs(ex, tuple(args.splits.split(",")), args.n, args.rng)
    figures = {"engine": ex.description()["engine"], "config": ex.description()["config"], **evaluate(ex, pairs)}
    print(json.dumps(figures, indent=2))
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n")
    print(f"recall@accepted {figures['recall_at_accepted']}  recall@proposed {figures['recall_at_proposed']}", file=sys.stderr)


if __name__ == "__main__":
    main()
