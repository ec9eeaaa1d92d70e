"""Which inputs each task gets (the paper's Table 1 "Input text" row and §4.4).

* Task 1: both models predict the same class (§3.1: "so the humans make decisions based only on the
  different explanations"); no confidence bound.
* Task 2: the model under test predicts with high confidence, ``p ≥ τh`` (§3.2).
* Task 3: it predicts with low confidence, ``p < τl`` (§3.3).
* Each task: half of the inputs classified correctly, half misclassified (§4.4: "half of which were
  classified correctly by the model(s) and the rest were misclassified"; task 1: by both models).

Decided here: the pool is shuffled with the seed and read in fixed chunks (so a seed gives the same
inputs whatever else runs), and predictions are made chunk by chunk only until every task is full.
Each text serves at most one task — a participant who read a text in task 1 would recognise its
evidence in tasks 2 and 3 — and goes to the first task, in the order 3, 2, 1 (scarcest first), whose
half it fits and which still needs it. When the pool runs out of misclassified inputs for a task
(a well-trained model makes few confident mistakes), the rest of that half is filled with correctly
classified inputs of that task and the kit's ``meta`` says how many. Texts of 8 to 40 words only:
long enough that three evidence words are a choice, short enough to read on a printed form.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...explain.adapters import ModelHandle
from ...explain.words import split_words
from .kit import CLASSES, TAU_HIGH, TAU_LOW, HumanTaskError

MIN_WORDS, MAX_WORDS = 8, 40
CHUNK = 64  # texts predicted at once while scanning the pool


@dataclass(frozen=True, slots=True)
class LabelledText:
    text: str
    gold: str


@dataclass(frozen=True, slots=True)
class Candidate:
    """A pool text with the prediction of the model under test (and of the other model for task 1)."""

    text: str
    gold: str
    predicted: str
    probability: float
    other_predicted: str | None = None
    other_probability: float | None = None

    @property
    def correct(self) -> bool:
        return self.predicted == self.gold


def labelled_texts(texts: Sequence[Any]) -> list[LabelledText]:
    """``(text, label)`` pairs or sentences with ``.text``/``.label`` → the usable ones: polar gold
    label, 8–40 words, each text once (first occurrence)."""
    out: list[LabelledText] = []
    seen: set[str] = set()
    for t in texts:
        text, gold = (t.text, t.label) if hasattr(t, "text") else (t[0], t[1])
        if gold not in CLASSES or text in seen or not MIN_WORDS <= len(split_words(text)) <= MAX_WORDS:
            continue
        seen.add(text)
        out.append(LabelledText(text, gold))
    return out


def predicted_class(handle: ModelHandle, label: str, probs: dict[str, float]) -> tuple[str, float]:
    """The class a model predicts among its own classes (what gets explained) and its probability."""
    cls = handle.explained_class(label, probs)
    return cls, float(probs.get(cls, 0.0))


def _predict(handle: ModelHandle, texts: list[str]) -> list[tuple[str, float]]:
    if handle.model is None:
        raise HumanTaskError(f"model {handle.name!r} has no prediction side (a bare token classifier); prepare it from a SentimentModel")
    return [predicted_class(handle, p.label, p.probs) for p in handle.model.predict(texts)]


@dataclass
class Quotas:
    """How many inputs each task still needs per half (correct / misclassified predictions)."""

    tasks: tuple[int, ...]
    n: int
    tau_high: float = TAU_HIGH
    tau_low: float = TAU_LOW
    need: dict[tuple[int, bool], int] = field(init=False)
    leftovers: dict[int, list[Candidate]] = field(init=False)
    substituted: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.need = {(t, ok): (self.n - self.n // 2 if ok else self.n // 2) for t in self.tasks for ok in (True, False)}
        self.leftovers = {t: [] for t in self.tasks}
        self.substituted = dict.fromkeys(self.tasks, 0)

    def eligible(self, c: Candidate) -> list[int]:
        """Tasks this input fits, scarcest first (3, 2, 1)."""
        if c.predicted not in CLASSES:
            return []
        fits = {3: c.probability < self.tau_low, 2: c.probability >= self.tau_high, 1: c.other_predicted == c.predicted}
        return [t for t in (3, 2, 1) if t in self.tasks and fits[t]]

    def offer(self, c: Candidate) -> tuple[int, bool] | None:
        """The slot ``(task, half)`` this input takes, or None (then it is kept as a leftover)."""
        fits = self.eligible(c)
        for t in fits:
            if self.need[(t, c.correct)] > 0:
                self.need[(t, c.correct)] -= 1
                return t, c.correct
        for t in fits:
            self.leftovers[t].append(c)
        return None

    def release(self, slot: tuple[int, bool], c: Candidate) -> None:
        """Input ``c`` that took ``slot`` could not be explained: the slot is open again."""
        self.need[slot] += 1
        if slot[1] != c.correct:
            self.substituted[slot[0]] -= 1

    def missing(self, task: int) -> int:
        return self.need[(task, True)] + self.need[(task, False)]

    def done(self) -> bool:
        return all(v == 0 for v in self.need.values())

    def next_leftover(self, task: int, used: set[str]) -> tuple[Candidate, tuple[int, bool]] | None:
        """Once the pool is read: an unused input that fits ``task`` for a half still open (its own
        half first, else the other half, counted in ``substituted``)."""
        while self.leftovers[task]:
            c = self.leftovers[task].pop(0)
            if c.text in used:
                continue
            for half in (c.correct, not c.correct):
                if self.need[(task, half)] > 0:
                    self.need[(task, half)] -= 1
                    if half != c.correct:
                        self.substituted[task] += 1
                    return c, (task, half)
        return None


@dataclass
class ScanStats:
    """How the two models did on every pool text read (their accuracy against the gold labels)."""

    scanned: int = 0
    correct: int = 0
    other_correct: int = 0

    def to_json(self, with_other: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"texts_read": self.scanned, "accuracy": round(self.correct / self.scanned, 4) if self.scanned else None}
        if with_other:
            out["other_accuracy"] = round(self.other_correct / self.scanned, 4) if self.scanned else None
        return out


def scan(model: ModelHandle, other: ModelHandle | None, items: Sequence[LabelledText], seed: int, quotas: Quotas,
         stats: ScanStats) -> Iterator[Candidate]:
    """Pool texts in seeded order with their predictions, chunk by chunk, until the quotas are met."""
    order = list(range(len(items)))
    random.Random(f"s2lct-human-tasks:{seed}").shuffle(order)
    for start in range(0, len(order), CHUNK):
        if quotas.done():
            return
        chunk = [items[i] for i in order[start:start + CHUNK]]
        texts = [it.text for it in chunk]
        main = _predict(model, texts)
        second = _predict(other, texts) if other is not None else [(None, None)] * len(chunk)
        for it, (cls, p), (ocls, op) in zip(chunk, main, second, strict=True):
            stats.scanned += 1
            stats.correct += cls == it.gold
            stats.other_correct += ocls == it.gold
            yield Candidate(it.text, it.gold, cls, p, ocls, op)
