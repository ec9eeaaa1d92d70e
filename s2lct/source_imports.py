"""What a package's source imports, read with ``ast`` rather than by importing it.

Many imports here sit inside functions (torch, scipy, captum are loaded only when used), so
importing a module proves little; reading every ``import`` statement at any depth does. Imports
under ``if TYPE_CHECKING:`` are left out: they never run. Used by ``s2lct doctor`` (a stage is
ready only when everything it will import imports) and by the no-import-circle test.
"""

from __future__ import annotations

import ast
from pathlib import Path

Import = tuple[str, list[str]]  # (absolute module, names taken from it)


def package_modules(root: Path) -> dict[str, Path]:
    """Dotted module name → file, for every module under package folder ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
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


def runtime_imports(tree: ast.AST, package: str) -> list[Import]:
    """(module, imported names) for every runtime import statement in the tree, relative ones resolved."""
    found: list[Import] = []

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


def module_imports(root: Path) -> dict[str, list[Import]]:
    """Every module under package folder ``root`` → its runtime imports."""
    out = {}
    for name, path in package_modules(root).items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out[name] = runtime_imports(ast.parse(path.read_text(encoding="utf-8")), package)
    return out


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module → the modules of the same package it imports (``from pkg import mod`` counts as ``pkg.mod``)."""
    imports = module_imports(root)
    graph: dict[str, set[str]] = {m: set() for m in imports}
    for name, found in imports.items():
        for module, names in found:
            targets = [f"{module}.{n}" for n in names if f"{module}.{n}" in imports] or [module]
            graph[name].update(t for t in targets if t in imports and t != name)
    return graph
