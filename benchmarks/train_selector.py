"""Train the fluency selector (``s2lct.expand.checks.selector``) from deletion pairs; no annotation.

    python benchmarks/train_selector.py --out s2lct/expand/checks/selector.json
    python benchmarks/train_selector.py --sentences 1500 --out /tmp/selector.json --threshold 0.5

Data: ``--sentences`` SST *train* sentences (``random.Random(--rng)``; the deletion benchmark and
the annotated sets use dev/test and suite seeds), parsed; one deletion pair of each (drawn with the same generator)
(``s2lct.expand.deletion``). Positive: the original sentence, the deleted words as the fill.
Negatives: the slot-kind engine's own candidates for the remainder (PoS and neutrality passed, no
fluency check) whose masks are not at the deleted span, at most ``--negatives`` per remainder
drawn with the same generator. Features: ``selector.features`` on the offline masked LM's
encoder. Model: L2-regularised logistic regression, standardised features, full-batch L-BFGS in
float64 from zero weights (deterministic: same data and settings give the same weights), classes
weighted to balance. The threshold written is ``--threshold`` (calibrated on the annotated set
with ``calibrate_fluency.py selector``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_deletion  # noqa: E402  (sets the offline resources)


def training_rows(n_sentences: int, rng_seed: int, negatives: int):
    from nltk import Tree

    from s2lct.expand.checks import FluencyFilter
    from s2lct.expand.deletion import deletion_pairs
    from s2lct.expand.expander import ExpansionConfig, SeedExpander

    with open(bench_deletion.SHARED / "data" / "sst" / "trees" / "train.txt", encoding="utf-8") as fh:
        sents = sorted({tuple(Tree.fromstring(line).leaves()) for line in fh})
    rng = random.Random(rng_seed)
    sents = rng.sample(sents, n_sentences)
    ex = SeedExpander(ExpansionConfig(slots="kinds"), fluency=FluencyFilter.off())
    pairs = {}
    for tree in ex.parser.parse(sents):
        found = [] if tree is None else list(deletion_pairs(tree, ex.grammar.counts))
        if found:  # one pair per sentence, as in the benchmark
            p = rng.choice(found)
            pairs.setdefault(p.seed, p)
    pairs = [pairs[s] for s in sorted(pairs)]
    results = ex.expand_results([p.seed for p in pairs])
    items, labels = [], []
    for p in pairs:
        span = tuple(range(p.start, p.start + len(p.words)))
        items.append((p.seed, p.original, span))
        labels.append(1)
        others = [c for c in (*results[p.seed].candidates, *results[p.seed].rejected)
                  if tuple(m.position for m in c.masks) != span]
        for c in rng.sample(others, min(negatives, len(others))):
            items.append((p.seed, c.tokens, tuple(m.position for m in c.masks)))
            labels.append(0)
    return ex, items, labels


def fit(x, y, l2: float):
    import torch

    X = torch.tensor(x, dtype=torch.float64)
    Y = torch.tensor(y, dtype=torch.float64)
    mean, std = X.mean(0), X.std(0).clamp_min(1e-6)
    Z = (X - mean) / std
    pos = Y.sum()
    weight = torch.where(Y > 0, len(Y) / (2 * pos), len(Y) / (2 * (len(Y) - pos)))
    w = torch.zeros(Z.shape[1], dtype=torch.float64, requires_grad=True)
    b = torch.zeros((), dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], max_iter=500, tolerance_grad=1e-9, line_search_fn="strong_wolfe")

    def closure():
        opt.zero_grad()
        loss = (weight * torch.nn.functional.binary_cross_entropy_with_logits(Z @ w + b, Y, reduction="none")).mean() + l2 * (w @ w)
        loss.backward()
        return loss

    opt.step(closure)
    return mean.tolist(), std.tolist(), w.detach().tolist(), float(b.detach())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sentences", type=int, default=1500)
    ap.add_argument("--negatives", type=int, default=3)
    ap.add_argument("--rng", type=int, default=8080)
    ap.add_argument("--l2", type=float, default=0.01)
    ap.add_argument("--threshold", type=float, default=0.5)
    ap.add_argument("--cache-dir", type=Path, default=None)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    os.environ.setdefault("S2LCT_CACHE_DIR", str(args.cache_dir or Path(tempfile.mkdtemp(prefix="s2lct-sel-"))))
    import torch

    from s2lct.expand.checks.selector import features

    torch.manual_seed(args.rng)
    ex, items, labels = training_rows(args.sentences, args.rng, args.negatives)
    x = features(items, ex.mlm)
    mean, std, w, b = fit(x, labels, args.l2)
    head = {
        "identity": f"selector-v1:{ex.mlm.identity}:n{len(labels)}:rng{args.rng}",
        "trained_on": {"sentences": args.sentences, "rows": len(labels), "positives": sum(labels), "rng": args.rng,
                       "negatives_per_remainder": args.negatives, "l2": args.l2},
        "threshold": args.threshold,
        "mean": [round(v, 6) for v in mean], "std": [round(v, 6) for v in std], "w": [round(v, 6) for v in w], "b": round(b, 6),
    }
    from s2lct.expand.checks.selector import score_rows

    p = score_rows(x, head)
    acc = sum((pi >= 0.5) == bool(y) for pi, y in zip(p, labels)) / len(labels)
    head["trained_on"]["train_accuracy"] = round(acc, 4)
    args.out.write_text(json.dumps(head) + "\n", encoding="utf-8")
    print(json.dumps(head["trained_on"]))


if __name__ == "__main__":
    main()
