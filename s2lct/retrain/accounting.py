"""Before/after accounting of a retrained model: every case fixed and every case broken.

Per evaluated capability: cases, #Fail/#Pass before and after, #Fail→Pass, #Pass→Fail and the pass
rate change (paper Table 2 plus what it left out), and SST-2 dev accuracy before and after. Retrained
capabilities are scored on their held-out test split, the others on all their cases. Predictions go
through :func:`s2lct.run.predict.predict_texts`, whose cache is keyed by model identity (a saved model
folder's content hash), so scoring the base model again costs nothing.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..corpus.sst2 import load_sst2  # noqa: F401  (re-exported: retrain.loop reads it from here)
from ..models.base import SentimentModel
from ..run.predict import predict_texts
from ..progress import ProgressFactory
from ..suite import Case, natural_key

_CHUNK = 512


@dataclass(frozen=True)
class Evaluation:
    """One model's verdict on a set of cases, plus its SST-2 dev accuracy."""

    model: str
    identity: str
    passed: dict[str, bool]  # case id -> passed
    sst2_accuracy: float | None
    sst2_n: int

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "identity": self.identity, "sst2_accuracy": self.sst2_accuracy, "sst2_n": self.sst2_n,
                "passed": dict(sorted(self.passed.items()))}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Evaluation:
        return cls(d["model"], d["identity"], dict(d["passed"]), d["sst2_accuracy"], d["sst2_n"])


def evaluate(
    model: SentimentModel,
    cases: Sequence[Case],
    sst2_dev: Sequence[tuple[str, int]] = (),
    *,
    cache_dir: str | Path | None = None,
    batch_size: int | None = None,
    progress: ProgressFactory | None = None,
    description: str = "evaluating",
) -> Evaluation:
    """Judge ``cases`` and score SST-2 dev (correct when p(gold) > p(other polar class), the usual SST-2 metric)."""
    texts = list(dict.fromkeys([c.text for c in cases] + [t for t, _ in sst2_dev]))
    task = progress(f"{description} ({model.name})", len(texts)) if progress else None
    preds: dict[str, Any] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # truncation is the model's limit, as in `s2lct run`
        for start in range(0, len(texts), _CHUNK):
            chunk = texts[start : start + _CHUNK]
            preds.update(predict_texts(model, chunk, cache_dir=cache_dir, batch_size=batch_size))
            if task:
                task.advance(len(chunk))
    if task:
        task.close()
    passed = {c.id: preds[c.text].label in c.expected for c in cases}
    acc = None
    if sst2_dev:
        gold = ("negative", "positive")
        correct = sum(preds[t].probs[gold[y]] > preds[t].probs[gold[1 - y]] for t, y in sst2_dev)
        acc = correct / len(sst2_dev)
    return Evaluation(model.name, model.identity, passed, acc, len(sst2_dev))


def account(
    before: Evaluation,
    after: Evaluation,
    scopes: Mapping[str, Iterable[str]],
    *,
    names: Mapping[str, str] | None = None,
    scope_names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Per capability (``scopes``: capability → the case ids it is scored on) the before/after counts."""
    rows = []
    for cap in sorted(scopes, key=natural_key):
        ids = list(scopes[cap])
        b = [before.passed[i] for i in ids]
        a = [after.passed[i] for i in ids]
        n = len(ids)
        f2p = sum(1 for x, y in zip(b, a) if not x and y)
        p2f = sum(1 for x, y in zip(b, a) if x and not y)
        pb, pa = sum(b), sum(a)
        rows.append({
            "capability": cap,
            "name": (names or {}).get(cap, cap),
            "scope": (scope_names or {}).get(cap, "all"),
            "cases": n,
            "fail_before": n - pb, "pass_before": pb,
            "fail_after": n - pa, "pass_after": pa,
            "fail_to_pass": f2p, "pass_to_fail": p2f,
            "pass_rate_before": pb / n if n else None,
            "pass_rate_after": pa / n if n else None,
            "pass_rate_change": (pa - pb) / n if n else None,
        })
    sst2 = {
        "n": after.sst2_n,
        "accuracy_before": before.sst2_accuracy,
        "accuracy_after": after.sst2_accuracy,
        "accuracy_change": None if before.sst2_accuracy is None or after.sst2_accuracy is None
        else after.sst2_accuracy - before.sst2_accuracy,
    }
    return {"before": {"model": before.model, "identity": before.identity},
            "after": {"model": after.model, "identity": after.identity},
            "capabilities": rows, "sst2_dev": sst2}


def _pct(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "-"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def markdown_table(acc: Mapping[str, Any]) -> str:
    """The accounting as a Markdown table (paper Table 2 columns + Pass→Fail and the change)."""
    head = ("| Eval LC | scope | cases | #Fail before | #Pass before | #Fail after | #Pass after | #Fail→Pass | #Pass→Fail "
            "| pass % before | pass % after | Δ pp |")
    lines = [head, "|" + "---|" * 12]
    for r in acc["capabilities"]:
        lines.append(
            f"| {r['capability']} | {r['scope']} | {r['cases']} | {r['fail_before']} | {r['pass_before']} | {r['fail_after']} "
            f"| {r['pass_after']} | {r['fail_to_pass']} | {r['pass_to_fail']} | {_pct(r['pass_rate_before'])} "
            f"| {_pct(r['pass_rate_after'])} | {_pct(r['pass_rate_change'], True)} |"
        )
    s = acc["sst2_dev"]
    if s["accuracy_before"] is not None:
        lines.append(f"\nSST-2 dev accuracy (n={s['n']}): {_pct(s['accuracy_before'])}% before, {_pct(s['accuracy_after'])}% after "
                     f"({_pct(s['accuracy_change'], True)} pp).")
    return "\n".join(lines) + "\n"
