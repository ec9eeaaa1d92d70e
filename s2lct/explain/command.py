"""``s2lct explain`` and ``s2lct.explain(...)``: explain every failing case, localise the blame.

For every failing case (predicted label not among the expected ones) and every explainer: the word
relevances for the explained class, the top-3 evidence and counter-evidence words and 3-grams, and
the localisation of rmax (:mod:`s2lct.explain.localise`). Output folder:

* ``explanations.jsonl`` — one record per (case, explainer), in suite order then explainer order;
* ``summary.json`` — the run's inputs, per-explainer status (applied, or not applicable and why),
  and per capability / explainer the localisation shares, hit rate and random baseline;
* ``report.html`` — failures shaded by relevance, fragment boundaries, the localisation chart.

Resumable: records are appended (and flushed) as they are computed under ``.partial/``; a run
restarted with the same model, suite and options skips what is there. The final files are written
atomically and in canonical order, so an interrupted-then-resumed run ends with the same files as
an uninterrupted one. Explanations are deterministic (seeded samplers).
"""

from __future__ import annotations

import json
import random
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import dumps_json, write_json, write_jsonl, write_text
from ..errors import S2LCTError
from ..models.base import SentimentModel
from ..progress import ProgressFactory, ProgressTask
from ..suite import Case, natural_key
from .adapters import ModelHandle, TokenClassifier, prepare_model
from .base import CaseFailures, CaseNotApplicable, ExplainError, Explainer, Explanation, NotApplicable
from .localise import aggregate, evidence, localise, word_origins
from .registry import DEFAULT_EXPLAINERS, available, parse_explainers
from .table import render_summary_table

FORMAT_VERSION = 1
RECORDS = "explanations.jsonl"
SUMMARY = "summary.json"
HTML = "report.html"
PARTIAL = ".partial"


@dataclass
class Failure:
    """A failing case with the model's prediction."""

    case: Case
    predicted: str
    probs: dict[str, float]


@dataclass
class ExplainResult:
    """What :func:`explain` returns (also written to the output folder when one is given)."""

    model: str
    identity: str
    records: list[dict[str, Any]]
    summary: dict[str, Any]
    out: Path | None = None
    not_applicable: dict[str, str] = field(default_factory=dict)

    def explanations(self, case_id: str) -> dict[str, dict[str, Any]]:
        """Records of one case by explainer name."""
        return {r["explainer"]: r for r in self.records if r["case_id"] == case_id}


def check_applicable(explainers: Sequence[Explainer], handle: ModelHandle, explicit: bool) -> list[Explainer]:
    """Explicitly requested explainers must all apply (else one line naming those that do);
    the default set silently keeps those that apply."""
    keep, bad = [], []
    for e in explainers:
        reason = e.not_applicable(handle)
        (bad if reason else keep).append((e, reason))
    if bad and explicit:
        e, reason = bad[0]
        applicable = [n for n in available() if parse_explainers([n])[0].not_applicable(handle) is None]
        raise ExplainError(f"explainer {e.name!r} does not apply to model {handle.name!r}: {reason}; "
                           f"explainers that apply: {', '.join(applicable)}")
    return [e for e, _ in keep]


def select_failures(failures: Sequence[Failure], max_per_capability: int | None, seed: int = 0) -> list[Failure]:
    """At most N failures per capability, sampled with a fixed seed, kept in suite order."""
    if not max_per_capability:
        return list(failures)
    by_cap: dict[str, list[int]] = {}
    for i, f in enumerate(failures):
        by_cap.setdefault(f.case.capability, []).append(i)
    keep: set[int] = set()
    for cap, idx in by_cap.items():
        keep.update(idx if len(idx) <= max_per_capability else random.Random(f"s2lct-explain:{seed}:{cap}").sample(idx, max_per_capability))
    return [f for i, f in enumerate(failures) if i in keep]


def explanation_record(failure: Failure, exp: Explanation, handle: ModelHandle) -> dict[str, Any]:
    case = failure.case
    origins = word_origins(case)
    words = [
        {"word": w, "start": s, "end": e, "relevance": round(float(r), 6), "origin": o.category}
        for w, (s, e), r, o in zip(exp.words, exp.spans, exp.relevances, origins, strict=True)
    ]
    return {
        "case_id": case.id,
        "capability": case.capability,
        "text": case.text,
        "expected": list(case.expected),
        "predicted": failure.predicted,
        "probs": {k: round(v, 6) for k, v in failure.probs.items()},
        "explainer": exp.explainer,
        "explained_class": exp.target,
        "status": "ok",
        "words": words,
        **evidence(exp, origins, case.text),
        "localisation": localise(case, exp, origins),
        "fragments": [{"start": f.start, "end": f.end, "kind": f.kind, "label": f.label, "slot": f.slot} for f in case.fragments],
        "info": exp.info,
    }


def explain_failure(handle: ModelHandle, failure: Failure, explainer: Explainer) -> dict[str, Any]:
    target = handle.explained_class(failure.predicted, failure.probs)
    exp = explainer.explain(handle, failure.case.text, target)
    return explanation_record(failure, exp, handle)


def _read_partial(path: Path) -> list[dict[str, Any]]:
    """Records of an interrupted run; a torn last line (killed mid-write) is dropped."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return out


def find_failures(model: SentimentModel, suite: str | Path, only: Iterable[str] | None, *, batch_size: int | None = None,
                  use_cache: bool = True) -> tuple[list[Failure], int, dict[str, Any]]:
    """(failing cases in suite order, number of cases, manifest)."""
    from ..run.predict import predict_texts
    from ..run.runner import judge, load_selection

    selection = load_selection(suite, only=only)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        preds = predict_texts(model, [c.text for c in selection.cases if c.is_mft], batch_size=batch_size, use_cache=use_cache)
    # explanations work from expected labels: INV/DIR cases (judged against another prediction) are left out
    failures = [Failure(c, preds[c.text].label, dict(preds[c.text].probs)) for c in selection.cases
                if c.is_mft and not judge(c, preds[c.text].label)]
    return failures, len(selection.cases), selection.manifest


def explain(
    model: str | SentimentModel | TokenClassifier,
    suite: str | Path = "generated",
    *,
    only: Iterable[str] | str | None = None,
    explainers: str | Iterable[str] | None = None,
    max_failures_per_capability: int | None = None,
    out: str | Path | None = None,
    seed: int = 0,
    models_dir: str | Path | None = None,
    batch_size: int | None = None,
    use_cache: bool = True,
    progress: ProgressFactory | None = None,
    log: Callable[[str], None] | None = None,
    html: bool = True,
) -> ExplainResult:
    """Explain the failing cases of ``suite`` on ``model`` (a name, a SentimentModel or a TokenClassifier).

    ``explainers``: names (comma-separated string or list); default: those of
    :data:`~s2lct.explain.registry.DEFAULT_EXPLAINERS` that apply to the model. With ``out`` the
    records, summary and HTML go to that folder and an interrupted run resumes.
    """
    from ..models import load_model

    log = log or (lambda msg: None)
    only_list = [o.strip() for o in only.split(",") if o.strip()] if isinstance(only, str) else (list(only) if only else None)
    chosen = parse_explainers(explainers if explainers is not None else DEFAULT_EXPLAINERS)
    if isinstance(model, str):
        model = load_model(model, models_dir=models_dir, batch_size=batch_size)
    if isinstance(model, TokenClassifier):
        raise ExplainError("explain() over a suite needs a SentimentModel (a name, or a loaded model); "
                           "a bare TokenClassifier can be explained text by text with an explainer's explain()")
    handle = prepare_model(model)
    chosen = check_applicable(chosen, handle, explicit=explainers is not None)
    if not chosen:
        raise ExplainError(f"none of the default explainers applies to model {handle.name!r}; pass --explainers")
    failures, n_cases, manifest = find_failures(model, suite, only_list, batch_size=batch_size, use_cache=use_cache)
    failures = select_failures(failures, max_failures_per_capability, seed)
    options = {"format": FORMAT_VERSION, "identity": model.identity, "suite": str(Path(suite)), "only": only_list,
               "explainers": [e.name for e in chosen], "max_failures_per_capability": max_failures_per_capability, "seed": seed}
    out_dir = Path(out) if out is not None else None
    done: dict[tuple[str, str], dict[str, Any]] = {}
    partial_file = None
    if out_dir is not None:
        pdir = out_dir / PARTIAL
        key_file = pdir / "options.json"
        if key_file.is_file() and json.loads(key_file.read_text(encoding="utf-8")) != options:
            for p in pdir.iterdir():
                p.unlink()
        pdir.mkdir(parents=True, exist_ok=True)
        write_json(key_file, options)
        partial_file = pdir / RECORDS
        done = {(r["case_id"], r["explainer"]): r for r in _read_partial(partial_file)}
        write_jsonl(partial_file, done.values())  # drop a torn line before appending
        if done:
            log(f"resuming: {len(done)} explanation(s) already in {out_dir}")
    not_applicable: dict[str, str] = {}
    case_failures = CaseFailures()
    for r in done.values():
        if r.get("status") == "not_applicable" and r.get("scope") != "case":
            not_applicable[r["explainer"]] = r["reason"]
    todo = [(f, e) for f in failures for e in chosen if (f.case.id, e.name) not in done]
    task: ProgressTask = (progress or (lambda d, t: ProgressTask()))(f"explaining {handle.name}", len(todo))
    fh = open(partial_file, "a", encoding="utf-8") if partial_file is not None else None
    try:
        for f, e in todo:
            if e.name in not_applicable:
                rec = _na_record(f, e.name, not_applicable[e.name])
            else:
                try:
                    rec = explain_failure(handle, f, e)
                    case_failures.success(e.name)
                except CaseNotApplicable as exc:  # this case only; the explainer goes on
                    rec = {**_na_record(f, e.name, str(exc)), "scope": "case"}
                    if case_failures.failure(e.name):
                        not_applicable[e.name] = str(exc)
                except NotApplicable as exc:
                    not_applicable[e.name] = str(exc)
                    rec = _na_record(f, e.name, str(exc))
            done[(f.case.id, e.name)] = rec
            if fh is not None:
                fh.write(dumps_json(rec) + "\n")
                fh.flush()
            task.advance()
    finally:
        task.close()
        if fh is not None:
            fh.close()
    order = {e.name: i for i, e in enumerate(chosen)}
    records = sorted((done[(f.case.id, e.name)] for f in failures for e in chosen),
                     key=lambda r: (natural_key(r["capability"]), r["case_id"], order[r["explainer"]]))
    summary = build_summary(handle, model.identity, options, records, failures, n_cases, chosen, not_applicable, manifest)
    result = ExplainResult(handle.name, model.identity, records, summary, out_dir, not_applicable)
    if out_dir is not None:
        write_jsonl(out_dir / RECORDS, records)
        write_json(out_dir / SUMMARY, summary)
        if html:
            from .html import render_explanations_html

            write_text(out_dir / HTML, render_explanations_html(result))
        for p in (out_dir / PARTIAL).iterdir():
            p.unlink()
        (out_dir / PARTIAL).rmdir()
    return result


def _na_record(f: Failure, name: str, reason: str) -> dict[str, Any]:
    return {"case_id": f.case.id, "capability": f.case.capability, "text": f.case.text, "expected": list(f.case.expected),
            "predicted": f.predicted, "explainer": name, "status": "not_applicable", "reason": reason}


def build_summary(handle: ModelHandle, identity: str, options: dict[str, Any], records: Sequence[dict[str, Any]],
                  failures: Sequence[Failure], n_cases: int, chosen: Sequence[Explainer], not_applicable: dict[str, str],
                  manifest: dict[str, Any]) -> dict[str, Any]:
    caps: dict[str, dict[str, Any]] = {}
    for f in failures:
        caps.setdefault(f.case.capability, {"failures_explained": 0})["failures_explained"] += 1
    names = {cid: str(info.get("name") or cid) for cid, info in (manifest.get("capabilities") or {}).items() if isinstance(info, dict)}
    loc = aggregate(records)
    return {
        "model": handle.name,
        "identity": identity,
        "suite": options["suite"],
        "cases": n_cases,
        "failures_explained": len(failures),
        "message": None if failures else "no failing cases: nothing to explain",
        "explainers": {e.name: {"description": e.description, "family": e.family,
                                "status": "not_applicable" if e.name in not_applicable else "ok",
                                "reason": not_applicable.get(e.name)} for e in chosen},
        "options": options,
        "capabilities": {cap: {"name": names.get(cap, cap), **caps[cap], "explainers": loc.get(cap, {})}
                         for cap in sorted(caps, key=natural_key)},
    }


def format_evidence(record: dict[str, Any]) -> str:
    """One line: the explainer's top evidence words with their origin, and where rmax falls."""
    ev = ", ".join(f"'{e['text']}' ({e['origin']}, {e['relevance']:+.3g})" for e in record["evidence"]) or "none"
    loc = record["localisation"]
    where = "no word stands out" if loc["word"] is None else f"rmax in {loc['category']}" + (" (its label = the prediction)" if loc["hit"] else "")
    return f"evidence for {record['explained_class']} ({record['explainer']}): {ev}; {where}"


def format_failure(record: dict[str, Any], verdict: str | None = None) -> str:
    """A failure as a user reads it: prediction, evidence for/against with origins, rmax location;
    ``verdict``: the explainer's trust score on this model (``s2lct trust``), shown beside it."""
    if record.get("status") != "ok":
        return f"{record['case_id']} [{record['explainer']}]: not applicable ({record.get('reason')})"
    ev = ", ".join(f"'{e['text']}' ({e['origin']}, {e['relevance']:+.3f})" for e in record["evidence"]) or "none"
    ce = ", ".join(f"'{e['text']}' ({e['origin']}, {e['relevance']:+.3f})" for e in record["counter_evidence"]) or "none"
    loc = record["localisation"]
    where = "no word stands out" if loc["word"] is None else (
        f"rmax '{loc['word']}' in {loc['category']}" + (" = the wrong prediction's label (hit)" if loc["hit"] else ""))
    return (f"{record['case_id']} expected {'/'.join(record['expected'])}, predicted {record['predicted']} "
            f"[{verdict or record['explainer']}, class {record['explained_class']}]\n  {record['text']}\n"
            f"  evidence: {ev}\n  counter-evidence: {ce}\n  {where}")


def command_consoles(threads: int | None) -> tuple[Any, Any]:
    """(stdout, stderr) rich consoles of a long command; torch threads as asked.

    Piped stdout gets rich's own width ($COLUMNS, else 80), which the tables are built to fit, so
    ``| less`` and files read like the terminal; stderr's log lines are not wrapped when piped.
    """
    import sys

    from rich.console import Console

    if threads:
        import torch

        torch.set_num_threads(threads)
    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False, width=None if sys.stderr.isatty() else 200)
    return console, err


def explain_command(model: str, suite: Path, out: Path, *, only: str | None, explainers: str | None,
                    max_failures_per_capability: int | None, seed: int, models_dir: Path | None,
                    batch_size: int | None, use_cache: bool, quiet: bool, threads: int | None = None,
                    verdicts: dict[str, str] | None = None, show: int = 0, force_progress: bool = False) -> int:
    """The body of ``s2lct explain``; returns the exit code (user errors: one line, code 2)."""
    import sys

    from s2lct.progress import progress_for

    console, err = command_consoles(threads)
    t0 = time.perf_counter()
    try:
        with progress_for(quiet, force_progress) as progress:
            result = explain(model, suite, only=only, explainers=explainers, max_failures_per_capability=max_failures_per_capability,
                             out=out, seed=seed, models_dir=models_dir, batch_size=batch_size, use_cache=use_cache,
                             progress=progress, log=progress.log)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    summary = result.summary
    if summary["message"]:
        console.print(f"{result.model}: {summary['message']} ({summary['cases']} cases)")
    else:
        console.print(render_summary_table(summary))
        for cap in summary["capabilities"].values():
            for agg in cap["explainers"].values():
                console.print(agg["sentence"], markup=False)
    for name, line in (verdicts or {}).items():
        console.print(f"trust: {line}", markup=False, soft_wrap=True)
    shown: dict[str, int] = {}
    for rec in result.records:  # the first ``show`` explained failures per capability, each with its trust score
        if shown.get(rec["capability"], 0) < show:
            shown[rec["capability"]] = shown.get(rec["capability"], 0) + 1
            console.print(format_failure(rec, (verdicts or {}).get(rec["explainer"])), markup=False, soft_wrap=True)
    for name, reason in result.not_applicable.items():
        err.print(f"{name}: not applicable: {reason}", markup=False)
    err.print(f"wrote {out / RECORDS}, {out / SUMMARY}, {out / HTML} ({time.perf_counter() - t0:.1f} s)", markup=False)
    return 0
