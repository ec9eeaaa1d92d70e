"""Which checkpoint a fine-tuning keeps: the best validation pass rate, or a joint criterion.

Keeping the checkpoint with the best validation pass rate (the paper's setup) rewards a model that
passes the capability by forgetting the task: on minilm-sst2 a one-sided capability is learned as a
global shift of p(positive) and SST-2 dev accuracy falls by 5 to 40 points. The joint criterion
scores each evaluation on the capability's validation cases *and* on general sentences no one trains
or reports on (:func:`s2lct.retrain.training_set.load_general`; never SST-2 dev, which is what the
accounting reports):

    joint = validation pass rate - WEIGHT * max(0, start accuracy - accuracy - TOLERANCE)

so general accuracy may move within half a point for free and every point beyond costs fifty points
of pass rate: a checkpoint that loses a point and a half must pass every validation case it failed
to be kept. (With ten points per point, a checkpoint passing 90% of LC6 at 6.5 points of general
accuracy beat the start, and SST-2 dev fell 7.6 points.) The starting model is scored the same way before training; when no checkpoint beats
it, the starting weights are the result (nothing safe was learned, and the run says so).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .targets import Band, passes

SELECTIONS = ("validation", "joint")
#: general accuracy may fall this much (a fraction) at no cost
TOLERANCE = 0.005
#: beyond the tolerance, each unit of accuracy lost costs this many units of validation pass rate
WEIGHT = 50.0


def joint_score(pass_rate: float, accuracy: float, start_accuracy: float) -> float:
    return pass_rate - WEIGHT * max(0.0, start_accuracy - accuracy - TOLERANCE)


def general_accuracy(logits: Any, allowed: Any, classes: Sequence[str]) -> float | None:
    """Accuracy on SST-2 rows (gold one-hot in ``allowed``): p(gold) above p(other polar class)."""
    import numpy as np

    if len(logits) == 0:
        return None
    logits = np.asarray(logits, dtype=np.float64)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    pos = np.zeros(len(classes), dtype=bool)
    pos[[i for i, c in enumerate(classes) if c == "positive"]] = True
    neg = np.zeros(len(classes), dtype=bool)
    neg[[i for i, c in enumerate(classes) if c == "negative"]] = True
    p_pos, p_neg = probs[:, pos].sum(axis=1), probs[:, neg].sum(axis=1)
    gold_pos = np.asarray(allowed)[:, 2] > 0
    return float(np.mean(np.where(gold_pos, p_pos > p_neg, p_neg > p_pos)))


def evaluation_metrics(
    logits: Any, allowed: Any, general: Any, classes: Sequence[str], band: Band, start_accuracy: float | None = None,
) -> dict[str, float]:
    """``pass_rate`` on case rows; with general rows also ``general_accuracy`` and (given the start's) ``joint``."""
    import numpy as np

    logits, allowed, general = np.asarray(logits), np.asarray(allowed), np.asarray(general) > 0
    ok = passes(logits[~general], allowed[~general], classes, band)
    out = {"pass_rate": sum(ok) / max(1, len(ok))}
    acc = general_accuracy(logits[general], allowed[general], classes)
    if acc is not None:
        out["general_accuracy"] = acc
        if start_accuracy is not None:
            out["joint"] = joint_score(out["pass_rate"], acc, start_accuracy)
    return out
