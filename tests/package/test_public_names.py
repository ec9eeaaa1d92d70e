"""Every Python name the README and docs/ mention is importable from where they say."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import s2lct

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md")), Path(s2lct.__file__)]

FROM_IMPORT = re.compile(r"^\s*from (s2lct[\w.]*) import ([\w, ]+)", re.MULTILINE)
DOTTED = re.compile(r"`(s2lct(?:\.\w+)+)`")


def _mentions() -> list[tuple[str, str, str | None]]:
    out = []
    for doc in DOCS:
        text = doc.read_text(encoding="utf-8")
        for module, names in FROM_IMPORT.findall(text):
            out.extend((doc.name, module, n.strip()) for n in names.split(",") if n.strip())
        out.extend((doc.name, dotted, None) for dotted in DOTTED.findall(text))
    return sorted(set(out), key=str)


def _resolve(dotted: str) -> object:
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


MENTIONS = _mentions()


def test_the_docs_mention_the_public_api():
    names = {n for _, m, n in MENTIONS if m == "s2lct"}
    assert {"load_specs", "generate_suite", "load_suite", "get_settings"} <= names


@pytest.mark.parametrize("doc, module, name", MENTIONS, ids=[f"{d}:{m}{'.' + n if n else ''}" for d, m, n in MENTIONS])
def test_documented_name_imports(doc, module, name):
    target = f"{module}.{name}" if name else module
    assert _resolve(target) is not None


def test_every_lazy_public_name_resolves():
    for name in s2lct.__all__:
        assert getattr(s2lct, name) is not None, name
