"""MFT/INV/DIR cases: the format (old suites still load, bad records fail at load), the judging
rules on predictions whose numbers are known, and the runner and pytest showing both predictions."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from _run_fixtures import TINY_MANIFEST, make_case, write_tiny_suite
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from s2lct.errors import SuiteFormatError
from s2lct.models.base import Prediction
from s2lct.run.judging import judge_case
from s2lct.run.runner import run_command
from s2lct.suite import Case, Direction, Fragment, load_manifest, load_suite


def pred(pos: float, neg: float | None = None, label: str | None = None) -> Prediction:
    neg = 1.0 - pos if neg is None else neg
    neu = max(0.0, 1.0 - pos - neg)
    probs = {"negative": neg, "neutral": neu, "positive": pos}
    return Prediction(label or max(probs, key=probs.get), probs)


def pair_case(kind: str, text: str, perturbed: list[str], *, direction: Direction | None = None,
              tolerance: float | None = None, cid: str = "CL1-0001", cap: str = "CL1") -> Case:
    return Case(cid, cap, text, (), "t", f"perturb:{kind}", (), (Fragment(0, len(text), text, "template"),),
                test_type=kind, perturbed=tuple(perturbed), perturbation="typo", direction=direction, tolerance=tolerance)


# ------------------------------------------------------------------------------------- judging
def test_inv_passes_on_same_label_and_fails_on_a_changed_one():
    case = pair_case("inv", "good film", ["god film", "good flim"])
    preds = {"good film": pred(0.9), "god film": pred(0.8), "good flim": pred(0.2)}
    v = judge_case(case, preds)
    assert not v.passed and [o.passed for o in v.perturbed] == [True, False]
    assert v.perturbed[1].change == pytest.approx(0.2 - 0.9)
    assert judge_case(case, {**preds, "good flim": pred(0.7)}).passed


def test_inv_tolerance_lets_a_small_move_across_the_boundary_pass():
    case = pair_case("inv", "ok film", ["ok flim"], tolerance=0.1)
    assert judge_case(case, {"ok film": pred(0.55), "ok flim": pred(0.48)}).passed  # label flips, p moved 0.07
    assert not judge_case(case, {"ok film": pred(0.55), "ok flim": pred(0.40)}).passed  # moved 0.15


@given(orig=st.floats(0, 1), new=st.floats(0, 1), tol=st.floats(0, 0.5), up=st.booleans())
def test_dir_rule_matches_its_definition(orig, new, tol, up):
    d = Direction("positive", "up" if up else "down", tolerance=tol)
    case = pair_case("dir", "a", ["b"], direction=d)
    v = judge_case(case, {"a": pred(orig), "b": pred(new)})
    moved = (new - orig) if up else (orig - new)
    assert v.passed == (moved >= -tol - 1e-9)


def test_dir_margin_requires_a_move_of_at_least_the_margin():
    case = pair_case("dir", "a", ["b"], direction=Direction("positive", "up", margin=0.2))
    assert judge_case(case, {"a": pred(0.5), "b": pred(0.75)}).passed
    assert not judge_case(case, {"a": pred(0.5), "b": pred(0.6)}).passed


def test_dir_on_the_predicted_label_and_not_applicable_originals():
    d = Direction("predicted", "up", tolerance=0.1, unless_original=("neutral",))
    case = pair_case("dir", "a", ["b"], direction=d)
    # original negative: p(negative) must not fall by more than 0.1
    assert judge_case(case, {"a": pred(0.2), "b": pred(0.25)}).passed
    assert not judge_case(case, {"a": pred(0.2), "b": pred(0.4)}).passed
    neutral = {"a": pred(0.1, 0.1), "b": pred(0.9)}
    v = judge_case(case, neutral)
    assert neutral["a"].label == "neutral" and not v.applicable and v.passed


def test_dir_polarity_compares_positive_minus_negative():
    case = pair_case("dir", "a", ["b"], direction=Direction("polarity", "down", tolerance=0.1))
    # p(pos) - p(neg) goes from 0.0 to +0.1 (up by 0.1): within the tolerance
    assert judge_case(case, {"a": pred(0.3, 0.3), "b": pred(0.35, 0.25)}).passed
    assert not judge_case(case, {"a": pred(0.3, 0.3), "b": pred(0.4, 0.2)}).passed


# ------------------------------------------------------------------------------------- format
def _write(tmp_path, cases, manifest=None):
    return write_tiny_suite(tmp_path / "s", cases, manifest or {"format_version": 2, "capabilities": {"CL1": {"name": "pairs"}}})


def test_inv_and_dir_cases_round_trip_and_mft_lines_keep_format_1(tmp_path):
    inv = pair_case("inv", "good film", ["god film"], tolerance=0.1, cid="CL1-a")
    dir_ = pair_case("dir", "good film", ["very good film"], direction=Direction("predicted", "up", tolerance=0.1), cid="CL1-b")
    mft = make_case("CL1-c", "CL1", "good film", ["positive"])
    folder = _write(tmp_path, [inv, dir_, mft])
    assert {c.id: c for c in load_suite(folder)} == {"CL1-a": inv, "CL1-b": dir_, "CL1-c": mft}
    lines = {json.loads(x)["id"]: json.loads(x) for x in (folder / "CL1.jsonl").read_text().splitlines()}
    assert "test_type" not in lines["CL1-c"] and lines["CL1-a"]["test_type"] == "inv"


def test_format_1_suite_loads_as_mft(tmp_path):
    folder = write_tiny_suite(tmp_path / "old", manifest=TINY_MANIFEST)
    assert load_manifest(folder)["format_version"] == 1
    assert all(c.test_type == "mft" for c in load_suite(folder))


@pytest.mark.parametrize(("record", "message"), [
    ({"test_type": "inv"}, "needs its perturbed text(s)"),
    ({"test_type": "inv", "text": "", "perturbed": ["x"]}, "an INV case needs its original text"),
    ({"test_type": "dir", "perturbed": ["x"]}, "needs a direction"),
    ({"test_type": "dir", "perturbed": ["x"], "direction": {"label": "happy", "change": "up"}}, "direction label 'happy'"),
    ({"test_type": "swap", "perturbed": ["x"]}, "test_type 'swap'; valid: mft, inv, dir"),
])
def test_bad_inv_dir_records_fail_at_load_naming_file_and_line(tmp_path, record, message):
    folder = _write(tmp_path, [make_case("CL1-c", "CL1", "good film", ["positive"])])
    line = json.loads((folder / "CL1.jsonl").read_text())
    line.update(record, expected=[])
    (folder / "CL1.jsonl").write_text(json.dumps(line) + "\n")
    with pytest.raises(SuiteFormatError, match=rf"CL1.jsonl:1: case CL1-c: .*{re.escape(message)}"):
        load_suite(folder)


def test_unknown_format_version_is_refused(tmp_path):
    folder = _write(tmp_path, [make_case("CL1-c", "CL1", "good film", ["positive"])], {"format_version": 9, "capabilities": {}})
    with pytest.raises(SuiteFormatError, match="format_version 9; this s2lct reads 1, 2"):
        load_manifest(folder)


# ------------------------------------------------------------------------------------- runner
# VADER: "This movie is good." positive, "This movie is not good." negative, "I saw a movie." neutral
PAIRS = [
    pair_case("inv", "This movie is good.", ["This movie is not good."], cid="CL1-flip"),       # label flips: FAIL
    pair_case("inv", "This movie is good.", ["This movie is good!"], cid="CL1-same"),          # stays positive: pass
    pair_case("dir", "I saw a movie.", ["I saw a movie. It is good."], cid="CL1-up",
              direction=Direction("positive", "up")),                                        # p(pos) rises: pass
    pair_case("dir", "I saw a movie.", ["I saw a movie. It is good."], cid="CL1-down",
              direction=Direction("positive", "down")),                                      # p(pos) rises: FAIL
]


def test_runner_reports_both_predictions_of_inv_and_dir_cases(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    folder = _write(tmp_path, PAIRS)
    out = tmp_path / "r.json"
    console = Console(record=True, width=140, file=open(os.devnull, "w"))
    assert run_command(["vader"], folder, json_path=out, console=console) == 0
    report = json.loads(out.read_text())
    assert report["total"]["failures"] == 2
    failing = {f["id"]: f for f in report["failing_cases"]}
    assert set(failing) == {"CL1-flip", "CL1-down"}
    flip = failing["CL1-flip"]
    assert flip["predicted"] == "positive" and flip["perturbed"][0]["predicted"] == "negative"
    assert flip["perturbed"][0]["text"] == "This movie is not good." and flip["test_type"] == "inv"


def test_pytest_items_show_original_and_perturbed_predictions(tmp_path):
    folder = _write(tmp_path, PAIRS)
    env = {**os.environ, "S2LCT_CACHE_DIR": str(tmp_path / "cache")}
    res = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--model", "vader", "--suite", str(folder),
                          "--s2lct-failures", "-q"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert res.returncode == 1, res.stdout + res.stderr
    assert "2 failed, 2 passed" in res.stdout
    block = res.stdout[res.stdout.index("CL1-flip (CL1 pairs) failed"):]
    assert "original:      This movie is good." in block and "FAIL perturbed: This movie is not good." in block


def test_dir_case_that_cannot_fail_is_not_applicable():
    up = pair_case("dir", "a", ["b"], direction=Direction("positive", "up", tolerance=0.1))
    v = judge_case(up, {"a": pred(0.05), "b": pred(0.0)})  # p(pos) 0.05 cannot fall by more than 0.1
    assert not v.applicable and v.passed
    assert judge_case(up, {"a": pred(0.3), "b": pred(0.25)}).applicable
    down = pair_case("dir", "a", ["b"], direction=Direction("positive", "down", tolerance=0.1))
    assert not judge_case(down, {"a": pred(0.95), "b": pred(1.0)}).applicable
    polarity = pair_case("dir", "a", ["b"], direction=Direction("polarity", "up", tolerance=0.1))
    assert judge_case(polarity, {"a": pred(0.0), "b": pred(0.0)}).applicable  # CheckList counts these
