"""Write a kit to a folder, and read its answer key back.

What participants get (the folder, less ``key/``): one CSV per task with what that task shows,
``answers.csv`` (an answer sheet: every question id with its valid answers and empty ``answer`` and
``confidence`` columns) and ``form.html`` (everything printable in one self-contained page). What
they must not get: ``key/answer_key.json`` — the answers, the texts of tasks 2–3, which model is A
and B, the explainer of each question and how the kit was made.

Every file is rendered in memory before the first is written, and each is written atomically
(:mod:`s2lct.atomic`), so an error leaves no partial kit; an interrupted write leaves whole files of
either kit, and the content hashes in the question ids tell an answers file of one kit from another.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ...atomic import write_text
from .form import render_form
from .kit import CHOICES, CONFIDENCE, HumanTaskError, Kit, Question

KEY_DIR = "key"
KEY_FILE = "answer_key.json"
KEY_FORMAT = "s2lct-human-tasks/1"
ANSWERS_FILE = "answers.csv"
FORM_FILE = "form.html"
TASK_FILES = {1: "task1_reasonable_model.csv", 2: "task2_guess_prediction.csv", 3: "task3_uncertain_case.csv"}
ANSWER_COLUMNS = ("question_id", "answer", "confidence")


def _csv(header: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    w.writerows(rows)
    return buf.getvalue()


def valid_answers(q: Question) -> str:
    return "|".join(q.choices)


def task_csv(kit: Kit, task: int) -> str:
    """What participants see of one task, one row per question (never the answer)."""
    qs = kit.task(task)
    if task == 1:
        return _csv(("question_id", "text", "both_models_predict", "model_a_evidence", "model_b_evidence", "valid_answers"),
                    [(q.id, q.text, q.predicted, q.evidence[0].shown(), q.evidence[1].shown(), valid_answers(q)) for q in qs])
    if task == 2:
        return _csv(("question_id", "evidence", "valid_answers"), [(q.id, q.evidence[0].shown(), valid_answers(q)) for q in qs])
    return _csv(("question_id", "predicted_class", "predicted_probability", "evidence_for_predicted_class", "other_class",
                 "evidence_for_other_class", "valid_answers"),
                [(q.id, q.predicted, f"{q.probabilities[0]:.3f}", q.evidence[0].shown(), q.other_class, q.evidence[1].shown(), valid_answers(q))
                 for q in qs])


def answer_sheet(kit: Kit) -> str:
    """``answers.csv``: every question, answer and confidence left empty for the participant."""
    return _csv(("question_id", "task", "valid_answers", "answer", "confidence"),
                [(q.id, q.task, valid_answers(q), "", "") for q in kit.questions])


def key_json(kit: Kit) -> dict[str, Any]:
    return {"format": KEY_FORMAT, "meta": kit.meta, "confidence": list(CONFIDENCE),
            "choices": {str(t): list(c) for t, c in CHOICES.items()}, "questions": [q.to_json() for q in kit.questions]}


def kit_files(kit: Kit) -> dict[str, str]:
    """Every file of the kit (path relative to the kit folder → content), the key last."""
    files = {TASK_FILES[t]: task_csv(kit, t) for t in sorted({q.task for q in kit.questions})}
    files[ANSWERS_FILE] = answer_sheet(kit)
    files[FORM_FILE] = render_form(kit)
    files[f"{KEY_DIR}/{KEY_FILE}"] = json.dumps(key_json(kit), sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    return files


def write_kit(kit: Kit, out: str | Path) -> list[Path]:
    """Write the kit into ``out`` (see the module docstring); returns the paths written."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise HumanTaskError(f"{out}: not a folder; --out names the kit folder to write")
    files = kit_files(kit)  # everything rendered before anything is written
    written = []
    for rel, text in files.items():
        write_text(out / rel, text)
        written.append(out / rel)
    return written


def find_key(key: str | Path | None, answers: Sequence[str | Path] = ()) -> Path:
    """The key file from ``--key`` (a kit folder or the file itself), or, without it, the kit folder
    the first answers file lies in or under (``kit/answers.csv``, ``kit/filled/answers.csv``)."""
    if key is not None:
        p = Path(key)
        for cand in (p, p / KEY_DIR / KEY_FILE, p / KEY_FILE):
            if cand.is_file():
                return cand
        raise HumanTaskError(f"{p}: no answer key there (a kit folder holding {KEY_DIR}/{KEY_FILE}, or that file)")
    if answers:
        first = Path(answers[0]).resolve()
        for folder in list(first.parents)[:3]:
            cand = folder / KEY_DIR / KEY_FILE
            if cand.is_file():
                return cand
    where = f" beside {answers[0]}" if answers else ""
    raise HumanTaskError(f"no answer key found{where}; pass --key KIT_FOLDER (or the {KEY_DIR}/{KEY_FILE} file)")


def load_key(path: str | Path) -> Kit:
    """A kit from its answer key (a kit folder or the key file)."""
    p = find_key(path)
    try:
        data = json.loads(p.read_text(encoding="utf-8"))
        if data.get("format") != KEY_FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {KEY_FORMAT!r}")
        return Kit([Question.from_json(q) for q in data["questions"]], data.get("meta", {}))
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise HumanTaskError(f"{p}: not an answer key of s2lct export-human-tasks ({exc})") from None
