"""pytest plugin of the explain stage: ``pytest --model NAME --s2lct-explain EXPLAINER``.

Implements the ``pytest_s2lct_explain_failure`` hook of :mod:`s2lct.run.hookspecs`: every failing
case gets its top evidence words (with the fragment they come from) appended to its failure
message, and the explanation goes into the report files. Registered through the ``pytest11``
entry point ``s2lct_explain``; the run stage never imports this stage.
"""

from __future__ import annotations

from typing import Any

import pytest

_HANDLES = pytest.StashKey[dict[str, Any]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("s2lct")
    g.addoption("--s2lct-explain", dest="s2lct_explain", default=None, metavar="EXPLAINER",
                help="explain every failing case with EXPLAINER (e.g. occlusion1, ig): top evidence words in the message and reports")


def pytest_configure(config: pytest.Config) -> None:
    name = config.getoption("s2lct_explain", None)
    if name:
        from .base import ExplainError
        from .registry import get_explainer

        try:
            get_explainer(name)
        except ExplainError as exc:
            raise pytest.UsageError(f"--s2lct-explain: {exc}") from None
        config.stash[_HANDLES] = {}


def pytest_s2lct_explain_failure(config: pytest.Config, case: Any, model: Any, prediction: Any) -> dict[str, Any] | None:
    name = config.getoption("s2lct_explain", None)
    if not name:
        return None
    from .adapters import prepare_model
    from .base import ExplainError, NotApplicable
    from .command import Failure, explain_failure, format_evidence
    from .registry import get_explainer

    handles = config.stash[_HANDLES]
    if model.name not in handles:
        handle = prepare_model(model)
        explainer = get_explainer(name)
        reason = explainer.not_applicable(handle)
        if reason:
            raise pytest.UsageError(f"--s2lct-explain: {reason}")
        handles[model.name] = (handle, explainer)
    handle, explainer = handles[model.name]
    try:
        rec = explain_failure(handle, Failure(case, prediction.label, dict(prediction.probs)), explainer)
    except (NotApplicable, ExplainError) as exc:
        return {"message": f"  explanation ({name}): not applicable: {exc}", "explanation": {"explainer": name, "summary": str(exc)}}
    summary = format_evidence(rec)
    keep = {k: rec[k] for k in ("explainer", "explained_class", "evidence", "counter_evidence", "localisation")}
    return {"message": "  " + summary, "explanation": {**keep, "summary": summary}}
