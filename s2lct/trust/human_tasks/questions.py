"""Build the questions of the three tasks: select inputs, explain them, decide what is shown and the key.

Per task (the paper's Table 1, "Information displayed" and "Human task"):

* Task 1: the input text, the class both models predict, each model's top-m evidence (highlighted);
  answer: the model under test (the well-trained one) — which of models A and B it is is drawn per
  question, balanced per explainer, so always answering "A" scores 0 on average.
* Task 2: the top-m evidence only; answer: the class the model predicted (§3.2: "an explanation
  method gets a positive score when a human guesses the same incorrect class").
* Task 3: the predicted class and its probability, top-m evidence and top-m counter-evidence (shown
  as evidence for the other class, footnote 1), not the text; answer: the gold label.

With several explainers every explainer gets a question on the same inputs (as the paper's nine
methods did); each task's questions are then shuffled with the seed, so one input's questions are
not next to each other. Ids are ``T<task>-<position>-<hash>``: the hash covers what the participant
sees (never the answer), so ids are stable for the same inputs and seed, and an answers file from
another kit is caught as unknown ids.

An explainer that fails its completeness check on an input (IG, DeepLIFT: ``CaseNotApplicable``)
drops that input for every explainer and the next pool text takes its place; one that fails on its
first inputs without a success is not applicable to the model (as ``s2lct explain`` decides).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from ...atomic import short_hash
from ...explain.adapters import ModelHandle
from ...explain.base import CASE_FAILURES_BEFORE_GIVING_UP, CaseFailures, CaseNotApplicable, Explainer, Explanation
from ...progress import ProgressFactory, no_progress
from .evidence import top_counter_evidence, top_evidence
from .kit import CLASSES, PAPER, TASKS, TAU_HIGH, TAU_LOW, Evidence, HumanTaskError, Kit, M, Question
from .selection import Candidate, Quotas, ScanStats, labelled_texts, scan


def check_applicable(explainers: Sequence[Explainer], handle: ModelHandle, role: str = "") -> None:
    """One line naming explainer, model and the reason when an explainer cannot explain the model."""
    for e in explainers:
        reason = e.not_applicable(handle)
        if reason:
            raise HumanTaskError(f"explainer {e.name!r} does not apply to {role}model {handle.name!r}: {reason}")


def _memoised(handle: ModelHandle) -> ModelHandle:
    return handle if handle.memo is not None else handle.memoised()


class _Explained:
    """The explanations of one input: per explainer, the model under test's and (task 1) the other model's."""

    def __init__(self, c: Candidate, task: int, main: dict[str, Explanation], other: dict[str, Explanation]) -> None:
        self.candidate, self.task, self.main, self.other = c, task, main, other


def _explain(c: Candidate, task: int, explainers: Sequence[Explainer], model: ModelHandle, other: ModelHandle | None,
             failures: CaseFailures) -> _Explained | None:
    """Every explainer on this input (both models for task 1); None when one fails its completeness check."""
    main: dict[str, Explanation] = {}
    second: dict[str, Explanation] = {}
    try:
        for e in explainers:
            for handle, store in ((model, main), (other, second)) if task == 1 else ((model, main),):
                assert handle is not None
                try:
                    store[e.name] = e.explain(handle, c.text, c.predicted)
                except CaseNotApplicable as exc:
                    if failures.failure(e.name):
                        raise HumanTaskError(f"explainer {e.name!r} does not apply to model {handle.name!r}: it failed its completeness "
                                             f"check on its first {CASE_FAILURES_BEFORE_GIVING_UP} inputs ({exc})") from None
                    return None
                failures.success(e.name)
    finally:
        model.forget()
        if other is not None:
            other.forget()
    return _Explained(c, task, main, second)


def build_questions(model: ModelHandle, explainers: Explainer | Sequence[Explainer], texts: Sequence[Any], *,
                    other_model: ModelHandle | None = None, n: int = 20, seed: int = 0, tasks: Sequence[int] = TASKS,
                    m: int = M, tau_high: float = TAU_HIGH, tau_low: float = TAU_LOW,
                    progress: ProgressFactory = no_progress) -> Kit:
    """The questions of ``tasks`` on ``n`` inputs each (per explainer), from labelled ``texts``.

    ``model`` is the well-trained model under test, ``other_model`` the worse one task 1 compares it
    with (required for task 1). ``texts``: sentences with ``.text``/``.label`` (as
    :func:`s2lct.trust.hybrid.load_pool` gives) or ``(text, label)`` pairs. Same inputs and seed →
    the same kit. Raises :class:`~.kit.HumanTaskError` when an explainer does not apply to a model
    or the pool gives a task no input at all.
    """
    explainers = [explainers] if isinstance(explainers, Explainer) else list(explainers)
    tasks = tuple(sorted(set(tasks)))
    if not explainers:
        raise HumanTaskError("no explainer given")
    if n < 1:
        raise HumanTaskError(f"questions per task must be at least 1 (got {n})")
    if bad := [t for t in tasks if t not in TASKS]:
        raise HumanTaskError(f"unknown task(s) {bad}; the tasks are 1, 2, 3")
    if 1 in tasks and other_model is None:
        raise HumanTaskError("task 1 compares two models: give other_model (a worse model), or leave task 1 out")
    other = other_model if 1 in tasks else None
    check_applicable(explainers, model)
    if other is not None:
        check_applicable(explainers, other, "the other ")
    items = labelled_texts(texts)
    if not items:
        raise HumanTaskError(f"no usable text in the pool of {len(texts)}: the tasks need texts labelled {' or '.join(CLASSES)} of 8 to 40 words")

    model = _memoised(model)
    other = _memoised(other) if other is not None else None
    quotas = Quotas(tasks, n, tau_high, tau_low)
    stats = ScanStats()
    failures = CaseFailures()
    chosen: list[_Explained] = []
    used: set[str] = set()
    bar = progress("human tasks: inputs explained", n * len(tasks))
    try:
        for c in scan(model, other, items, seed, quotas, stats):
            slot = quotas.offer(c)
            if slot is None:
                continue
            used.add(c.text)
            done = _explain(c, slot[0], explainers, model, other, failures)
            if done is None:
                quotas.release(slot, c)
                continue
            chosen.append(done)
            bar.advance()
        for t in tasks:  # the pool is read: fill a half that is short from the other half's leftovers
            while quotas.missing(t) and (got := quotas.next_leftover(t, used)) is not None:
                c, slot = got
                used.add(c.text)
                done = _explain(c, t, explainers, model, other, failures)
                if done is None:
                    quotas.release(slot, c)
                    continue
                chosen.append(done)
                bar.advance()
    finally:
        bar.close()
    empty = [t for t in tasks if not any(x.task == t for x in chosen)]
    if empty:
        raise HumanTaskError(f"task {empty[0]} gets no input from the pool of {len(items)} usable texts ({_why_empty(empty[0], tau_high, tau_low)}); "
                             f"try another pool or leave the task out")
    questions = _make_questions(chosen, explainers, model, other, seed, m)
    meta = _meta(model, other, explainers, items, stats, quotas, questions, tasks, n, seed, m, tau_high, tau_low)
    return Kit(questions, meta)


def _why_empty(task: int, tau_high: float, tau_low: float) -> str:
    return {1: "the two models never predict the same polar class", 2: f"the model is never at least {tau_high} confident in a polar class",
            3: f"the model is never less than {tau_low} confident in a polar class"}[task]


def _question(task: int, x: _Explained, e: str, m: int, model: ModelHandle, other: ModelHandle | None, better_is_a: bool) -> dict[str, Any]:
    c = x.candidate
    main = x.main[e]
    if task == 1:
        assert other is not None and c.other_probability is not None
        ours, theirs = top_evidence(main, m), top_evidence(x.other[e], m)
        mine = (model.name, c.probability, ours)
        yours = (other.name, c.other_probability, theirs)
        a, b = (mine, yours) if better_is_a else (yours, mine)
        return {"models": (a[0], b[0]), "probabilities": (a[1], b[1]), "evidence": (a[2], b[2]), "answer": "A" if better_is_a else "B"}
    if task == 2:
        return {"models": (model.name,), "probabilities": (c.probability,), "evidence": (top_evidence(main, m),), "answer": c.predicted}
    return {"models": (model.name,), "probabilities": (c.probability,), "evidence": (top_evidence(main, m), top_counter_evidence(main, m)),
            "answer": c.gold}


def _shown_key(task: int, x: _Explained, e: str, fields: dict[str, Any]) -> list[str]:
    """What a participant sees of one question, and its text (hashed into its id; never the answer or model names)."""
    c = x.candidate
    ev: tuple[Evidence, ...] = fields["evidence"]
    parts = [f"T{task}", e, c.text, "|".join(w for ev_ in ev for w in (*ev_.words, "/"))]
    if task != 2:
        parts += [c.predicted, f"{c.probability:.3f}" if task == 3 else ""]
    return parts


def _make_questions(chosen: list[_Explained], explainers: Sequence[Explainer], model: ModelHandle, other: ModelHandle | None,
                    seed: int, m: int) -> list[Question]:
    rng = random.Random(f"s2lct-human-tasks:order:{seed}")
    out: list[Question] = []
    for task in TASKS:
        inputs = [x for x in chosen if x.task == task]
        if not inputs:
            continue
        rows: list[tuple[_Explained, str, dict[str, Any]]] = []
        for e in explainers:
            sides = [i % 2 == 0 for i in range(len(inputs))]  # task 1: model A is the better one on half the inputs
            rng.shuffle(sides)
            rows += [(x, e.name, _question(task, x, e.name, m, model, other, a)) for x, a in zip(inputs, sides, strict=True)]
        rng.shuffle(rows)
        for k, (x, e, fields) in enumerate(rows, 1):
            c = x.candidate
            qid = f"T{task}-{k:03d}-{short_hash(*_shown_key(task, x, e, fields), length=6)}"
            out.append(Question(qid, task, e, c.text, c.gold, c.predicted, fields["models"], tuple(round(float(p), 6) for p in fields["probabilities"]),
                                fields["evidence"], fields["answer"], c.correct))  # task 1: both models predict c.predicted
    return out


def _identity(handle: ModelHandle | None) -> str | None:
    if handle is None:
        return None
    return getattr(handle.model, "identity", None) or handle.name


def _meta(model: ModelHandle, other: ModelHandle | None, explainers: Sequence[Explainer], items: Sequence[Any], stats: ScanStats,
          quotas: Quotas, questions: list[Question], tasks: Sequence[int], n: int, seed: int, m: int, tau_high: float,
          tau_low: float) -> dict[str, Any]:
    per_task: dict[str, Any] = {}
    for t in tasks:
        qs = [q for q in questions if q.task == t]
        inputs = {q.text for q in qs}
        right = {q.text for q in qs if q.prediction_correct}
        per_task[str(t)] = {"inputs": len(inputs), "questions": len(qs), "inputs_predicted_correctly": len(right),
                            "inputs_misclassified": len(inputs) - len(right), "short_of_inputs": n - len(inputs),
                            "correct_in_place_of_misclassified": quotas.substituted[t]}
    return {
        "paper": PAPER,
        "model": model.name,
        "model_identity": _identity(model),
        "other_model": other.name if other is not None else None,
        "other_model_identity": _identity(other),
        "explainers": [e.name for e in explainers],
        "classes": list(CLASSES),
        "seed": seed,
        "inputs_per_task": n,
        "parameters": {"m": m, "tau_high": tau_high, "tau_low": tau_low},
        "pool": {"usable_texts": len(items), **stats.to_json(other is not None)},
        "tasks": per_task,
    }
