"""``pytest --model vader --s2lct-explain occlusion1`` with a trust card cached for vader: every
failure message and the report carry the explainer's score on this model (a real pytest run)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from _run_fixtures import write_tiny_suite  # noqa: E402

pytest_plugins = ["pytester"]

# The plugins under test, loaded by module name so the run does not depend on which checkout's (or
# whether any) pytest11 entry points are installed; the entry-point names are blocked, else pluggy
# refuses the same module registered twice.
PLUGINS = ("s2lct.run.pytest_plugin", "s2lct.explain.pytest_plugin", "s2lct.trust.pytest_plugin")
ENTRY_POINTS = ("s2lct", "s2lct_explain", "s2lct_trust")


@pytest.fixture(scope="module", autouse=True)
def _preload():
    import sqlite3  # noqa: F401

    import numpy  # noqa: F401  (pytester restores sys.modules; C extensions refuse a second import)
    import rich.console  # noqa: F401
    import torch  # noqa: F401
    import captum.attr  # noqa: F401
    import vaderSentiment.vaderSentiment  # noqa: F401

    import s2lct.explain.registry  # noqa: F401
    import s2lct.trust.card  # noqa: F401
    from s2lct.models import load_model

    load_model("vader").predict(["good"])


def plant_card(cache: Path, model: str, value: float, low: float, high: float, random: float) -> None:
    """A trust card for ``model`` where only occlusion1 was scored, as ``s2lct trust`` caches it."""
    from s2lct.models import load_model
    from s2lct.trust.card import card_dir

    identity = load_model(model).identity
    folder = card_dir(cache, identity)
    folder.mkdir(parents=True)
    s = {"value": value, "n": 80, "ci": [low, high]}
    card = {"format": 1, "model": model, "identity": identity, "margin": 0.05,
            "paradigms": {"hybrid": {"status": "ok", "baselines": {"random": {"value": random, "n": 80, "ci": [random - 0.1, random + 0.1]}},
                                     "explainers": {"occlusion1": {"pointing_game": s, "beats_random": True}}},
                          "agreement": {"status": "skipped"}, "composite": {"status": "skipped"}},
            "ranking": [{"explainer": "occlusion1", "rank": 1, "score": round(value - random, 4), "trusted": True}]}
    (folder / "card.json").write_text(json.dumps(card), encoding="utf-8")


@pytest.fixture
def env(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    write_tiny_suite(pytester.path / "generated")
    return pytester


def run(env, *extra):
    args = ["--model", "vader", "--s2lct-explain", "occlusion1", "--s2lct-failures", "--s2lct-report", "r.json", "-q",
            "-p", "no:cacheprovider", *extra]
    for name in ENTRY_POINTS:
        args += ["-p", f"no:{name}"]
    for p in PLUGINS:
        args += ["-p", p]
    result = env.runpytest(*args)
    result.assert_outcomes(passed=4, failed=4)
    return result.stdout.str(), json.loads((env.path / "r.json").read_text())["failing_cases"]


def test_failure_messages_and_report_carry_the_trust_score(env, tmp_path):
    plant_card(tmp_path / "cache", "vader", 0.81, 0.72, 0.88, 0.47)
    out, failing = run(env)
    expected = "occlusion1, pointing game 0.81 ± 0.08 on this model (random 0.47, rank 1/1)"
    lines = [ln.strip() for ln in out.splitlines() if "pointing game" in ln]
    assert len(lines) in (4, 8) and set(lines) == {f"trust: {expected}"}  # 4 failures (CI=true repeats them in -ra)
    assert len(failing) == 4
    for f in failing:
        assert f["explanation"]["explainer"] == "occlusion1" and f["explanation"]["trust"] == expected
        assert f["explanation"]["summary"].startswith("evidence for ")  # the explain stage's line is still there


def test_a_card_for_another_model_adds_nothing(env, tmp_path):
    plant_card(tmp_path / "cache", "textblob", 0.81, 0.72, 0.88, 0.47)
    out, failing = run(env)
    assert "pointing game" not in out and "evidence for " in out
    assert all("trust" not in f["explanation"] for f in failing)
