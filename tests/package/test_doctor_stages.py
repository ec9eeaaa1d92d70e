"""``s2lct doctor`` reports an optional stage ready only when everything it will import imports.

scipy is imported inside a function of the trust stage, so importing ``s2lct.trust`` alone would
have passed without it; doctor reads the stage's source for every import, lazy ones included.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from s2lct.doctor import STAGES, check_stages, stage_imports

REPO = Path(__file__).resolve().parents[2]


def _declared(name: str) -> str:
    """The requirement pyproject.toml declares for distribution ``name`` (e.g. ``scipy>=1.11``)."""
    found = re.findall(rf'^\s*"({re.escape(name)}[<>=~!][^"]*)"', (REPO / "pyproject.toml").read_text(), flags=re.M)
    assert len(found) == 1, found
    return found[0]


def test_a_lazy_import_belongs_to_its_stage() -> None:
    ours, theirs = stage_imports("trust")
    assert "s2lct.trust.composite" in ours and "scipy.stats" in theirs
    assert not any(m.startswith("scipy") for m in stage_imports("expansion")[1])
    assert "accelerate" in stage_imports("retrain")[1]  # needed by transformers' Trainer, never imported by name


def test_every_stage_is_ready_with_the_declared_dependencies() -> None:
    checks = check_stages()
    assert [(c.resource, c.status) for c in checks] == [(f"{name} stage", "ok") for name in ("expansion", "explain", "trust", "retrain")]
    assert [c.value for c in checks] == [package for package, _ in STAGES.values()]


def test_doctor_names_the_stage_that_cannot_import_and_the_pip_command() -> None:
    blocked = "import sys; sys.modules['scipy'] = None; from s2lct.cli import main; main(['doctor'])"
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    res = subprocess.run([sys.executable, "-c", blocked], cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    rows = {line.split("│")[1].strip(): line.split("│")[2].strip() for line in res.stdout.splitlines() if line.count("│") == 5 and " stage" in line}
    assert rows == {"expansion stage": "ok", "explain stage": "ok", "trust stage": "MISSING", "retrain stage": "ok"}, res.stdout
    # the selector row says "not set" until it is built (tests/test_cli_config.py covers it)
    fixes = [line for line in res.stdout.splitlines() if line.startswith("fix ") and not line.startswith("fix fluency selector")]
    assert fixes == [f"fix trust stage: run `pip install '{_declared('scipy')}'`"], res.stdout
    assert res.stdout.splitlines()[-1] == "1 missing"
