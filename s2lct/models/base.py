"""The model interface shared by every adapter, and label/probability mapping.

A :class:`SentimentModel` turns texts into :class:`Prediction` objects over the three labels
``negative``, ``neutral`` and ``positive``. Adapters do their own batching and load their weights
lazily, so building one (and asking for its :attr:`~SentimentModel.identity`, the key of the
prediction cache) is cheap: a run whose predictions are all cached never imports torch.

Label decisions (METHOD.md §1.4):

* A model whose classes map onto ``negative`` and ``positive`` only is *binary*. Its label is
  ``neutral`` when p(positive) — renormalised over the two classes — lies in the closed neutral band
  ``[1/3, 2/3]`` (configurable, ``neutral_band=(low, high)``), otherwise the more probable class.
  Its probabilities are reported as the model gave them, with ``neutral: 0.0``.
* A model with a ``neutral`` class (after mapping) uses its own labels: the label is the most
  probable of the three (ties go to the first of negative, neutral, positive).
* Several model classes may map to one label (e.g. a 5-star model with a ``--label-map``); their
  probabilities are summed.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from s2lct.errors import S2LCTError

LABELS: tuple[str, str, str] = ("negative", "neutral", "positive")
DEFAULT_NEUTRAL_BAND: tuple[float, float] = (1 / 3, 2 / 3)

# Names a model may give its classes, compared case-insensitively (``LABEL_k`` handled separately).
_SYNONYMS: dict[str, str] = {
    "negative": "negative",
    "neg": "negative",
    "neutral": "neutral",
    "neu": "neutral",
    "positive": "positive",
    "pos": "positive",
}
_GENERIC = re.compile(r"^(?:label_?)?(\d+)$", re.IGNORECASE)


class ModelError(S2LCTError):
    """A model name cannot be resolved, or the model cannot be loaded or used."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Prediction:
    """One model output: the 3-way label, probabilities over ``LABELS``, and whether the input was cut."""

    label: str
    probs: dict[str, float] = field(hash=False)
    truncated: bool = False

    def to_json(self) -> dict[str, object]:
        return {"label": self.label, "probs": dict(self.probs), "truncated": self.truncated}


def normalise_label(name: str) -> str | None:
    """``'NEG'`` → ``'negative'``; ``None`` if the name is not a known sentiment label."""
    return _SYNONYMS.get(str(name).strip().lower())


def parse_label_map(spec: str | Mapping[object, str] | None) -> dict[str, str] | None:
    """Parse ``"0=negative,1=positive"`` (or a mapping) into ``{key: label}``.

    Keys are class indices or class names of the model (compared case-insensitively); values must be
    one of ``negative``, ``neutral``, ``positive`` (or a synonym such as ``neg``).
    """
    if spec is None or spec == "":
        return None
    items: list[tuple[object, str]]
    if isinstance(spec, str):
        items = []
        for part in spec.split(","):
            if not part.strip():
                continue
            if "=" not in part:
                raise ModelError(f"--label-map entry {part.strip()!r} is not KEY=LABEL (e.g. 0=negative,1=positive)")
            k, v = part.split("=", 1)
            items.append((k.strip(), v.strip()))
    else:
        items = list(spec.items())
    out: dict[str, str] = {}
    for k, v in items:
        label = normalise_label(v)
        if label is None:
            raise ModelError(f"--label-map value {v!r} for {k!r} is not one of {', '.join(LABELS)}")
        out[str(k).strip().lower()] = label
    return out


def parse_neutral_band(spec: str | Sequence[float] | None) -> tuple[float, float] | None:
    """Parse ``"0.3333,0.6667"`` (or a pair) into ``(low, high)`` with ``low <= high``."""
    if spec is None or spec == "":
        return None
    try:
        parts = [float(x) for x in spec.split(",")] if isinstance(spec, str) else [float(x) for x in spec]
    except ValueError:
        raise ModelError(f"--neutral-band {spec!r} is not LOW,HIGH (e.g. 0.3333,0.6667)") from None
    if len(parts) != 2 or parts[0] > parts[1]:
        raise ModelError(f"--neutral-band {spec!r} must be two numbers LOW,HIGH with LOW <= HIGH")
    return parts[0], parts[1]


def map_classes(id2label: Mapping[int, str], label_map: Mapping[str, str] | None = None, *, model: str = "model") -> list[str]:
    """The 3-way label of each model class, in class-index order.

    ``label_map`` (from :func:`parse_label_map`) wins; keys may be the index or the class name.
    Otherwise names are matched case-insensitively (``negative``/``neg``/...). A binary model whose
    classes are the generic ``LABEL_0``/``LABEL_1`` (as the textattack SST-2 models have) is read
    as 0 = negative, 1 = positive, the SST-2 convention. Any other unnamed class is an error that
    asks for ``--label-map``.
    """
    label_map = label_map or {}
    n = len(id2label)
    names = [str(id2label[i]) for i in range(n)]
    generic = all(_GENERIC.match(nm) for nm in names)
    out: list[str] = []
    for i, nm in enumerate(names):
        label = label_map.get(str(i)) or label_map.get(nm.lower()) or normalise_label(nm)
        if label is None and generic and n == 2:
            label = ("negative", "positive")[i]
        if label is None:
            raise ModelError(
                f"{model}: class {i} is named {nm!r}, which is not a sentiment label; "
                f"pass --label-map (e.g. {','.join(f'{j}={LABELS[min(j, 2)]}' for j in range(n))})"
            )
        out.append(label)
    if "negative" not in out or "positive" not in out:
        raise ModelError(f"{model}: classes {names} map to {out}; both negative and positive are needed (use --label-map)")
    return out


def to_prediction(
    class_probs: Sequence[float],
    classes: Sequence[str],
    neutral_band: tuple[float, float] = DEFAULT_NEUTRAL_BAND,
    truncated: bool = False,
) -> Prediction:
    """Turn per-class probabilities into a :class:`Prediction` (see the module docstring)."""
    probs = {"negative": 0.0, "neutral": 0.0, "positive": 0.0}
    for p, c in zip(class_probs, classes, strict=True):
        probs[c] += float(p)
    if "neutral" not in classes:
        p_pos = positive_share(probs)
        low, high = neutral_band
        if low <= p_pos <= high:
            label = "neutral"
        else:
            label = "positive" if p_pos > high else "negative"
    else:
        label = max(LABELS, key=lambda lab: (probs[lab], -LABELS.index(lab)))
    return Prediction(label, probs, truncated)


def positive_share(probs: Mapping[str, float]) -> float:
    """A binary model's p(positive) renormalised over the two classes: what the neutral band is applied to."""
    denom = probs["negative"] + probs["positive"]
    return probs["positive"] / denom if denom > 0 else 0.5


def score_to_prediction(score: float, neutral_band: tuple[float, float]) -> Prediction:
    """Map a polarity score in [-1, 1] (VADER compound, TextBlob polarity) to a :class:`Prediction`.

    Label: ``positive`` if ``score >= high``, ``negative`` if ``score <= low``, else ``neutral`` (the
    open band, so VADER's conventional thresholds ±0.05 read "compound >= 0.05 is positive").

    Probabilities are a documented piecewise-linear map of the score, continuous and monotone, whose
    largest entry is the label (ties only exactly on a threshold):

    * inside the band, the side the score leans to gets ``0.5 * distance from the band's middle /
      half-width`` (0 … 0.5) and ``neutral`` the rest;
    * outside, the polar side gets ``0.5 + 0.5 * (distance past the threshold / room to ±1)``
      (0.5 … 1) and ``neutral`` the rest. The opposite side is always 0.
    """
    low, high = neutral_band
    s = max(-1.0, min(1.0, float(score)))
    probs = {"negative": 0.0, "neutral": 0.0, "positive": 0.0}
    if s >= high:
        side, label = "positive", "positive"
        room = 1.0 - high
        p = 1.0 if room <= 0 else 0.5 + 0.5 * (s - high) / room
    elif s <= low:
        side, label = "negative", "negative"
        room = low + 1.0
        p = 1.0 if room <= 0 else 0.5 + 0.5 * (low - s) / room
    else:
        label = "neutral"
        mid = (low + high) / 2
        half = (high - low) / 2
        side = "positive" if s >= mid else "negative"
        p = 0.0 if half <= 0 else 0.5 * abs(s - mid) / half
    probs[side] = p
    probs["neutral"] = 1.0 - p
    return Prediction(label, probs, False)


class SentimentModel(ABC):
    """A sentiment model under test.

    Subclasses set :attr:`name` (what the user typed, e.g. ``vader``) and implement
    :attr:`identity` (stable across runs; changes whenever predictions could change: weights,
    config, label map, neutral band, ...) and :meth:`_predict_batch`.
    """

    name: str
    kind: str = "model"
    batch_size: int = 32

    @property
    @abstractmethod
    def identity(self) -> str:
        """A stable string naming this model and its options: the prediction-cache key."""

    @abstractmethod
    def _predict_batch(self, texts: Sequence[str]) -> list[Prediction]:
        """Predict one batch."""

    def load(self) -> None:
        """Load weights now (adapters otherwise load on first :meth:`predict`)."""

    def predict(self, texts: Sequence[str], batch_size: int | None = None) -> list[Prediction]:
        """Predict every text, in batches of ``batch_size`` (default: the adapter's)."""
        bs = max(1, int(batch_size or self.batch_size))
        out: list[Prediction] = []
        for start in range(0, len(texts), bs):
            out.extend(self._predict_batch(list(texts[start : start + bs])))
        return out

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"
