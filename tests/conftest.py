"""Project test configuration: the repo's [tool.s2lct] points every resource at ../shared (CI has it; missing is an error)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")).resolve()

if not SHARED.is_dir():  # a missing ../shared is an error, never a skip
    raise RuntimeError(f"{SHARED} not found: the tests need the shared data and models beside the repo (set S2LCT_SHARED)")

# Every resource location comes from the repo's configuration file ([tool.s2lct] in pyproject.toml,
# paths relative to it); exported so that subprocesses started from other folders read it too.
os.environ.setdefault("S2LCT_CONFIG", str(REPO / "pyproject.toml"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO


@pytest.fixture(scope="session")
def selector_weights(tmp_path_factory) -> Path:
    """The fluency selector trained here (a trained model is built, never committed), for the slot-kind engine's tests."""
    import subprocess
    import sys

    out = tmp_path_factory.mktemp("selector") / "selector.json"
    subprocess.run([sys.executable, str(REPO / "benchmarks" / "train_selector.py"), "--out", str(out)], check=True,
                   capture_output=True, text=True)
    os.environ["S2LCT_SELECTOR"] = str(out)
    return out
