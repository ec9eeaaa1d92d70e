"""Run suites against models without pytest (``s2lct run``), and the pieces the pytest plugin shares.

This module is cheap to import (no torch): the pytest plugin imports it in every pytest run.
"""

from __future__ import annotations

import functools
import random
import re
import sys
import time
import warnings
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from s2lct.errors import S2LCTError
from s2lct.run.judging import judge  # noqa: F401 (re-exported: explain and trust judge MFT cases)
from s2lct.suite import MANIFEST_NAME, Case, load_manifest, load_suite, natural_key, suite_files

DEFAULT_SUITE = "generated"


@dataclass
class SuiteSelection:
    """The selected cases of a suite plus what is needed to judge them."""

    suite_dir: Path
    cases: list[Case]
    by_id: dict[str, Case]
    manifest: dict[str, Any] = field(default_factory=dict)

    @property
    def names(self) -> dict[str, str]:
        return capability_names(self.manifest)

    def texts_to_predict(self, cases: Iterable[Case] | None = None) -> list[str]:
        """Texts of the cases, plus those of the seed cases of expansions (to tell whether the seed passed)."""
        texts: dict[str, None] = {}
        for c in self.cases if cases is None else cases:
            for t in c.texts:
                texts[t] = None
            seed = self.by_id.get(c.seed_case_id) if c.seed_case_id else None
            if seed is not None:
                texts[seed.text] = None
        return list(texts)


def capability_names(manifest: Mapping[str, Any]) -> dict[str, str]:
    caps = manifest.get("capabilities") or {}
    return {cid: str(info.get("name") or cid) for cid, info in caps.items() if isinstance(info, Mapping)}


def marker_name(text: str) -> str:
    """A valid ``-m`` expression identifier: lower-case, non-alphanumerics as ``_``."""
    m = re.sub(r"\W+", "_", str(text).strip().lower()).strip("_")
    return m if m and not m[0].isdigit() else f"m_{m}"


def capability_markers(manifest: Mapping[str, Any], capability: str) -> list[str]:
    """Markers of one capability: the spec's declared markers plus the lower-cased id (``lc4``)."""
    info = (manifest.get("capabilities") or {}).get(capability) or {}
    declared = (info.get("markers") or []) if isinstance(info, Mapping) else []
    out = [marker_name(capability)]
    for m in declared:
        name = marker_name(m)
        if name not in out:
            out.append(name)
    return out


def select_cases(cases: Sequence[Case], max_per_capability: int | None = None, seed: int = 0) -> list[Case]:
    """At most ``max_per_capability`` cases per capability, sampled with a fixed seed, in suite order."""
    if not max_per_capability or max_per_capability <= 0:
        return list(cases)
    by_cap: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(cases):
        by_cap[c.capability].append(i)
    keep: set[int] = set()
    for cap, idx in by_cap.items():
        if len(idx) <= max_per_capability:
            keep.update(idx)
        else:
            keep.update(random.Random(f"s2lct:{seed}:{cap}").sample(idx, max_per_capability))
    return [c for i, c in enumerate(cases) if i in keep]


def load_selection(
    suite_dir: str | Path = DEFAULT_SUITE,
    max_per_capability: int | None = None,
    seed: int = 0,
    only: Iterable[str] | None = None,
) -> SuiteSelection:
    """Read a suite folder (via :mod:`s2lct.suite`) and select cases; errors are one line."""
    suite_dir = Path(suite_dir)
    if not suite_dir.is_dir():
        raise S2LCTError(f"suite folder {suite_dir} does not exist; run `s2lct generate --out {suite_dir}` or pass --suite DIR")
    if not suite_files(suite_dir):
        raise S2LCTError(f"suite folder {suite_dir} holds no <capability>.jsonl files; run `s2lct generate --out {suite_dir}` or pass --suite DIR")
    cases = load_suite(suite_dir, only=only)
    manifest = load_manifest(suite_dir) if (suite_dir / MANIFEST_NAME).is_file() else {}
    by_id = {c.id: c for c in cases}
    return SuiteSelection(suite_dir, select_cases(cases, max_per_capability, seed), by_id, manifest)


def seed_passed(selection: SuiteSelection, case: Case, preds: Mapping[str, Any]) -> bool | None:
    """For an expansion, whether its seed case passed; ``None`` for seed cases or when unknown."""
    seed = selection.by_id.get(case.seed_case_id) if case.seed_case_id else None
    if seed is None or seed.text not in preds:
        return None
    return judge(seed, preds[seed.text].label)


def outcomes_for(selection: SuiteSelection, preds: Mapping[str, Any], cases: Iterable[Case] | None = None) -> list:
    """One :class:`~s2lct.run.report.CaseOutcome` per case, from predictions keyed by text."""
    from s2lct.run.report import CaseOutcome

    out = []
    for c in selection.cases if cases is None else cases:
        out.append(CaseOutcome.judged(c, preds, seed_passed(selection, c, preds)))
    return out


def run_suite(
    models: Sequence[str],
    suite: str | Path = DEFAULT_SUITE,
    *,
    max_cases_per_capability: int | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    models_dir: str | Path | None = None,
    label_map: str | None = None,
    neutral_band: str | None = None,
    use_cache: bool = True,
    log: Any = None,
    progress: Any = None,
    only: Iterable[str] | None = None,
    task: bool = False,
    engine: Any = None,
) -> list:
    """Predict and judge every selected case for each model; returns one ModelReport per model.

    ``only``: capability ids to run (all when None); an unknown id is an error with a suggestion.
    ``task``: also measure accuracy and macro-F1 on the seeds' data set (SST test) when the suite was
    generated from SST (``report.task``).
    """
    from s2lct.models import load_model
    from s2lct.run.predict import PredictBatch, PredictStats, predict_texts
    from s2lct.run.report import build_report

    names = split_models(models)
    if not names:
        raise S2LCTError("no model given; pass --model NAME (e.g. --model vader)")
    load = {"models_dir": models_dir, "label_map": label_map, "neutral_band": neutral_band, "batch_size": batch_size}
    resolved = [load_model(n, **load) for n in names]
    selection = load_selection(suite, max_cases_per_capability, seed, only=only)
    by_capability: dict[str, list[Any]] = {}
    for case in selection.cases:
        by_capability.setdefault(case.capability, []).append(case)
    reports = []
    for name, model in zip(names, resolved):
        workers = functools.partial(PredictBatch, name, **load) if engine is not None else None
        stats = PredictStats()
        t0 = time.perf_counter()
        texts: list[str] = []
        groups: list[str] = []
        for cap, cases in by_capability.items():  # chunks never mix capabilities (predict_texts' groups)
            own = selection.texts_to_predict(cases)
            texts.extend(own)
            groups.extend([cap] * len(own))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # truncation is counted in the report instead
            preds = predict_texts(model, texts, batch_size=batch_size, use_cache=use_cache, stats=stats, progress=progress,
                                  description=model.name, engine=engine, make_worker=workers,
                                  groups=groups)
        if log is not None:
            log(f"{model.name}: {len(selection.cases)} cases, {stats.computed} predicted, {stats.cached} from cache "
                f"({time.perf_counter() - t0:.1f} s)")
        rep = build_report(model.name, model.identity, outcomes_for(selection, preds), selection.names, str(suite),
                           neutral_band=getattr(model, "neutral_band", None))
        if task:
            from s2lct.run.task_metrics import seeds_from_sst, task_metrics

            if seeds_from_sst(selection.manifest):
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        rep.task = task_metrics(model, batch_size=batch_size, use_cache=use_cache, progress=progress).to_json()
                except S2LCTError as exc:  # the suite runs without SST beside it; the metrics need it
                    if log is not None:
                        log(f"note: no accuracy on the seeds' data set ({exc})")
        if rep.total.truncated and log is not None:
            log(f"warning: {model.name}: {rep.total.truncated} input(s) were truncated to the model's length limit")
        reports.append(rep)
    return reports


def split_models(models: Iterable[str] | str | None) -> list[str]:
    """``["a,b", "c"]`` → ``["a", "b", "c"]`` (repeatable and comma-separated), duplicates dropped."""
    if models is None:
        return []
    if isinstance(models, str):
        models = [models]
    out: list[str] = []
    for m in models:
        for part in str(m).split(","):
            part = part.strip()
            if part and part not in out:
                out.append(part)
    return out


def run_command(
    models: Sequence[str],
    suite: str | Path = DEFAULT_SUITE,
    json_path: str | Path | None = None,
    report_path: str | Path | None = None,
    max_cases_per_capability: int | None = None,
    seed: int = 0,
    batch_size: int | None = None,
    models_dir: str | Path | None = None,
    label_map: str | None = None,
    neutral_band: str | None = None,
    use_cache: bool = True,
    console: Any = None,
    quiet: bool = False,
    force_progress: bool = False,
    only: Iterable[str] | None = None,
    min_pass_rate: str | None = None,
    task: bool = True,
    engine: Any = None,
) -> int:
    """``s2lct run``: print a per-capability table per model, write reports; returns the exit code.

    Progress bars (stderr) are gone before the first table is printed. User errors print
    ``error: <one line>`` on stderr and return the error's exit code; a capability below its
    minimum pass rate (:mod:`s2lct.run.gate`) returns ``GATE_FAILED_EXIT`` after one line per gated
    capability.
    """
    from rich.console import Console

    from s2lct.progress import progress_for
    from s2lct.run.report import (
        check_report_path,
        render_tables,
        write_json_report,
        write_report,
    )

    console = console or Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    try:
        if json_path is not None and Path(json_path).suffix.lower() != ".json":
            raise S2LCTError(f"--json {json_path}: the file name must end in .json (use --report for .md/.html)")
        check_report_path(report_path)
        with progress_for(quiet, force_progress) as progress:
            reports = run_suite(
                models, suite, max_cases_per_capability=max_cases_per_capability, seed=seed, batch_size=batch_size,
                models_dir=models_dir, label_map=label_map, neutral_band=neutral_band, use_cache=use_cache,
                log=progress.log, progress=progress, only=only, task=task, engine=engine,
            )
        for table in render_tables(reports, width=console.width):
            console.print(table)
        for r in reports:
            if r.task is not None:
                from s2lct.run.task_metrics import TaskMetrics

                console.print(TaskMetrics(r.model, **r.task).line(), markup=False)
        if json_path is not None:
            write_json_report(json_path, reports)
            err.print(f"wrote {json_path}", markup=False)
        if report_path is not None:
            write_report(report_path, reports)
            err.print(f"wrote {report_path}", markup=False)
        manifest = load_manifest(suite) if (Path(suite) / MANIFEST_NAME).is_file() else {}
        gate = gate_results(reports, manifest, min_pass_rate)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    from s2lct.run.gate import GATE_FAILED_EXIT

    for g in gate:
        console.print(g.line(), markup=False, highlight=False)
    return GATE_FAILED_EXIT if any(not g.ok for g in gate) else 0


def gate_results(reports: Sequence[Any], manifest: Mapping[str, Any], min_pass_rate: str | None) -> list:
    """The CI gate's verdict per model and gated capability (empty: nothing is gated); ``manifest``
    is the suite's (the specs' minimums), as the caller already read it."""
    from s2lct.run.gate import evaluate, gate_from_settings

    caps = sorted({c.id for r in reports for c in r.capabilities}, key=natural_key)
    return evaluate(list(reports), gate_from_settings(min_pass_rate, manifest, caps))
