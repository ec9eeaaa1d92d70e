"""Score participants' answers against a kit's key, as the paper does (§3, Table 1 and Table 4).

An answers file is a CSV with the columns ``question_id``, ``answer`` and ``confidence`` (others are
ignored, so the ``answers.csv`` sheet of the kit is one once filled in); one file is one
participant and must answer every question of the key exactly once. Answers are compared without
regard to case; ``no preference`` is read as ``none``; the confidence of a ``none`` answer is
ignored and may be empty. Anything else — a missing question, an id the key does not know, a
second row for a question, an answer or confidence outside the valid values — is an
:class:`AnswersError` naming the lines and ids and what is valid.

Per task and explainer (the paper's Table 4 layout):

* ``score``: mean points per answer (+1 / +0.5 correct, −1 / −0.5 incorrect when confident /
  unconfident, 0 for no preference), and the same over inputs the model(s) predicted correctly
  (✔) and misclassified (✘);
* ``correct_share``: share of answers equal to the key — task 1 the share choosing the better model,
  task 2 the share equal to the model's prediction, task 3 the share equal to the gold label;
* ``no_preference_share`` (tasks 1–2); task 3 also ``model_accuracy``, the share the participant
  would get by always trusting the prediction (by construction about half: §4.4's balance).

Several files (participants) are pooled: every answer counts once, as the paper averaged its three
crowd workers per question before averaging over questions (the same mean when every file is whole).
"""

from __future__ import annotations

import csv
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...errors import S2LCTError
from .export import ANSWER_COLUMNS, find_key, load_key
from .kit import CONFIDENCE, NO_PREFERENCE, TASK_NAMES, Kit, Question, points

_SHOWN = 8  # ids listed per problem before "and N more"


class AnswersError(S2LCTError):
    """An answers file does not answer the key's questions exactly once with valid values."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Answer:
    question_id: str
    answer: str  # as in the key's choices (or "none")
    confidence: str | None
    line: int


def _listed(items: Sequence[str]) -> str:
    more = f" and {len(items) - _SHOWN} more" if len(items) > _SHOWN else ""
    return ", ".join(items[:_SHOWN]) + more


def _normalise(value: str, choices: Sequence[str]) -> str | None:
    v = " ".join(value.split()).lower()
    if v == "no preference":
        v = NO_PREFERENCE
    return next((c for c in choices if c.lower() == v), None)


def read_answers(path: str | Path, kit: Kit) -> list[Answer]:
    """One participant's answers, checked against ``kit`` (see the module docstring)."""
    path = Path(path)
    try:
        with open(path, encoding="utf-8-sig", newline="") as fh:
            rows = list(csv.reader(fh))
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise AnswersError(f"{path}: cannot read the answers file ({exc})") from None
    if not rows:
        raise AnswersError(f"{path}: empty; an answers file has the columns {', '.join(ANSWER_COLUMNS)} and one row per question")
    header = [h.strip().lower() for h in rows[0]]
    if absent := [c for c in ANSWER_COLUMNS if c not in header]:
        raise AnswersError(f"{path}: no column {', '.join(repr(c) for c in absent)}; an answers file has the columns "
                           f"{', '.join(ANSWER_COLUMNS)} (the kit's answers.csv, filled in)")
    col = {c: header.index(c) for c in ANSWER_COLUMNS}
    questions = kit.by_id()
    seen: dict[str, int] = {}
    answers: list[Answer] = []
    unknown, duplicate, bad_answer, bad_conf, no_id = [], [], [], [], []
    for line, row in enumerate(rows[1:], 2):
        cell = {c: (row[i].strip() if i < len(row) else "") for c, i in col.items()}
        if not any(x.strip() for x in row):
            continue  # blank line
        qid = cell["question_id"]
        if not qid:
            no_id.append(f"line {line}")
            continue
        q = questions.get(qid)
        if q is None:
            unknown.append(f"line {line} ({qid})")
            continue
        if qid in seen:
            duplicate.append(f"line {line} ({qid}, first on line {seen[qid]})")
            continue
        seen[qid] = line
        answer = _normalise(cell["answer"], q.choices)
        if answer is None:
            got = repr(cell["answer"]) if cell["answer"] else "no answer"
            bad_answer.append(f"line {line} ({qid}): {got}, valid {'/'.join(q.choices)}")
            continue
        conf = _normalise(cell["confidence"], CONFIDENCE)
        if answer != NO_PREFERENCE and conf is None:
            got = repr(cell["confidence"]) if cell["confidence"] else "none given"
            bad_conf.append(f"line {line} ({qid}): {got}")
            continue
        answers.append(Answer(qid, answer, conf if answer != NO_PREFERENCE else None, line))
    missing = [q.id for q in kit.questions if q.id not in seen]
    problems = []
    if missing:
        problems.append(f"{len(missing)} of {len(questions)} questions missing: {_listed(missing)}")
    if unknown:
        problems.append(f"{len(unknown)} extra row(s) with a question id the key does not have (valid: the ids of the kit's "
                        f"answers.csv, e.g. {kit.questions[0].id}): {_listed(unknown)}")
    if duplicate:
        problems.append(f"{len(duplicate)} extra row(s) answering a question again: {_listed(duplicate)}")
    if no_id:
        problems.append(f"row(s) without a question_id: {_listed(no_id)}")
    if bad_answer:
        problems.append(f"invalid answer on {_listed(bad_answer)}")
    if bad_conf:
        problems.append(f"invalid confidence on {_listed(bad_conf)} (valid: {'/'.join(CONFIDENCE)}; "
                        f"may be empty only for {NO_PREFERENCE})")
    if problems:
        raise AnswersError(f"{path}: " + "; ".join(problems))
    return answers


def _mean(xs: Sequence[float]) -> float | None:
    return round(sum(xs) / len(xs), 4) if xs else None


def _row(task: int, explainer: str, qs: Sequence[Question], scored: Sequence[tuple[Question, Answer]]) -> dict[str, Any]:
    pts = [(q, a, 0.0 if a.answer == NO_PREFERENCE else points(a.answer == q.answer, a.confidence or "")) for q, a in scored]
    row: dict[str, Any] = {
        "task": task, "name": TASK_NAMES[task], "explainer": explainer, "questions": len(qs), "answers": len(pts),
        "score": _mean([p for _, _, p in pts]),
        "score_prediction_correct": _mean([p for q, _, p in pts if q.prediction_correct]),
        "score_prediction_wrong": _mean([p for q, _, p in pts if not q.prediction_correct]),
        "correct_share": _mean([float(a.answer == q.answer) for q, a, _ in pts]),
    }
    if task in (1, 2):
        row["no_preference_share"] = _mean([float(a.answer == NO_PREFERENCE) for _, a, _ in pts])
    else:
        row["model_accuracy"] = _mean([float(q.predicted == q.gold) for q in qs])
    return row


def score_answers(answers_csv: str | Path | Sequence[str | Path], key: str | Path | Kit | None = None) -> dict[str, Any]:
    """Scores per task and explainer of one or more answers files (one per participant).

    ``key``: the kit (a folder holding ``key/answer_key.json``, that file, or a :class:`Kit`);
    without it, the kit folder the first answers file lies in. Raises :class:`AnswersError` on a
    file that does not answer every question exactly once with valid values.
    """
    files = [answers_csv] if isinstance(answers_csv, (str, Path)) else list(answers_csv)
    if not files:
        raise AnswersError("no answers file given")
    if isinstance(key, Kit):
        kit, key_path = key, None
    else:
        key_path = find_key(key, files)
        kit = load_key(key_path)
    questions = kit.by_id()
    scored: list[tuple[Question, Answer]] = []
    for f in files:
        scored += [(questions[a.question_id], a) for a in read_answers(f, kit)]
    rows = []
    for task in sorted({q.task for q in kit.questions}):
        named = list(kit.meta.get("explainers") or [])
        found = {q.explainer for q in kit.questions if q.task == task}
        for explainer in sorted(found, key=lambda e: (named.index(e) if e in named else len(named), e)):
            qs = [q for q in kit.questions if q.task == task and q.explainer == explainer]
            rows.append(_row(task, explainer, qs, [(q, a) for q, a in scored if q.task == task and q.explainer == explainer]))
    return {"key": str(key_path) if key_path else None, "answers_files": [str(f) for f in files], "participants": len(files),
            "model": kit.meta.get("model"), "other_model": kit.meta.get("other_model"), "rows": rows}
