"""The agreement paradigm's task model: the user's encoder, frozen, with a linear probe for verb number.

Ding & Koehn (§3.1) replace a language model's output layer by a linear probe for the agreement
tag, so explanations only follow the agreement signal. For a BERT-style encoder the prefix is
followed by the mask token (the verb's slot, as a masked LM would see it) and the probe reads the
last layer's state there; for encoders without a mask token, the last prefix token. Only the probe
is trained (full-batch logistic regression with a small L2 term, L-BFGS: deterministic); the
encoder's weights are untouched.

The papers' task models (``cnn-sst2``, ``gru-sst2``) get :class:`FeatureProbeClassifier`: the probe
reads the representation their own classifier reads (the CNN's max-pooled filters, the GRU's final
states of both directions, over the prefix). It is bias-free, so the all-pad baseline scores 0 and
LRP and DeepLIFT can be checked for completeness on the CNN. Poerner et al. trained their RNNs on
the agreement task itself (1.4 M prefixes); our prefixes (a few thousand) train a probe, not a
network, which is Ding & Koehn's design — the card says so.

:class:`ProbeClassifier` is a :class:`~s2lct.explain.adapters.TokenClassifier`, so every explainer
(gradient, IG, perturbation, LIME, LIMSSE) runs on it unchanged: the appended mask token is a
special token (no word), kept by every perturbation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from ..explain.adapters import Encoded, HFTokenClassifier, TokenClassifier, run_logits
from .agreement import PL, SG, AgreementItem

CLASSES = [SG, PL]
L2 = 1e-2


class ProbeClassifier(TokenClassifier):
    """Frozen encoder + linear probe over the state at the verb slot; classes ``["Sg", "Pl"]``."""

    def __init__(self, base: HFTokenClassifier, weight: Any = None, bias: Any = None) -> None:
        import torch

        self.base = base
        self.name = f"{base.name}+number-probe"
        self.classes = list(CLASSES)
        self.tokenizer = base.tokenizer
        self.pad_id = base.pad_id
        self.replacement_id = base.replacement_id
        self.device = base.device
        model = base.model
        self.encoder = getattr(model, model.base_model_prefix, model)
        self.hidden = int(model.config.hidden_size)
        self.slot_id = self.tokenizer.mask_token_id
        tail = self.tokenizer("a")["input_ids"]
        self._trailing = 1 if self.tokenizer.sep_token_id is not None and tail and tail[-1] == self.tokenizer.sep_token_id else 0
        self.linear = torch.nn.Linear(self.hidden, len(CLASSES)).to(self.device)
        if weight is not None:
            with torch.no_grad():
                self.linear.weight.copy_(torch.as_tensor(weight, dtype=torch.float32))
                self.linear.bias.copy_(torch.as_tensor(bias, dtype=torch.float32))
        for p in self.linear.parameters():
            p.requires_grad_(False)

    def encode(self, text: str) -> Encoded:
        enc = self.base.encode(text)
        ids, spans = list(enc.ids), list(enc.spans)
        if self.slot_id is not None:
            at = len(ids) - self._trailing
            ids.insert(at, self.slot_id)
            spans.insert(at, None)
        return Encoded(ids, spans)

    @property
    def embeddings(self) -> Any:
        return self.base.embeddings

    def lrp_module(self) -> Any:
        return self.base.model

    def _slot_index(self, attention_mask: Any) -> Any:
        last = attention_mask.sum(dim=1) - 1
        return last - self._trailing if self.slot_id is not None else last

    def features(self, input_ids: Any, attention_mask: Any) -> Any:
        import torch

        kw: dict[str, Any] = {"input_ids": input_ids, "attention_mask": attention_mask}
        if self.base._takes_positions:
            kw["position_ids"] = self.base.position_ids(input_ids)
        if self.base._takes_types:
            kw["token_type_ids"] = torch.zeros_like(input_ids)
        states = self.encoder(**kw).last_hidden_state
        idx = self._slot_index(attention_mask)
        return states[torch.arange(states.shape[0], device=states.device), idx]

    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.linear(self.features(input_ids, attention_mask))


class _ProbeHead(torch.nn.Module):
    """Embedding output → number logits (the task network's representation, then the probe), for
    LRP; a module-level class so the card's worker processes can unpickle it."""

    def __init__(self, head: Any, linear: Any) -> None:
        super().__init__()
        self.head, self.linear = head, linear

    def forward(self, embedded: Any, attention_mask: Any) -> Any:
        return self.linear(self.head.features(embedded, attention_mask))


class FeatureProbeClassifier(TokenClassifier):
    """A task model's frozen representation + a bias-free linear probe; classes ``["Sg", "Pl"]``."""

    def __init__(self, base: Any, weight: Any = None, bias: Any = None) -> None:
        import torch

        self.base = base
        self.name = f"{base.name}+number-probe"
        self.classes = list(CLASSES)
        self.pad_id, self.replacement_id = base.pad_id, base.replacement_id
        self.device = getattr(base, "device", "cpu")
        self.hidden = int(base.model.config.hidden)
        self.linear = torch.nn.Linear(self.hidden, len(CLASSES), bias=False).to(self.device)
        if weight is not None:
            with torch.no_grad():
                self.linear.weight.copy_(torch.as_tensor(weight, dtype=torch.float32))
        for p in self.linear.parameters():
            p.requires_grad_(False)
        self._head = _ProbeHead(base.model.head, self.linear)
        self.model = torch.nn.ModuleDict({"embedding": base.model.embedding, "head": self._head})  # what DeepLIFT hooks

    def encode(self, text: str) -> Encoded:
        return self.base.encode(text)

    @property
    def embeddings(self) -> Any:
        return self.base.embeddings

    def lrp_module(self) -> Any:
        return self._head

    def features(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.base.features(input_ids, attention_mask)

    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        return self.linear(self.features(input_ids, attention_mask))


def extract_features(probe: ProbeClassifier | FeatureProbeClassifier, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
    """Encoder states at the verb slot of every text (frozen, inference mode), in input order."""
    import torch

    from s2lct.explain.adapters import padded_batches

    seqs = [probe.encode(t).ids for t in texts]
    out = np.zeros((len(seqs), probe.hidden), dtype=np.float32)
    with torch.inference_mode():
        for idx, ids, mask in padded_batches(seqs, probe.pad_id, batch_size):
            out[idx] = probe.features(ids.to(probe.device), mask.to(probe.device)).float().cpu().numpy()
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, iterations: int = 200, bias: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Two-class softmax regression (weights (2, H), bias (2,)) by full-batch L-BFGS, standardised
    inputs; ``bias=False``: inputs scaled but not centred and the bias held at 0."""
    import torch

    mu, sd = (x.mean(axis=0) if bias else np.zeros(x.shape[1], dtype=x.dtype)), x.std(axis=0) + 1e-6
    xt = torch.from_numpy((x - mu) / sd).double()
    yt = torch.from_numpy(y).long()
    w = torch.zeros((2, x.shape[1]), dtype=torch.float64, requires_grad=True)
    b = torch.zeros(2, dtype=torch.float64, requires_grad=bias)
    opt = torch.optim.LBFGS([w, b] if bias else [w], max_iter=iterations, line_search_fn="strong_wolfe")

    def closure():  # type: ignore[no-untyped-def]
        opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(xt @ w.T + b, yt) + l2 * (w * w).sum()
        loss.backward()
        return loss

    opt.step(closure)
    wn = w.detach().numpy() / sd  # back to raw features: w·(x-mu)/sd + b
    bn = b.detach().numpy() - wn @ mu
    return wn, bn


@dataclass
class ProbeReport:
    train: int
    heldout: int
    train_accuracy: float
    heldout_accuracy: float
    majority_baseline: float
    features: str = "last layer at the verb slot (mask token)"

    def to_json(self) -> dict[str, Any]:
        return {"train_prefixes": self.train, "heldout_prefixes": self.heldout,
                "train_accuracy": round(self.train_accuracy, 4), "heldout_accuracy": round(self.heldout_accuracy, 4),
                "majority_baseline": round(self.majority_baseline, 4), "features": self.features}


def labels_of(items: Sequence[AgreementItem]) -> np.ndarray:
    return np.array([CLASSES.index(it.verb_number) for it in items], dtype=np.int64)


def make_probe(base: Any, weight: Any = None, bias: Any = None) -> ProbeClassifier | FeatureProbeClassifier:
    """The probe that fits ``base``: on the encoder's mask slot for a Hugging Face model, on the
    classifier's own representation for a model that exposes ``features`` (the task models)."""
    if isinstance(base, HFTokenClassifier):
        return ProbeClassifier(base, weight, bias)
    return FeatureProbeClassifier(base, weight)


def can_probe(base: Any) -> bool:
    return isinstance(base, HFTokenClassifier) or (callable(getattr(base, "features", None)) and hasattr(getattr(base, "model", None), "head"))


def train_probe(base: Any, train: Sequence[AgreementItem], heldout: Sequence[AgreementItem]) -> tuple[ProbeClassifier | FeatureProbeClassifier, ProbeReport]:
    """Train the number probe on ``train`` prefixes; report accuracy on ``heldout`` prefixes."""
    probe = make_probe(base)
    x = extract_features(probe, [it.text for it in train])
    y = labels_of(train)
    w, b = fit_logistic(x, y, bias=isinstance(base, HFTokenClassifier))
    probe = make_probe(base, w, b)
    acc = lambda xs, ys: float(((xs @ w.T + b).argmax(axis=1) == ys).mean()) if len(ys) else float("nan")  # noqa: E731
    yh = labels_of(heldout)
    xh = extract_features(probe, [it.text for it in heldout]) if len(heldout) else np.zeros((0, probe.hidden))
    major = max(np.mean(yh == 0), np.mean(yh == 1)) if len(yh) else float("nan")
    features = ("last layer at the verb slot (mask token)" if isinstance(probe, ProbeClassifier)
                else "the task model's own representation of the prefix (bias-free probe)")
    return probe, ProbeReport(len(train), len(heldout), acc(x, y), acc(xh, yh), float(major), features)


def predict_numbers(probe: TokenClassifier, items: Sequence[AgreementItem]) -> list[str]:
    seqs = [probe.encode(it.text).ids for it in items]
    logits = run_logits(probe, seqs)
    return [CLASSES[int(k)] for k in logits.argmax(axis=1)]
