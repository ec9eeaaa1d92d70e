"""Retraining loops: fine-tune a Hugging Face model on generated cases and account for every case
fixed and broken (issue 14; METHOD.md §1.4). Modules: ``split`` (8:1:1 by seed sentence),
``targets`` (training target per expected-label shape), ``train`` (transformers Trainer),
``accounting`` (before/after per capability + SST-2 dev), ``loop`` (rounds, run folder),
``matrix`` (retrain × evaluate), ``plots``; issue 24's methods: ``methods`` (the named recipes),
``training_set`` (mixing, label-balanced batches), ``selection`` (joint checkpoint criterion),
``l2sp``, ``lora``, and ``protocol`` (BeLUGA partitions). Imports are lazy: this package must stay light.
"""

from __future__ import annotations

from typing import Any

__all__ = ["retrain"]


def __getattr__(name: str) -> Any:
    if name == "retrain":
        from .loop import retrain

        return retrain
    raise AttributeError(f"module 's2lct.retrain' has no attribute {name!r}")
