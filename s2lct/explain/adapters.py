"""What explainers need from a model: a differentiable token classifier and a word-perturbation scorer.

* :class:`TokenClassifier` is the torch side (gradient methods): tokenize with character offsets,
  compute logits from token ids, expose the embedding layer whose *output* is attributed, and the
  token that stands in for an occluded word. :class:`HFTokenClassifier` adapts any Hugging Face
  sequence classifier (BERT-, RoBERTa- and DistilBERT-style).
* :class:`Scorer` evaluates word-level perturbations of one text (keep / occlude / delete each
  word) in batches; the perturbation explainers (occlusion, omission, LIME, LIMSSE) use only this,
  so they work on any model: :class:`TokenScorer` for torch models (class scores *s* and
  probabilities *p*), :class:`TextScorer` for any :class:`~s2lct.models.base.SentimentModel`
  (vader, textblob, entry-point callables: probabilities only).
* :class:`MemoScorer` remembers the outputs of every perturbed input it has scored, so explainers
  run one after another on the same text (the trust card runs all of them) score each distinct
  perturbed input once: occlusion/omission share the unperturbed pass and clipped edge windows, the
  three LIMSSE losses the same substrings. The key is what the model sees (token ids, or the text
  for text-level models), so different states that give the same input are scored once too.

Position ids: replacing tokens by PAD through ``input_ids`` shifts RoBERTa's position ids (they
are counted over non-PAD tokens), so occlusion uses the mask (or unk) token, and every forward
passes explicit ``position_ids`` when the model takes them (RoBERTa-style: offset pad_id + 1).
"""

from __future__ import annotations

import inspect
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from ..models.base import LABELS, SentimentModel
from .words import Words, split_words, token_to_word

KEEP, OCCLUDE, DELETE = 0, 1, 2
# Model types whose position ids start at pad_token_id + 1 (transformers' create_position_ids_from_input_ids).
_OFFSET_POSITION_TYPES = {"roberta", "xlm-roberta", "camembert", "longformer", "xlm-roberta-xl", "data2vec-text", "roberta-prelayernorm"}
TEXT_PLACEHOLDER = "UNK"  # what an occluded word becomes for text-level models


@dataclass(frozen=True)
class Encoded:
    ids: list[int]
    spans: list[tuple[int, int] | None]  # None: special token


class TokenClassifier(ABC):
    """A differentiable text classifier over token ids (see the module docstring)."""

    name: str = "torch-model"
    classes: list[str]  # label of every logit
    replacement_id: int  # token an occluded word's subwords become
    pad_id: int

    @abstractmethod
    def encode(self, text: str) -> Encoded: ...

    @property
    @abstractmethod
    def embeddings(self) -> Any:
        """The module whose output gradient methods attribute (for transformers: after LayerNorm)."""

    @abstractmethod
    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        """Logits (B, C) of a right-padded batch."""

    def lrp_module(self) -> Any:
        """A module from the embedding-layer output (B, T, H) to logits for Captum's LRP; the whole
        model when there is none (LRP then names the layers it has no rule for)."""
        return None

    def baseline_ids(self, ids: Sequence[int], spans: Sequence[tuple[int, int] | None]) -> list[int]:
        """The pad-token baseline: every non-special token replaced by PAD."""
        return [t if s is None else self.pad_id for t, s in zip(ids, spans, strict=True)]


class HFTokenClassifier(TokenClassifier):
    """A loaded Hugging Face sequence classifier (``AutoModelForSequenceClassification``)."""

    def __init__(self, model: Any, tokenizer: Any, classes: Sequence[str], name: str = "hf", max_length: int | None = None) -> None:
        self.model, self.tokenizer, self.classes, self.name = model, tokenizer, list(classes), name
        self.max_length = max_length or 512
        self.pad_id = tokenizer.pad_token_id if tokenizer.pad_token_id is not None else 0
        rep = tokenizer.mask_token_id if tokenizer.mask_token_id is not None else tokenizer.unk_token_id
        self.replacement_id = rep if rep is not None else self.pad_id
        params = inspect.signature(model.forward).parameters
        self._takes_positions = "position_ids" in params
        self._takes_types = "token_type_ids" in params and getattr(model.config, "type_vocab_size", 0) > 0
        mtype = getattr(model.config, "model_type", "")
        self._position_offset = self.pad_id + 1 if mtype in _OFFSET_POSITION_TYPES else 0
        self.device = next(model.parameters()).device

    @classmethod
    def from_model(cls, hf: Any) -> HFTokenClassifier:
        """From a :class:`s2lct.models.huggingface.HuggingFaceModel` (loads it)."""
        hf.load()
        return cls(hf._model, hf._tokenizer, hf.classes, name=hf.name, max_length=hf.max_length)

    def encode(self, text: str) -> Encoded:
        enc = self.tokenizer(text, truncation=True, max_length=self.max_length, return_offsets_mapping=True,
                             return_special_tokens_mask=True)
        spans = [None if sp else (int(a), int(b)) for (a, b), sp in zip(enc["offset_mapping"], enc["special_tokens_mask"], strict=True)]
        return Encoded(list(enc["input_ids"]), spans)

    @property
    def embeddings(self) -> Any:
        base = getattr(self.model, self.model.base_model_prefix, self.model)
        emb = getattr(base, "embeddings", None)
        return emb if emb is not None else self.model.get_input_embeddings()

    def position_ids(self, input_ids: Any) -> Any:
        import torch

        n = input_ids.shape[1]
        return (torch.arange(n, device=input_ids.device) + self._position_offset).unsqueeze(0).expand_as(input_ids)

    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        import torch

        kw: dict[str, Any] = {"input_ids": input_ids, "attention_mask": attention_mask}
        if self._takes_positions:
            kw["position_ids"] = self.position_ids(input_ids)
        if self._takes_types:
            kw["token_type_ids"] = torch.zeros_like(input_ids)
        return self.model(**kw).logits

    def lrp_module(self) -> Any:
        return self.model


class Scorer(ABC):
    """Evaluates word-level perturbations of one text; rows of ``states`` are KEEP/OCCLUDE/DELETE per word."""

    classes: list[str]
    has_scores: bool  # whether class scores s (logits) exist besides probabilities p
    words: Words
    evaluations: int = 0  # model evaluations done (for the benchmark's floor)

    @abstractmethod
    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        """(s, p): arrays (V, C) of class scores (None when the model has none) and probabilities."""

    def input_key(self, row: Sequence[int]) -> bytes | str:
        """What the model sees for one row of states (equal keys: equal outputs)."""
        return np.asarray(row, dtype=np.int8).tobytes()


class MemoScorer(Scorer):
    """``inner`` with a memo of outputs by :meth:`Scorer.input_key`, shared through ``memo`` by every
    scorer of the same text. ``evaluations`` counts the rows asked for (as ``inner`` would, so
    explanations are unchanged); ``computed`` the rows the model actually evaluated."""

    def __init__(self, inner: Scorer, memo: dict[bytes | str, tuple[np.ndarray | None, np.ndarray]]) -> None:
        self.inner, self.memo = inner, memo
        self.classes, self.has_scores, self.words = inner.classes, inner.has_scores, inner.words

    @property
    def computed(self) -> int:
        return self.inner.evaluations

    def input_key(self, row: Sequence[int]) -> bytes | str:
        return self.inner.input_key(row)

    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        states = np.asarray(states)
        keys = [self.inner.input_key(row) for row in states]
        todo = list(dict.fromkeys(k for k in keys if k not in self.memo))
        if todo:
            first = {k: i for i, k in reversed(list(enumerate(keys)))}
            s, p = self.inner.evaluate(states[[first[k] for k in todo]])
            for j, k in enumerate(todo):
                self.memo[k] = (None if s is None else s[j], p[j])
        self.evaluations += len(keys)
        rows = [self.memo[k] for k in keys]
        p_out = np.array([r[1] for r in rows], dtype=np.float64).reshape(len(rows), len(self.classes))
        if not self.has_scores:
            return None, p_out
        return np.array([r[0] for r in rows], dtype=np.float64).reshape(len(rows), len(self.classes)), p_out


class TokenScorer(Scorer):
    """Perturbs token ids of a :class:`TokenClassifier`: occluded words' tokens become the mask token
    (positions kept), deleted words' tokens are dropped (true omission); specials always stay."""

    def __init__(self, clf: TokenClassifier, text: str, words: Words | None = None, batch_size: int = 64) -> None:
        self.clf, self.batch_size = clf, batch_size
        self.words = words or split_words(text)
        self.classes = list(clf.classes)
        self.has_scores = True
        enc = clf.encode(text)
        self.ids = enc.ids
        self.token_word = token_to_word(self.words, enc.spans)

    def variant_ids(self, states: Sequence[int]) -> list[int]:
        out: list[int] = []
        rep = self.clf.replacement_id
        for t, w in zip(self.ids, self.token_word, strict=True):
            if w < 0 or states[w] == KEEP:
                out.append(t)
            elif states[w] == OCCLUDE:
                out.append(rep)
        return out

    def input_key(self, row: Sequence[int]) -> bytes:
        return np.asarray(self.variant_ids(row), dtype=np.int64).tobytes()

    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        seqs = [self.variant_ids(row) for row in np.asarray(states)]
        logits = run_logits(self.clf, seqs, self.batch_size)
        self.evaluations += len(seqs)
        p = softmax(logits)
        return logits, p


def padded_batches(seqs: Sequence[Sequence[int]], pad_id: int, batch_size: int = 64) -> Iterator[tuple[list[int], Any, Any]]:
    """(input indices, ids, attention mask) of token-id sequences batched by similar length, right-padded.

    Sorting by length keeps padding (and so wasted compute) small; callers write results back by index.
    """
    import torch

    order = sorted(range(len(seqs)), key=lambda i: len(seqs[i]))
    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        n = max(len(seqs[i]) for i in idx)
        ids = torch.full((len(idx), n), pad_id, dtype=torch.long)
        mask = torch.zeros((len(idx), n), dtype=torch.long)
        for r, i in enumerate(idx):
            ids[r, : len(seqs[i])] = torch.tensor(seqs[i], dtype=torch.long)
            mask[r, : len(seqs[i])] = 1
        yield idx, ids, mask


def run_logits(clf: TokenClassifier, seqs: Sequence[Sequence[int]], batch_size: int = 64) -> np.ndarray:
    """Logits of token-id sequences, batched by similar length (right padding), in input order."""
    import torch

    out = np.zeros((len(seqs), len(clf.classes)), dtype=np.float64)
    device = getattr(clf, "device", "cpu")
    with torch.inference_mode():
        for idx, ids, mask in padded_batches(seqs, clf.pad_id, batch_size):
            out[idx] = clf.logits(ids.to(device), mask.to(device)).float().cpu().numpy()
    return out


def softmax(x: np.ndarray) -> np.ndarray:
    """Row-wise softmax of logits (B, C), shifted by the row maximum so large scores do not overflow."""
    z = x - x.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class TextScorer(Scorer):
    """Perturbs the text itself for any :class:`SentimentModel`: occluded words become ``UNK``,
    deleted words disappear; outputs are the model's probabilities over the three labels."""

    def __init__(self, model: SentimentModel, text: str, words: Words | None = None, placeholder: str = TEXT_PLACEHOLDER) -> None:
        self.model, self.placeholder = model, placeholder
        self.words = words or split_words(text)
        self.classes = list(LABELS)
        self.has_scores = False

    def input_key(self, row: Sequence[int]) -> str:
        return self.words.render(row, self.placeholder)

    def evaluate(self, states: np.ndarray) -> tuple[np.ndarray | None, np.ndarray]:
        texts = [self.words.render(row, self.placeholder) for row in np.asarray(states)]
        preds = self.model.predict(texts)
        self.evaluations += len(texts)
        return None, np.array([[p.probs[c] for c in self.classes] for p in preds], dtype=np.float64)


@dataclass
class ModelHandle:
    """A model prepared for explanation: the sentiment model, and its torch side when it has one."""

    name: str
    kind: str
    model: SentimentModel | None = None
    torch: TokenClassifier | None = None
    info: dict[str, Any] = field(default_factory=dict)
    memo: dict[str, dict[bytes | str, Any]] | None = None  # text → MemoScorer memo (see memoised)

    @property
    def classes(self) -> list[str]:
        return list(self.torch.classes) if self.torch is not None else list(LABELS)

    def scorer(self, text: str, words: Words | None = None) -> Scorer:
        if self.torch is not None:
            scorer: Scorer = TokenScorer(self.torch, text, words)
        else:
            assert self.model is not None
            scorer = TextScorer(self.model, text, words)
        if self.memo is not None:
            scorer = MemoScorer(scorer, self.memo.setdefault(text, {}))
        return scorer

    def memoised(self) -> ModelHandle:
        """This handle with a per-text memo of perturbed inputs (see :class:`MemoScorer`); call
        :meth:`forget` when a text is done to free its outputs."""
        return replace(self, memo={})

    def forget(self) -> None:
        if self.memo is not None:
            self.memo.clear()

    def explained_class(self, label: str, probs: dict[str, float]) -> str:
        """The class to explain for a prediction: its label when the model has that class, else the
        most probable of the model's own classes (a binary model's 'neutral' is a band on p)."""
        classes = self.classes
        if label in classes:
            return label
        return max(classes, key=lambda c: (probs.get(c, 0.0), -classes.index(c)))


def prepare_model(model: SentimentModel | TokenClassifier) -> ModelHandle:
    """Wrap a model for the explainers: Hugging Face models, and models with a ``token_classifier()``
    method, get their torch side."""
    if isinstance(model, TokenClassifier):
        return ModelHandle(model.name, "torch", None, model)
    from ..models.huggingface import HuggingFaceModel

    if isinstance(model, HuggingFaceModel):
        return ModelHandle(model.name, "hf", model, HFTokenClassifier.from_model(model))
    side = getattr(model, "token_classifier", None)  # e.g. the task models: their own torch side
    if callable(side):
        return ModelHandle(model.name, getattr(model, "kind", "torch"), model, side())
    return ModelHandle(model.name, getattr(model, "kind", "model"), model, None)
