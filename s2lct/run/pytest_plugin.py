"""pytest plugin: run s2lct suites against sentiment models as ordinary test items.

    pytest --model vader                       # the committed suites in generated/
    pytest --model minilm-sst2,vader -m negation --s2lct-report report.html
    pytest --model roberta -n 4                # pytest-xdist: same results

Without ``--model`` the plugin does nothing (a plain ``pytest`` runs the project's own tests).
With ``--model`` and no path arguments, only the suite is run; give paths (``pytest --model vader
tests/``) to run other tests beside it.

* Every selected case is one item ``LC4::<case-id>`` (``LC4::<case-id>[model]`` with several
  models), marked with the lower-cased capability id (``lc4``) and the capability's declared
  markers (``negation``, ...), all registered, so ``-m``, ``-k`` and ``--strict-markers`` work.
* Predictions are computed once per run, in batches, after collection (for the items left after
  ``-k``/``-m``), through the on-disk cache of :mod:`s2lct.run.predict`. Under xdist the controller
  computes them for all selected cases before the workers start, and the workers read the cache.
* The per-capability table is printed in the terminal summary; ``--s2lct-report FILE`` writes
  JSON, Markdown or HTML by suffix.

This module imports only pytest at import time; s2lct's model code (and torch) load only when
``--model`` is given.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PROPERTY = "s2lct"


@dataclass
class _State:
    model_names: list[str]
    suite_dir: Path
    report_path: Path | None
    options: dict[str, Any]
    selection: Any = None
    models: dict[str, Any] = field(default_factory=dict)
    preds: dict[str, dict[str, Any]] = field(default_factory=dict)
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    item_count: int = 0


_STATE = pytest.StashKey[_State]()


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from . import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("s2lct", "s2lct: behavioural test suites for sentiment models")
    g.addoption("--model", action="append", dest="s2lct_models", default=[], metavar="NAME",
                help="run the s2lct suite against model NAME (alias, HF folder or hub name); repeatable or comma-separated")
    g.addoption("--suite", dest="s2lct_suite", default="generated", metavar="DIR",
                help="suite folder to run (default: generated)")
    g.addoption("--s2lct-report", dest="s2lct_report", default=None, metavar="FILE",
                help="write a report: .json, .md or .html by suffix")
    g.addoption("--max-cases-per-capability", dest="s2lct_max_cases", type=int, default=None, metavar="N",
                help="sample at most N cases per capability (fixed seed, see --s2lct-seed)")
    g.addoption("--s2lct-seed", dest="s2lct_seed", type=int, default=0, metavar="SEED",
                help="seed of the per-capability sample (default 0)")
    g.addoption("--s2lct-models-dir", dest="s2lct_models_dir", default=None, metavar="DIR",
                help="folder of offline models such as minilm-sst2 (default: $S2LCT_MODELS_DIR)")
    g.addoption("--s2lct-label-map", dest="s2lct_label_map", default=None, metavar="MAP",
                help="map model classes to labels, e.g. 0=negative,1=positive")
    g.addoption("--s2lct-neutral-band", dest="s2lct_neutral_band", default=None, metavar="LOW,HIGH",
                help="neutral band (binary models: on p(positive), default 0.3333,0.6667)")
    g.addoption("--s2lct-batch-size", dest="s2lct_batch_size", type=int, default=None, metavar="N",
                help="inference batch size")
    g.addoption("--s2lct-no-cache", dest="s2lct_no_cache", action="store_true", default=False,
                help="do not read or write the prediction cache")
    g.addoption("--s2lct-config", dest="s2lct_config", default=None, metavar="FILE",
                help="configuration file (default: s2lct.toml or [tool.s2lct] in pyproject.toml, found upward; env S2LCT_CONFIG)")
    g.addoption("--s2lct-failures", dest="s2lct_failures", action="store_true", default=False,
                help="list every failing suite case (default: a count per capability and the first few; an explicit -r does the same)")
    g.addoption("--s2lct-progress", dest="s2lct_progress", action="store_true", default=False,
                help="show prediction progress even when the output is not a terminal")


def _is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def _is_xdist_controller(config: pytest.Config) -> bool:
    return not _is_worker(config) and config.pluginmanager.has_plugin("dsession")


def _usage_error(exc: Exception) -> pytest.UsageError:
    return pytest.UsageError(f"s2lct: {exc}")


def pytest_configure(config: pytest.Config) -> None:
    from s2lct.run.runner import split_models

    names = split_models(config.getoption("s2lct_models"))
    if not names:
        return
    from s2lct.errors import S2LCTError
    from s2lct.models import load_model
    from s2lct.run.report import check_report_path
    from s2lct.run.runner import capability_markers, load_selection

    base = config.invocation_params.dir
    if config.getoption("s2lct_config"):
        import os

        cfg = Path(config.getoption("s2lct_config")).expanduser()
        os.environ["S2LCT_CONFIG"] = str(cfg if cfg.is_absolute() else base / cfg)
    suite = Path(config.getoption("s2lct_suite")).expanduser()
    suite = suite if suite.is_absolute() else (base / suite)
    config.option.s2lct_suite = str(suite)  # absolute, so xdist workers agree
    report = config.getoption("s2lct_report")
    report_path = None
    if report:
        report_path = Path(report).expanduser()
        report_path = report_path if report_path.is_absolute() else base / report_path
        config.option.s2lct_report = str(report_path)
    opts = dict(
        models_dir=config.getoption("s2lct_models_dir"),
        label_map=config.getoption("s2lct_label_map"),
        neutral_band=config.getoption("s2lct_neutral_band"),
        batch_size=config.getoption("s2lct_batch_size"),
    )
    state = _State(names, suite, report_path, opts)
    try:
        check_report_path(report_path)
        state.selection = load_selection(suite, config.getoption("s2lct_max_cases"), config.getoption("s2lct_seed"))
        for n in names:
            state.models[n] = load_model(n, **opts)
    except S2LCTError as exc:
        raise _usage_error(exc) from None
    config.stash[_STATE] = state
    if not _is_worker(config):
        config.pluginmanager.register(_SessionPlugin(config, state), "s2lct-session")
    config.addinivalue_line("markers", "s2lct: an s2lct suite case")
    seen: set[str] = set()
    caps = sorted({c.capability for c in state.selection.cases})
    names_by_cap = state.selection.names
    for cap in caps:
        for m in capability_markers(state.selection.manifest, cap):
            if m not in seen:
                seen.add(m)
                config.addinivalue_line("markers", f"{m}: s2lct capability marker ({cap} {names_by_cap.get(cap, '')})".rstrip())
    # `pytest --model X` with no path arguments runs the suite only, not the project's testpaths.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = []


def pytest_report_header(config: pytest.Config) -> str | None:
    state = config.stash.get(_STATE, None)
    if state is None:
        return None
    return (f"s2lct: models {', '.join(state.model_names)}; suite {state.suite_dir} "
            f"({len(state.selection.cases)} cases selected)")


class CaseFailed(AssertionError):
    """A suite case whose predicted label is not among its expected labels."""


class CapabilityCollector(pytest.Collector):
    """Groups the items of one capability (node id ``LC4``)."""

    def collect(self) -> list[pytest.Item]:  # items are made directly by the plugin
        return []


class CaseItem(pytest.Item):
    """One suite case judged against one model."""

    def __init__(self, *, case: Any, model: str, **kw: Any) -> None:
        super().__init__(**kw)
        self.case = case
        self.model_name = model

    def runtest(self) -> None:
        state = self.config.stash[_STATE]
        preds = state.preds.get(self.model_name)
        if preds is None or self.case.text not in preds:
            preds = _compute_predictions(self.config, state, [self])[self.model_name]
        from s2lct.run.runner import judge, seed_passed

        pred = preds[self.case.text]
        case = self.case
        passed = judge(case, pred.label)
        seed_ok = seed_passed(state.selection, case, preds)
        extra = None if passed else self.config.hook.pytest_s2lct_explain_failure(
            config=self.config, case=case, model=state.models[self.model_name], prediction=pred)
        self.user_properties.append((PROPERTY, {
            "model": self.model_name, "id": case.id, "capability": case.capability, "text": case.text,
            "expected": list(case.expected), "predicted": pred.label, "probs": dict(pred.probs),
            "passed": passed, "truncated": pred.truncated, "seed_case": case.seed_case_id, "seed_passed": seed_ok,
            **({"explanation": extra["explanation"]} if extra else {}),
        }))
        if not passed:
            raise CaseFailed(self._message(pred, seed_ok) + (f"\n{extra['message']}" if extra else ""))

    def _message(self, pred: Any, seed_passed: bool | None) -> str:
        state = self.config.stash[_STATE]
        case = self.case
        name = state.selection.names.get(case.capability, "")
        p = pred.probs
        lines = [
            f"{case.id} ({case.capability}{' ' + name if name and name != case.capability else ''}) failed for model {self.model_name}",
            f"  text:          {case.text}",
            f"  expected:      {' or '.join(case.expected)}",
            f"  predicted:     {pred.label}",
            f"  probabilities: negative {p['negative']:.4f}, neutral {p['neutral']:.4f}, positive {p['positive']:.4f}",
        ]
        if pred.truncated:
            lines.append("  (the input was truncated to the model's length limit)")
        if case.seed_case_id:
            state_txt = {True: "passed", False: "failed", None: "not run"}[seed_passed]
            lines.append(f"  expansion of {case.seed_case_id} (seed case {state_txt})")
        return "\n".join(lines)

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException], style: Any = None) -> Any:
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style=style)

    def reportinfo(self) -> tuple[Any, int | None, str]:
        return self.config.stash[_STATE].suite_dir, None, self.nodeid


def _noop() -> None:
    return None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> bool | None:
    """A lean run protocol for suite items (they use no fixtures and print nothing).

    The standard protocol wraps every phase in output capturing, log capturing and warning
    recording, which costs more than judging a cached prediction. Suite items skip those wrappers but
    go through the same reporting hooks (makereport, logreport), so terminal output, ``-x``,
    junitxml, xdist and ``--lf`` see ordinary reports.
    """
    if not isinstance(item, CaseItem):
        return None
    ihook = item.ihook
    ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
    for when, func in (("setup", _noop), ("call", item.runtest), ("teardown", _noop)):
        call = pytest.CallInfo.from_call(func, when=when, reraise=(pytest.exit.Exception, KeyboardInterrupt))
        ihook.pytest_runtest_logreport(report=ihook.pytest_runtest_makereport(item=item, call=call))
    ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
    return True


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(session: pytest.Session, config: pytest.Config, items: list[pytest.Item]) -> None:
    """Append one item per (case, model), before -k/-m deselection runs."""
    state = config.stash.get(_STATE, None)
    if state is None:
        return
    from s2lct.run.runner import capability_markers
    from s2lct.suite import natural_key

    by_cap: dict[str, list[Any]] = {}
    for c in state.selection.cases:
        by_cap.setdefault(c.capability, []).append(c)
    multi = len(state.model_names) > 1
    new: list[pytest.Item] = []
    from _pytest.reports import CollectReport

    for cap in sorted(by_cap, key=natural_key):
        parent = CapabilityCollector.from_parent(session, name=cap, nodeid=cap)
        start = len(new)
        marks = [pytest.mark.s2lct] + [getattr(pytest.mark, m) for m in capability_markers(state.selection.manifest, cap)]
        for case in by_cap[cap]:
            for model in state.model_names:
                name = f"{case.id}[{model}]" if multi else case.id
                item = CaseItem.from_parent(parent, name=name, case=case, model=model)
                for m in marks:
                    item.add_marker(m)
                if multi:
                    item.extra_keyword_matches.add(model)
                new.append(item)
        # Report the capability's items like a collected file, so "collected N items" counts them.
        config.hook.pytest_collectreport(report=CollectReport(cap, "passed", None, new[start:]))
    state.item_count = len(new)
    items.extend(new)


def _compute_predictions(config: pytest.Config, state: _State, items: list[Any] | None) -> dict[str, dict[str, Any]]:
    from s2lct.errors import S2LCTError
    from s2lct.run.predict import predict_texts

    if items is None:
        texts = state.selection.texts_to_predict()
        per_model = {m: texts for m in state.model_names}
    else:
        wanted: dict[str, list[Any]] = {}
        for it in items:
            wanted.setdefault(it.model_name, []).append(it.case)
        per_model = {m: state.selection.texts_to_predict(cs) for m, cs in wanted.items()}
    progress = _terminal_progress(config)
    try:
        for m, texts in per_model.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # truncations are counted in the report
                preds = predict_texts(state.models[m], texts, batch_size=state.options.get("batch_size"),
                                      use_cache=not config.getoption("s2lct_no_cache"), progress=progress,
                                      description=f"s2lct: predicting {m}")
            state.preds.setdefault(m, {}).update(preds)
    except S2LCTError as exc:
        raise _usage_error(exc) from None
    return state.preds


class _TerminalTask:
    """Prediction progress through pytest's terminal writer (pytest owns the terminal while it runs)."""

    def __init__(self, tr: Any, description: str, total: int | None) -> None:
        import time

        self.tr, self.description, self.total, self.done = tr, description, total or 0, 0
        self.start = self.last = time.monotonic()
        self._show()

    def _show(self, final: bool = False) -> None:
        import time

        elapsed = max(time.monotonic() - self.start, 1e-9)
        rate = self.done / elapsed
        eta = (self.total - self.done) / rate if rate and self.total else 0.0
        line = f"{self.description}: {self.done}/{self.total} texts, {rate:.1f}/s, " + (f"{elapsed:.0f} s" if final else f"ETA {eta:.0f} s")
        if final:
            self.tr.rewrite(line, erase=True)
            self.tr.write_line("")
        else:
            self.tr.rewrite(line, erase=True)

    def advance(self, n: int = 1) -> None:
        import time

        self.done += n
        if time.monotonic() - self.last > 0.2:
            self.last = time.monotonic()
            self._show()

    def close(self) -> None:
        self._show(final=True)


def _terminal_progress(config: pytest.Config) -> Any:
    """Progress lines on pytest's terminal when it is a TTY (or with --s2lct-progress); else nothing."""
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if tr is None or _is_worker(config):
        return None
    tw = getattr(tr, "_tw", None)
    if not (config.getoption("s2lct_progress") or (tw is not None and getattr(tw, "hasmarkup", False) and tr.isatty)):
        return None
    return lambda description, total: _TerminalTask(tr, description, total) if total else _NoTask()


class _NoTask:
    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under xdist, the controller predicts every selected case before workers start."""
    config = session.config
    state = config.stash.get(_STATE, None)
    if state is None or not _is_xdist_controller(config) or config.option.collectonly:
        return
    _compute_predictions(config, state, None)


def pytest_collection_finish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(_STATE, None)
    if state is None or config.option.collectonly or _is_xdist_controller(config):
        return
    items = [it for it in session.items if isinstance(it, CaseItem)]
    if items:
        _compute_predictions(config, state, items)


def _index_teardown_reports(config: pytest.Config) -> None:
    """Make the terminal's failure summary linear in the number of reports.

    pytest's TerminalReporter looks up each failed test's teardown report by scanning every passed
    setup/teardown report (``_get_teardown_reports``), which is quadratic: with thousands of failing
    cases (normal for a behavioural suite) the summary alone would take longer than the inference.
    This replaces the lookup, for this run only, by one index with the same result.
    """
    tr = config.pluginmanager.get_plugin("terminalreporter")
    if tr is None or not hasattr(tr, "_get_teardown_reports") or not hasattr(tr, "getreports"):
        return
    index: dict[str, list[Any]] | None = None

    def lookup(nodeid: str) -> list[Any]:
        nonlocal index
        if index is None:
            index = {}
            for rep in tr.getreports(""):
                if getattr(rep, "when", None) == "teardown":
                    index.setdefault(rep.nodeid, []).append(rep)
        return index.get(nodeid, [])

    tr._get_teardown_reports = lookup


class _SessionPlugin:
    """Per-run hooks (registered only with --model): gathers outcomes, prints and writes reports."""

    def __init__(self, config: pytest.Config, state: _State) -> None:
        self.config = config
        self.state = state
        self.reports: list[Any] | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == PROPERTY:
                self.state.outcomes.setdefault(value["model"], []).append(value)
                break

    def build_reports(self) -> list[Any]:
        if self.reports is None:
            from s2lct.run.report import CaseOutcome, build_report

            state = self.state
            self.reports = []
            for m in state.model_names:
                vals = state.outcomes.get(m, [])
                if vals:
                    outcomes = [CaseOutcome.from_json(v) for v in vals]
                    self.reports.append(build_report(m, state.models[m].identity, outcomes, state.selection.names,
                                                     str(state.suite_dir)))
        return self.reports

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        _index_teardown_reports(self.config)
        if self.state.report_path is None:
            return
        reports = self.build_reports()
        if reports:
            from s2lct.run.report import write_report

            write_report(self.state.report_path, reports)

    def _list_every_failure(self) -> bool:
        args = self.config.invocation_params.args
        explicit_r = any(a.startswith("-r") or a.startswith("--report-chars") for a in args if isinstance(a, str))
        return bool(self.config.getoption("s2lct_failures") or explicit_r)

    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> Any:
        """Results first: suite failures summarised, the capability table printed last.

        pytest lists every failure twice (the failure sections and ``-ra``'s ``FAILED`` lines); for a
        behavioural suite that is thousands of lines burying the table. Around pytest's own summary,
        failing suite items are taken out of its list (project tests keep theirs), then put back for
        the final counts, and a count per capability with the first few ids is printed instead.
        """
        tr = terminalreporter
        failed = tr.stats.get("failed")
        hidden: list[Any] = []
        if failed and not self._list_every_failure():
            hidden = [r for r in failed if _case_property(r) is not None]
            if hidden:
                tr.stats["failed"] = [r for r in failed if _case_property(r) is None]
        try:
            return (yield)
        finally:
            if hidden:
                tr.stats["failed"] = failed
            self._print_results(tr, hidden)

    def _print_results(self, tr: Any, hidden: list[Any]) -> None:
        reports = self.build_reports()
        if hidden:
            per_cap: dict[tuple[str, str], list[str]] = {}
            for r in hidden:
                v = _case_property(r)
                per_cap.setdefault((v["model"], v["capability"]), []).append(r.nodeid)
            tr.write_sep("=", f"s2lct: {len(hidden)} failing suite cases (list them all with --s2lct-failures or -rf)")
            from s2lct.suite import natural_key

            for (model, cap), ids in sorted(per_cap.items(), key=lambda kv: (kv[0][0], natural_key(kv[0][1]))):
                shown = ", ".join(i.split("::")[-1] for i in ids[:3])
                tr.write_line(f"{model} {cap}: {len(ids)} failed, e.g. {shown}{', ...' if len(ids) > 3 else ''}")
        if not reports:
            return
        from s2lct.run.report import tables_text

        tw = getattr(tr, "_tw", None)
        width = max(80, min(tw.fullwidth if tw is not None else 100, 160))
        tr.write_sep("=", "s2lct results")
        tr.write(tables_text(reports, width=width))
        if self.state.report_path is not None:
            tr.write_line(f"s2lct report: {self.state.report_path}")


def _case_property(report: Any) -> dict[str, Any] | None:
    for key, value in getattr(report, "user_properties", ()) or ():
        if key == PROPERTY:
            return value
    return None
