"""``s2lct build-task-model NAME``: train one of the papers' task models into the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from s2lct.models.base import ModelError

from .training import TrainingOptions, train_task_model


def build_task_model(name: str, *, opts: TrainingOptions | None = None, out: Path | None = None, force: bool = False,
                     cache_dir: str | Path | None = None, data_root: str | Path | None = None,
                     progress: Any = None, log: Any = None) -> tuple[Path, dict[str, Any] | None]:
    """Train ``name`` (a key of :data:`~s2lct.models.registry.TASK_MODELS`, or a number-prediction
    model of :data:`~s2lct.models.registry.NUMBER_MODELS`) into its cache folder (or ``out``). Returns (folder, config); config is None when the model was already built and
    ``force`` is not set."""
    from s2lct.config import get_settings
    from s2lct.corpus.sst2 import load_sst2
    from s2lct.models.registry import NUMBER_MODELS, TASK_MODELS, task_model_folder
    from s2lct.suggest import unknown_name

    from .adapter import is_task_model_folder

    key = name.strip().lower()
    buildable = [*TASK_MODELS, *NUMBER_MODELS.values()]
    if key not in buildable:
        raise ModelError(unknown_name("task model", name, buildable, valid_label="buildable"))
    settings = get_settings(cache_dir=cache_dir, data_root=data_root)
    folder = Path(out) if out is not None else task_model_folder(key, settings.cache_dir)
    if is_task_model_folder(folder) and not force:
        return folder, None
    if key in NUMBER_MODELS.values():
        from .number import build_number_model

        number_opts = TrainingOptions(**{**opts.__dict__, "epochs": min(opts.epochs, 2)}) if opts else None
        return folder, build_number_model(folder, Path(settings.data_root), number_opts, progress=progress, log=log)
    root = Path(settings.data_root) / "sst2_glue"
    train, dev = load_sst2(root / "train.tsv"), load_sst2(root / "dev.tsv")
    info = train_task_model(TASK_MODELS[key], train, dev, folder, opts, name=key, progress=progress, log=log)
    return folder, info
