"""The package's import graph has no circle, counting imports inside functions too.

Edges are read from the source (``s2lct.source_imports``: every import statement at any depth), so
a lazy import cannot hide a circle; imports under ``if TYPE_CHECKING:`` never run and are left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import s2lct
from s2lct.source_imports import import_graph

PACKAGE_DIR = Path(s2lct.__file__).parent


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One circle as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def dfs(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state and (cycle := dfs(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := dfs(node)):
            return cycle
    return None


def test_package_import_graph_has_no_circle():
    cycle = find_cycle(import_graph(PACKAGE_DIR))
    assert cycle is None, "import circle: " + " → ".join(cycle or [])


@pytest.mark.parametrize(
    "files, expected",
    [
        ({"a.py": "from p import b", "b.py": "def f():\n    from p.a import x"}, True),
        ({"a.py": "from p import b", "b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p import a"}, False),
        ({"a.py": "from . import b", "b.py": "import p.c", "c.py": "from .a import x"}, True),
        ({"a.py": "from p.b import y", "b.py": "x = 1"}, False),
    ],
)
def test_cycle_finder_sees_lazy_and_relative_imports(tmp_path, files, expected):
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    for name, src in files.items():
        (pkg / name).write_text(src + "\n")
    assert (find_cycle(import_graph(pkg)) is not None) is expected
