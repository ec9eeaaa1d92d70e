"""Model registry: one place that turns a model name into a :class:`SentimentModel`.

Resolution order of ``load_model(name)``:

1. built-in lexicon models: ``vader``, ``textblob``;
2. aliases of the Hugging Face models the paper tested (:data:`HF_ALIASES`): ``bert``, ``roberta``,
   ``distilbert``;
3. offline models under the models folder (:data:`LOCAL_ALIASES`): ``minilm-sst2`` is
   ``<models_dir>/minilm-sst2``, where ``models_dir`` is ``--models-dir`` or ``$S2LCT_MODELS_DIR``;
4. the papers' task models (:data:`TASK_MODELS`): ``cnn-sst2`` and ``gru-sst2``, built into
   ``<cache_dir>/task-models/<name>`` by ``s2lct build-task-model NAME`` (never shipped: weights
   are trained here); a folder written by that command also loads by its path;
5. user models registered under the entry-point group ``s2lct_models`` (:data:`ENTRY_POINT_GROUP`):
   the entry point names a callable ``texts -> list`` whose items are a label string, a dict
   ``{label: probability}``, or a sequence of 2 (negative, positive) or 3 (negative, neutral,
   positive) probabilities; or a :class:`SentimentModel` subclass/factory;
6. ``hf:NAME`` — any Hugging Face hub name; an existing folder (or a path starting with ``.``, ``/``
   or ``~``) — a local Hugging Face model; a name with a ``/`` — a hub name.

Anything else is an error listing the aliases.
"""

from __future__ import annotations

import hashlib
import inspect
import os
from collections.abc import Callable, Mapping, Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from s2lct.models.base import (
    DEFAULT_NEUTRAL_BAND,
    LABELS,
    ModelError,
    Prediction,
    SentimentModel,
    normalise_label,
    parse_label_map,
    parse_neutral_band,
    to_prediction,
)
from s2lct.suggest import unknown_name

ENTRY_POINT_GROUP = "s2lct_models"

#: The fine-tuned SST-2 classifiers the paper tested (labels LABEL_0/LABEL_1 = negative/positive).
HF_ALIASES: dict[str, str] = {
    "bert": "textattack/bert-base-uncased-SST-2",
    "roberta": "textattack/roberta-base-SST-2",
    "distilbert": "textattack/distilbert-base-uncased-SST-2",
}
#: Offline models: alias -> folder name under the models folder (``S2LCT_MODELS_DIR``).
LOCAL_ALIASES: dict[str, str] = {"minilm-sst2": "minilm-sst2"}
#: The papers' task models: alias -> architecture (see :mod:`s2lct.models.task`).
TASK_MODELS: dict[str, str] = {"cnn-sst2": "cnn", "gru-sst2": "gru"}
#: The agreement paradigm's task model of a task model (Linzen's number prediction, see
#: :mod:`s2lct.models.task.number`); it predicts Sg/Pl, not sentiment, so it is built, never loaded by name.
NUMBER_MODELS: dict[str, str] = {"gru-sst2": "gru-number"}
#: Lexicon models (class names in :mod:`s2lct.models.lexicon`).
LEXICON_MODELS: dict[str, str] = {"vader": "VaderModel", "textblob": "TextBlobModel"}


def _entry_points() -> dict[str, metadata.EntryPoint]:
    return {ep.name: ep for ep in metadata.entry_points(group=ENTRY_POINT_GROUP)}


def available_aliases() -> list[str]:
    """Every name ``load_model`` accepts besides paths and hub names."""
    return [*LEXICON_MODELS, *HF_ALIASES, *LOCAL_ALIASES, *TASK_MODELS, *sorted(_entry_points())]


def task_model_folder(name: str, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where ``s2lct build-task-model NAME`` writes (and ``load_model(NAME)`` reads) a task model."""
    if cache_dir is None:
        from s2lct.config import Settings

        cache_dir = Settings().cache_dir
    return Path(cache_dir).expanduser() / "task-models" / name


def _unknown(name: str) -> ModelError:
    return ModelError(
        unknown_name("model", name, available_aliases(), valid_label="known")
        + "; or pass a local Hugging Face model folder (e.g. ./my-model) or a hub name (org/model, or hf:name)"
    )


class CallableModel(SentimentModel):
    """Wraps a user callable ``texts -> list of outputs`` (see the module docstring for outputs)."""

    kind = "py"

    def __init__(
        self,
        name: str,
        fn: Callable[[list[str]], Sequence[Any]],
        *,
        identity: str | None = None,
        neutral_band: tuple[float, float] | None = None,
        batch_size: int | None = None,
    ) -> None:
        self.name = name
        self.fn = fn
        self.neutral_band = tuple(neutral_band) if neutral_band else DEFAULT_NEUTRAL_BAND
        self.batch_size = batch_size or getattr(fn, "batch_size", None) or 64
        self._identity = identity or self._default_identity()

    def _default_identity(self) -> str:
        fn = self.fn
        qual = f"{getattr(fn, '__module__', '?')}:{getattr(fn, '__qualname__', type(fn).__name__)}"
        version = getattr(fn, "s2lct_version", None) or getattr(fn, "version", None)
        if version is None:  # fall back to the source file's content, so edits invalidate the cache
            try:
                src = inspect.getsourcefile(fn if inspect.isroutine(fn) or inspect.isclass(fn) else type(fn))
                version = hashlib.sha256(Path(src).read_bytes()).hexdigest()[:16] if src else "unversioned"
            except (TypeError, OSError):
                version = "unversioned"
        low, high = self.neutral_band
        return f"py:{self.name}={qual}@{version};band={low!r},{high!r}"

    @property
    def identity(self) -> str:
        return self._identity

    def _convert(self, out: Any) -> Prediction:
        if isinstance(out, Prediction):
            return out
        if isinstance(out, str):
            label = normalise_label(out)
            if label is None:
                raise ModelError(f"{self.name}: returned label {out!r}, not one of {', '.join(LABELS)}")
            return Prediction(label, {lab: float(lab == label) for lab in LABELS})
        if isinstance(out, Mapping):
            classes, probs = [], []
            for k, v in out.items():
                label = normalise_label(str(k))
                if label is None:
                    raise ModelError(f"{self.name}: returned class {k!r}, not one of {', '.join(LABELS)}")
                classes.append(label)
                probs.append(float(v))
            if "neutral" not in classes and not {"negative", "positive"} <= set(classes):
                raise ModelError(f"{self.name}: probabilities {dict(out)} need negative and positive")
            return to_prediction(probs, classes, self.neutral_band)
        if isinstance(out, Sequence) and len(out) in (2, 3):
            classes = ["negative", "positive"] if len(out) == 2 else list(LABELS)
            return to_prediction([float(x) for x in out], classes, self.neutral_band)
        raise ModelError(f"{self.name}: cannot read model output {out!r}; return a label, a dict or 2/3 probabilities")

    def _predict_batch(self, texts: Sequence[str]) -> list[Prediction]:
        try:
            outs = list(self.fn(list(texts)))
        except ModelError:
            raise
        except Exception as exc:
            raise ModelError(f"{self.name}: the model raised {type(exc).__name__}: {exc}") from None
        if len(outs) != len(texts):
            raise ModelError(f"{self.name}: returned {len(outs)} outputs for {len(texts)} texts")
        return [self._convert(o) for o in outs]


def _from_entry_point(name: str, ep: metadata.EntryPoint, options: dict[str, Any]) -> SentimentModel:
    try:
        obj = ep.load()
    except Exception as exc:
        raise ModelError(f"cannot load model {name!r} from entry point {ep.value}: {type(exc).__name__}: {exc}") from None
    if isinstance(obj, SentimentModel):
        return obj
    if inspect.isclass(obj) and issubclass(obj, SentimentModel):
        return obj(name=name, **{k: v for k, v in options.items() if v is not None})
    if not callable(obj):
        raise ModelError(f"entry point {ep.value} for model {name!r} is not callable")
    model = CallableModel(name, obj, neutral_band=options.get("neutral_band"), batch_size=options.get("batch_size"))
    if getattr(obj, "s2lct_version", None) is None and ep.dist is not None:
        # no explicit version: the installed distribution's version also keys the prediction cache
        model._identity = f"{model.identity};dist={ep.dist.name}-{ep.dist.version}"
    return model


def _resolve_models_dir(models_dir: str | os.PathLike[str] | None) -> Path:
    if models_dir is None:
        from s2lct.config import Settings

        models_dir = Settings().models_dir
    if models_dir is None:
        raise ModelError("the offline models folder is not set; set --models-dir (pytest: --s2lct-models-dir), S2LCT_MODELS_DIR or models_dir = ... in s2lct.toml / [tool.s2lct]")
    return Path(models_dir).expanduser()


def _looks_like_path(name: str) -> bool:
    return name.startswith((".", "/", "~")) or os.sep in name and Path(name).expanduser().exists()


def load_model(
    name: str,
    *,
    models_dir: str | os.PathLike[str] | None = None,
    label_map: str | Mapping[object, str] | None = None,
    neutral_band: str | Sequence[float] | None = None,
    batch_size: int | None = None,
    device: str | None = None,
    max_length: int | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> SentimentModel:
    """Resolve ``name`` (see the module docstring) into a model; weights load on first prediction."""
    name = str(name).strip()
    if not name:
        raise _unknown(name)
    band = parse_neutral_band(neutral_band)
    lmap = parse_label_map(label_map)
    if cache_dir is None:
        from s2lct.config import Settings

        cache_dir = Settings().cache_dir
    hf_opts: dict[str, Any] = dict(
        name=name, label_map=lmap, neutral_band=band, batch_size=batch_size, device=device,
        max_length=max_length, cache_dir=cache_dir,
    )
    key = name.lower()
    if key in LEXICON_MODELS:
        from s2lct.models import lexicon

        cls = getattr(lexicon, LEXICON_MODELS[key])
        return cls(key, neutral_band=band, batch_size=batch_size)
    if key in HF_ALIASES:
        from s2lct.models.huggingface import HuggingFaceModel

        return HuggingFaceModel(HF_ALIASES[key], **hf_opts)
    if key in LOCAL_ALIASES:
        from s2lct.models.huggingface import HuggingFaceModel

        folder = _resolve_models_dir(models_dir) / LOCAL_ALIASES[key]
        if not folder.is_dir():
            raise ModelError(f"model {name!r}: folder {folder} not found; set --models-dir, S2LCT_MODELS_DIR or models_dir = ... in s2lct.toml / [tool.s2lct] to the folder holding {LOCAL_ALIASES[key]}/")
        return HuggingFaceModel(folder, **hf_opts)
    if key in TASK_MODELS:
        from s2lct.models.task.adapter import TaskModel, is_task_model_folder

        folder = task_model_folder(key, cache_dir)
        if not is_task_model_folder(folder):
            raise ModelError(f"model {name!r} is not built yet (looked in {folder}); build it with: s2lct build-task-model {key}")
        return TaskModel(folder, name=key, neutral_band=band, batch_size=batch_size, device=device)
    eps = _entry_points()
    if name in eps:
        return _from_entry_point(name, eps[name], {"neutral_band": band, "batch_size": batch_size})
    from s2lct.models.huggingface import HuggingFaceModel

    if key.startswith("hf:"):
        return HuggingFaceModel(name[3:], **hf_opts)
    path = Path(name).expanduser()
    if path.is_dir():
        from s2lct.models.task.adapter import TaskModel, is_task_model_folder

        if is_task_model_folder(path):
            return TaskModel(path, neutral_band=band, batch_size=batch_size, device=device)
        return HuggingFaceModel(path, **hf_opts)
    if _looks_like_path(name):
        raise ModelError(f"model folder {name} does not exist; pass an existing Hugging Face model folder or one of: {', '.join(available_aliases())}")
    if "/" in name:
        return HuggingFaceModel(name, **hf_opts)
    raise _unknown(name)
