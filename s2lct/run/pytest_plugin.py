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

from pathlib import Path

import pytest

from s2lct.run.plugin_items import (  # noqa: F401 (hooks of this plugin)
    CaseItem,
    pytest_collection_finish,
    pytest_collection_modifyitems,
    pytest_runtest_protocol,
    pytest_sessionstart,
)
from s2lct.run.plugin_results import SessionResults
from s2lct.run.plugin_state import STATE, PluginState, is_worker, usage_error


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    from . import hookspecs

    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    g = parser.getgroup("s2lct", "s2lct: behavioural test suites for sentiment models")
    g.addoption("--model", action="append", dest="s2lct_models", default=[], metavar="NAME",
                help="run the s2lct suite against model NAME (alias, HF folder or hub name); repeatable or comma-separated")
    g.addoption("--suite", dest="s2lct_suite", default="generated", metavar="DIR",
                help="suite folder to run (default: generated)")
    g.addoption("--only", dest="s2lct_only", action="append", default=[], metavar="IDS",
                help="run only these capabilities, e.g. LC4,LC9 (repeatable or comma-separated; -k and -m also select)")
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
    g.addoption("--s2lct-min-pass-rate", dest="s2lct_min_pass_rate", default=None, metavar="RATE",
                help="CI gate: the exit status follows each capability's pass rate against this minimum instead of single "
                     "cases (0.8, or LC4=0.9,0.8; default: the specs' min_pass_rate, $S2LCT_MIN_PASS_RATE)")
    g.addoption("--s2lct-progress", dest="s2lct_progress", action="store_true", default=False,
                help="show prediction progress even when the output is not a terminal")
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
    state = PluginState(names, suite, report_path, opts)
    try:
        check_report_path(report_path)
        only = [i.strip() for v in config.getoption("s2lct_only") for i in v.split(",") if i.strip()] or None
        state.selection = load_selection(suite, config.getoption("s2lct_max_cases"), config.getoption("s2lct_seed"), only=only)
        for n in names:
            state.models[n] = load_model(n, **opts)
    except S2LCTError as exc:
        raise usage_error(exc) from None
    config.stash[STATE] = state
    if not is_worker(config):
        config.pluginmanager.register(SessionResults(config, state), "s2lct-session")
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
    state = config.stash.get(STATE, None)
    if state is None:
        return None
    return (f"s2lct: models {', '.join(state.model_names)}; suite {state.suite_dir} "
            f"({len(state.selection.cases)} cases in {len({c.capability for c in state.selection.cases})} capabilities)")


def pytest_report_collectionfinish(config: pytest.Config, items: list[pytest.Item]) -> str | None:
    """After -k/-m/--only deselection: how many suite items will actually run."""
    state = config.stash.get(STATE, None)
    if state is None:
        return None
    selected = sum(isinstance(it, CaseItem) for it in items)
    return f"s2lct: {selected} of {state.item_count} suite items selected"
