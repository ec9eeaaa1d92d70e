"""Regression test of the fluency filter's precision on the annotated expansions (tests/data/README.md).

The filter (default checks and thresholds, cascade on as ``generate`` runs it) re-scores every
annotated candidate; of those it accepts, at least 95% must be ones the annotator judged valid.
The rules were revised on every set but the newest blind draw (see tests/data/README.md), so on
the others this guards against regressions; it is not an out-of-sample estimate.
"""

from __future__ import annotations

import json
from pathlib import Path

import _engine_models as models

from s2lct.expand.checks import CheckItem, FluencyFilter, passed

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = (
    "expansions_annotated.jsonl", "expansions_held_out.jsonl", "expansions_held_out_2.jsonl",
    "expansions_held_out_3.jsonl", "expansions_held_out_4.jsonl",
)


class Models:
    parser = property(lambda self: models.parser())
    mlm = property(lambda self: models.mlm())


def load(name: str) -> tuple[list[dict], list[CheckItem]]:
    rows = [json.loads(line) for line in (DATA / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    items = [
        CheckItem(tuple(r["seed"]), tuple(r["seed_tags"]), tuple(r["tokens"]), tuple(m["position"] for m in r["masks"]),
                  tuple(m["symbol"] for m in r["masks"]), r["production"])
        for r in rows
    ]
    return rows, items


def accepted(items: list[CheckItem]) -> list[bool]:
    filt = FluencyFilter()
    by_seed: dict[tuple[str, ...], list[int]] = {}
    for i, it in enumerate(items):
        by_seed.setdefault(it.seed, []).append(i)
    out = [False] * len(items)
    for idx in by_seed.values():  # one seed's candidates together, as the expander runs them
        for i, rec in zip(idx, filt.run([items[i] for i in idx], Models())):
            out[i] = passed(rec)
    return out


def test_annotated_set_is_well_formed():
    for name in SETS:
        rows, items = load(name)
        assert all(isinstance(r["valid"], bool) for r in rows), name
        for r, it in zip(rows, items):
            kept = [t for i, t in enumerate(it.tokens) if i not in it.positions]
            assert [t.lower() for t in kept] == [t.lower() for t in it.seed] and len(it.seed_tags) == len(it.seed)
    rows, _ = load("expansions_annotated.jsonl")
    assert len(rows) >= 300


def test_filter_precision_on_the_annotated_sets():
    total_acc = total_true = 0
    for name in SETS:
        rows, items = load(name)
        acc = accepted(items)
        valid = [r["valid"] for r in rows]
        n_acc = sum(acc)
        true_acc = sum(a and v for a, v in zip(acc, valid))
        total_acc, total_true = total_acc + n_acc, total_true + true_acc
        precision = true_acc / n_acc if n_acc else 1.0
        recall = true_acc / sum(valid)
        assert precision >= 0.95, f"{name}: precision {precision:.3f} ({true_acc}/{n_acc} accepted are valid), recall {recall:.3f}"
    # a filter that accepted (almost) nothing would pass the loop above trivially
    assert total_acc >= 25, f"the filter accepts only {total_acc} of the annotated candidates"
    assert total_true / total_acc >= 0.95, f"pooled precision {total_true / total_acc:.3f} ({total_true}/{total_acc})"
