"""Every third-party import is declared in pyproject.toml where it is used (checked by deptry).

A fresh environment holds only what pyproject declares, so an undeclared import passes on a
machine where something else installed it and crashes for a new user (scipy did, in ``s2lct
trust``). ``s2lct/`` is checked against the core dependencies, with the test extra as a dev group
it may not import (DEP004); ``tests/`` and ``benchmarks/`` against core plus the test extra.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def deptry(project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """deptry's report (it writes to stderr) and exit code."""
    return subprocess.run([sys.executable, "-m", "deptry", "--no-ansi", *args], cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _project_copy(tmp_path: Path, drop_requirement: str | None = None, extra_module: str | None = None) -> Path:
    """The package and its pyproject.toml in a temp folder, optionally with one dependency removed or one module added."""
    shutil.copytree(ROOT / "s2lct", tmp_path / "s2lct", ignore=shutil.ignore_patterns("__pycache__"))
    text = (ROOT / "pyproject.toml").read_text()
    if drop_requirement:
        text, n = re.subn(rf'^\s*"{re.escape(drop_requirement)}[<>=~!][^"]*",.*\n', "", text, flags=re.M)
        assert n == 1, f"{drop_requirement} is not declared once in pyproject.toml"
    (tmp_path / "pyproject.toml").write_text(text)
    if extra_module:
        (tmp_path / "s2lct" / "_probe.py").write_text(extra_module)
    return tmp_path


def test_the_package_imports_only_what_its_core_dependencies_declare() -> None:
    res = deptry(ROOT, ".")
    assert res.returncode == 0, res.stdout + res.stderr


def test_tests_and_benchmarks_import_only_core_and_test_extra() -> None:
    local = sorted({"s2lct", "tests", *(p.stem for p in (ROOT / "tests").rglob("*.py"))})
    args = ["tests", "benchmarks", "--exclude", r"\.venv", "--optional-dependencies-dev-groups", "", "--ignore", "DEP002"]
    res = deptry(ROOT, *args, *(arg for name in local for arg in ("-kf", name)))
    assert res.returncode == 0, res.stdout + res.stderr


def test_an_undeclared_import_fails_the_check(tmp_path: Path) -> None:
    res = deptry(_project_copy(tmp_path, drop_requirement="scipy"), ".")
    assert res.returncode == 1
    problems = [line for line in res.stdout.splitlines() if "DEP0" in line]
    assert len(problems) == 1 and "s2lct/trust/composite.py" in problems[0] and "'scipy' imported but" in problems[0], res.stdout


def test_a_test_only_package_imported_by_the_package_fails_the_check(tmp_path: Path) -> None:
    res = deptry(_project_copy(tmp_path, extra_module="import hypothesis\n"), ".")
    assert res.returncode == 1
    problems = [line for line in res.stdout.splitlines() if "DEP0" in line]
    assert problems == ["s2lct/_probe.py:1:8: DEP004 'hypothesis' imported but declared as a dev dependency"], res.stdout
