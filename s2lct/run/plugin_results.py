"""The run's results in pytest's terminal and report files: outcomes gathered, table printed last."""

from __future__ import annotations

from typing import Any

import pytest

from s2lct.run.plugin_state import PROPERTY, PluginState


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


class SessionResults:
    """Per-run hooks (registered only with --model): gathers outcomes, prints and writes reports."""

    def __init__(self, config: pytest.Config, state: PluginState) -> None:
        self.config = config
        self.state = state
        self.reports: list[Any] | None = None
        self.gate: list[Any] = []
        self.other_failed = False  # a failing test that is not a suite case (the gate never hides it)

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if report.failed and _case_property(report) is None:
            self.other_failed = True
        if report.when != "call":
            return
        for key, value in report.user_properties:
            if key == PROPERTY:
                self.state.outcomes.setdefault(value["model"], []).append(value)
                break

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.other_failed = True

    def _apply_gate(self, session: pytest.Session) -> None:
        """With minimum pass rates, the exit status follows them: suite case failures alone do not
        fail the run, a capability below its minimum does (other tests' failures still count)."""
        from s2lct.errors import S2LCTError
        from s2lct.run.runner import gate_results

        reports = self.build_reports()
        try:
            self.gate = gate_results(reports, self.state.selection.manifest, self.config.getoption("s2lct_min_pass_rate"))
        except S2LCTError as exc:
            self.gate = []
            tr = self.config.pluginmanager.get_plugin("terminalreporter")
            if tr is not None:
                tr.write_line(f"s2lct: error: {exc}")
            session.exitstatus = pytest.ExitCode.USAGE_ERROR
            return
        if not self.gate or session.exitstatus not in (pytest.ExitCode.OK, pytest.ExitCode.TESTS_FAILED):
            return
        below = any(not g.ok for g in self.gate)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED if below or self.other_failed else pytest.ExitCode.OK

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
                                                     str(state.suite_dir), getattr(state.models[m], "neutral_band", None)))
        return self.reports

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        _index_teardown_reports(self.config)
        self._apply_gate(session)
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
        for g in self.gate:
            tr.write_line(g.line(), red=not g.ok, green=g.ok)


def _case_property(report: Any) -> dict[str, Any] | None:
    for key, value in getattr(report, "user_properties", ()) or ():
        if key == PROPERTY:
            return value
    return None
