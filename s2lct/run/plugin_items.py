"""Suite cases as pytest items: one ``LC4::<case-id>`` item per (case, model), marked per capability."""

from __future__ import annotations

from typing import Any

import pytest

from s2lct.run.plugin_predict import compute_predictions
from s2lct.run.plugin_state import PROPERTY, STATE, is_xdist_controller


class CaseFailed(AssertionError):
    """A suite case whose predicted label is not among its expected labels."""


def _probs(probs: dict[str, float]) -> str:
    return f"negative {probs['negative']:.4f}, neutral {probs['neutral']:.4f}, positive {probs['positive']:.4f}"


def perturbed_lines(case: Any, outcome: Any) -> list[str]:
    """An INV/DIR failure: the original and each perturbed text with both predictions."""
    lines = [
        f"  test:          {case.test_type.upper()}{' (' + case.perturbation + ')' if case.perturbation else ''}: {outcome.expectation}",
        f"  original:      {case.text}",
        f"    predicted:   {outcome.predicted} ({_probs(outcome.probs)})",
    ]
    for o in outcome.perturbed:
        mark = "ok  " if o.passed else "FAIL"
        lines.append(f"  {mark} perturbed: {o.text}")
        lines.append(f"    predicted:   {o.predicted} ({_probs(o.probs)}; change {o.change:+.4f})")
    if outcome.truncated:
        lines.append("  (an input was truncated to the model's length limit)")
    return lines


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
        case = self.case
        preds = state.preds.get(self.model_name)
        if preds is None or any(t not in preds for t in case.texts):
            preds = compute_predictions(self.config, state, [self])[self.model_name]
        from s2lct.run.outcomes import CaseOutcome
        from s2lct.run.runner import seed_passed

        pred = preds[case.text]
        outcome = CaseOutcome.judged(case, preds, seed_passed(state.selection, case, preds))
        extra = None
        if not outcome.passed and case.is_mft:  # explanations work from expected labels
            extra = self.config.hook.pytest_s2lct_explain_failure(config=self.config, case=case, model=state.models[self.model_name],
                                                                  prediction=pred)
        record = {"model": self.model_name, **outcome.to_json(), **({"explanation": extra["explanation"]} if extra else {})}
        self.user_properties.append((PROPERTY, record))
        if not outcome.applicable:
            pytest.skip(f"{case.id}: not applicable: the original is predicted {pred.label} ({outcome.expectation})")
        if not outcome.passed:
            raise CaseFailed(self._message(pred, outcome) + (f"\n{extra['message']}" if extra else ""))

    def _message(self, pred: Any, outcome: Any) -> str:
        state = self.config.stash[STATE]
        case = self.case
        name = state.selection.names.get(case.capability, "")
        p = pred.probs
        head = f"{case.id} ({case.capability}{' ' + name if name and name != case.capability else ''}) failed for model {self.model_name}"
        if not case.is_mft:
            return "\n".join([head, *perturbed_lines(case, outcome)])
        lines = [
            head,
            f"  text:          {case.text}",
            f"  expected:      {' or '.join(case.expected)}",
            f"  predicted:     {pred.label}",
            f"  probabilities: negative {p['negative']:.4f}, neutral {p['neutral']:.4f}, positive {p['positive']:.4f}",
        ]
        if outcome.truncated:
            lines.append("  (the input was truncated to the model's length limit)")
        if case.seed_case_id:
            state_txt = {True: "passed", False: "failed", None: "not run"}[outcome.seed_passed]
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
