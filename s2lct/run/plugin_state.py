"""The pytest plugin's per-run state, shared by its modules (stashed on the config)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

PROPERTY = "s2lct"


@dataclass
class PluginState:
    model_names: list[str]
    suite_dir: Path
    report_path: Path | None
    options: dict[str, Any]
    selection: Any = None
    models: dict[str, Any] = field(default_factory=dict)
    preds: dict[str, dict[str, Any]] = field(default_factory=dict)
    outcomes: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    item_count: int = 0


STATE = pytest.StashKey[PluginState]()


def is_worker(config: pytest.Config) -> bool:
    return hasattr(config, "workerinput")


def is_xdist_controller(config: pytest.Config) -> bool:
    return not is_worker(config) and config.pluginmanager.has_plugin("dsession")


def usage_error(exc: Exception) -> pytest.UsageError:
    return pytest.UsageError(f"s2lct: {exc}")
