"""What a run found, per case and per capability: the data every report format renders.

Kept apart from the renderers (text tables and JSON/Markdown in :mod:`s2lct.run.report`, HTML in
:mod:`s2lct.run.html_report`) so that each renderer depends on this module and none on another.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from s2lct.models.base import DEFAULT_NEUTRAL_BAND, positive_share
from s2lct.run.judging import PerturbedOutcome, expectation, judge_case
from s2lct.suite import Case, natural_key


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    case_id: str
    capability: str
    text: str
    expected: tuple[str, ...]
    predicted: str
    probs: dict[str, float]
    passed: bool
    truncated: bool = False
    seed_case: str | None = None
    seed_passed: bool | None = None  # for expansions: did the seed case pass (None: unknown)
    explanation: dict[str, Any] | None = None  # top evidence of the failure, when an explainer ran
    test_type: str = "mft"
    perturbed: tuple[PerturbedOutcome, ...] = ()  # INV/DIR: each perturbed text's prediction; predicted/probs are the original's
    applicable: bool = True  # False: a DIR case whose original's prediction it leaves out (counted apart, never failed)
    expectation: str | None = None  # INV/DIR: the expectation in words
    perturbation: str | None = None

    @property
    def is_expansion(self) -> bool:
        return self.seed_case is not None

    @classmethod
    def judged(cls, case: Case, preds: Mapping[str, Any], seed_passed: bool | None = None, explanation: dict[str, Any] | None = None) -> CaseOutcome:
        """The outcome of ``case`` from predictions keyed by text."""
        p = preds[case.text]
        v = judge_case(case, preds)
        truncated = p.truncated or any(preds[t].truncated for t in case.perturbed)
        return cls(case.id, case.capability, case.text, case.expected, p.label, dict(p.probs), v.passed, truncated,
                   case.seed_case_id, seed_passed, explanation, case.test_type, v.perturbed, v.applicable,
                   None if case.is_mft else expectation(case), case.perturbation)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.case_id,
            "capability": self.capability,
            "text": self.text,
            "expected": list(self.expected),
            "predicted": self.predicted,
            "probs": {k: round(v, 6) for k, v in self.probs.items()},
            "passed": self.passed,
            "truncated": self.truncated,
            "seed_case": self.seed_case,
            "seed_passed": self.seed_passed,
            **({"explanation": self.explanation} if self.explanation is not None else {}),
            **({"test_type": self.test_type, "perturbation": self.perturbation, "expectation": self.expectation,
                "applicable": self.applicable, "perturbed": [o.to_json() for o in self.perturbed]} if self.test_type != "mft" else {}),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CaseOutcome:
        return cls(
            case_id=d["id"], capability=d["capability"], text=d["text"], expected=tuple(d["expected"]),
            predicted=d["predicted"], probs=dict(d["probs"]), passed=bool(d["passed"]),
            truncated=bool(d.get("truncated", False)), seed_case=d.get("seed_case"), seed_passed=d.get("seed_passed"),
            explanation=d.get("explanation"), test_type=d.get("test_type", "mft"),
            perturbed=tuple(PerturbedOutcome.from_json(o) for o in d.get("perturbed", ())),
            applicable=bool(d.get("applicable", True)), expectation=d.get("expectation"), perturbation=d.get("perturbation"),
        )


@dataclass
class CapabilityStats:
    id: str
    name: str
    cases: int = 0
    failures: int = 0
    expansion_cases: int = 0
    expansion_failures: int = 0
    seed_passed_expansion_failed: int = 0
    truncated: int = 0
    not_applicable: int = 0  # DIR cases whose original's prediction they leave out: not in the rate

    @property
    def judged(self) -> int:
        return self.cases - self.not_applicable

    @property
    def failure_rate(self) -> float:
        return self.failures / self.judged if self.judged else 0.0

    def add(self, o: CaseOutcome) -> None:
        self.cases += 1
        self.not_applicable += not o.applicable
        self.failures += not o.passed
        self.truncated += o.truncated
        if o.is_expansion:
            self.expansion_cases += 1
            self.expansion_failures += not o.passed
            self.seed_passed_expansion_failed += (not o.passed) and o.seed_passed is True

    def to_json(self, with_id: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name} if with_id else {}
        d.update(
            cases=self.cases,
            failures=self.failures,
            failure_rate=round(self.failure_rate, 6),
            expansion_cases=self.expansion_cases,
            expansion_failures=self.expansion_failures,
            seed_passed_expansion_failed=self.seed_passed_expansion_failed,
            truncated=self.truncated,
            **({"not_applicable": self.not_applicable} if self.not_applicable else {}),
        )
        return d


@dataclass
class ModelReport:
    model: str
    identity: str
    capabilities: list[CapabilityStats]
    total: CapabilityStats
    failing: list[CaseOutcome] = field(default_factory=list)
    suite: str | None = None
    #: for a binary model, the band of p(positive) read as ``neutral``; ``None`` for 3-class models
    neutral_band: tuple[float, float] | None = None
    #: accuracy and macro-F1 on the seeds' data set (``s2lct.run.task_metrics``), when measured
    task: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "identity": self.identity,
            "suite": self.suite,
            "capabilities": [c.to_json() for c in self.capabilities],
            "total": self.total.to_json(with_id=False),
            **({"neutral_band": list(self.neutral_band)} if self.neutral_band is not None else {}),
            **({"task": self.task} if self.task is not None else {}),
            "failing_cases": [o.to_json() for o in self.failing],
        }


def build_report(
    model: str,
    identity: str,
    outcomes: Iterable[CaseOutcome],
    names: Mapping[str, str] | None = None,
    suite: str | None = None,
    neutral_band: tuple[float, float] | None = None,
) -> ModelReport:
    """Aggregate case outcomes per capability (capabilities in natural order, failures in case order).

    ``neutral_band`` is the model's band; it is kept only when the outcomes are a binary model's
    (see :func:`is_binary`), so that the reports can show p(positive) against it instead of a
    meaningless p(neutral) of 0. Binary without a band given: the default band.
    """
    outcomes = list(outcomes)
    names = names or {}
    caps: dict[str, CapabilityStats] = {}
    total = CapabilityStats("total", "total")
    failing: list[CaseOutcome] = []
    for o in outcomes:
        st = caps.get(o.capability)
        if st is None:
            st = caps[o.capability] = CapabilityStats(o.capability, names.get(o.capability) or o.capability)
        st.add(o)
        total.add(o)
        if not o.passed:
            failing.append(o)
    ordered = [caps[k] for k in sorted(caps, key=natural_key)]
    failing.sort(key=lambda o: (natural_key(o.capability), o.case_id))
    band = (neutral_band or DEFAULT_NEUTRAL_BAND) if is_binary(outcomes) else None
    return ModelReport(model, identity, ordered, total, failing, suite, band)


def _first_failing_perturbed(o: CaseOutcome) -> PerturbedOutcome | None:
    return next((p for p in o.perturbed if not p.passed), None)


def shown_text(o: CaseOutcome) -> str:
    """What a report's text column shows: the text, or for INV/DIR the original and the first
    perturbed text that failed (both are in the JSON report)."""
    if o.test_type == "mft":
        return o.text
    bad = _first_failing_perturbed(o) or (o.perturbed[0] if o.perturbed else None)
    return o.text if bad is None else f"{o.text} → {bad.text}"


def shown_expected(o: CaseOutcome) -> str:
    return ", ".join(o.expected) if o.test_type == "mft" else f"{o.test_type.upper()}: {o.expectation}"


def shown_predicted(o: CaseOutcome) -> str:
    """The predicted label, or for INV/DIR the original's and the failing perturbed text's."""
    if o.test_type == "mft":
        return o.predicted
    bad = _first_failing_perturbed(o)
    return o.predicted if bad is None else f"{o.predicted} → {bad.predicted} (Δp {bad.change:+.3f})"


def is_binary(outcomes: Sequence[CaseOutcome]) -> bool:
    """Whether these are a binary model's outcomes: adapters give binary models ``neutral: 0.0`` always.

    A 3-class model's softmax is never exactly 0, and a lexicon model's only at a score of exactly ±1.
    """
    return bool(outcomes) and all(o.probs.get("neutral", 0.0) == 0.0 for o in outcomes)


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def first_failing(report: ModelReport, per_capability: int) -> list[CaseOutcome]:
    """The first ``per_capability`` failing cases of each capability, in report order."""
    shown: dict[str, int] = {}
    out = []
    for o in report.failing:
        if shown.get(o.capability, 0) < per_capability:
            shown[o.capability] = shown.get(o.capability, 0) + 1
            out.append(o)
    return out


def all_capabilities(reports: Sequence[ModelReport]) -> list[tuple[str, str]]:
    """(id, name) of every capability in any of the reports, in natural order."""
    seen: dict[str, str] = {}
    for r in reports:
        for c in r.capabilities:
            seen.setdefault(c.id, c.name)
    return [(k, seen[k]) for k in sorted(seen, key=natural_key)]


def band_limit(x: float) -> str:
    """A band limit as reports write it: 1/3 → 0.333, 0.2 → 0.2."""
    return f"{x:.3g}"


def band_rule(report: ModelReport, outcome: CaseOutcome) -> tuple[float, str]:
    """A binary model's p(positive) and, in words, where it falls against the neutral band.

    Binary models have no p(neutral) of their own (it is always 0), so reports show this instead.
    """
    assert report.neutral_band is not None, "band_rule is for binary models"
    low, high = (band_limit(x) for x in report.neutral_band)
    where = {"neutral": f"in the neutral band {low}–{high}", "positive": f"above the neutral band (> {high})",
             "negative": f"below the neutral band (< {low})"}.get(outcome.predicted, "")
    return positive_share(outcome.probs), f"{where} → {outcome.predicted}"
