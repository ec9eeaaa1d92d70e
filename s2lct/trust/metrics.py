"""Hits, baselines and intervals of the trust paradigms.

* Pointing game (Poerner §2.1): hit = rmax for the predicted class lies in a fragment of that label.
* Agreement (Poerner §2.2, Ding & Koehn §3.1): ``hit_target`` (rmax on the subject, when the
  predicted number is right), ``hit_feat`` (rmax on a noun with the predicted number),
  plausibility in the expected scenario (right number: max over cue nouns > max over attractors)
  and the alternative scenario (wrong number: max over cues < max over attractors).
* Baselines: ``random`` — rmax drawn uniformly over the words (Poerner's random baseline; its point
  value is the expectation, its interval the 2.5–97.5 % range of the score of such a random pointer
  on the same items, by seeded simulation); ``last`` — rmax on the word before the verb (Poerner's
  ``last``); ``last_noun`` — rmax on the last noun of the prefix. Deterministic baselines are
  scored through the very metric functions the explainers go through (a one-hot relevance vector).
* Intervals: percentile bootstrap over items (2,000 resamples, fixed seed) — 95 % by default.

Written by hand (numpy): the metrics are a few lines each and no maintained library implements these
paradigms (ferret covers other faithfulness metrics and pins old numpy/transformers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

BOOTSTRAP = 2000
CONFIDENCE = 0.95
RANDOM_DRAWS = 2000


@dataclass(frozen=True)
class Score:
    """A rate over items with its interval."""

    value: float | None
    n: int
    low: float | None
    high: float | None

    @property
    def half_width(self) -> float | None:
        return None if self.low is None or self.high is None else (self.high - self.low) / 2

    def to_json(self) -> dict[str, Any]:
        r = lambda x: None if x is None else round(float(x), 4)  # noqa: E731
        return {"value": r(self.value), "n": self.n, "ci": [r(self.low), r(self.high)]}


def bootstrap(values: Sequence[float], seed: int = 0, resamples: int = BOOTSTRAP, confidence: float = CONFIDENCE) -> Score:
    """Mean of ``values`` with a percentile-bootstrap interval (resampling items)."""
    v = np.asarray(values, dtype=np.float64)
    n = len(v)
    if n == 0:
        return Score(None, 0, None, None)
    rng = np.random.default_rng(seed)
    means = v[rng.integers(0, n, size=(resamples, n))].mean(axis=1)
    a = (1 - confidence) / 2
    return Score(float(v.mean()), n, float(np.quantile(means, a)), float(np.quantile(means, 1 - a)))


def random_pointer(probabilities: Sequence[float], seed: int = 0, draws: int = RANDOM_DRAWS, confidence: float = CONFIDENCE) -> Score:
    """Score of a uniformly random rmax: item i is a hit with probability p_i. The value is the
    expectation, the interval the central ``confidence`` range of the simulated scores."""
    p = np.asarray(probabilities, dtype=np.float64)
    n = len(p)
    if n == 0:
        return Score(None, 0, None, None)
    rng = np.random.default_rng(seed)
    scores = (rng.random((draws, n)) < p).mean(axis=1)
    a = (1 - confidence) / 2
    return Score(float(p.mean()), n, float(np.quantile(scores, a)), float(np.quantile(scores, 1 - a)))


def rmax(relevances: Sequence[float]) -> int | None:
    """First index of the maximal relevance; None when flat (as :attr:`Explanation.rmax`)."""
    if len(relevances) == 0 or max(relevances) == min(relevances):
        return None
    return int(np.argmax(np.asarray(relevances, dtype=np.float64)))


def one_hot(n: int, index: int | None) -> list[float]:
    out = [0.0] * n
    if index is not None and 0 <= index < n:
        out[index] = 1.0
    return out


# ------------------------------------------------------------------------------------ pointing game
def pointing_hit(relevances: Sequence[float], word_labels: Sequence[str | None], predicted: str) -> bool:
    """Poerner eq. 1: rmax lies in a fragment whose label is the predicted class (flat: no hit)."""
    r = rmax(relevances)
    return r is not None and word_labels[r] == predicted


def pointing_random(word_labels: Sequence[str | None], predicted: str) -> float:
    """Hit probability of a uniformly random rmax: the share of words labelled ``predicted``."""
    return sum(lab == predicted for lab in word_labels) / len(word_labels) if word_labels else 0.0


# ---------------------------------------------------------------------------------------- agreement
@dataclass(frozen=True)
class AgreementView:
    """An agreement item seen through one text's words: what each word is, by word index."""

    number: tuple[str | None, ...]  # "Sg"/"Pl" for nouns, None otherwise
    subject: frozenset[int]  # word indices of the subject head (empty: unknown)
    verb_number: str  # gold number of the verb
    subject_known: bool

    @property
    def n_words(self) -> int:
        return len(self.number)

    def nouns(self) -> list[int]:
        return [i for i, x in enumerate(self.number) if x is not None]

    def last_noun(self) -> int | None:
        ns = self.nouns()
        return ns[-1] if ns else None


def agreement_hits(relevances: Sequence[float], view: AgreementView, predicted: str) -> dict[str, float | None]:
    """hit_target / hit_feat / plausibility of one explanation (None: the metric does not apply)."""
    r = rmax(relevances)
    correct = predicted == view.verb_number
    cues = [i for i, x in enumerate(view.number) if x == view.verb_number]
    attractors = [i for i, x in enumerate(view.number) if x is not None and x != view.verb_number]
    out: dict[str, float | None] = {
        "hit_target": (float(r is not None and r in view.subject) if correct and view.subject_known else None),
        "hit_feat": float(r is not None and view.number[r] == predicted),
        "plausibility_expected": None,
        "plausibility_alternative": None,
    }
    if cues and attractors:
        mc = max(relevances[i] for i in cues)
        ma = max(relevances[i] for i in attractors)
        if correct:
            out["plausibility_expected"] = float(mc > ma)
        else:
            out["plausibility_alternative"] = float(mc < ma)
    return out


def agreement_random(view: AgreementView, predicted: str) -> dict[str, float | None]:
    """Hit probabilities of a uniformly random rmax (a one-hot relevance on a uniform word)."""
    n = view.n_words
    hits = [agreement_hits(one_hot(n, i), view, predicted) for i in range(n)] if n else []
    out: dict[str, float | None] = {}
    for key in ("hit_target", "hit_feat", "plausibility_expected", "plausibility_alternative"):
        vals = [h[key] for h in hits]
        out[key] = None if not vals or vals[0] is None else float(np.mean(vals))
    return out


def last_word_relevance(view: AgreementView) -> list[float]:
    return one_hot(view.n_words, view.n_words - 1 if view.n_words else None)


def last_noun_relevance(view: AgreementView) -> list[float]:
    return one_hot(view.n_words, view.last_noun())
