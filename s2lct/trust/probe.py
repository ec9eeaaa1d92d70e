"""The agreement paradigm's task model: the user's encoder, frozen, with a linear probe for verb number.

Ding & Koehn (§3.1) replace a language model's output layer by a linear probe for the agreement
tag, so explanations only follow the agreement signal. For a BERT-style encoder the prefix is
followed by the mask token (the verb's slot, as a masked LM would see it) and the probe reads the
last layer's state there; for encoders without a mask token, the last prefix token. Only the probe
is trained (full-batch logistic regression with a small L2 term, L-BFGS: deterministic); the
encoder's weights are untouched.

:class:`ProbeClassifier` is a :class:`~s2lct.explain.adapters.TokenClassifier`, so every explainer
(gradient, IG, perturbation, LIME, LIMSSE) runs on it unchanged: the appended mask token is a
special token (no word), kept by every perturbation.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

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


def extract_features(probe: ProbeClassifier, texts: Sequence[str], batch_size: int = 64) -> np.ndarray:
    """Encoder states at the verb slot of every text (frozen, inference mode), in input order."""
    import torch

    from s2lct.explain.adapters import padded_batches

    seqs = [probe.encode(t).ids for t in texts]
    out = np.zeros((len(seqs), probe.hidden), dtype=np.float32)
    with torch.inference_mode():
        for idx, ids, mask in padded_batches(seqs, probe.pad_id, batch_size):
            out[idx] = probe.features(ids.to(probe.device), mask.to(probe.device)).float().cpu().numpy()
    return out


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, iterations: int = 200) -> tuple[np.ndarray, np.ndarray]:
    """Two-class softmax regression (weights (2, H), bias (2,)) by full-batch L-BFGS, standardised inputs."""
    import torch

    mu, sd = x.mean(axis=0), x.std(axis=0) + 1e-6
    xt = torch.from_numpy((x - mu) / sd).double()
    yt = torch.from_numpy(y).long()
    w = torch.zeros((2, x.shape[1]), dtype=torch.float64, requires_grad=True)
    b = torch.zeros(2, dtype=torch.float64, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], max_iter=iterations, line_search_fn="strong_wolfe")

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

    def to_json(self) -> dict[str, Any]:
        return {"train_prefixes": self.train, "heldout_prefixes": self.heldout,
                "train_accuracy": round(self.train_accuracy, 4), "heldout_accuracy": round(self.heldout_accuracy, 4),
                "majority_baseline": round(self.majority_baseline, 4), "features": "last layer at the verb slot (mask token)"}


def labels_of(items: Sequence[AgreementItem]) -> np.ndarray:
    return np.array([CLASSES.index(it.verb_number) for it in items], dtype=np.int64)


def train_probe(base: HFTokenClassifier, train: Sequence[AgreementItem], heldout: Sequence[AgreementItem]) -> tuple[ProbeClassifier, ProbeReport]:
    """Train the number probe on ``train`` prefixes; report accuracy on ``heldout`` prefixes."""
    probe = ProbeClassifier(base)
    x = extract_features(probe, [it.text for it in train])
    y = labels_of(train)
    w, b = fit_logistic(x, y)
    probe = ProbeClassifier(base, w, b)
    acc = lambda xs, ys: float(((xs @ w.T + b).argmax(axis=1) == ys).mean()) if len(ys) else float("nan")  # noqa: E731
    yh = labels_of(heldout)
    xh = extract_features(probe, [it.text for it in heldout]) if len(heldout) else np.zeros((0, probe.hidden))
    major = max(np.mean(yh == 0), np.mean(yh == 1)) if len(yh) else float("nan")
    return probe, ProbeReport(len(train), len(heldout), acc(x, y), acc(xh, yh), float(major))


def predict_numbers(probe: ProbeClassifier, items: Sequence[AgreementItem]) -> list[str]:
    seqs = [probe.encode(it.text).ids for it in items]
    logits = run_logits(probe, seqs)
    return [CLASSES[int(k)] for k in logits.argmax(axis=1)]
