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
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..atomic import write_json
from ..cache import load_json_or
from ..progress import ProgressFactory, ProgressTask
from ..quiet_libraries import quiet_transformers
from .targets import Band, target_loss

CHECKPOINTS = "checkpoints"
LABEL_NAMES = ("allowed", "general")  # what the Trainer hands compute_metrics as label_ids


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
    l2sp: float = 0.0  # strength of the pull towards the starting weights (0: off; s2lct.retrain.l2sp)
    lora_rank: int = 0  # LoRA adapters of this rank instead of full fine-tuning (0: off; s2lct.retrain.lora)
    ordered: bool = False  # keep the given example order (label-balanced batches, s2lct.retrain.training_set)
    select: str = "validation"  # checkpoint kept: best validation pass rate, or "joint" (s2lct.retrain.selection)
    patience: int | None = None  # stop after this many evaluations without a better checkpoint (None: never)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Example:
    text: str
    allowed: tuple[float, float, float]
    source: str = "case"  # "case", "task" (a task sentence mixed in or a balancing partner) or "general" (joint selection only)


class _Encoded:
    """A list-backed torch dataset of tokenized examples."""

    def __init__(self, tokenizer: Any, examples: Sequence[Example], max_length: int) -> None:
        enc = tokenizer([e.text for e in examples], truncation=True, max_length=max_length)
        self.rows = [
            {**{k: v[i] for k, v in enc.items()}, "allowed": list(e.allowed), "general": float(e.source == "general")}
            for i, e in enumerate(examples)
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

        inputs = [{k: v for k, v in r.items() if k not in LABEL_NAMES} for r in rows]
        batch = self.tokenizer.pad(inputs, padding=True, return_tensors="pt")
        batch["allowed"] = torch.tensor([r["allowed"] for r in rows], dtype=torch.float32)
        batch["general"] = torch.tensor([r["general"] for r in rows], dtype=torch.float32)
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


def _StepClock() -> Any:  # noqa: N802 - a factory: transformers is imported lazily
    """Seconds spent in training steps (forward, backward, optimizer, callbacks), evaluations excluded."""
    from transformers import TrainerCallback

    class StepClock(TrainerCallback):
        seconds = 0.0
        _t = 0.0

        def on_step_begin(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            self._t = time.perf_counter()

        def on_step_end(self, args, state, control, **kw):  # type: ignore[no-untyped-def]
            self.seconds += time.perf_counter() - self._t

    return StepClock()


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
    general: Sequence[Example] = (),
    progress: ProgressFactory | None = None,
    callbacks: Sequence[Any] = (),
    description: str = "fine-tuning",
) -> dict[str, Any]:
    """Train from ``source`` (a HF folder or hub name), keep the best checkpoint, save it.

    The checkpoint kept is the best by ``config.select`` (:mod:`s2lct.retrain.selection`; ``general``
    examples are scored beside ``validation`` for the joint criterion). Checkpoints go to
    ``work_dir/checkpoints``; an existing checkpoint there is resumed. The model folder
    ``model_out`` is written whole or not at all (saved beside it, then renamed), LoRA adapters merged.
    """
    import torch
    from torch.utils.data import SequentialSampler
    from transformers import AutoModelForSequenceClassification, AutoTokenizer, EarlyStoppingCallback, Trainer, TrainingArguments, set_seed

    from .l2sp import l2sp_callback
    from .lora import merged, with_lora
    from .selection import evaluation_metrics

    quiet_transformers()
    work_dir, model_out = Path(work_dir), Path(model_out)
    joint = config.select == "joint"
    if joint and not general:
        raise ValueError("joint checkpoint selection needs general examples (s2lct.retrain.training_set.load_general)")
    set_seed(config.seed)
    tokenizer = AutoTokenizer.from_pretrained(source)
    model = AutoModelForSequenceClassification.from_pretrained(source)
    extra_callbacks = [l2sp_callback(model, config.l2sp)] if config.l2sp > 0 else []
    if config.lora_rank:
        model = with_lora(model, config.lora_rank)
    limit = config.max_length or min(int(getattr(tokenizer, "model_max_length", 512) or 512), 512)
    train_ds = _Encoded(tokenizer, train, limit)
    val_ds = _Encoded(tokenizer, [*validation, *(general if joint else ())], limit)
    steps_per_epoch = max(1, math.ceil(len(train_ds) / config.batch_size))
    eval_steps = max(1, math.ceil(steps_per_epoch / max(1, config.evals_per_epoch)))
    classes = list(classes)
    start_accuracy: dict[str, float] = {}

    class TargetTrainer(Trainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):  # type: ignore[no-untyped-def]
            allowed = inputs.pop("allowed")
            inputs.pop("general", None)
            outputs = model(**inputs)
            loss = target_loss(outputs.logits, allowed, classes, band)
            return (loss, outputs) if return_outputs else loss

        def _get_train_sampler(self, train_dataset=None):  # type: ignore[no-untyped-def]
            # balanced batches come pre-arranged (s2lct.retrain.training_set): keep their order
            return SequentialSampler(train_dataset or self.train_dataset) if config.ordered else super()._get_train_sampler(train_dataset)

    def compute_metrics(pred: Any) -> dict[str, float]:
        allowed, is_general = pred.label_ids
        return evaluation_metrics(pred.predictions, allowed, is_general, classes, band, start_accuracy.get("value"))

    ckpt_dir = work_dir / CHECKPOINTS
    args = TrainingArguments(
        output_dir=str(ckpt_dir),
        num_train_epochs=config.epochs,
        per_device_train_batch_size=config.batch_size,
        per_device_eval_batch_size=max(32, config.batch_size),
        learning_rate=config.lr,
        weight_decay=0.0 if config.l2sp > 0 else config.weight_decay,  # L2-SP replaces the pull towards zero
        warmup_steps=math.ceil(config.warmup_ratio * steps_per_epoch * config.epochs),
        seed=config.seed,
        data_seed=config.seed,
        eval_strategy="steps",
        eval_steps=eval_steps,
        save_strategy="steps",
        save_steps=eval_steps,
        save_total_limit=2,
        load_best_model_at_end=True,
        metric_for_best_model="joint" if joint else "pass_rate",
        greater_is_better=True,
        label_names=list(LABEL_NAMES),
        remove_unused_columns=False,
        report_to="none",
        disable_tqdm=True,
        logging_strategy="no",
        dataloader_num_workers=0,
        dataloader_pin_memory=torch.cuda.is_available(),
    )
    stopping = [EarlyStoppingCallback(early_stopping_patience=config.patience)] if config.patience else []
    clock = _StepClock()
    trainer = TargetTrainer(
        model=model,
        args=args,
        train_dataset=train_ds,
        eval_dataset=val_ds,
        data_collator=_Collator(tokenizer),
        compute_metrics=compute_metrics,
        callbacks=[_progress_callback(progress, description), clock, *extra_callbacks, *stopping, *callbacks],
    )
    from transformers import PrinterCallback

    trainer.remove_callback(PrinterCallback)  # metrics go to the run folder, progress to the bar
    start = None
    if joint:  # the starting model, scored the same way: the accuracy to keep, and the score to beat
        start_file = work_dir / "start-evaluation.json"
        start = load_json_or(start_file, None)
        if not isinstance(start, dict):
            start = {k.removeprefix("eval_"): v for k, v in trainer.evaluate().items() if k.startswith("eval_")}
            write_json(start_file, start)
        start_accuracy["value"] = start["general_accuracy"]
        start["joint"] = start["pass_rate"]
    resume = last_checkpoint(ckpt_dir)
    started = time.perf_counter()
    trainer.train(resume_from_checkpoint=resume)
    seconds = time.perf_counter() - started
    state = trainer.state
    key = "eval_joint" if joint else "eval_pass_rate"
    evals = [
        {"step": h["step"], "validation_pass_rate": h["eval_pass_rate"],
         **({"general_accuracy": h["eval_general_accuracy"], "joint": h["eval_joint"]} if joint else {})}
        for h in state.log_history if key in h
    ]
    kept_start = bool(joint and start is not None and (state.best_metric is None or state.best_metric <= start["joint"]))
    final = AutoModelForSequenceClassification.from_pretrained(source) if kept_start else merged(trainer.model)
    tmp = model_out.with_name(f".{model_out.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    final.save_pretrained(str(tmp))
    tokenizer.save_pretrained(str(tmp))
    if model_out.exists():
        shutil.rmtree(model_out)
    os.replace(tmp, model_out)
    return {
        "train_examples": len(train_ds),
        "validation_examples": len(validation),
        "general_examples": len(general) if joint else 0,
        "steps": state.global_step,
        # wall-clock figures vary run to run: the loop keeps them out of the deterministic outputs
        "timing": {"train_seconds": round(seconds, 3), "step_seconds": round(clock.seconds, 3),
                   "examples_seen": min(state.global_step * config.batch_size, math.ceil(len(train_ds) * config.epochs))},
        "eval_steps": eval_steps,
        "max_length": limit,
        "resumed_from": Path(resume).name if resume else None,
        "best_checkpoint": None if kept_start else (Path(state.best_model_checkpoint).name if state.best_model_checkpoint else None),
        "best_validation_pass_rate": start["pass_rate"] if kept_start and start else
        next((e["validation_pass_rate"] for e in evals if state.best_model_checkpoint and
              state.best_model_checkpoint.endswith(f"-{e['step']}")), state.best_metric),
        "selection": config.select,
        "start": start,
        "kept_start": kept_start,
        "evaluations": evals,
        "device": str(trainer.args.device),
    }
