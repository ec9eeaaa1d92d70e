"""Fine-tune a Hugging Face classifier on suite cases with the transformers ``Trainer``.

The Trainer brings what a hand loop would have to rebuild: checkpoints holding optimizer, scheduler
and RNG state (an interrupted run resumes exactly where it stopped), seeded data order, periodic
evaluation with the best checkpoint kept (``load_best_model_at_end``), and CUDA when present. Only
the loss is ours (:mod:`s2lct.retrain.targets`): a case may allow several labels, which the model's
own loss cannot express, so examples carry an ``allowed`` vector instead of a class id.
"""

from __future__ import annotations

import math
import os
import shutil
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..progress import ProgressFactory, ProgressTask
from ..quiet_libraries import quiet_transformers
from .targets import Band, passes, target_loss

CHECKPOINTS = "checkpoints"


@dataclass(frozen=True)
class TrainConfig:
    """Fine-tuning settings (paper §6.1: 1 epoch, batch 16)."""

    epochs: float = 1.0
    batch_size: int = 16
    lr: float = 5e-5
    weight_decay: float = 0.01
    warmup_ratio: float = 0.0
    seed: int = 0
    max_length: int | None = None
    evals_per_epoch: int = 4

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Example:
    text: str
    allowed: tuple[float, float, float]
    source: str = "case"  # "case" or "sst2"


class _Encoded:
    """A list-backed torch dataset of tokenized examples."""

    def __init__(self, tokenizer: Any, examples: Sequence[Example], max_length: int) -> None:
        enc = tokenizer([e.text for e in examples], truncation=True, max_length=max_length)
        self.rows = [
            {**{k: v[i] for k, v in enc.items()}, "allowed": list(e.allowed)} for i, e in enumerate(examples)
        ]

    def __len__(self) -> int:
        return len(self.rows)

    def __getitem__(self, i: int) -> dict[str, Any]:
        return self.rows[i]


class _Collator:
    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer = tokenizer

    def __call__(self, rows: list[dict[str, Any]]) -> dict[str, Any]:
        import torch

        inputs = [{k: v for k, v in r.items() if k != "allowed"} for r in rows]
        batch = self.tokenizer.pad(inputs, padding=True, return_tensors="pt")
        batch["allowed"] = torch.tensor([r["allowed"] for r in rows], dtype=torch.float32)
        return dict(batch)


def _progress_callback(progress: ProgressFactory | None, description: str) -> Any:
    from transformers import TrainerCallback

    class ProgressCallback(TrainerCallback):
        task: ProgressTask | None = None

        def on_train_begin(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            if progress is not None:
                self.task = progress(description, state.max_steps)
                if state.global_step:
                    self.task.advance(state.global_step)

        def on_step_end(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            if self.task is not None:
                self.task.advance(1)

        def on_train_end(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            if self.task is not None:
                self.task.close()

    return ProgressCallback()


def last_checkpoint(folder: Path) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    return get_last_checkpoint(str(folder)) if folder.is_dir() else None


def fine_tune(
    source: str,
    classes: Sequence[str],
    band: Band,
    train: Sequence[Example],
    validation: Sequence[Example],
    work_dir: str | Path,
    model_out: str | Path,
    config: TrainConfig,
    *,
    progress: ProgressFactory | None = None,
    callbacks: Sequence[Any] = (),
    description: str = "fine-tuning",
) -> dict[str, Any]:
    """Train from ``source`` (a HF folder or hub name), keep the best validation checkpoint, save it.

    Checkpoints go to ``work_dir/checkpoints``; an existing checkpoint there is resumed. The model
    folder ``model_out`` is written whole or not at all (saved beside it, then renamed).
    """
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, Trainer, TrainingArguments, set_seed

    quiet_transformers()
    work_dir, model_out = Path(work_dir), Path(model_out)
    set_seed(config.seed)
    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModelForSequenceClassification.from_pretrained(source)
    limit = config.max_length or min(int(getattr(tokenizer, "model_max_length", 512) or 512), 512)
    train_ds = _Encoded(tokenizer, train, limit)
    val_ds = _Encoded(tokenizer, validation, limit)
    steps_per_epoch = max(1, math.ceil(len(train_ds) / config.batch_size))
    eval_steps = max(1, math.ceil(steps_per_epoch / max(1, config.evals_per_epoch)))
    classes = list(classes)

    class TargetTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):  # type: ignore[no-untyped-def]
            allowed = inputs.pop("allowed")
            outputs = model(**inputs)
            loss = target_loss(outputs.logits, allowed, classes, band)
            return (loss, outputs) if return_outputs else loss

    def compute_metrics(pred: Any) -> dict[str, float]:
        ok = passes(pred.predictions, pred.label_ids, classes, band)
        return {"pass_rate": sum(ok) / max(1, len(ok))}

    ckpt_dir = work_dir / CHECKPOINTS
    args = TrainingArguments(
        output_dir=str(ckpt_dir),
        num_train_epochs=config.epochs,
        per_device_train_batch_size=config.batch_size,
        per_device_eval_batch_size=max(32, config.batch_size),
        learning_rate=config.lr,
        weight_decay=config.weight_decay,
        warmup_steps=math.ceil(config.warmup_ratio * steps_per_epoch * config.epochs),
        seed=config.seed,
        data_seed=config.seed,
        eval_strategy="steps",
        eval_steps=eval_steps,
        save_strategy="steps",
        save_steps=eval_steps,
        save_total_limit=2,
        load_best_model_at_end=True,
        metric_for_best_model="pass_rate",
        greater_is_better=True,
        label_names=["allowed"],
        remove_unused_columns=False,
        report_to="none",
        disable_tqdm=True,
        logging_strategy="no",
        dataloader_num_workers=0,
        dataloader_pin_memory=torch.cuda.is_available(),
    )
    trainer = TargetTrainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=val_ds,
        data_collator=_Collator(tokenizer),
        compute_metrics=compute_metrics,
        callbacks=[_progress_callback(progress, description), *callbacks],
    )
    from transformers import PrinterCallback

    trainer.remove_callback(PrinterCallback)  # metrics go to the run folder, progress to the bar
    resume = last_checkpoint(ckpt_dir)
    trainer.train(resume_from_checkpoint=resume)
    state = trainer.state
    evals = [
        {"step": h["step"], "validation_pass_rate": h["eval_pass_rate"]} for h in state.log_history if "eval_pass_rate" in h
    ]
    tmp = model_out.with_name(f".{model_out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    trainer.model.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    if model_out.exists():
        shutil.rmtree(model_out)
    os.replace(tmp, model_out)
    return {
        "train_examples": len(train_ds),
        "validation_examples": len(val_ds),
        "steps": state.global_step,
        "eval_steps": eval_steps,
        "max_length": limit,
        "resumed_from": Path(resume).name if resume else None,
        "best_checkpoint": Path(state.best_model_checkpoint).name if state.best_model_checkpoint else None,
        "best_validation_pass_rate": state.best_metric,
        "evaluations": evals,
        "device": str(trainer.args.device),
    }
