"""Predictions for the selected suite items: once per run, in batches, through the on-disk cache.

Under xdist the controller predicts every selected case before the workers start, and the workers
read the cache; without xdist the items left after -k/-m/--only are predicted after collection.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

from s2lct.run.plugin_state import PluginState, is_worker, usage_error


def compute_predictions(config: pytest.Config, state: PluginState, items: list[Any] | None) -> dict[str, dict[str, Any]]:
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
        raise usage_error(exc) from None
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
    if tr is None or is_worker(config):
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
