"""A new user's capability: a spec written into a folder of its own goes through generate, run,
explain and pytest with no test or code naming it (the capability list always comes from the specs)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from s2lct.suite import load_manifest, load_suite

NEW_SPEC = """\
# A capability no test knows: negated neutral "This/That is ..." sentences stay neutral.
id: NEW1
name: A new capability for the first hour
expected_labels: [neutral]
seeds:
  demonstrative:
    any_of:
      - label: neutral
        start: '(This|That) is\\b(?! (?i:not|no|never)\\b)'
        phrases: {forbid: [very negative, very positive]}
templates:
  - id: negated
    parts:
      - seed: demonstrative
        ops: [negate_copula]
    expected: [neutral]
sampling:
  max_cases: 6
"""


def _s2lct(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "s2lct.cli", *args], capture_output=True, text=True)


@pytest.fixture(scope="module")
def new_suite(tmp_path_factory):
    """The suite of a specs folder holding only the new spec (expansion left out: not the point here)."""
    root = tmp_path_factory.mktemp("new-capability")
    (root / "specs").mkdir()
    (root / "specs" / "NEW1.yaml").write_text(NEW_SPEC, encoding="utf-8")
    res = _s2lct("generate", "--specs", str(root / "specs"), "--out", str(root / "suite"), "--no-expand", "--quiet")
    assert res.returncode == 0, res.stderr
    return root, res.stdout


def test_generate_writes_the_new_capability_and_says_why_it_has_no_expansion(new_suite):
    root, out = new_suite
    manifest = load_manifest(root / "suite")
    assert list(manifest["capabilities"]) == ["NEW1"]
    cases = load_suite(root / "suite")
    assert 0 < len(cases) <= 6 and {c.capability for c in cases} == {"NEW1"}
    row = next(line for line in out.splitlines() if "NEW1" in line)
    assert f" {len(cases)} " in row and "off: --no-expand" in row
    assert max(len(line) for line in out.splitlines()) <= 80


def test_run_and_explain_the_new_capability_with_vader(new_suite, tmp_path):
    root, _ = new_suite
    n = len(load_suite(root / "suite"))
    res = _s2lct("run", "--model", "vader", "--suite", str(root / "suite"), "--json", str(tmp_path / "r.json"),
                 "--cache-dir", str(tmp_path / "cache"), "--quiet")
    assert res.returncode in (0, 1), res.stderr  # 1: some cases failed, as a behavioural suite may
    report = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))
    caps = {c["id"]: c for c in report["capabilities"]}  # one model: its report at the top level
    assert list(caps) == ["NEW1"] and caps["NEW1"]["cases"] == n
    res = _s2lct("explain", "--model", "vader", "--suite", str(root / "suite"), "--out", str(tmp_path / "exp"),
                 "--explainers", "occlusion1", "--cache-dir", str(tmp_path / "cache"), "--quiet")
    assert res.returncode == 0, res.stderr
    explained = [json.loads(line) for line in (tmp_path / "exp" / "explanations.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(explained) == caps["NEW1"]["failures"]
    assert all(e["case_id"].startswith("NEW1-") for e in explained)


def test_pytest_runs_the_new_capability_as_items(new_suite, tmp_path):
    root, _ = new_suite
    n = len(load_suite(root / "suite"))
    res = subprocess.run([sys.executable, "-m", "pytest", "--model", "vader", "--suite", str(root / "suite"), "-p", "no:cacheprovider",
                          "-q", "--collect-only"], capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode == 0, res.stdout + res.stderr
    assert sum(line.startswith("NEW1::") for line in res.stdout.splitlines()) == n, res.stdout
    res = subprocess.run([sys.executable, "-m", "pytest", "--model", "vader", "--suite", str(root / "suite"), "-p", "no:cacheprovider"],
                         capture_output=True, text=True, cwd=tmp_path)
    assert res.returncode in (0, 1), res.stdout + res.stderr
    outcomes = {word: int(count) for count, word in re.findall(r"(\d+) (passed|failed)", res.stdout.splitlines()[-1])}
    assert sum(outcomes.values()) == n and "A new capability for the first hour" in res.stdout, res.stdout


@pytest.mark.parametrize("flag", ["--specs", "--out"])
def test_generate_names_a_bad_folder_in_one_line(new_suite, flag):
    root, _ = new_suite
    folders = {"--specs": root / "specs", "--out": root / "other-suite"}
    folders[flag] = bad = root / "nowhere" if flag == "--specs" else root / "specs" / "NEW1.yaml" / "suite"
    res = _s2lct("generate", "--specs", str(folders["--specs"]), "--out", str(folders["--out"]), "--no-expand", "--quiet")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1 and str(bad) in res.stderr, res.stderr
