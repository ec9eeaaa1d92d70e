"""Faithfulness as consistency (Ding & Koehn 2021, §3.2): an explanation is faithful when its word
relevances stay put under changes that should not change the model's decision mechanism.

* **Input consistency** (:func:`input_consistency`): a text and its copy with one content word
  swapped for another of the same PTB tag and SentiWordNet polarity (:mod:`.swaps`); the same class
  (the one predicted for the original) is explained on both, and the score of a pair is the Pearson
  correlation of the two relevance vectors, aligned by word position (the texts have the same number
  of words). Ding & Koehn swap within template sentences; here any sentiment text (or agreement
  prefix: pass the probe's handle and ``SwapOptions(tags=NOUN_TAGS)``) gets pairs. Whether the prediction changed
  is recorded per pair, and the score is also given over the pairs whose prediction held: a swap that
  changed the decision may rightly change the explanation.
* **Model consistency** (:func:`model_consistency`): the same texts explained on a teacher model and
  on a student distilled from it (:mod:`.student`: the encoder cut to its first layers, trained on
  the teacher's output distribution), the teacher's predicted class on both; the score of a text is
  the Pearson correlation of the two relevance vectors. Any two handles can be compared, so a model
  that is not a Hugging Face transformer brings its own student.

Per explainer the scores are averaged over pairs (texts) with a percentile-bootstrap interval
(:func:`s2lct.trust.metrics.bootstrap`). A pair whose correlation is undefined (a constant relevance
vector on either side: nothing to correlate) is counted in ``undefined`` and left out of the mean.
Explainers that do not apply to the model, or fail their completeness check on too many items, go to
``not_applicable`` as on the card: an explanation that fails the check (``CaseNotApplicable``)
leaves only its pair out, three such failures before any success give the explainer up, and an
explainer left out of more than half of the pairs is not scored.

How to read the numbers: 1 means the explanation is unchanged (up to scale and shift), 0 that the
two relevance vectors are unrelated. Consistency alone cannot tell a faithful explainer from a
fixed one (an explainer that always points at the first word scores 1), so it is read beside the
card's plausibility measures (pointing game, agreement), as Ding & Koehn read it beside theirs. Their
Table 4 reports averages of 0.17–0.80 for input consistency and 0.01–0.69 for model consistency
over language models, data sets and saliency methods.

For the card's own explaining loop (resumable records, worker processes), :func:`plan_input_consistency`
and :func:`plan_model_consistency` return the items to explain and a ``section`` method that scores
the relevances (:func:`record_fields` is the record callback that keeps them);
:func:`input_consistency` and :func:`model_consistency` run the whole test here.

Related measures not computed here: ferret (Attanasio et al., 2023) scores faithfulness by
*comprehensiveness* (the drop of the predicted class's probability when the top-k relevant words
are removed) and *sufficiency* (the drop when only they are kept), DeYoung et al.'s ERASER
measures. Those ask whether the words an explanation ranks high matter to this model's output on
this input; consistency asks whether the explanation stays stable where the decision mechanism
should, and needs no deletion of words (out-of-distribution inputs). ferret pins older
numpy/transformers than this project uses, so it is a reference, not a dependency.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..explain.adapters import ModelHandle, run_logits, softmax
from ..explain.base import CaseFailures, Explainer, Explanation
from . import metrics as M
from .swaps import SwapOptions, SwapPair, build_swap_pairs
from .workers import WorkerPool, explain_item, picklable

#: As the card's rule: an explainer left out of more than this share of the items (completeness
#: failed on them) is not scored.
MAX_SKIPPED_SHARE = 0.5
#: Texts a card should sample for each test: on minilm-sst2, with grad_l2_s, grad_dot_s, ig, occlusion1,
#: limsse_ms_p and lime in two worker processes, about 3 minutes each (docs/faithfulness.md).
DEFAULT_TEXTS = 50


def pearson(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Pearson correlation of two equally long vectors; None when it is undefined (fewer than two
    values, or either vector constant up to rounding)."""
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        raise ValueError(f"relevance vectors of different lengths: {x.shape} and {y.shape}")
    if len(x) < 2:
        return None
    dx, dy = x - x.mean(), y - y.mean()
    sx, sy = math.sqrt(float(dx @ dx)), math.sqrt(float(dy @ dy))
    if sx <= 1e-12 * max(float(np.abs(x).max()), 1e-300) * len(x) or sy <= 1e-12 * max(float(np.abs(y).max()), 1e-300) * len(y):
        return None
    return float(np.clip((dx @ dy) / (sx * sy), -1.0, 1.0))


def summarise(values: Sequence[float | None], seed: int = 0) -> dict[str, Any]:
    """Mean of the defined correlations with its bootstrap interval, and how many were undefined."""
    defined = [v for v in values if v is not None]
    return {**M.bootstrap(defined, seed=seed).to_json(), "undefined": len(values) - len(defined)}


# ----------------------------------------------------------------------------------- predictions
def predicted_classes(handle: ModelHandle, texts: Sequence[str]) -> list[tuple[str, dict[str, float]]]:
    """The class each text is explained for, and the probabilities over ``handle.classes``: the
    argmax of a torch model's logits, or :meth:`ModelHandle.explained_class` of a text model's label
    (as the card chooses it)."""
    if not texts:
        return []
    if handle.torch is not None:
        clf = handle.torch
        logits = run_logits(clf, [clf.encode(t).ids for t in texts])
        p = softmax(logits)
        classes = list(clf.classes)
        return [(classes[int(np.argmax(row))], {c: float(v) for c, v in zip(classes, row, strict=True)}) for row in p]
    if handle.model is None:
        raise ValueError(f"handle {handle.name!r} has neither a torch side nor a model")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        preds = handle.model.predict(list(texts))
    return [(handle.explained_class(p.label, dict(p.probs)), dict(p.probs)) for p in preds]


# ----------------------------------------------------------------------------------- explaining
class _Explained:
    """Explanations of (key, text, target) jobs by every explainer, with the card's policy for
    explainers that do not apply (``na``) or fail completeness on single items (``skipped``)."""

    def __init__(self, handle: ModelHandle, explainers: Sequence[Explainer], na: dict[str, str]) -> None:
        self.handle, self.explainers, self.na = handle, list(explainers), na
        self.got: dict[str, dict[str, Explanation]] = {e.name: {} for e in explainers}
        self.skipped: dict[str, list[str]] = {}
        self.seconds: dict[str, float] = {e.name: 0.0 for e in explainers}

    def run(self, jobs: Sequence[tuple[str, str, str]], workers: int = 1, threads: int = 1,
            log: Callable[[str], None] | None = None, tick: Callable[[], None] | None = None) -> None:
        by_name = {e.name: e for e in self.explainers}
        failures = CaseFailures()
        pending = lambda: [e.name for e in self.explainers if e.name not in self.na]  # noqa: E731
        pool = None
        try:
            if workers > 1:
                why = picklable(self.handle, self.explainers)
                if why is None:
                    pool = WorkerPool(self.handle, self.explainers, workers, threads)
                elif log is not None:
                    log(f"explained in this process ({self.handle.name} or its explainers cannot be sent to a worker: {why})")
            if pool is not None:
                results = pool.results((text, target, pending()) for _k, text, target in jobs)
            else:
                memo = self.handle.memoised()
                results = (explain_item(memo, [by_name[n] for n in pending()], text, target) for _k, text, target in jobs)
            for (key, _text, _target), res in zip(jobs, results, strict=True):
                for name, (status, payload, seconds) in res.items():
                    if name in self.na:
                        continue
                    if status == "skipped":
                        self.skipped.setdefault(name, []).append(payload)
                        if failures.failure(name):
                            self.na[name] = payload
                    elif status == "not_applicable":
                        self.na[name] = payload
                    else:
                        failures.success(name)
                        self.got[name][key] = payload
                        self.seconds[name] += seconds
                if tick is not None:
                    tick()
        finally:
            if pool is not None:
                pool.close()


def _applicable(explainers: Sequence[Explainer], handles: Sequence[ModelHandle], na: dict[str, str]) -> list[Explainer]:
    keep = []
    for e in explainers:
        reason = next((r for h in handles if (r := e.not_applicable(h))), None)
        if reason:
            na.setdefault(e.name, reason)
        else:
            keep.append(e)
    return keep


def _speed(seconds: float, n: int) -> dict[str, Any]:
    return {"seconds": round(seconds, 3), "items_per_second": round(n / seconds, 4) if seconds > 0 else None}


# ------------------------------------------------------------------------------- shared scoring
Relevances = Mapping[str, Mapping[str, Sequence[float]]]  # explainer → item id → word relevances


def record_fields(_i: int, exp: Explanation) -> dict[str, Any]:
    """What a card record must keep for the consistency scores (a ``score`` callback of the card's
    explaining loop): the word relevances."""
    return {"relevances": [round(float(r), 8) for r in exp.relevances]}


def relevances_from_records(records: Mapping[str, Sequence[Mapping[str, Any]]]) -> dict[str, dict[str, list[float]]]:
    """The card's explained records (explainer → ok records with ``item`` and ``relevances``) as
    :data:`Relevances`."""
    return {name: {r["item"]: list(r["relevances"]) for r in recs if r.get("status", "ok") == "ok"} for name, recs in records.items()}


def _scores(measure: str, unit: str, keys: Sequence[tuple[str, str]], relevances_a: Mapping[str, Sequence[float]],
            relevances_b: Mapping[str, Sequence[float]], splits: Mapping[str, Sequence[bool | None]], seed: int
            ) -> tuple[dict[str, Any], list[float | None | str]]:
    """One explainer's entry: the mean correlation over the units whose two explanations exist, the
    splits (a unit is in split ``s`` when ``splits[s][k]`` is True), and each unit's correlation
    ("skipped" where an explanation is missing)."""
    rs: list[float | None] = []
    idx: list[int] = []
    per_unit: list[float | None | str] = []
    for k, (ka, kb) in enumerate(keys):
        a, b = relevances_a.get(ka), relevances_b.get(kb)
        if a is None or b is None:
            per_unit.append("skipped")
            continue
        r = pearson(a, b)
        rs.append(r)
        idx.append(k)
        per_unit.append(None if r is None else round(r, 6))
    entry: dict[str, Any] = {measure: summarise(rs, seed), unit: sum(r is not None for r in rs), "skipped": len(keys) - len(rs)}
    for split, member in splits.items():
        if any(m is not None for m in member):
            entry[split] = summarise([r for r, k in zip(rs, idx, strict=True) if member[k] is True], seed)
    return entry, per_unit


def _too_often_skipped(name: str, per_unit: Sequence[Any], what: str, model: str) -> str | None:
    skipped = sum(x == "skipped" for x in per_unit)
    if skipped > MAX_SKIPPED_SHARE * len(per_unit):
        return (f"{name} on {model}: left out of {skipped} of {len(per_unit)} {what}, too many to score "
                f"(more than {MAX_SKIPPED_SHARE:.0%})")
    return None


# ---------------------------------------------------------------------------- input consistency
@dataclass
class InputConsistencyPlan:
    """Swap pairs with their predictions, and the items to explain: ``(f"{k}/a", text, target)`` and
    ``(f"{k}/b", swapped, target)`` for pair k, the target being the class predicted for the text.

    The card explains :attr:`items` with its own loop (resumable records, workers) and keeps
    :func:`record_fields`; :meth:`section` turns the relevances into the card section."""

    model: str
    pairs: list[SwapPair]
    targets: list[str]
    after: list[str]  # the class predicted for each swapped text
    p_before: list[float]  # p(target) on the text
    p_after: list[float]  # p(target) on the swapped text
    correct: list[bool | None]  # whether the prediction on the text is its gold label (None: no label)
    swap: dict[str, Any] | None = None  # how the pairs were built (None: given)

    @property
    def items(self) -> list[tuple[str, str, str]]:
        out = []
        for k, (p, t) in enumerate(zip(self.pairs, self.targets, strict=True)):
            out += [(f"{k}/a", p.text, t), (f"{k}/b", p.swapped, t)]
        return out

    @property
    def changed(self) -> list[bool]:
        return [a != b for a, b in zip(self.targets, self.after, strict=True)]

    def section(self, relevances: Relevances, not_applicable: Mapping[str, str] | None = None, seed: int = 0,
                seconds: Mapping[str, float] | None = None) -> dict[str, Any]:
        """The card section from every explainer's relevances (explainer → item id → relevances);
        explainers in ``not_applicable`` are reported there, not scored."""
        na = dict(not_applicable or {})
        keys = [(f"{k}/a", f"{k}/b") for k in range(len(self.pairs))]
        changed = self.changed
        splits = {"prediction_kept": [not c for c in changed], "prediction_changed": changed,
                  "expected": self.correct, "alternative": [None if c is None else not c for c in self.correct]}
        out_expl: dict[str, Any] = {}
        per_pair: list[dict[str, Any]] = [{} for _ in self.pairs]
        for name, rel in relevances.items():
            if name in na:
                continue
            entry, per_unit = _scores("input_consistency", "pairs", keys, rel, rel, splits, seed)
            why = _too_often_skipped(name, per_unit, "swap pairs", self.model)
            if why:
                na[name] = why
                continue
            if seconds is not None and name in seconds:
                entry.update(_speed(seconds[name], 2 * (len(keys) - entry["skipped"])))
            out_expl[name] = entry
            for k, v in enumerate(per_unit):
                if v != "skipped":
                    per_pair[k][name] = v
        rows = []
        for k, p in enumerate(self.pairs):
            row = {**p.to_json(), "prediction": self.targets[k], "prediction_swapped": self.after[k], "prediction_changed": changed[k],
                   "p_target": round(self.p_before[k], 6), "p_target_swapped": round(self.p_after[k], 6), "pearson": per_pair[k]}
            if self.correct[k] is not None:
                row["correct"] = self.correct[k]
            rows.append(row)
        return {"status": "ok", "measure": "input_consistency", "model": self.model, "swap": self.swap, "pairs": rows,
                "prediction_changed": int(sum(changed)), "explainers": out_expl, "not_applicable": na}


def plan_input_consistency(handle: ModelHandle, texts: Sequence[str] | None = None, *, pairs: Sequence[SwapPair] | None = None,
                           swap: SwapOptions | None = None, labels: Sequence[str | None] | None = None,
                           data_root: Any = None) -> InputConsistencyPlan:
    """Swap pairs of ``texts`` (:func:`~s2lct.trust.swaps.build_swap_pairs` with ``swap``), or the
    given ``pairs``, with ``handle``'s predictions on both sides. ``labels``: optional gold labels of
    ``texts`` (of ``pairs`` when pairs are given)."""
    swap_info: dict[str, Any] | None = None
    if pairs is None:
        if texts is None:
            raise ValueError("input consistency needs texts or pairs")
        result = build_swap_pairs(list(texts), swap, data_root=data_root)
        pair_list, swap_info = result.pairs, result.to_json()
        by_text = dict(zip(texts, labels, strict=True)) if labels is not None else {}
        gold = [by_text.get(p.text) for p in pair_list]
    else:
        pair_list = list(pairs)
        gold = list(labels) if labels is not None else [None] * len(pair_list)
        if len(gold) != len(pair_list):
            raise ValueError(f"{len(gold)} labels for {len(pair_list)} pairs")
    before = predicted_classes(handle, [p.text for p in pair_list])
    after = predicted_classes(handle, [p.swapped for p in pair_list])
    targets = [c for c, _ in before]
    return InputConsistencyPlan(
        handle.name, pair_list, targets, [c for c, _ in after], [pb.get(t, 0.0) for (_c, pb), t in zip(before, targets, strict=True)],
        [pa.get(t, 0.0) for (_c, pa), t in zip(after, targets, strict=True)],
        [None if g is None else g == t for g, t in zip(gold, targets, strict=True)], swap_info)


def input_consistency(handle: ModelHandle, explainers: Sequence[Explainer], texts: Sequence[str] | None = None, *,
                      pairs: Sequence[SwapPair] | None = None, swap: SwapOptions | None = None, seed: int = 0,
                      labels: Sequence[str | None] | None = None, workers: int = 1, threads: int = 1,
                      data_root: Any = None, log: Callable[[str], None] | None = None,
                      tick: Callable[[], None] | None = None) -> dict[str, Any]:
    """Input consistency of every explainer on ``handle``'s model (see the module docstring): pairs
    planned by :func:`plan_input_consistency`, explained here (``workers`` > 1: in worker processes
    with ``threads`` torch threads each, :mod:`.workers`; ``tick`` is called per explained text, for
    a progress bar), scored by :meth:`InputConsistencyPlan.section`.

    Returns a card section: ``status``, ``pairs`` (each with the prediction before and after the swap
    and its correlations), ``explainers`` (per name ``input_consistency`` — mean, n, interval,
    undefined —, ``pairs``, ``skipped`` and the same score over the pairs whose prediction was kept /
    changed, and, with labels, right / wrong) and ``not_applicable``."""
    t0 = time.perf_counter()
    plan = plan_input_consistency(handle, texts, pairs=pairs, swap=swap, labels=labels, data_root=data_root)
    if not plan.pairs:
        return {"status": "skipped", "reason": "input consistency skipped: no swap pair could be built from the texts",
                "swap": plan.swap}
    na: dict[str, str] = {}
    chosen = _applicable(explainers, [handle], na)
    ex = _Explained(handle, chosen, na)
    ex.run(plan.items, workers, threads, log, tick)
    rel = {e.name: {k: exp.relevances for k, exp in ex.got[e.name].items()} for e in chosen if e.name not in na}
    section = plan.section(rel, na, seed, ex.seconds)
    section["wall_seconds"] = round(time.perf_counter() - t0, 1)
    return section


# ---------------------------------------------------------------------------- model consistency
@dataclass
class ModelConsistencyPlan:
    """Texts with the teacher's and the student's predictions; :attr:`items` (``(str(k), text,
    teacher's class)``) are explained on both models, and :meth:`section` scores them."""

    teacher: str
    student: str
    texts: list[str]
    targets: list[str]
    student_predictions: list[str]
    correct: list[bool | None]
    student_info: dict[str, Any] | None = None

    @property
    def items(self) -> list[tuple[str, str, str]]:
        return [(str(k), t, c) for k, (t, c) in enumerate(zip(self.texts, self.targets, strict=True))]

    @property
    def agrees(self) -> list[bool]:
        return [a == b for a, b in zip(self.targets, self.student_predictions, strict=True)]

    def section(self, teacher: Relevances, student: Relevances, not_applicable: Mapping[str, str] | None = None, seed: int = 0,
                seconds: Mapping[str, Mapping[str, float]] | None = None) -> dict[str, Any]:
        """The card section from the teacher's and the student's relevances (explainer → item id →
        relevances); ``seconds``: explainer → {"teacher": s, "student": s}."""
        na = dict(not_applicable or {})
        keys = [(str(k), str(k)) for k in range(len(self.texts))]
        agrees = self.agrees
        splits = {"student_agrees": agrees, "student_disagrees": [not a for a in agrees],
                  "expected": self.correct, "alternative": [None if c is None else not c for c in self.correct]}
        out_expl: dict[str, Any] = {}
        per_text: list[dict[str, Any]] = [{} for _ in self.texts]
        for name in teacher:
            if name in na or name not in student:
                continue
            entry, per_unit = _scores("model_consistency", "texts", keys, teacher[name], student[name], splits, seed)
            why = _too_often_skipped(name, per_unit, "texts", f"{self.teacher} and its student")
            if why:
                na[name] = why
                continue
            if seconds is not None and name in seconds:
                entry["seconds"] = {k: round(v, 3) for k, v in seconds[name].items()}
            out_expl[name] = entry
            for k, v in enumerate(per_unit):
                if v != "skipped":
                    per_text[k][name] = v
        rows = [{"text": t, "prediction": self.targets[k], "student_prediction": self.student_predictions[k],
                 "student_agrees": agrees[k], "pearson": per_text[k]} for k, t in enumerate(self.texts)]
        section: dict[str, Any] = {"status": "ok", "measure": "model_consistency", "teacher": self.teacher, "student": self.student,
                                   "texts": rows, "agreement": round(float(np.mean(agrees)), 4) if agrees else None,
                                   "explainers": out_expl, "not_applicable": na}
        if self.student_info is not None:
            section["student_info"] = self.student_info
        return section


def plan_model_consistency(teacher: ModelHandle, student: ModelHandle, texts: Sequence[str], *,
                           labels: Sequence[str | None] | None = None,
                           student_info: dict[str, Any] | None = None) -> ModelConsistencyPlan:
    """The texts (empty ones dropped) with the teacher's predicted class, the one explained on both
    models, and the student's own prediction. Raises ``ValueError`` when the student lacks a class
    the teacher predicts."""
    keep = [k for k, t in enumerate(texts) if t.strip()]
    texts = [texts[k] for k in keep]
    gold = [labels[k] for k in keep] if labels is not None else [None] * len(texts)
    targets = [c for c, _ in predicted_classes(teacher, texts)]
    theirs = [c for c, _ in predicted_classes(student, texts)]
    missing = sorted(set(targets) - set(student.classes))
    if missing:
        raise ValueError(f"the student {student.name!r} has no class {', '.join(missing)} (its classes: {', '.join(student.classes)})")
    return ModelConsistencyPlan(teacher.name, student.name, texts, targets, theirs,
                                [None if g is None else g == t for g, t in zip(gold, targets, strict=True)], student_info)


def model_consistency(teacher: ModelHandle, student: ModelHandle, explainers: Sequence[Explainer], texts: Sequence[str], *,
                      seed: int = 0, labels: Sequence[str | None] | None = None, workers: int = 1, threads: int = 1,
                      log: Callable[[str], None] | None = None, tick: Callable[[], None] | None = None,
                      student_info: dict[str, Any] | None = None) -> dict[str, Any]:
    """Model consistency of every explainer between ``teacher`` and ``student`` (see the module docstring).

    The teacher's predicted class is explained on both models (Ding & Koehn interpret the argmax
    decision of the model; the student's own may differ, and the score is split by whether it does).
    Any two handles over the same classes work: a Hugging Face teacher's student comes from
    :func:`s2lct.trust.student.build_student`, any other model's from its owner (for a torch
    :class:`~s2lct.explain.adapters.TokenClassifier`, :func:`s2lct.trust.student.distil` trains one;
    :func:`s2lct.trust.student.student_handle` takes either). ``student_info`` (how the student was
    made, its agreement on dev) is copied into the section. Returns a card section like
    :func:`input_consistency`'s, per text instead of per pair, with the student's ``agreement``
    with the teacher on these texts."""
    t0 = time.perf_counter()
    if not any(t.strip() for t in texts):
        return {"status": "skipped", "reason": "model consistency skipped: no text"}
    try:
        plan = plan_model_consistency(teacher, student, texts, labels=labels, student_info=student_info)
    except ValueError as exc:
        return {"status": "skipped", "reason": f"model consistency skipped: {exc}"}
    na: dict[str, str] = {}
    chosen = _applicable(explainers, [teacher, student], na)
    ex_t = _Explained(teacher, chosen, na)
    ex_t.run(plan.items, workers, threads, log, tick)
    ex_s = _Explained(student, [e for e in chosen if e.name not in na], na)
    ex_s.run(plan.items, workers, threads, log, tick)
    rel_t = {e.name: {k: x.relevances for k, x in ex_t.got[e.name].items()} for e in chosen if e.name not in na}
    rel_s = {e.name: {k: x.relevances for k, x in ex_s.got.get(e.name, {}).items()} for e in chosen if e.name not in na}
    seconds = {n: {"teacher": ex_t.seconds.get(n, 0.0), "student": ex_s.seconds.get(n, 0.0)} for n in rel_t}
    section = plan.section(rel_t, rel_s, na, seed, seconds)
    section["wall_seconds"] = round(time.perf_counter() - t0, 1)
    return section
