"""The faithfulness paradigm (Ding & Koehn §3.2) on the card: input consistency (relevances before
and after swapping one word for another of the same tag, number and polarity) and model
consistency (relevances of the model and of a student distilled from it), both on SST sentences.

The measures are in :mod:`.faithfulness`; this module picks the texts, finds the student (a
Hugging Face model's: :func:`s2lct.trust.student.build_student`; a task model's:
:func:`s2lct.models.task.student.task_student`; any other model has none, and model consistency
says so) and shapes the card's section. Unlike the pointing-game paradigms its explanations are not
recorded one by one: an interrupted card recomputes this section (about a minute on cnn-sst2).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..explain.adapters import HFTokenClassifier, ModelHandle
from ..explain.base import Explainer
from ..explain.words import split_words
from .explaining import CardRun, applicable

if TYPE_CHECKING:
    from .card import CardOptions

#: Sentence length (words) of the texts sampled: long enough to have a content word to swap,
#: short enough that a relevance vector is about one opinion.
MIN_WORDS, MAX_WORDS = 6, 30


def sample_texts(n: int, seed: int, data_root: str | Path | None) -> tuple[list[str], list[str]]:
    """``n`` SST test+dev sentences of :data:`MIN_WORDS`–:data:`MAX_WORDS` words, with their labels (seeded)."""
    from .hybrid import load_pool

    pool = [s for s in load_pool(data_root=data_root) if MIN_WORDS <= len(split_words(s.text)) <= MAX_WORDS]
    picked = random.Random(f"s2lct-faithfulness:{seed}").sample(pool, min(n, len(pool)))
    return [s.text for s in picked], [s.label for s in picked]


def find_student(model: Any, handle: ModelHandle, run: CardRun, cache_dir: str | Path, data_root: str | Path | None) -> tuple[ModelHandle | None, dict[str, Any]]:
    """The student to compare with, or (None, the reason there is none)."""
    from ..explain.adapters import prepare_model
    from ..models.task.adapter import TaskModel

    if isinstance(model, TaskModel):
        from ..config import get_settings
        from ..models.task.student import task_student

        student, info = task_student(model, cache_dir=cache_dir, data_root=data_root or get_settings().data_root, log=run.log)
        return prepare_model(student), info
    if isinstance(handle.torch, HFTokenClassifier):
        from .student import student_handle

        run.log(f"distilling (or reading) the 2-layer student of {handle.name}")
        return student_handle(model, cache_dir=cache_dir, data_root=data_root, log=run.log)
    return None, {"reason": f"model consistency skipped: no student can be distilled from {handle.name!r} ({handle.kind}); "
                            f"Hugging Face transformers and the task models have one"}


def run_faithfulness(model: Any, handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: CardRun,
                     cache_dir: str | Path, data_root: str | Path | None) -> dict[str, Any]:
    from .faithfulness import input_consistency, model_consistency

    if not opts.faithfulness_texts:
        return {"status": "skipped", "reason": "faithfulness skipped (--faithfulness-texts 0)"}
    na: dict[str, str] = {}
    chosen = applicable(explainers, handle, na)
    texts, labels = sample_texts(opts.faithfulness_texts, opts.seed, data_root)
    task = run.progress(f"faithfulness: swapped texts × explainers ({handle.name})", None)
    try:
        inp = input_consistency(handle, chosen, texts, seed=opts.seed, labels=labels, workers=run.workers, threads=run.threads,
                                data_root=data_root, log=run.log, tick=task.advance)
        student, student_info = find_student(model, handle, run, cache_dir, data_root)
        if student is None:
            mod: dict[str, Any] = {"status": "skipped", "reason": student_info["reason"]}
        else:
            mod = model_consistency(handle, student, chosen, texts, seed=opts.seed, labels=labels, workers=run.workers,
                                    threads=run.threads, log=run.log, tick=task.advance, student_info=student_info)
    finally:
        task.close()
    rows: dict[str, dict[str, Any]] = {}
    for section, key in ((inp, "input_consistency"), (mod, "model_consistency")):
        for name, scores in section.get("explainers", {}).items():
            rows.setdefault(name, {})[key] = scores
        for name, reason in section.get("not_applicable", {}).items():
            na.setdefault(name, reason)
    for name in list(rows):
        if name in na:
            rows.pop(name)
    return {"status": "ok", "texts": len(texts), "source": "SST test+dev sentences", "input": inp, "model": mod,
            "explainers": rows, "not_applicable": na}
