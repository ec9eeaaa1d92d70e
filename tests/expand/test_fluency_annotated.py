"""Regression test of the fluency filter's precision on the annotated expansions (tests/data/README.md).

The filter (default checks and thresholds, cascade on as ``generate`` runs it) re-scores every
annotated candidate; of those it accepts, at least 95% must be ones the annotator judged valid.
The rules were revised on all three sets (see tests/data/README.md), so this guards against
regressions; it is not an out-of-sample estimate.
"""

from __future__ import annotations

import json
from pathlib import Path

import _engine_models as models

from s2lct.expand.checks import CheckItem, FluencyFilter, passed

DATA = Path(__file__).resolve().parents[1] / "data"
SETS = ("expansions_annotated.jsonl", "expansions_held_out.jsonl", "expansions_held_out_2.jsonl")


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
    for name in SETS:
        rows, items = load(name)
        acc = accepted(items)
        valid = [r["valid"] for r in rows]
        n_acc = sum(acc)
        true_acc = sum(a and v for a, v in zip(acc, valid))
        precision = true_acc / n_acc if n_acc else 0.0
        recall = true_acc / sum(valid)
        assert n_acc >= 4, f"{name}: the filter accepts only {n_acc} candidates"
        assert precision >= 0.95, f"{name}: precision {precision:.3f} ({true_acc}/{n_acc} accepted are valid), recall {recall:.3f}"
