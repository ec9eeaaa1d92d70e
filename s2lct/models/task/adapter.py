"""A trained task-model folder as a :class:`SentimentModel` (predictions) and as a
:class:`~s2lct.explain.adapters.TokenClassifier` (explanations: gradients, LRP, DeepLIFT).

Labels: two classes (negative, positive) through the neutral band, like every binary model.
Identity: ``task:<architecture>:<name>@<sha of the weights, vocabulary and config>`` plus the
options that change predictions, so a rebuilt model never reuses cached predictions or cards.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any


from s2lct.atomic import sha256_file, short_hash
from s2lct.explain.adapters import Encoded, TokenClassifier, run_logits, softmax
from s2lct.models.base import DEFAULT_NEUTRAL_BAND, ModelError, Prediction, SentimentModel, to_prediction

from .training import CONFIG_FILE
from .vocabulary import TOKENIZER_VERSION

FILES = (CONFIG_FILE, "vocab.json", "weights.pt")


def is_task_model_folder(path: Path) -> bool:
    return (Path(path) / CONFIG_FILE).is_file()


class TaskModel(SentimentModel):
    """A CNN or GRU trained by ``s2lct build-task-model`` (see :mod:`s2lct.models.task`)."""

    kind = "task"

    def __init__(self, folder: str | Path, *, name: str | None = None, neutral_band: tuple[float, float] | None = None,
                 batch_size: int | None = None, device: str | None = None) -> None:
        self.folder = Path(folder).expanduser().resolve()
        missing = [f for f in FILES if not (self.folder / f).is_file()]
        if missing:
            raise ModelError(f"task model folder {self.folder} lacks {', '.join(missing)}; rebuild it with s2lct build-task-model")
        self.info = json.loads((self.folder / CONFIG_FILE).read_text(encoding="utf-8"))
        if self.info.get("tokenizer") != TOKENIZER_VERSION:
            raise ModelError(f"task model folder {self.folder} was trained with tokenizer version {self.info.get('tokenizer')}, "
                             f"this s2lct reads version {TOKENIZER_VERSION}; rebuild it with s2lct build-task-model --force")
        self.name = name or self.info.get("name", self.folder.name)
        self.architecture = self.info["network"]["architecture"]
        self.classes = list(self.info["classes"])
        self.neutral_band = tuple(neutral_band) if neutral_band else DEFAULT_NEUTRAL_BAND
        self.batch_size = batch_size or 64
        self.device = device
        self._identity: str | None = None
        self._clf: TaskTokenClassifier | None = None

    @property
    def identity(self) -> str:
        if self._identity is None:
            digest = short_hash(*(sha256_file(self.folder / f) for f in FILES), length=16)
            low, high = self.neutral_band
            self._identity = f"task:{self.architecture}:{self.name}@{digest};band={low!r},{high!r}"
        return self._identity

    def token_classifier(self) -> TaskTokenClassifier:
        """The explainers' side of this model (loads the weights once)."""
        if self._clf is None:
            self._clf = TaskTokenClassifier.from_folder(self.folder, name=self.name, device=self.device)
        return self._clf

    def load(self) -> None:
        self.token_classifier()

    def _predict_batch(self, texts: Sequence[str]) -> list[Prediction]:
        clf = self.token_classifier()
        logits = run_logits(clf, [clf.encode(t).ids for t in texts], batch_size=max(len(texts), 1))
        return [to_prediction([float(x) for x in row], self.classes, self.neutral_band) for row in softmax(logits)]


class TaskTokenClassifier(TokenClassifier):
    """Token ids → class scores of a task network; the CNN's margin pads are special tokens (kept by
    every perturbation, part of the baseline), occluded words become ``<unk>``."""

    def __init__(self, network: Any, vocab: Any, classes: Sequence[str], architecture: str, name: str = "task",
                 device: str | None = None) -> None:
        from .networks import pad_margin

        self.model, self.vocab, self.classes, self.architecture, self.name = network, vocab, list(classes), architecture, name
        self.pad_id, self.replacement_id = vocab.pad_id, vocab.unk_id
        self.margin = pad_margin(architecture)
        self.device = device or "cpu"
        self.model.to(self.device).eval()
        for p in self.model.parameters():
            p.requires_grad_(False)

    @classmethod
    def from_folder(cls, folder: Path, *, name: str | None = None, device: str | None = None) -> TaskTokenClassifier:
        import torch

        from s2lct.models.huggingface import choose_device

        from .networks import NetworkConfig, build_network
        from .vocabulary import Vocabulary

        info = json.loads((folder / CONFIG_FILE).read_text(encoding="utf-8"))
        net = build_network(NetworkConfig(**info["network"]))
        net.load_state_dict(torch.load(folder / "weights.pt", map_location="cpu", weights_only=True))
        return cls(net, Vocabulary.load(folder / "vocab.json"), info["classes"], info["network"]["architecture"],
                   name or info.get("name", folder.name), choose_device(device))

    def encode(self, text: str) -> Encoded:
        from .vocabulary import tokenize

        toks = tokenize(text)
        pads = [self.pad_id] * self.margin
        ids = [*pads, *(self.vocab.id(t) for t, _s, _e in toks), *pads]
        spans: list[tuple[int, int] | None] = [*([None] * self.margin), *((s, e) for _t, s, e in toks), *([None] * self.margin)]
        return Encoded(ids, spans)

    @property
    def embeddings(self) -> Any:
        return self.model.embedding

    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.model(input_ids, attention_mask)

    def features(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.model.features(input_ids, attention_mask)

    def lrp_module(self) -> Any:
        return self.model.head
