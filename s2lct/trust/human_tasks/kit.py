"""What a kit is: the paper's task parameters, the question record, answer vocabularies and points.

Parameters (Lertvittayakumjorn & Toni 2019, §4.4): top ``m = 3`` evidence texts, high confidence
``p ≥ τh = 0.9`` (task 2), low confidence ``p < τl = 0.7`` (task 3). The shared text of the paper
lost the symbols of that sentence ("we set = 3, , and ."); m = 3 survives there, τh and τl are the
published version's. Whether the bounds are strict is not stated; here high is ``≥`` and low ``<``.

Points (the paper's Table 1, last row): a correct answer scores +1 when the participant is confident
and +0.5 when not, an incorrect one −1 and −0.5; "no preference" scores 0 and is offered in tasks 1
and 2 only (§3.3: in task 3 the predicted probability is always there to fall back on).

Decided here, not in the paper:

* The classes are SST's polar labels, ``negative`` and ``positive`` (the paper's Amazon data is
  binary too). Inputs a model labels ``neutral`` (a lexicon model with no opinion word) are not
  used: no polar gold label can be compared with them.
* Evidence is *words* (the explainers here are word-level; the paper evaluates word and n-gram
  methods alike) and only words with a relevance of the right sign: fewer than m are shown when the
  explainer finds fewer, as the paper's decision trees did.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...errors import S2LCTError

CLASSES: tuple[str, str] = ("negative", "positive")
M = 3
TAU_HIGH = 0.9
TAU_LOW = 0.7
TASKS: tuple[int, int, int] = (1, 2, 3)
TASK_NAMES = {1: "reasonable model", 2: "guess the prediction", 3: "uncertain case"}

NO_PREFERENCE = "none"
CONFIDENCE: tuple[str, str] = ("confident", "unconfident")
CHOICES: dict[int, tuple[str, ...]] = {1: ("A", "B", NO_PREFERENCE), 2: (*CLASSES, NO_PREFERENCE), 3: CLASSES}
POINTS = {(True, "confident"): 1.0, (True, "unconfident"): 0.5, (False, "confident"): -1.0, (False, "unconfident"): -0.5}

PAPER = "Lertvittayakumjorn & Toni (2019), Human-grounded evaluations of explanation methods for text classification, §3"


class HumanTaskError(S2LCTError):
    """A kit cannot be built or read: an explainer that does not apply, too few inputs, a bad key."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Evidence:
    """Top-m words of one explanation, most relevant first, with their character spans in the text."""

    words: tuple[str, ...] = ()
    spans: tuple[tuple[int, int], ...] = ()
    relevances: tuple[float, ...] = ()

    def shown(self) -> str:
        """As a participant reads it (the paper's Table 3 style): ``word / word / word``."""
        return " / ".join(self.words) if self.words else "(no evidence)"

    def to_json(self) -> dict[str, Any]:
        return {"words": list(self.words), "spans": [list(s) for s in self.spans], "relevances": [round(float(r), 6) for r in self.relevances]}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Evidence:
        return cls(tuple(d["words"]), tuple((int(a), int(b)) for a, b in d["spans"]), tuple(float(r) for r in d["relevances"]))


@dataclass(frozen=True, slots=True)
class Question:
    """One question of one task for one explainer, with its answer (the key) and what it was made from.

    ``evidence``: task 1 (model A's, model B's); task 2 (evidence,); task 3 (evidence for the
    predicted class, counter-evidence: shown as evidence for the other class, the paper's footnote 1).
    ``models`` and ``probabilities``: task 1 models A and B and p(predicted) of each; tasks 2–3 the
    model under test. ``prediction_correct`` is the ✔/✘ split of the paper's Table 4.
    """

    id: str
    task: int
    explainer: str
    text: str
    gold: str
    predicted: str
    models: tuple[str, ...]
    probabilities: tuple[float, ...]
    evidence: tuple[Evidence, ...]
    answer: str
    prediction_correct: bool

    @property
    def choices(self) -> tuple[str, ...]:
        return CHOICES[self.task]

    @property
    def other_class(self) -> str:
        return next(c for c in CLASSES if c != self.predicted)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "task": self.task, "explainer": self.explainer, "text": self.text, "gold": self.gold,
                "predicted": self.predicted, "models": list(self.models), "probabilities": [round(float(p), 6) for p in self.probabilities],
                "evidence": [e.to_json() for e in self.evidence], "answer": self.answer, "prediction_correct": self.prediction_correct}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Question:
        return cls(str(d["id"]), int(d["task"]), str(d["explainer"]), str(d["text"]), str(d["gold"]), str(d["predicted"]),
                   tuple(d["models"]), tuple(float(p) for p in d["probabilities"]), tuple(Evidence.from_json(e) for e in d["evidence"]),
                   str(d["answer"]), bool(d["prediction_correct"]))


@dataclass
class Kit:
    """Every question of the three tasks (in the order shown) and how they were made (``meta``)."""

    questions: list[Question]
    meta: dict[str, Any] = field(default_factory=dict)

    def task(self, task: int) -> list[Question]:
        return [q for q in self.questions if q.task == task]

    def by_id(self) -> dict[str, Question]:
        return {q.id: q for q in self.questions}


def points(correct: bool, confidence: str) -> float:
    """The paper's points for one answer that is not "no preference"."""
    return POINTS[(correct, confidence)]
