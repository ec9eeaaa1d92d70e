"""`s2lct compare`: rows matched through the CheckList tests a spec covers, rates from each side's cases."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from _run_fixtures import make_case, write_tiny_suite

from s2lct.suite import Case, Fragment


def _inv(cid: str, text: str, perturbed: str) -> Case:
    return Case(cid, "CL02", text, (), "t", "checklist:inv", (), (Fragment(0, len(text), text, "template"),),
                test_type="inv", perturbed=(perturbed,), perturbation="checklist:typos", tolerance=0.1)


def test_compare_matches_checklist_tests_to_the_specs_that_cover_them(tmp_path):
    cl = write_tiny_suite(tmp_path / "cl", [
        make_case("CL01-1", "CL01", "This movie is not good.", ["negative"]),   # vader negative: pass
        make_case("CL01-2", "CL01", "The food was not bad.", ["negative"]),     # vader positive: FAIL
        _inv("CL02-1", "This movie is good.", "This movie is not good."),        # label flips: FAIL
    ], {"format_version": 2, "capabilities": {
        "CL01": {"name": "simple negations: negative", "test_type": "mft", "checklist": {"name": "simple negations: negative"}},
        "CL02": {"name": "typos", "test_type": "inv", "checklist": {"name": "typos"}}}})
    ours = write_tiny_suite(tmp_path / "ours", [
        make_case("LC4-1", "LC4", "This movie is not good.", ["negative"]),
        make_case("LC4-2", "LC4", "This film is not good.", ["negative"]),
        make_case("LC9-1", "LC9", "I saw a movie.", ["positive"]),              # vader neutral: FAIL
    ], {"format_version": 2, "capabilities": {
        "LC4": {"name": "Negated positive", "checklist_tests": ["simple negations: negative"]},
        "LC9": {"name": "Something else"}}})
    out = tmp_path / "cmp.json"
    env = {**os.environ, "S2LCT_CACHE_DIR": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "compare", str(cl), str(ours), "--model", "vader", "--quiet", "--json", str(out)],
                         capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    rows = {r["name"]: r for r in json.loads(out.read_text())["rows"]}
    neg = rows["simple negations: negative"]
    assert (neg["a"]["failures"], neg["a"]["cases"]) == (1, 2) and (neg["b"]["failures"], neg["b"]["cases"]) == (0, 2)
    assert neg["b"]["capabilities"] == ["LC4"]
    assert rows["typos"]["b"] is None and rows["typos"]["a"]["failures"] == 1 and rows["typos"]["test_type"] == "inv"
    assert rows["Something else"]["a"] is None and rows["Something else"]["b"]["failures"] == 1
    assert "simple negations: negative" in res.stdout
