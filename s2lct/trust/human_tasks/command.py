"""``s2lct export-human-tasks`` and ``s2lct score-human-tasks``: the bodies behind the CLI.

Task 1 needs a worse model beside the model under test. Default: ``vader`` (``textblob`` when the
model under test is vader). Both are offline lexicon models, far below a fine-tuned transformer on
SST (accuracy on the 2,693 polar sentences of SST test+dev: vader 0.58, textblob 0.54; minilm-sst2
0.92 on the first 400 of them), and the perturbation explainers apply to them: they stand for the
paper's underfitted CNN (§4.2: a model with clearly worse test performance). A gradient explainer cannot explain them: the
error says so and asks for ``--other-model`` (a weaker checkpoint of a torch model). The kit records
both models' accuracy on the texts it read, and the command warns when the other model is not the
less accurate one, since task 1's key counts the model under test as the more reasonable.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...errors import S2LCTError
from .kit import HumanTaskError

DEFAULT_INPUTS = 20
SCORE_LEGEND = (
    "score: mean points per answer (+1/+0.5 right when confident/unconfident, -1/-0.5 wrong, 0 no preference; "
    "Lertvittayakumjorn & Toni 2019, Table 1); ✔/✘: on inputs the model(s) classified correctly / misclassified. "
    "right: share of answers equal to the key (task 1: the better model; task 2: the model's prediction; task 3: "
    "the gold label). no pref.: share of no-preference answers (tasks 1-2). model acc.: share right by always trusting the "
    "prediction (task 3)."
)


def default_other_model(model: str) -> str:
    """Task 1's worse model when none is given (see the module docstring)."""
    return "textblob" if model.strip().lower() == "vader" else "vader"


def _fmt(x: float | None, signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def export_command(model: str, explainers: str, out: Path, *, other_model: str | None = None, inputs: int = DEFAULT_INPUTS,
                   seed: int = 0, models_dir: Path | None = None, data_root: Path | None = None, table: Path | None = None,
                   quiet: bool = False, force_progress: bool = False) -> int:
    """Build the kit and write it to ``out``; returns the exit code (user errors: one line, code 2)."""
    from rich.console import Console
    from rich.table import Table

    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.registry import parse_explainers
    from s2lct.models import load_model
    from s2lct.progress import progress_for

    from ..hybrid import load_pool
    from .export import KEY_DIR, KEY_FILE, TASK_FILES, write_kit
    from .questions import build_questions, check_applicable

    t0 = time.perf_counter()
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    try:
        if out.exists() and not out.is_dir():
            raise HumanTaskError(f"{out}: not a folder; --out names the kit folder to write")
        exps = parse_explainers(explainers)
        other_name = other_model or default_other_model(model)
        if other_name.strip().lower() == model.strip().lower():
            raise HumanTaskError(f"task 1 compares two models: --other-model must differ from --model ({model!r})")
        handle = prepare_model(load_model(model, models_dir=models_dir))
        check_applicable(exps, handle)
        other = prepare_model(load_model(other_name, models_dir=models_dir))
        try:
            check_applicable(exps, other, "the other ")
        except HumanTaskError as exc:
            if other_model is None:
                raise HumanTaskError(f"{exc} ({other_name} is task 1's default worse model; pass --other-model with a model "
                                     f"the explainer can explain, e.g. a weaker checkpoint)") from None
            raise
        pool = load_pool(table, data_root=data_root)
        with progress_for(quiet, force_progress) as bars:
            kit = build_questions(handle, exps, pool, other_model=other, n=inputs, seed=seed, progress=bars)
        write_kit(kit, out)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    meta = kit.meta
    t = Table(title=f"human task kit: {meta['model']} vs {meta['other_model']} (task 1), explainers {', '.join(meta['explainers'])}",
              title_justify="left")
    for col in ("task", "inputs", "✔", "✘", "questions", "file"):
        t.add_column(col, justify="left" if col in ("task", "file") else "right", overflow="fold")
    for task, info in meta["tasks"].items():
        t.add_row(task, str(info["inputs"]), str(info["inputs_predicted_correctly"]), str(info["inputs_misclassified"]),
                  str(info["questions"]), TASK_FILES[int(task)])
    Console(highlight=False).print(t)
    pool_info = meta["pool"]
    for task, info in meta["tasks"].items():
        if info["short_of_inputs"]:
            err.print(f"task {task}: only {info['inputs']} of {inputs} inputs in the pool", markup=False)
        if info["correct_in_place_of_misclassified"] or info["inputs_misclassified"] < info["inputs"] // 2:
            err.print(f"task {task}: {info['inputs_misclassified']} misclassified inputs, fewer than half (the pool has too few); "
                      f"the rest are classified correctly", markup=False)
    acc, other_acc = pool_info.get("accuracy"), pool_info.get("other_accuracy")
    if acc is not None and other_acc is not None and other_acc >= acc:
        err.print(f"warning: the other model {meta['other_model']!r} is not less accurate than {meta['model']!r} on the "
                  f"{pool_info['texts_read']} texts read ({other_acc:.2f} vs {acc:.2f}); task 1's key still counts "
                  f"{meta['model']!r} as the more reasonable model", markup=False)
    err.print(f"wrote {out}: give participants everything except {KEY_DIR}/{KEY_FILE} (the answers); score with "
              f"s2lct score-human-tasks ANSWERS.csv --key {out} ({time.perf_counter() - t0:.1f} s)", markup=False)
    return 0


def scores_table(result: dict[str, Any]) -> Any:
    """The scores on a terminal: one row per task and explainer, fitting 80 columns, legend below."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .kit import TASK_NAMES

    t = Table(title=f"human task scores: {result.get('model')} ({result['participants']} answers file(s))", title_justify="left")
    for col in ("task", "explainer", "n", "score", "✔", "✘", "right", "no\npref.", "model\nacc."):
        t.add_column(col, justify="left" if col in ("task", "explainer") else "right", overflow="fold")
    for r in result["rows"]:
        t.add_row(str(r["task"]), r["explainer"], str(r["answers"]), _fmt(r["score"], True), _fmt(r["score_prediction_correct"], True),
                  _fmt(r["score_prediction_wrong"], True), _fmt(r["correct_share"]), _fmt(r.get("no_preference_share")),
                  _fmt(r.get("model_accuracy")))
    tasks = "; ".join(f"{k}: {v}" for k, v in TASK_NAMES.items() if any(r["task"] == k for r in result["rows"]))
    return Group(t, Text(f"tasks {tasks}. {SCORE_LEGEND}", style="dim"))


def score_command(answers: Sequence[Path], key: Path | None = None, json_out: Path | None = None) -> int:
    """Score answers files against the kit's key, print the table, optionally write JSON; returns the exit code."""
    import json

    from rich.console import Console

    from s2lct.atomic import write_text

    from .scoring import score_answers

    try:
        result = score_answers(list(answers), key)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    Console(highlight=False).print(scores_table(result))
    if json_out is not None:
        write_text(json_out, json.dumps(result, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    return 0
