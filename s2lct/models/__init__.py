"""Sentiment models behind one interface; :func:`load_model` turns a name into one.

The registry (names, aliases, entry points, resolution order) lives in :mod:`s2lct.models.registry`;
this package re-exports its public API so ``from s2lct.models import load_model`` keeps working.
"""

from s2lct.models.base import (
    DEFAULT_NEUTRAL_BAND,
    LABELS,
    ModelError,
    Prediction,
    SentimentModel,
    parse_label_map,
    parse_neutral_band,
    score_to_prediction,
    to_prediction,
)
from s2lct.models.registry import (
    ENTRY_POINT_GROUP,
    HF_ALIASES,
    LEXICON_MODELS,
    LOCAL_ALIASES,
    TASK_MODELS,
    CallableModel,
    available_aliases,
    load_model,
)

__all__ = [
    "DEFAULT_NEUTRAL_BAND",
    "ENTRY_POINT_GROUP",
    "HF_ALIASES",
    "LABELS",
    "LEXICON_MODELS",
    "LOCAL_ALIASES",
    "TASK_MODELS",
    "CallableModel",
    "ModelError",
    "Prediction",
    "SentimentModel",
    "available_aliases",
    "load_model",
    "parse_label_map",
    "parse_neutral_band",
    "score_to_prediction",
    "to_prediction",
]
