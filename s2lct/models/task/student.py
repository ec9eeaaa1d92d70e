"""The distilled student of a task model, for the card's model consistency (Ding & Koehn §3.2).

A task model's student has the teacher's architecture at a third of its width (100-dimensional
embeddings, a main layer of 50) and learns from the teacher's output distribution over SST-2
train (two epochs); the epoch kept agrees best with the teacher on SST-2 dev. It is cached under
``<cache_dir>/students/<hash of the teacher's identity and the recipe>`` and rebuilt only when the
teacher or the recipe changes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from s2lct.atomic import short_hash

from .adapter import TaskModel, is_task_model_folder
from .training import TrainingOptions, distil_task_model

STUDENT_RECIPE = TrainingOptions(epochs=2, embedding_dim=100, hidden=50, seed=0, threads=1)


def task_student(teacher: TaskModel, *, cache_dir: str | Path, data_root: str | Path, log: Any = None) -> tuple[TaskModel, dict[str, Any]]:
    """(the student, what is known about it: recipe, agreement with the teacher on SST-2 dev, cached)."""
    from s2lct.corpus.sst2 import load_sst2

    recipe = {k: v for k, v in STUDENT_RECIPE.__dict__.items() if k not in ("threads", "extra")}
    folder = Path(cache_dir) / "students" / short_hash(teacher.identity, json.dumps(recipe, sort_keys=True))
    cached = is_task_model_folder(folder)
    if not cached:
        if log:
            log(f"distilling a student of {teacher.name} (a third of its width, on its outputs over SST-2 train)")
        root = Path(data_root) / "sst2_glue"
        train = [t for t, _ in load_sst2(root / "train.tsv")]
        dev = [t for t, _ in load_sst2(root / "dev.tsv")]
        distil_task_model(teacher, train, dev, folder, STUDENT_RECIPE)
    student = TaskModel(folder, name=f"{teacher.name}-student")
    training = student.info["training"]
    return student, {"name": student.name, "recipe": recipe, "agreement_with_teacher_on_sst2_dev": training["dev_accuracy"],
                     "dev_rows": training["dev_rows"], "seconds": training["seconds"], "cached": cached, "folder": str(folder)}
