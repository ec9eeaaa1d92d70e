"""`s2lct run`: the per-capability table, the JSON report, sampling, and one-line errors."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys

import pytest
from _run_fixtures import TINY_CASES, make_case, write_tiny_suite
from rich.console import Console

from s2lct.run.runner import (
    capability_markers,
    load_selection,
    marker_name,
    run_command,
    select_cases,
    split_models,
)


@pytest.fixture
def suite(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    return write_tiny_suite(tmp_path / "suite")


def _console():
    return Console(record=True, width=140, file=open(os.devnull, "w"))


def test_run_vader_prints_table_and_writes_json(suite, tmp_path):
    console = _console()
    out = tmp_path / "r.json"
    assert run_command(["vader"], suite, json_path=out, console=console) == 0
    text = console.export_text()
    assert "Short sentences with sentiment words" in text and "Negated positive sentences" in text
    assert "33.3%" in text and "60.0%" in text and "TOTAL" in text
    d = json.loads(out.read_text())
    assert d["model"] == "vader"
    caps = {c["id"]: c for c in d["capabilities"]}
    assert (caps["LC1"]["cases"], caps["LC1"]["failures"]) == (3, 1)
    assert (caps["LC4"]["cases"], caps["LC4"]["failures"], caps["LC4"]["failure_rate"]) == (5, 3, 0.6)
    assert caps["LC4"]["expansion_cases"] == 3 and caps["LC4"]["seed_passed_expansion_failed"] == 1
    assert (d["total"]["cases"], d["total"]["failures"]) == (8, 4)
    assert sorted(f["id"] for f in d["failing_cases"]) == ["LC1-0003", "LC4-0002", "LC4-0003", "LC4-0005"]


def test_run_several_models_and_reports(suite, tmp_path):
    console = _console()
    assert run_command(["vader,textblob"], suite, json_path=tmp_path / "r.json", report_path=tmp_path / "r.md",
                       console=console) == 0
    d = json.loads((tmp_path / "r.json").read_text())
    assert [m["model"] for m in d["models"]] == ["vader", "textblob"]
    assert "s2lct: textblob" in console.export_text()
    assert "## vader" in (tmp_path / "r.md").read_text()


def test_run_minilm(suite, tmp_path):
    out = tmp_path / "m.json"
    assert run_command(["minilm-sst2"], suite, json_path=out, console=_console()) == 0
    d = json.loads(out.read_text())
    assert d["total"]["cases"] == 8
    assert d["identity"].startswith("hf:") and d["model"] == "minilm-sst2"


@pytest.mark.parametrize(
    ("models", "suite_name", "needle", "code"),
    [
        (["robertta"], "suite", "unknown model 'robertta' (did you mean 'roberta'?); known: vader, textblob, bert, roberta, distilbert, minilm-sst2", 2),
        (["vader"], "missing", "does not exist", 2),
        (["vader"], "empty", "holds no", 2),
    ],
)
def test_run_errors_are_one_line(suite, tmp_path, capsys, models, suite_name, needle, code):
    (tmp_path / "empty").mkdir()
    path = suite if suite_name == "suite" else tmp_path / suite_name
    assert run_command(models, path, console=_console()) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: ") and needle in err[-1]


def test_empty_suite_file_and_corrupt_line(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "LC1.jsonl").write_text("", encoding="utf-8")
    assert run_command(["vader"], empty, console=_console()) != 0
    assert "holds no cases" in capsys.readouterr().err
    bad = write_tiny_suite(tmp_path / "bad")
    lines = (bad / "LC4.jsonl").read_text().splitlines()
    lines[2] = '{"id": "LC4-broken", '
    (bad / "LC4.jsonl").write_text("\n".join(lines) + "\n")
    assert run_command(["vader"], bad, console=_console()) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {bad / 'LC4.jsonl'}:3:") and "\n" not in err


def test_gzipped_suite(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    s = write_tiny_suite(tmp_path / "s")
    raw = (s / "LC1.jsonl").read_bytes()
    (s / "LC1.jsonl").unlink()
    (s / "LC1.jsonl.gz").write_bytes(gzip.compress(raw))
    assert run_command(["vader"], s, json_path=tmp_path / "r.json", console=_console()) == 0
    assert json.loads((tmp_path / "r.json").read_text())["total"]["cases"] == 8


def test_select_cases_is_seeded_per_capability():
    cases = [make_case(f"LC{c}-{i:04d}", f"LC{c}", f"t{c} {i}", ["positive"]) for c in (1, 2) for i in range(50)]
    a = select_cases(cases, 7, seed=0)
    assert len(a) == 14 and [c.id for c in a] == [c.id for c in select_cases(cases, 7, seed=0)]
    assert [c.id for c in a] != [c.id for c in select_cases(cases, 7, seed=1)]
    assert [c.id for c in a] == sorted(c.id for c in a)  # suite order kept
    assert select_cases(cases, None) == cases and len(select_cases(cases, 100)) == 100


def test_selection_predicts_seed_cases_of_sampled_expansions(tmp_path):
    s = write_tiny_suite(tmp_path / "s", [TINY_CASES[3], TINY_CASES[6]])
    sel = load_selection(s)
    sel.cases = [c for c in sel.cases if c.seed_case_id]  # as if sampling had kept only the expansion
    assert [c.id for c in sel.cases] == ["LC4-0004"]
    assert sel.texts_to_predict() == [TINY_CASES[6].text, TINY_CASES[3].text]


def test_markers_and_names():
    manifest = {"capabilities": {"LC9": {"name": "Questions", "markers": ["question", "Yes/No"]}}}
    assert capability_markers(manifest, "LC9") == ["lc9", "question", "yes_no"]
    assert capability_markers({}, "LC2") == ["lc2"]
    assert marker_name("3rd") == "m_3rd"
    assert split_models(["a,b", "c", "a"]) == ["a", "b", "c"]


def test_cli_run_console_script(suite, tmp_path):
    """The installed `s2lct run` command: table on stdout, JSON written, one-line error without traceback."""
    env = dict(os.environ)
    out = tmp_path / "cli.json"
    exe = [sys.executable, "-m", "s2lct.cli"] if not _has_script() else ["s2lct"]
    ok = subprocess.run([*exe, "run", "--model", "vader", "--suite", str(suite), "--json", str(out)],
                        capture_output=True, text=True, env=env, timeout=120)
    assert ok.returncode == 0, ok.stderr
    assert "LC4" in ok.stdout and "TOTAL" in ok.stdout
    assert json.loads(out.read_text())["total"]["failures"] == 4
    bad = subprocess.run([*exe, "run", "--model", "nope", "--suite", str(suite)], capture_output=True, text=True,
                         env=env, timeout=120)
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("error: unknown model 'nope'") and "Traceback" not in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


def _has_script() -> bool:
    import shutil

    return shutil.which("s2lct") is not None
