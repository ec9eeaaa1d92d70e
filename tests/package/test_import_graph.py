"""The package's import graph has no circle, counting imports inside functions too.

Edges are read from the source with ``ast`` (every ``import``/``from … import`` statement, at any
depth), so a lazy import cannot hide a circle. Imports under ``if TYPE_CHECKING:`` are left out:
they never run. ``from pkg import name`` counts as an edge to ``pkg.name`` when that is a module.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import s2lct

PACKAGE_DIR = Path(s2lct.__file__).parent


def _modules(root: Path) -> dict[str, Path]:
    out = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST, package: str) -> list[tuple[str, list[str]]]:
    """(module, imported names) for every runtime import statement in the tree."""
    found: list[tuple[str, list[str]]] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((a.name, []) for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.append((module, [a.name for a in node.names]))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph(root: Path) -> dict[str, set[str]]:
    modules = _modules(root)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for module, names in _imports(ast.parse(path.read_text(encoding="utf-8")), package):
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in modules] or [module]
            graph[name].update(t for t in targets if t in modules and t != name)
    return graph


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
