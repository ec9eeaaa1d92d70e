"""L2-SP: pull the weights back towards the starting model at every step (Li et al., ICML 2018).

The penalty ``alpha/2 * ||w - w0||^2`` is applied *decoupled* from the gradient, the way AdamW
applies weight decay (Loshchilov & Hutter, 2019): after each optimizer step every trainable weight
moves ``min(1, lr * alpha)`` of the way back to its starting value. Added to the loss instead, Adam
would divide the penalty's gradient by its own running scale, so no strength could hold the weights
in place; decoupled, ``alpha = 0`` is plain fine-tuning exactly and a strength with
``lr * alpha >= 1`` keeps the starting weights exactly. transformers and peft have no such option
(``weight_decay`` pulls towards zero), so this callback is ours.
"""

from __future__ import annotations

from typing import Any


def l2sp_callback(model: Any, alpha: float) -> Any:
    """A ``TrainerCallback`` holding a copy of ``model``'s trainable weights as they are now (the start)."""
    import torch
    from transformers import TrainerCallback

    start = {name: p.detach().clone() for name, p in model.named_parameters() if p.requires_grad}

    class L2SPCallback(TrainerCallback):
        def on_optimizer_step(self, args, state, control, model=None, optimizer=None, **kw):  # type: ignore[no-untyped-def]
            lr = optimizer.param_groups[0]["lr"] if optimizer is not None else args.learning_rate
            pull = min(1.0, lr * alpha)
            if pull <= 0:
                return
            with torch.no_grad():
                for name, p in model.named_parameters():
                    w0 = start.get(name)
                    if w0 is not None and pull >= 1.0:
                        p.copy_(w0)
                    elif w0 is not None:
                        p.add_(w0.to(p.device) - p, alpha=pull)

    return L2SPCallback()
