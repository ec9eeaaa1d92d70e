"""Retraining methods: named recipes over ``retrain``'s options, each with when to use it (issue 24).

A method is only a preset: ``--method lora`` sets ``lora_rank`` and ``lr``; an option given
explicitly wins over the preset. Each mechanism is its own module: mixing and balancing in
:mod:`~s2lct.retrain.training_set`, joint checkpoint selection in :mod:`~s2lct.retrain.selection`,
L2-SP in :mod:`~s2lct.retrain.l2sp`, LoRA in :mod:`~s2lct.retrain.lora`. The comparison behind
the default is ``benchmarks/retrain_methods.py`` (table in docs/retraining.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

#: option values when neither the method nor the command line sets them
BASE: Mapping[str, Any] = {"epochs": 1.0, "batch_size": 16, "lr": 5e-5, "mix_original": 0.0, "balance": False,
                           "l2sp": 0.0, "lora_rank": 0, "select": "validation", "patience": None}


@dataclass(frozen=True)
class Method:
    name: str
    summary: str
    when: str
    settings: Mapping[str, Any] = field(default_factory=dict)

    @property
    def uses_lora(self) -> bool:
        return bool(self.settings.get("lora_rank"))


METHODS: dict[str, Method] = {}


def register(method: Method) -> Method:
    METHODS[method.name] = method
    return method


register(Method("finetune", "plain fine-tuning, checkpoint with the best validation pass rate (the paper's §6.1)",
                "as the baseline: it shows what a capability costs the model unregularised"))
register(Method("mix", "one SST-2 train sentence mixed in per case", "a capability whose cases are far from the "
                "task's data; cheap, but does not stop a one-sided capability's global shift", {"mix_original": 1.0}))
register(Method("balanced", "every case that pulls one way paired with an opposite-label task sentence (SST train), "
                "pairs kept in each batch", "two-sided capabilities only: on a one-sided one (LC4, LC6, LC10, LC11) every "
                "partner has the same label, and the model learns it for every sentence without the frame", {"balance": True}))
register(Method("early-stop", "lower learning rate, up to 2 epochs, checkpoint chosen and training stopped on a joint "
                "criterion (validation pass rate and accuracy on held-out SST-2 train sentences)",
                "when the task accuracy must not fall: it keeps the starting weights if nothing safe is learned",
                {"lr": 2e-5, "epochs": 2.0, "select": "joint", "patience": 3}))
register(Method("lora", "LoRA adapters (rank 8) on the attention projections through peft, merged on save",
                "a large model or a small budget; the encoder cannot drift far", {"lora_rank": 8, "lr": 5e-4}))
register(Method("l2sp", "decoupled L2 pull towards the starting weights (L2-SP)", "when any drift of the encoder "
                "costs general accuracy; strength 2000 pulls back 10% per step at lr 5e-5", {"l2sp": 2000.0}))
register(Method("mix-joint", "one task sentence mixed in per case + joint checkpoint selection with early stopping, "
                "lr 2e-5, up to 2 epochs", "the default: it learns the capability where it can without the global shift, "
                "and keeps the starting weights rather than lose general accuracy",
                {"mix_original": 1.0, "select": "joint", "patience": 3, "epochs": 2.0, "lr": 2e-5}))

register(Method("mix-joint-l2sp", "mix-joint with the L2-SP pull towards the starting weights (strength 2000: 4% per "
                "step at lr 2e-5)", "a two-sided capability where mix-joint still costs general accuracy (LC8: -0.3 "
                "points instead of -0.7); on a one-sided one the pull can stop the fix (LC6)",
                {"mix_original": 1.0, "select": "joint", "patience": 3, "epochs": 2.0, "lr": 2e-5, "l2sp": 2000.0}))

#: the method ``retrain`` uses when none is given (chosen by benchmarks/retrain_methods.py)
DEFAULT_METHOD = "mix-joint"


def methods_for(*, lora: bool = True) -> list[str]:
    """Method names that apply to a model (``lora=False``: one whose attention layers peft cannot target)."""
    return [name for name, m in METHODS.items() if lora or not m.uses_lora]


def resolve(method: str | None, explicit: Mapping[str, Any]) -> dict[str, Any]:
    """The option values of ``method`` with the ``explicit`` ones (not None) on top."""
    from ..suggest import unknown_names

    name = method or DEFAULT_METHOD
    if name not in METHODS:
        raise ValueError(unknown_names("method", [name], list(METHODS)))
    values = {**BASE, **METHODS[name].settings}
    values.update({k: v for k, v in explicit.items() if v is not None})
    return values
