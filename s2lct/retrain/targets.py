"""Training targets for the three shapes of expected label, and the pass test used for validation.

Every training example carries ``allowed``: a multi-hot vector over ``LABELS`` (negative, neutral,
positive) — its case's expected labels, or the gold label of an SST-2 sentence. The loss depends on
the model's classes (after the label map, :func:`s2lct.models.base.map_classes`):

* **Models with a neutral class** (3-way or more): the loss is ``-log Σ_{c allowed} p(c)``, the
  likelihood that the prediction lands in the allowed set. For a single label this is ordinary
  cross-entropy; for a label set like ``[neutral, positive]`` any mix of the allowed classes costs
  nothing, so the model is not pushed toward one of them arbitrarily.
* **Binary models** (negative/positive classes only, labelled through the neutral band
  ``[low, high]`` on p(positive), METHOD.md §1.4): the target is a value ``t`` for p(positive) and
  the loss the binary cross-entropy ``-(t log p + (1-t) log(1-p))``.

  - a single polar label: ``t = 1`` (positive) or ``0`` (negative) — how the model was trained;
  - any set containing ``neutral`` (``[neutral]``, ``[neutral, positive]``, ``[negative, neutral]``):
    the allowed interval of p(positive) (``[low, high]``, ``[low, 1]``, ``[0, high]``) shrunk by a
    margin ``m = (high - low) / 4`` at band edges, and ``t`` = the current p(positive) clipped to
    it. Inside the interval the loss gradient is zero (the case already passes with room to
    spare); outside, the model is pulled to just inside, the least change that makes the case pass.
    So ``[neutral]`` trains toward ``[low+m, high-m]`` = [5/12, 7/12] with the default band;
  - ``[negative, positive]`` (never neutral): ``t`` = the nearer pole.

Validation and accounting judge with :func:`s2lct.models.base.to_prediction`, the same rule as
``s2lct run``. torch is imported inside the functions so this module stays cheap to import.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..models.base import DEFAULT_NEUTRAL_BAND, LABELS, to_prediction

Band = tuple[float, float]


def allowed_vector(expected: Iterable[str]) -> list[float]:
    """Multi-hot over ``LABELS``: ``["neutral", "positive"]`` → ``[0, 1, 1]``."""
    wanted = set(expected)
    unknown = wanted - set(LABELS)
    if unknown or not wanted:
        raise ValueError(f"expected labels {sorted(wanted)} must be a non-empty subset of {', '.join(LABELS)}")
    return [float(lab in wanted) for lab in LABELS]


def is_binary(classes: Sequence[str]) -> bool:
    return "neutral" not in classes


def binary_target(p_pos: float, allowed: Sequence[float], band: Band = DEFAULT_NEUTRAL_BAND) -> float | None:
    """The target value of p(positive) for a binary model (module docstring); ``None``: nothing to learn."""
    neg, neu, pos = (bool(x) for x in allowed)
    low, high = band
    if neg and neu and pos:
        return None
    if not neu:
        if pos and not neg:
            return 1.0
        if neg and not pos:
            return 0.0
        return 1.0 if p_pos >= 0.5 else 0.0
    margin = (high - low) / 4
    lo = 0.0 if neg else low + margin
    hi = 1.0 if pos else high - margin
    return min(max(p_pos, lo), hi)


def target_loss(logits: Any, allowed: Any, classes: Sequence[str], band: Band = DEFAULT_NEUTRAL_BAND) -> Any:
    """Mean training loss of a batch: ``logits`` [B, C] from the model, ``allowed`` [B, 3] multi-hot."""
    import torch

    logits = logits.float()
    allowed = allowed.to(logits.device).float()
    class_label = torch.tensor([LABELS.index(c) for c in classes], device=logits.device)
    class_allowed = allowed[:, class_label] > 0  # [B, C]
    log_z = torch.logsumexp(logits, dim=-1)
    neg_inf = torch.finfo(logits.dtype).min
    if not is_binary(classes):
        log_in_set = torch.logsumexp(logits.masked_fill(~class_allowed, neg_inf), dim=-1)
        return (log_z - log_in_set).mean()
    is_pos = (class_label == LABELS.index("positive")).expand_as(logits)
    log_p_pos = torch.logsumexp(logits.masked_fill(~is_pos, neg_inf), dim=-1) - log_z
    log_p_neg = torch.logsumexp(logits.masked_fill(is_pos, neg_inf), dim=-1) - log_z
    p_pos = log_p_pos.detach().exp().tolist()
    targets, weights = [], []
    for p, row in zip(p_pos, allowed.tolist(), strict=True):
        t = binary_target(p, row, band)
        targets.append(0.0 if t is None else t)
        weights.append(0.0 if t is None else 1.0)
    t = torch.tensor(targets, device=logits.device)
    w = torch.tensor(weights, device=logits.device)
    loss = -(t * log_p_pos + (1 - t) * log_p_neg) * w
    return loss.sum() / w.sum().clamp(min=1.0)


def passes(logits: Any, allowed: Any, classes: Sequence[str], band: Band = DEFAULT_NEUTRAL_BAND) -> list[bool]:
    """Whether each row's predicted 3-way label is allowed (the suite's judgement)."""
    import numpy as np

    logits = np.asarray(logits, dtype=np.float64)
    probs = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probs /= probs.sum(axis=-1, keepdims=True)
    out = []
    for row, ok in zip(probs.tolist(), np.asarray(allowed).tolist(), strict=True):
        label = to_prediction(row, classes, band).label
        out.append(bool(ok[LABELS.index(label)]))
    return out
