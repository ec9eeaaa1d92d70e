"""Fixtures of the generation tests: the repo's specs and the annotated SST corpus (cached)."""

from __future__ import annotations

import pytest

from s2lct.config import get_settings
from s2lct.corpus.annotate import load_annotated_corpus
from s2lct.spec import load_specs


@pytest.fixture(scope="session")
def specs(repo_dir):
    return {s.id: s for s in load_specs([repo_dir / "specs"])}


@pytest.fixture(scope="session")
def corpus():
    return load_annotated_corpus(get_settings())[0]
