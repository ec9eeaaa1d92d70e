"""`s2lct import-checklist`: the released CheckList sentiment suite becomes a suite folder with the
export's case count per test, which the runner runs; bad files are one-line errors, nothing left."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import subprocess
import sys

import pytest
from rich.console import Console

from s2lct.interop.checklist import DIR_EXPECTATIONS, NOT_NEGATIVE_TESTS, import_checklist
from s2lct.run.runner import run_command
from s2lct.suite import load_manifest, load_suite, read_cases


@pytest.fixture(scope="module")
def export(shared_dir):
    path = shared_dir / "data" / "checklist" / "sentiment_suite_export.json.gz"
    return path, json.loads(gzip.decompress(path.read_bytes()))


@pytest.fixture(scope="module")
def imported(export, tmp_path_factory):
    out = tmp_path_factory.mktemp("cl") / "suite"
    return import_checklist(export[0], out), out


def test_every_test_keeps_its_case_count_and_type(export, imported):
    _, doc = export
    tests, out = imported
    assert [(t.name, t.cases, t.test_type.upper()) for t in tests] == [(t["name"], len(t["data"]), t["type"]) for t in doc["tests"]]
    manifest = load_manifest(out)
    for t, src in zip(tests, doc["tests"], strict=True):
        cases = list(read_cases(out / f"{t.capability}.jsonl"))
        assert len(cases) == src["n_testcases"] == manifest["capabilities"][t.capability]["cases"]
        assert {c.test_type for c in cases} == {src["type"].lower()}


def test_inv_and_dir_cases_keep_original_and_every_perturbation(export, imported):
    _, doc = export
    tests, out = imported
    for t, src in zip(tests, doc["tests"], strict=True):
        if src["type"] == "MFT":
            continue
        cases = sorted(read_cases(out / f"{t.capability}.jsonl"), key=lambda c: c.texts)
        assert [list(c.texts) for c in cases] == sorted(src["data"])
        if src["type"] == "DIR":
            assert all(c.direction == DIR_EXPECTATIONS[src["name"]] for c in cases)


def test_mft_labels_follow_the_export(export, imported):
    _, doc = export
    tests, out = imported
    names = ["negative", "neutral", "positive"]
    for t, src in zip(tests, doc["tests"], strict=True):
        if src["type"] != "MFT":
            continue
        got = sorted((c.text, c.expected) for c in read_cases(out / f"{t.capability}.jsonl"))
        if src["labels"] is None:
            assert src["name"] in NOT_NEGATIVE_TESTS and {e for _, e in got} == {("neutral", "positive")}
        else:
            labels = src["labels"] if isinstance(src["labels"], list) else [src["labels"]] * len(src["data"])
            assert got == sorted((x, (names[y],)) for x, y in zip(src["data"], labels, strict=True))


def test_imported_suite_runs(imported, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    _, out = imported
    report = tmp_path / "r.json"
    console = Console(record=True, width=140, file=open(os.devnull, "w"))
    assert run_command(["vader"], out, json_path=report, console=console, max_cases_per_capability=5, only=["CL01", "CL13", "CL20"]) == 0
    caps = {c["id"]: c for c in json.loads(report.read_text())["capabilities"]}
    assert set(caps) == {"CL01", "CL13", "CL20"} and all(c["cases"] == 5 for c in caps.values())
    assert len(load_suite(out, only=["CL13"])) == 500


@pytest.mark.parametrize(("content", "message"), [
    (b"{not json", "not JSON"),
    (json.dumps({"tests": "x"}).encode(), "expected an object with a 'tests' list"),
    (json.dumps({"format_version": 7, "tests": []}).encode(), "export format_version 7; this s2lct reads 1"),
    (json.dumps({"tests": [{"name": "t", "type": "XYZ", "data": []}]}).encode(), "type 'XYZ'; valid: MFT, INV, DIR"),
    (json.dumps({"tests": [{"name": "mystery", "type": "DIR", "data": [["a", "b"]]}]}).encode(), "DIR test 'mystery' has no known expectation"),
    (json.dumps({"tests": [{"name": "t", "type": "INV", "data": ["a"]}]}).encode(), "case 0: an INV case is a list"),
    (json.dumps({"tests": [{"name": "t", "type": "MFT", "labels": 5, "data": ["a"]}]}).encode(), "label 5; valid: 0"),
    (json.dumps({"tests": [{"name": "t", "type": "MFT", "labels": 1, "data": ["a"], "n_testcases": 2}]}).encode(), "n_testcases 2 but 1"),
    (pickle.dumps({"tests": []}), "a pickled CheckList suite"),
])
def test_bad_export_is_one_line_naming_the_file_and_leaves_nothing(tmp_path, content, message):
    bad = tmp_path / "bad.json"
    bad.write_bytes(content)
    out = tmp_path / "out"
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "import-checklist", str(bad), "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode != 0
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {bad}") and message in lines[0], res.stderr
    assert not out.exists() and [p.name for p in tmp_path.iterdir()] == ["bad.json"]


def test_existing_output_needs_overwrite(export, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "keep.txt").write_text("x")
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "import-checklist", str(export[0]), "--out", str(out)],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode != 0 and "pass --overwrite" in res.stderr and (out / "keep.txt").exists()


def test_docs_mapping_table_is_generated_from_the_specs(export, repo_dir):
    from s2lct.interop.checklist import MAPPING_BEGIN, MAPPING_END, mapping_markdown
    from s2lct.spec import load_specs

    text = (repo_dir / "docs" / "checklist.md").read_text()
    block = text[text.index(MAPPING_BEGIN): text.index(MAPPING_END) + len(MAPPING_END)]
    specs = load_specs([repo_dir / "specs", repo_dir / "specs" / "checklist"])
    assert block == mapping_markdown(export[1], specs), "run `s2lct docs-checklist`"


def test_a_spec_naming_a_test_checklist_lacks_is_an_error(export):
    from types import SimpleNamespace

    from s2lct.errors import S2LCTError
    from s2lct.interop.checklist import mapping_markdown

    with pytest.raises(S2LCTError, match="not have: made up test"):
        mapping_markdown(export[1], [SimpleNamespace(id="LC1", checklist=["made up test"])])
