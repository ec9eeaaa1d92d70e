"""Accuracy and macro-F1 on the seeds' data set beside the capability table."""

from __future__ import annotations

import json
import os

import pytest
from _run_fixtures import TINY_CASES, TINY_MANIFEST, write_tiny_suite
from rich.console import Console

from s2lct.run.runner import run_command
from s2lct.run.task_metrics import macro_f1


def test_macro_f1_on_known_counts():
    gold = ["positive"] * 4 + ["negative"] * 4 + ["neutral"] * 2
    pred = ["positive"] * 3 + ["negative"] + ["negative"] * 4 + ["positive"] * 2
    # positive: tp 3 fp 2 fn 1 -> 6/9; negative: tp 4 fp 1 fn 0 -> 8/9; neutral: 0
    assert macro_f1(gold, pred) == pytest.approx((6 / 9 + 8 / 9 + 0) / 3)
    assert macro_f1(gold, gold) == 1.0


def test_run_prints_sst_test_metrics_for_a_suite_built_from_sst(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    suite = write_tiny_suite(tmp_path / "s", TINY_CASES, {**TINY_MANIFEST, "data": {"sst/trees/test.txt": "x"}})
    out = tmp_path / "r.json"
    console = Console(record=True, width=160, file=open(os.devnull, "w"))
    assert run_command(["vader"], suite, json_path=out, console=console) == 0
    task = json.loads(out.read_text())["task"]
    assert task["split"] == "test" and task["sentences"] == 2210 and 0.3 < task["accuracy"] < 0.9
    assert f"accuracy {100 * task['accuracy']:.1f}%, macro-F1 {100 * task['macro_f1']:.1f}%" in console.export_text()
    plain = write_tiny_suite(tmp_path / "p")  # no SST data in the manifest (e.g. an imported CheckList suite)
    assert run_command(["vader"], plain, json_path=out, console=console) == 0
    assert "task" not in json.loads(out.read_text())
