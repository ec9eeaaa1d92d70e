"""Lexicon-based sentiment models: VADER and TextBlob (both work offline, no weights to fetch).

* ``vader`` (``vaderSentiment``): the *compound* score with the conventional thresholds — compound
  ``>= 0.05`` positive, ``<= -0.05`` negative, otherwise neutral. ``neutral_band`` overrides the
  thresholds, on the compound scale [-1, 1].
* ``textblob``: the pattern-based *polarity* in [-1, 1] with the neutral band ``(-0.05, 0.05)`` by
  default (configurable the same way; TextBlob gives exactly 0 to texts with no opinion word).

Probabilities come from :func:`s2lct.models.base.score_to_prediction`, a piecewise-linear map of
the score whose largest entry is the label. Note that for these models ``neutral_band`` is on the
score scale, not a band on p(positive) as for binary classifiers.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata

from s2lct.models.base import (
    ModelError,
    Prediction,
    SentimentModel,
    score_to_prediction,
)

VADER_BAND: tuple[float, float] = (-0.05, 0.05)
TEXTBLOB_BAND: tuple[float, float] = (-0.05, 0.05)


def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "unknown"


class _ScoreModel(SentimentModel):
    kind = "lexicon"
    dist = ""
    default_band: tuple[float, float] = (-0.05, 0.05)

    def __init__(self, name: str, neutral_band: tuple[float, float] | None = None, batch_size: int | None = None) -> None:
        self.name = name
        self.neutral_band = tuple(neutral_band) if neutral_band else self.default_band
        self.batch_size = batch_size or 256
        self._scorer = None

    @property
    def identity(self) -> str:
        low, high = self.neutral_band
        return f"{self.kind}:{self.name}@{self.dist}-{_version(self.dist)};band={low!r},{high!r}"

    def score(self, text: str) -> float:
        raise NotImplementedError

    def _predict_batch(self, texts: Sequence[str]) -> list[Prediction]:
        return [score_to_prediction(self.score(t), self.neutral_band) for t in texts]


class VaderModel(_ScoreModel):
    """VADER compound score → 3 classes (thresholds ±0.05)."""

    dist = "vaderSentiment"
    default_band = VADER_BAND

    def load(self) -> None:
        if self._scorer is None:
            try:
                from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer
            except ImportError as exc:
                raise ModelError(f"vader: cannot import vaderSentiment ({exc}); pip install vaderSentiment") from None
            self._scorer = SentimentIntensityAnalyzer()

    def score(self, text: str) -> float:
        self.load()
        return float(self._scorer.polarity_scores(text)["compound"])  # type: ignore[union-attr]


class TextBlobModel(_ScoreModel):
    """TextBlob (pattern analyser) polarity → 3 classes with a neutral band."""

    dist = "textblob"
    default_band = TEXTBLOB_BAND

    def load(self) -> None:
        if self._scorer is None:
            try:
                from textblob import TextBlob
            except ImportError as exc:
                raise ModelError(f"textblob: cannot import textblob ({exc}); pip install textblob") from None
            self._scorer = TextBlob

    def score(self, text: str) -> float:
        self.load()
        return float(self._scorer(text).sentiment.polarity)  # type: ignore[misc]
