"""Whether a case passes, for each test type (MFT, INV, DIR): the one rule the runner, the pytest
items and the reports share.

An MFT case passes when its prediction is among the expected labels (METHOD.md §1.4). INV and DIR
cases are judged against the prediction for their original text, as CheckList's ``Expect.inv``
and ``Expect.monotonic`` do; a case passes only when every perturbed text meets the expectation.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from s2lct.suite import Case

#: float slack so that "moved by exactly the tolerance" passes whatever the rounding
_EPS = 1e-9


@dataclass(frozen=True, slots=True)
class PerturbedOutcome:
    """One perturbed text of an INV/DIR case, its prediction and whether it met the expectation."""

    text: str
    predicted: str
    probs: dict[str, float]
    passed: bool
    change: float  # p(judged label) on the perturbed text minus on the original

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "predicted": self.predicted, "probs": {k: round(v, 6) for k, v in self.probs.items()},
                "passed": self.passed, "change": round(self.change, 6)}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> PerturbedOutcome:
        return cls(d["text"], d["predicted"], dict(d["probs"]), bool(d["passed"]), float(d.get("change", 0.0)))


@dataclass(frozen=True, slots=True)
class Verdict:
    """``applicable`` is False for a DIR case whose original was predicted as one of the labels the
    case leaves out (CheckList filters those out of its counts; so do we)."""

    passed: bool
    applicable: bool = True
    perturbed: tuple[PerturbedOutcome, ...] = ()
    judged_label: str | None = None  # INV/DIR: the class whose probability was compared


def _score(probs: Mapping[str, float], label: str) -> float:
    return probs["positive"] - probs["negative"] if label == "polarity" else probs[label]


def cannot_fail(d: Any, start: float) -> bool:
    """Whether a DIR case on a class probability passes whatever the model does: with tolerance t, a
    probability of at most t cannot fall by more than t, one of at least 1 − t cannot rise by more
    than t. CheckList's ``Expect.monotonic`` leaves such cases out of its counts, and so do we (they
    would be passes that test nothing). Not for ``polarity`` (CheckList's phrase tests count them)."""
    if d.label == "polarity" or d.margin or not d.tolerance:
        return False
    return start <= d.tolerance if d.change == "up" else start >= 1.0 - d.tolerance


def judge(case: Case, label: str) -> bool:
    """An MFT case's rule: the predicted label is among its expected labels."""
    return label in case.expected


def judge_case(case: Case, preds: Mapping[str, Any]) -> Verdict:
    """The verdict on ``case`` from predictions keyed by text (they must hold every ``case.texts``)."""
    original = preds[case.text]
    if case.test_type == "mft":
        return Verdict(judge(case, original.label))
    if case.test_type == "inv":
        label = original.label
        outs = []
        for text in case.perturbed:
            p = preds[text]
            change = p.probs[label] - original.probs[label]
            ok = p.label == label or (case.tolerance is not None and abs(change) <= case.tolerance + _EPS)
            outs.append(PerturbedOutcome(text, p.label, dict(p.probs), ok, change))
        return Verdict(all(o.passed for o in outs), True, tuple(outs), label)
    d = case.direction
    assert d is not None, "a DIR case has a direction (checked at load)"
    label = original.label if d.label == "predicted" else d.label
    applicable = original.label not in d.unless_original and not cannot_fail(d, _score(original.probs, label))
    outs = []
    for text in case.perturbed:
        p = preds[text]
        change = _score(p.probs, label) - _score(original.probs, label)
        signed = change if d.change == "up" else -change
        outs.append(PerturbedOutcome(text, p.label, dict(p.probs), signed >= d.margin - d.tolerance - _EPS, change))
    return Verdict(all(o.passed for o in outs) or not applicable, applicable, tuple(outs), label)


def expectation(case: Case) -> str:
    """The case's expectation in words, for failure messages and reports."""
    if case.test_type == "mft":
        return " or ".join(case.expected)
    if case.test_type == "inv":
        extra = f" (or p(label) moves at most {case.tolerance:g})" if case.tolerance else ""
        return f"same label as the original{extra}"
    d = case.direction
    assert d is not None
    which = {"predicted": "the original's predicted label", "polarity": "positive) − p(negative"}.get(d.label, d.label)
    how = f"by at least {d.margin:g}" if d.margin else (f"or fall back at most {d.tolerance:g}" if d.tolerance else "or stay")
    unless = f"; not applicable when the original is predicted {' or '.join(d.unless_original)}" if d.unless_original else ""
    return f"p({which}) goes {d.change} {how}{unless}"
