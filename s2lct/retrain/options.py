"""What decides a retrain run (``RetrainOptions``, recorded in ``run.json``), which models can be
fine-tuned, and claiming the run folder: a folder holding another run is refused unless resumed
or overwritten."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..atomic import sha256_file, write_json
from ..cache import load_json_or
from ..errors import S2LCTError
from ..models import HF_ALIASES, LOCAL_ALIASES, load_model
from ..models.base import SentimentModel
from ..suite import suite_files
from .train import TrainConfig

RUN_FILE = "run.json"
Log = Callable[[str], None]


class RetrainError(S2LCTError):
    exit_code = 2


@dataclass(frozen=True)
class RetrainOptions:
    """Everything that decides a run's result (recorded in ``run.json``)."""

    model: str
    capabilities: tuple[str, ...]
    suite: str
    epochs: float = 1.0
    batch_size: int = 16
    lr: float = 5e-5
    mix_original: float = 0.0
    seed: int = 0
    rounds: int = 1
    replay: float = 0.5
    max_length: int | None = None
    matrix: bool = False
    max_eval_cases: int | None = None
    method: str = "finetune"
    balance: bool = False
    l2sp: float = 0.0
    lora_rank: int = 0
    select: str = "validation"
    patience: int | None = None
    protocol: str = "seed"
    groups: str | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["capabilities"] = list(self.capabilities)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RetrainOptions:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        kw["capabilities"] = tuple(kw["capabilities"])
        return cls(**kw)

    def train_config(self) -> TrainConfig:
        return TrainConfig(epochs=self.epochs, batch_size=self.batch_size, lr=self.lr, seed=self.seed, max_length=self.max_length,
                           l2sp=self.l2sp, lora_rank=self.lora_rank, ordered=self.balance, select=self.select,
                           patience=self.patience)

    @property
    def needs_task_sentences(self) -> bool:
        return self.mix_original > 0 or self.balance or self.select == "joint"


def fine_tunable_models() -> str:
    return ", ".join([*HF_ALIASES, *LOCAL_ALIASES]) + ", a local Hugging Face model folder or a hub name (org/model)"


def load_trainable(name: str, *, models_dir: Any = None, max_length: int | None = None, cache_dir: Any = None) -> SentimentModel:
    """The model as a :class:`HuggingFaceModel`; anything else cannot be fine-tuned (one-line error)."""
    from ..models.huggingface import HuggingFaceModel

    model = load_model(name, models_dir=models_dir, max_length=max_length, cache_dir=cache_dir)
    if not isinstance(model, HuggingFaceModel):
        from .methods import METHODS

        raise RetrainError(
            f"model {name!r} is a {model.kind} model and cannot be fine-tuned; no retrain method applies to it "
            f"({', '.join(METHODS)} all need a Hugging Face classifier: {fine_tunable_models()})"
        )
    return model


def check_lora(base: Any, lora_rank: int) -> None:
    """LoRA needs attention layers peft can target: say which methods apply otherwise."""
    if not lora_rank:
        return
    from transformers import AutoConfig

    from .lora import TARGETS
    from .methods import methods_for

    arch = getattr(AutoConfig.from_pretrained(base.source), "model_type", "")
    if arch not in TARGETS:
        raise RetrainError(f"LoRA does not apply to {base.name!r} (a {arch!r} model; LoRA knows {', '.join(sorted(TARGETS))}); "
                           f"methods that apply: {', '.join(methods_for(lora=False))}")


def suite_digest(suite: Path) -> str:
    from ..atomic import short_hash

    return short_hash(*(f"{cap}:{sha256_file(p)}" for cap, p in sorted(suite_files(suite).items())), length=16)


def prepare_out(out: Path, record: dict[str, Any], *, resume: bool, overwrite: bool, log: Log) -> dict[str, Any]:
    """Claim ``out`` for this run; returns the record to use (the folder's own with ``resume``)."""
    run_file = out / RUN_FILE
    if overwrite and out.exists():
        if out.is_dir() and (run_file.is_file() or not any(out.iterdir())):
            shutil.rmtree(out)
        else:
            raise RetrainError(f"--overwrite: {out} exists and is not a retrain run folder (no {RUN_FILE}); choose another --out")
    if run_file.is_file():
        old = load_json_or(run_file, None)
        if old == record:
            log(f"resuming the run in {out}")
            return record
        if not isinstance(old, dict) or "options" not in old:
            raise RetrainError(f"{run_file} is unreadable; pass --overwrite to start afresh in {out}")
        if resume:
            log(f"resuming the run recorded in {run_file} (its settings win over the arguments given)")
            return old
        diff = sorted(k for k in set(old["options"]) | set(record["options"]) if old["options"].get(k) != record["options"].get(k))
        if old.get("base_identity") != record.get("base_identity"):
            diff.append("model weights")
        if old.get("suite_digest") != record.get("suite_digest"):
            diff.append("suite content")
        raise RetrainError(
            f"{out} already holds a different retrain run (differs in: {', '.join(diff) or 'settings'}); "
            f"pass --resume to continue that run, --overwrite to replace it, or choose another --out"
        )
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise RetrainError(f"--out {out} exists and is not a retrain run folder; pass --overwrite or choose another --out")
    write_json(run_file, record)
    return record
