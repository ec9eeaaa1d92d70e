"""``pytest --model vader --s2lct-explain occlusion1``: evidence in failure messages and reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _run_fixtures import write_tiny_suite  # noqa: E402

pytest_plugins = ["pytester"]


@pytest.fixture(scope="module", autouse=True)
def _preload():
    import sqlite3  # noqa: F401

    import rich.console  # noqa: F401
    import vaderSentiment.vaderSentiment  # noqa: F401
    import numpy  # noqa: F401  (pytester restores sys.modules; C extensions refuse a second import)
    import torch  # noqa: F401
    import captum.attr  # noqa: F401

    import s2lct.explain.registry  # noqa: F401
    from s2lct.models import load_model

    load_model("vader").predict(["good"])


@pytest.fixture
def env(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    write_tiny_suite(pytester.path / "generated")
    return pytester


def test_failures_carry_their_evidence_words(env):
    # failure messages of suite items are summarised unless asked for (results first)
    result = env.runpytest("--model", "vader", "--s2lct-explain", "occlusion1", "--s2lct-failures", "--s2lct-report", "r.json", "-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=4)
    out = result.stdout.str()
    # each of the 4 failures carries its evidence line (under CI=true pytest repeats it in the -ra summary)
    assert out.count("evidence for ") in (4, 8) and "(occlusion1)" in out
    report = json.loads((env.path / "r.json").read_text())
    failing = report["failing_cases"]
    assert len(failing) == 4
    for f in failing:
        exp = f["explanation"]
        assert exp["explainer"] == "occlusion1" and exp["summary"].startswith("evidence for ")
        for e in exp["evidence"]:
            assert e["text"] in f["text"] and e["relevance"] > 0


def test_without_the_option_reports_stay_as_they_were(env):
    result = env.runpytest("--model", "vader", "--s2lct-report", "r.json", "-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=4)
    assert "evidence for" not in result.stdout.str()
    assert all("explanation" not in f for f in json.loads((env.path / "r.json").read_text())["failing_cases"])


def test_a_gradient_explainer_on_vader_is_a_usage_error(env):
    result = env.runpytest("--model", "vader", "--s2lct-explain", "ig", "-q", "-p", "no:cacheprovider")
    assert result.ret != 0
    assert "ig needs gradients" in (result.stdout.str() + result.stderr.str())


def test_unknown_explainer_is_a_usage_error(env):
    result = env.runpytest("--model", "vader", "--s2lct-explain", "nope", "-q")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "registered:" in result.stderr.str()
