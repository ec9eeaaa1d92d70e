"""LoRA fine-tuning through ``peft``: low-rank adapters on the attention projections, merged on save.

Only the adapters and the classification head train, so the encoder's weights cannot drift far
from the starting model: the cheap way to keep what it knew. The saved folder holds the merged
weights (``merge_and_unload``), a plain transformers model that ``--model DIR`` runs like any other.
"""

from __future__ import annotations

from typing import Any

from ..errors import S2LCTError

#: attention projections by architecture family (names as transformers calls the Linear modules)
TARGETS = {"bert": ["query", "value"], "roberta": ["query", "value"], "distilbert": ["q_lin", "v_lin"],
           "electra": ["query", "value"], "deberta-v2": ["query_proj", "value_proj"], "albert": ["query", "value"]}


class LoRAError(S2LCTError):
    exit_code = 2


def with_lora(model: Any, rank: int, *, alpha: int | None = None, dropout: float = 0.1) -> Any:
    """``model`` wrapped with LoRA adapters of ``rank`` (classifier head trained in full)."""
    from peft import LoraConfig, TaskType, get_peft_model

    arch = getattr(model.config, "model_type", "")
    if arch not in TARGETS:
        from .methods import methods_for

        raise LoRAError(f"LoRA does not know the attention layers of a {arch!r} model (known: {', '.join(sorted(TARGETS))}); "
                        f"methods that apply to this model: {', '.join(methods_for(lora=False))}")
    config = LoraConfig(task_type=TaskType.SEQ_CLS, r=rank, lora_alpha=alpha or 2 * rank, lora_dropout=dropout,
                        target_modules=TARGETS[arch])
    return get_peft_model(model, config)


def merged(model: Any) -> Any:
    """The plain model with the adapters folded into its weights (``model`` itself when not LoRA)."""
    return model.merge_and_unload() if hasattr(model, "merge_and_unload") else model
