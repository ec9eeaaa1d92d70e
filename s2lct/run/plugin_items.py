"""Suite cases as pytest items: one ``LC4::<case-id>`` item per (case, model), marked per capability."""

from __future__ import annotations

from typing import Any

import pytest

from s2lct.run.plugin_predict import compute_predictions
from s2lct.run.plugin_state import PROPERTY, STATE, is_xdist_controller


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
        state = self.config.stash[STATE]
        preds = state.preds.get(self.model_name)
        if preds is None or self.case.text not in preds:
            preds = compute_predictions(self.config, state, [self])[self.model_name]
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
        state = self.config.stash[STATE]
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
        return self.config.stash[STATE].suite_dir, None, self.nodeid


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
    state = config.stash.get(STATE, None)
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


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    """Under xdist, the controller predicts every selected case before workers start."""
    config = session.config
    state = config.stash.get(STATE, None)
    if state is None or not is_xdist_controller(config) or config.option.collectonly:
        return
    compute_predictions(config, state, None)


def pytest_collection_finish(session: pytest.Session) -> None:
    config = session.config
    state = config.stash.get(STATE, None)
    if state is None or config.option.collectonly or is_xdist_controller(config):
        return
    items = [it for it in session.items if isinstance(it, CaseItem)]
    if items:
        compute_predictions(config, state, items)
