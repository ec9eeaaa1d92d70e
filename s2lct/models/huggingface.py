"""Any Hugging Face sequence-classification model, by hub name or local folder.

* Labels come from the model's ``config.json`` ``id2label`` (see :func:`s2lct.models.base.map_classes`),
  with a ``label_map`` override; binary models go through the neutral band.
* Device: CUDA when available, else Apple MPS, else CPU (``device=`` overrides).
* Inputs longer than the model's limit (the tokenizer's ``model_max_length`` or, when that is unset,
  the position-embedding size) are truncated; each truncated prediction has ``truncated=True``, a
  warning says how many, and the report counts them.
* Identity (the prediction-cache key): ``hf:<absolute folder>@<sha>`` for a folder, where the sha
  covers the content of every file in it (weights hashed once per size/mtime and remembered in the
  cache folder), or ``hf:<hub name>@<commit>`` for a hub model (the commit of the locally cached
  snapshot), plus the options that change predictions.

torch and transformers are imported only when the model is loaded.
"""

from __future__ import annotations

import hashlib
import json
import os
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file, short_hash, write_json
from s2lct.quiet_libraries import quiet_transformers
from s2lct.models.base import (
    DEFAULT_NEUTRAL_BAND,
    ModelError,
    Prediction,
    SentimentModel,
    map_classes,
    to_prediction,
)

# Model types whose position embeddings reserve two slots (padding offset), so the usable length
# is max_position_embeddings - 2.
_OFFSET_POSITION_TYPES = {"roberta", "xlm-roberta", "camembert", "longformer", "bart", "mbart", "xlm-roberta-xl"}
_SMALL_FILE = 1 << 20


def choose_device(requested: str | None = None) -> str:
    """``requested`` if given, else ``cuda`` when available, ``mps`` on Apple silicon, else ``cpu``."""
    if requested:
        return requested
    import torch

    if torch.cuda.is_available():
        return "cuda"
    mps = getattr(torch.backends, "mps", None)
    if mps is not None and mps.is_available():
        return "mps"
    return "cpu"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip() or type(exc).__name__
    for line in text.splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


class HuggingFaceModel(SentimentModel):
    """A ``AutoModelForSequenceClassification`` model behind the :class:`SentimentModel` interface."""

    kind = "hf"

    def __init__(
        self,
        source: str | os.PathLike[str],
        *,
        name: str | None = None,
        label_map: Mapping[str, str] | None = None,
        neutral_band: tuple[float, float] | None = None,
        device: str | None = None,
        batch_size: int | None = None,
        max_length: int | None = None,
        revision: str | None = None,
        cache_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        path = Path(source).expanduser()
        self.is_local = path.is_dir()
        self.source = str(path.resolve()) if self.is_local else str(source)
        self.name = name or str(source)
        self.label_map = dict(label_map) if label_map else None
        self.neutral_band = tuple(neutral_band) if neutral_band else DEFAULT_NEUTRAL_BAND
        self.requested_device = device
        self.batch_size = batch_size or 32
        self.requested_max_length = max_length
        self.revision = revision
        self.cache_dir = Path(cache_dir) if cache_dir else None
        self._identity: str | None = None
        self._model: Any = None
        self._tokenizer: Any = None
        self.classes: list[str] | None = None
        self.max_length: int | None = None
        self.device: str | None = None
        self.truncated_total = 0

    # ----------------------------------------------------------------------------- identity
    def _options_digest(self) -> str:
        opts = {
            "label_map": sorted((self.label_map or {}).items()),
            "band": list(self.neutral_band),
            "max_length": self.requested_max_length,
        }
        return short_hash(json.dumps(opts, sort_keys=True), length=8)

    def _folder_digest(self, folder: Path) -> str:
        h = hashlib.sha256()
        memo_path = self.cache_dir / "model-hashes.json" if self.cache_dir else None
        memo: dict[str, str] = {}
        if memo_path is not None and memo_path.is_file():
            try:
                memo = json.loads(memo_path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                memo = {}
        changed = False
        for p in sorted(folder.rglob("*")):
            if not p.is_file() or p.name.startswith("."):
                continue
            st = p.stat()
            rel = p.relative_to(folder).as_posix()
            if st.st_size <= _SMALL_FILE:
                digest = sha256_file(p)
            else:
                key = f"{p.resolve()}|{st.st_size}|{st.st_mtime_ns}"
                digest = memo.get(key) or sha256_file(p)
                if memo.get(key) != digest:
                    memo[key] = digest
                    changed = True
            h.update(f"{rel}\0{digest}\n".encode())
        if changed and memo_path is not None:
            try:
                write_json(memo_path, memo)
            except OSError:
                pass
        return h.hexdigest()[:16]

    def _hub_commit(self) -> str | None:
        try:
            from huggingface_hub import try_to_load_from_cache
        except ImportError:
            return None
        found = try_to_load_from_cache(self.source, "config.json", revision=self.revision)
        if isinstance(found, str):
            return Path(found).parent.name
        return None

    @property
    def identity(self) -> str:
        if self._identity is None:
            if self.is_local:
                rev = self._folder_digest(Path(self.source))
            else:
                rev = self._hub_commit()
                if rev is None:  # not downloaded yet: loading fetches it, then the snapshot is known
                    self.load()
                    rev = self._hub_commit() or getattr(self._model.config, "_commit_hash", None) or self.revision or "main"
            self._identity = f"hf:{self.source}@{rev}+{self._options_digest()}"
        return self._identity

    # ----------------------------------------------------------------------------- loading
    def load(self) -> None:
        if self._model is not None:
            return
        try:
            import torch  # noqa: F401
            from transformers import AutoModelForSequenceClassification, AutoTokenizer
        except ImportError as exc:
            raise ModelError(f"{self.name}: transformers/torch are not installed ({exc})") from None
        quiet_transformers()
        kw: dict[str, Any] = {}
        if self.revision:
            kw["revision"] = self.revision
        try:
            tokenizer = AutoTokenizer.from_pretrained(self.source, **kw)
            model = AutoModelForSequenceClassification.from_pretrained(self.source, **kw)
        except Exception as exc:  # every loader failure becomes one line
            raise ModelError(f"cannot load model {self.name!r} from {self.source}: {_first_line(exc)}") from None
        id2label = {int(k): v for k, v in (model.config.id2label or {}).items()}
        if not id2label:
            id2label = {i: f"LABEL_{i}" for i in range(int(model.config.num_labels))}
        self.classes = map_classes(id2label, self.label_map, model=self.name)
        self.max_length = self.requested_max_length or self._model_limit(tokenizer, model.config)
        self.device = choose_device(self.requested_device)
        model.eval()
        model.to(self.device)
        self._tokenizer, self._model = tokenizer, model

    @staticmethod
    def _model_limit(tokenizer: Any, config: Any) -> int:
        tok_limit = getattr(tokenizer, "model_max_length", None)
        pos = getattr(config, "max_position_embeddings", None)
        if pos is not None and getattr(config, "model_type", "") in _OFFSET_POSITION_TYPES:
            pos -= 2
        candidates = [x for x in (tok_limit, pos) if isinstance(x, int) and 0 < x < 100_000]
        return min(candidates) if candidates else 512

    # ----------------------------------------------------------------------------- inference
    def predict(self, texts: Sequence[str], batch_size: int | None = None) -> list[Prediction]:
        """Predict in batches of similar length (less padding), returning results in input order."""
        self.load()
        bs = max(1, int(batch_size or self.batch_size))
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        out: list[Prediction | None] = [None] * len(texts)
        truncated = 0
        for start in range(0, len(order), bs):
            idx = order[start : start + bs]
            preds = self._predict_batch([texts[i] for i in idx])
            for i, p in zip(idx, preds, strict=True):
                out[i] = p
                truncated += p.truncated
        if truncated:
            self.truncated_total += truncated
            warnings.warn(
                f"{self.name}: {truncated} input(s) longer than {self.max_length} tokens were truncated",
                stacklevel=2,
            )
        return out  # type: ignore[return-value]

    def _predict_batch(self, texts: Sequence[str]) -> list[Prediction]:
        import torch

        self.load()
        limit = self.max_length
        enc = self._tokenizer(list(texts), padding=True, truncation=True, max_length=limit, return_tensors="pt")
        lengths = enc["attention_mask"].sum(dim=1).tolist()
        cut = [False] * len(texts)
        for i, n in enumerate(lengths):
            if n >= limit:  # at the limit: check whether the full text is longer
                cut[i] = len(self._tokenizer(texts[i], truncation=False)["input_ids"]) > limit
        enc = {k: v.to(self.device) for k, v in enc.items()}
        with torch.inference_mode():
            logits = self._model(**enc).logits
        probs = logits.float().softmax(dim=-1).cpu().tolist()
        assert self.classes is not None
        return [to_prediction(p, self.classes, self.neutral_band, c) for p, c in zip(probs, cut, strict=True)]
