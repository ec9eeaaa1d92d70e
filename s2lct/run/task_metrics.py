"""Accuracy and macro-F1 on the seeds' own data set, printed beside the capability table: a
capability's failure rate means little without how the model does on the task itself (a model that
passes LC4 by calling everything positive shows it here).

The seeds are SST sentences, so the split is SST's test split, its 3-way root labels (the labels
cases are built from); binary models are read through their neutral band like every case. Shown only
for a suite generated from SST (its manifest names SST files); an imported CheckList suite has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

LABELS = ("negative", "neutral", "positive")


@dataclass(frozen=True, slots=True)
class TaskMetrics:
    model: str
    split: str
    sentences: int
    accuracy: float
    macro_f1: float

    def line(self) -> str:
        return (f"{self.model} on SST {self.split} (the seeds' data set, 3 classes, {self.sentences} sentences): "
                f"accuracy {100 * self.accuracy:.1f}%, macro-F1 {100 * self.macro_f1:.1f}%")

    def to_json(self) -> dict[str, Any]:
        return {"split": self.split, "sentences": self.sentences, "accuracy": round(self.accuracy, 6), "macro_f1": round(self.macro_f1, 6)}


def macro_f1(gold: Sequence[str], predicted: Sequence[str], labels: Sequence[str] = LABELS) -> float:
    """Unweighted mean of the per-class F1 (a class never predicted nor present scores 0)."""
    scores = []
    for c in labels:
        tp = sum(g == c and p == c for g, p in zip(gold, predicted, strict=True))
        fp = sum(g != c and p == c for g, p in zip(gold, predicted, strict=True))
        fn = sum(g == c and p != c for g, p in zip(gold, predicted, strict=True))
        scores.append(2 * tp / (2 * tp + fp + fn) if tp else 0.0)
    return sum(scores) / len(scores)


def seeds_from_sst(manifest: Mapping[str, Any]) -> bool:
    return any("sst" in str(k) for k in (manifest.get("data") or {}))


def task_metrics(model: Any, split: str = "test", **predict_options: Any) -> TaskMetrics:
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst
    from s2lct.run.predict import predict_texts

    sentences = load_sst(get_settings().data_root, [split])
    preds = predict_texts(model, [s.text for s in sentences], description=f"{model.name} SST {split}", **predict_options)
    gold = [s.label for s in sentences]
    got = [preds[s.text].label for s in sentences]
    accuracy = sum(g == p for g, p in zip(gold, got, strict=True)) / len(gold)
    return TaskMetrics(model.name, split, len(gold), accuracy, macro_f1(gold, got))
