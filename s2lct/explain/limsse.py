"""LIMSSE (Poerner §3.6): LIME with substrings. Hand-written: neither Captum nor the lime package
samples contiguous substrings or fits these losses.

3,000 substrings are drawn (length l uniform in 1..6, start uniform), each evaluated *alone*;
a linear model without intercept over the word-membership vectors z_n gives the relevances:

* ``limsse_bb``: black box, logistic loss on [f(Z_n) = k] (the substring's argmax class);
* ``limsse_ms_s`` / ``limsse_ms_p``: magnitude-sensitive squared loss on s(k, Z_n) / p(k | Z_n)
  (``limsse_ms_s`` needs class scores: torch models only).

A text of n words has at most 6n distinct substrings; each is evaluated once and its samples
enter the fit as a weight. The sample is seeded by the text, so explanations are reproducible.
A tiny ridge term (1e-6) keeps the squared-loss fits defined when a word never occurs without
another; the logistic fit has an L2 term of 1 (scikit-learn's default C = 1), without which it
diverges whenever every substring gets the same class.
"""

from __future__ import annotations

import zlib
from typing import TYPE_CHECKING

import numpy as np

from .adapters import DELETE, KEEP
from .base import Explainer, Explanation, NotApplicable, explainers

if TYPE_CHECKING:
    from .adapters import ModelHandle

N_SAMPLES = 3000
MAX_LENGTH = 6
RIDGE = 1e-6
LOGISTIC_RIDGE = 1.0


def sample_substrings(n_words: int, n_samples: int = N_SAMPLES, max_length: int = MAX_LENGTH, seed: int = 0) -> dict[tuple[int, int], int]:
    """(start, length) → how often it was drawn."""
    rng = np.random.default_rng(seed)
    counts: dict[tuple[int, int], int] = {}
    top = min(max_length, n_words)
    lengths = rng.integers(1, top + 1, size=n_samples)
    for length in lengths:
        start = int(rng.integers(0, n_words - length + 1))
        key = (start, int(length))
        counts[key] = counts.get(key, 0) + 1
    return counts


def fit_squared(z: np.ndarray, y: np.ndarray, w: np.ndarray) -> np.ndarray:
    sw = np.sqrt(w)[:, None]
    a = z * sw
    return np.linalg.solve(a.T @ a + RIDGE * np.eye(z.shape[1]), a.T @ (y * sw[:, 0]))


def fit_logistic(z: np.ndarray, y: np.ndarray, w: np.ndarray, iterations: int = 100) -> np.ndarray:
    """Weighted logistic regression without intercept by Newton's method (L2 term LOGISTIC_RIDGE)."""
    v = np.zeros(z.shape[1])
    for _ in range(iterations):
        q = 1.0 / (1.0 + np.exp(-(z @ v)))
        grad = z.T @ (w * (q - y)) + LOGISTIC_RIDGE * v
        hess = (z * (w * q * (1 - q))[:, None]).T @ z + LOGISTIC_RIDGE * np.eye(z.shape[1])
        step = np.linalg.solve(hess, grad)
        v -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return v


class LimsseExplainer(Explainer):
    family = "perturbation"

    def __init__(self, name: str, loss: str, n_samples: int = N_SAMPLES) -> None:
        self.name, self.loss, self.n_samples = name, loss, n_samples
        self.description = {"bb": "LIMSSE, black-box logistic loss", "s": "LIMSSE, squared loss on s", "p": "LIMSSE, squared loss on p"}[loss]

    def not_applicable(self, handle: ModelHandle) -> str | None:
        if self.loss == "s" and handle.torch is None:
            return f"{self.name} needs class scores s, which the {handle.kind} model {handle.name!r} does not give (use limsse_ms_p or limsse_bb)"
        return None

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        scorer = handle.scorer(text)
        words = scorer.words
        nw = len(words)
        k = scorer.classes.index(target)
        if nw == 0:
            return Explanation(self.name, target, (), (), (), {"evaluations": 0})
        counts = sample_substrings(nw, self.n_samples, seed=zlib.crc32(text.encode("utf-8")))
        keys = sorted(counts)
        states = np.full((len(keys), nw), DELETE, dtype=np.int8)
        z = np.zeros((len(keys), nw))
        for i, (start, length) in enumerate(keys):
            states[i, start : start + length] = KEEP
            z[i, start : start + length] = 1.0
        w = np.array([counts[key] for key in keys], dtype=np.float64)
        s, p = scorer.evaluate(states)
        if self.loss == "s":
            if s is None:
                raise NotApplicable(self.not_applicable(handle) or self.name)
            v = fit_squared(z, s[:, k], w)
        elif self.loss == "p":
            v = fit_squared(z, p[:, k], w)
        else:
            y = (p.argmax(axis=1) == k).astype(np.float64)
            v = fit_logistic(z, y, w)
        info = {"evaluations": scorer.evaluations, "samples": self.n_samples}
        return Explanation(self.name, target, words.words, words.spans, tuple(float(x) for x in v), info)


explainers.register("limsse_bb", func=lambda: LimsseExplainer("limsse_bb", "bb"))
explainers.register("limsse_ms_s", func=lambda: LimsseExplainer("limsse_ms_s", "s"))
explainers.register("limsse_ms_p", func=lambda: LimsseExplainer("limsse_ms_p", "p"))
