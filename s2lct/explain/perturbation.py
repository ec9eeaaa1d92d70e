"""Occlusion and omission of word n-grams (Poerner §3.5), n = 1, 3, 7. Hand-written: Captum's
``Occlusion`` slides a window over *tokens* (subwords) of one tensor and cannot delete inputs, while
these methods work on *words* and omission removes them (the text gets shorter).

For word t, every n-gram containing t is perturbed once (n of them; windows at the edges are cut
short), and the relevance is the mean drop of the class score: s when the model has class scores,
p otherwise (lexicon models, callables). Occlusion replaces the words' tokens by the mask token
(positions kept; text models: the word ``UNK``); omission deletes them. Identical perturbed inputs
are evaluated once, in batches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .adapters import DELETE, KEEP, OCCLUDE, Scorer
from .base import Explainer, Explanation, explainers

if TYPE_CHECKING:
    from .adapters import ModelHandle


def evaluate_unique(scorer: Scorer, states: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
    """``scorer.evaluate`` on the distinct rows of ``states`` only, expanded back to every row."""
    states = np.ascontiguousarray(states, dtype=np.int8)
    uniq, inverse = np.unique(states, axis=0, return_inverse=True)
    s, p = scorer.evaluate(uniq)
    inverse = inverse.reshape(-1)
    return (None if s is None else s[inverse]), p[inverse]


def output_column(s: np.ndarray | None, p: np.ndarray, k: int, prefer: str = "s") -> np.ndarray:
    return s[:, k] if prefer == "s" and s is not None else p[:, k]


def ngram_windows(n_words: int, n: int) -> list[tuple[int, int]]:
    """Every window [start, end) of n consecutive word positions that overlaps the text, clipped."""
    return [(max(j, 0), min(j + n, n_words)) for j in range(-(n - 1), n_words)]


class NgramPerturbation(Explainer):
    family = "perturbation"

    def __init__(self, name: str, mode: int, n: int) -> None:
        self.name, self.mode, self.n = name, mode, n
        what = "occlusion (mask token)" if mode == OCCLUDE else "omission (deletion)"
        self.description = f"{what} of word {n}-grams, mean drop of s (p for models without scores)"

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        scorer = handle.scorer(text)
        words = scorer.words
        k = scorer.classes.index(target)
        nw = len(words)
        windows = ngram_windows(nw, self.n)
        states = np.full((len(windows) + 1, nw), KEEP, dtype=np.int8)
        for i, (a, b) in enumerate(windows, 1):
            states[i, a:b] = self.mode
        s, p = evaluate_unique(scorer, states)
        o = output_column(s, p, k)
        rel = np.zeros(nw)
        for i, (a, b) in enumerate(windows, 1):
            rel[a:b] += o[0] - o[i]
        rel /= self.n
        info = {"output": "s" if s is not None else "p", "evaluations": scorer.evaluations}
        return Explanation(self.name, target, words.words, words.spans, tuple(float(x) for x in rel), info)


for _n in (1, 3, 7):
    explainers.register(f"occlusion{_n}", func=lambda n=_n: NgramPerturbation(f"occlusion{n}", OCCLUDE, n))
    explainers.register(f"omission{_n}", func=lambda n=_n: NgramPerturbation(f"omission{n}", DELETE, n))
