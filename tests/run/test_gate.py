"""The CI gate: minimum pass rates per capability from the flag, the configuration or the specs,
and the exit codes of `s2lct run` and `pytest --model` that follow them."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from _run_fixtures import TINY_MANIFEST, write_tiny_suite
from hypothesis import given
from hypothesis import strategies as st
from rich.console import Console

from s2lct.errors import S2LCTError
from s2lct.run.gate import GATE_FAILED_EXIT, minimums, parse_min_pass_rate
from s2lct.run.runner import run_command

# with VADER the tiny suite's LC1 passes 2 of 3 cases (66.7%), LC4 2 of 5 (40%)


@pytest.fixture
def suite(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("S2LCT_MIN_PASS_RATE", raising=False)
    monkeypatch.chdir(tmp_path)  # no configuration file found upward
    return write_tiny_suite(tmp_path / "suite")


def _run(suite, **kw):
    console = Console(record=True, width=140, file=open(os.devnull, "w"))
    code = run_command(["vader"], suite, console=console, **kw)
    return code, console.export_text()


def test_no_minimum_means_no_gate(suite):
    code, text = _run(suite)
    assert code == 0 and "gate ok" not in text and "gate BELOW" not in text


def test_run_exits_3_naming_the_capability_below_its_minimum(suite):
    code, text = _run(suite, min_pass_rate="0.5")
    assert code == GATE_FAILED_EXIT == 3
    assert "gate BELOW: vader LC4 pass rate 40.0% (minimum 50.0%, 5 cases)" in text
    assert "gate ok: vader LC1 pass rate 66.7% (minimum 50.0%, 3 cases)" in text


def test_per_capability_minimum_overrides_the_global_one(suite):
    assert _run(suite, min_pass_rate="0.5,LC4=0.4")[0] == 0
    assert _run(suite, min_pass_rate="LC1=0.7")[0] == GATE_FAILED_EXIT


def test_spec_minimum_from_the_manifest_and_the_environment_above_it(suite, monkeypatch):
    manifest = {**TINY_MANIFEST, "capabilities": {**TINY_MANIFEST["capabilities"], "LC4": {"name": "n", "min_pass_rate": 0.5}}}
    write_tiny_suite(suite, manifest=manifest)
    code, text = _run(suite)
    assert code == GATE_FAILED_EXIT and "gate BELOW: vader LC4" in text and "vader LC1 pass rate" not in text
    monkeypatch.setenv("S2LCT_MIN_PASS_RATE", "0.3")
    assert _run(suite)[0] == 0


@pytest.mark.parametrize(("value", "message"), [
    ("1.5", "1.5 is outside 0..1"), ("abc", "'abc' is not a number"), ("=0.5", "no capability before '='"),
])
def test_bad_minimum_is_a_one_line_error(value, message):
    with pytest.raises(S2LCTError, match=message):
        parse_min_pass_rate(value)


def test_unknown_capability_in_a_minimum_is_an_error_with_a_suggestion():
    with pytest.raises(S2LCTError, match="LC44"):
        minimums({}, ["LC4", "LC8"], {"LC44": 0.5}, {})


@given(st.dictionaries(st.sampled_from(["LC1", "LC4", "LC8"]), st.floats(0, 1), max_size=3), st.none() | st.floats(0, 1))
def test_parse_round_trips_what_it_is_given(per_cap, default):
    text = ",".join([*([repr(default)] if default is not None else []), *(f"{k}={v!r}" for k, v in per_cap.items())])
    parsed = parse_min_pass_rate(text)
    assert parsed == {**({None: default} if default is not None else {}), **per_cap}


def test_pytest_exit_status_follows_the_gate(suite, tmp_path):
    env = {**os.environ, "S2LCT_CACHE_DIR": str(tmp_path / "cache")}
    base = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--model", "vader", "--suite", str(suite), "-q"]
    plain = subprocess.run(base, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert plain.returncode == 1  # failing cases fail the run without a gate
    ok = subprocess.run([*base, "--s2lct-min-pass-rate", "0.4"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert ok.returncode == 0, ok.stdout
    assert "gate ok: vader LC4 pass rate 40.0%" in ok.stdout and "4 failed" in ok.stdout
    below = subprocess.run([*base, "--s2lct-min-pass-rate", "LC4=0.6"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert below.returncode == 1 and "gate BELOW: vader LC4" in below.stdout
