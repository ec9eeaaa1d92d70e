"""The pytest plugin, run in-process with pytester against tiny suites and models."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from _run_fixtures import TINY_CASES, build_tiny_hf_model, make_case, write_tiny_suite

pytest_plugins = ["pytester"]

VADER_FAILING = ["LC1-0003", "LC4-0002", "LC4-0003", "LC4-0005"]


@pytest.fixture(scope="module", autouse=True)
def _preload(tmp_path_factory):
    """Import what the inner runs use (and run a tiny HF model once) in this process first.

    pytester restores ``sys.modules`` after each in-process run; a C extension such as numpy that an
    inner run imported first would then be imported a second time, which it refuses.
    """
    import sqlite3  # noqa: F401

    import rich.console  # noqa: F401
    import rich.table  # noqa: F401
    import textblob  # noqa: F401
    import vaderSentiment.vaderSentiment  # noqa: F401

    from s2lct.models import load_model

    load_model(str(build_tiny_hf_model(tmp_path_factory.mktemp("preload") / "m"))).predict(["good"])
    load_model("vader").predict(["good"])
    load_model("textblob").predict(["good"])


@pytest.fixture
def env(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    write_tiny_suite(pytester.path / "generated")
    # a project test beside the suite, to check what runs with and without --model
    pytester.makepyfile(test_own="def test_own():\n    assert True\n")
    return pytester


def _ids(result) -> list[str]:
    return [line.strip() for line in result.outlines if "::" in line and not line.startswith(("=", "<"))]


def test_without_model_only_project_tests_run(env):
    result = env.runpytest("-q")
    result.assert_outcomes(passed=1)
    assert "s2lct results" not in result.stdout.str()


def test_with_model_runs_every_case_as_an_item(env):
    result = env.runpytest("--model", "vader", "-q", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4, failed=4)
    out = result.stdout.str()
    assert "s2lct results" in out and "Negated positive sentences" in out
    # results first: failing suite cases are summarised per capability, the table comes last
    assert "s2lct: 4 failing suite cases" in out
    assert "vader LC1: 1 failed, e.g. LC1-0003" in out and "vader LC4: 3 failed, e.g. LC4-0002, LC4-0003, LC4-0005" in out
    assert "FAILED" not in out and "LC4-0005 (LC4" not in out
    lines = out.rstrip().splitlines()
    assert "4 failed, 4 passed" in lines[-1] and "TOTAL" in "".join(lines[: -1][-12:])
    assert out.index("s2lct results") > out.index("failing suite cases")


@pytest.mark.parametrize("ask", [["--s2lct-failures"], ["-rf"]])
def test_every_failure_is_listed_on_request(env, ask):
    result = env.runpytest("--model", "vader", "-q", "-p", "no:cacheprovider", *ask)
    out = result.stdout.str()
    for cid in VADER_FAILING:
        assert f"FAILED {cid[:3]}::{cid}" in out
    assert "failing suite cases" not in out


def test_ids_and_collect_only(env):
    result = env.runpytest("--model", "vader", "--collect-only", "-q")
    assert _ids(result) == [f"{c.capability}::{c.id}" for c in sorted(TINY_CASES, key=lambda c: (c.capability, c.id))]
    assert result.ret == 0


def test_explicit_paths_run_beside_the_suite(env):
    result = env.runpytest("--model", "vader", "test_own.py", "-q")
    result.assert_outcomes(passed=5, failed=4)


def test_markers_and_keywords_select(env):
    neg = env.runpytest("--model", "vader", "-m", "negation", "--strict-markers", "--collect-only", "-q")
    assert _ids(neg) == [f"LC4::{c.id}" for c in TINY_CASES if c.capability == "LC4"]
    lc1 = env.runpytest("--model", "vader", "-m", "lc1 and not negation", "--strict-markers", "--collect-only", "-q")
    assert _ids(lc1) == [f"LC1::{c.id}" for c in TINY_CASES if c.capability == "LC1"]
    k = env.runpytest("--model", "vader", "-k", "LC4 and 0003", "--collect-only", "-q")
    assert _ids(k) == ["LC4::LC4-0003"]
    markers = env.runpytest("--model", "vader", "--markers")
    assert "@pytest.mark.negation" in markers.stdout.str() and "@pytest.mark.lc4" in markers.stdout.str()


def test_failure_message_shows_text_labels_and_probabilities(env):
    result = env.runpytest("--model", "vader", "-k", "LC4-0005", "-p", "no:cacheprovider", "--s2lct-failures")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    assert "LC4-0005 (LC4 Negated positive sentences) failed for model vader" in out
    assert "text:          This book is not good, I think." in out
    assert "expected:      positive" in out and "predicted:     negative" in out
    assert "probabilities: negative 0." in out and "neutral 0." in out
    assert "expansion of LC4-0001 (seed case passed)" in out
    assert "Traceback" not in out and "runtest" not in out


def test_json_report_and_counts(env):
    result = env.runpytest("--model", "vader", "--s2lct-report", "out/r.json", "-q")
    result.assert_outcomes(passed=4, failed=4)
    d = json.loads((env.path / "out" / "r.json").read_text())
    caps = {c["id"]: c for c in d["capabilities"]}
    assert (caps["LC1"]["cases"], caps["LC1"]["failures"], caps["LC1"]["name"]) == (3, 1, "Short sentences with sentiment words")
    assert (caps["LC4"]["cases"], caps["LC4"]["failures"]) == (5, 3)
    assert caps["LC4"]["seed_passed_expansion_failed"] == 1
    assert sorted(f["id"] for f in d["failing_cases"]) == VADER_FAILING
    assert d["total"] == {"cases": 8, "failures": 4, "failure_rate": 0.5, "expansion_cases": 3,
                          "expansion_failures": 2, "seed_passed_expansion_failed": 1, "truncated": 0}


def test_deselected_cases_are_not_in_the_report(env):
    env.runpytest("--model", "vader", "-m", "negation", "--s2lct-report", "r.json", "-q").assert_outcomes(passed=2, failed=3)
    d = json.loads((env.path / "r.json").read_text())
    assert [c["id"] for c in d["capabilities"]] == ["LC4"]


def test_several_models_side_by_side(env):
    result = env.runpytest("--model", "vader", "--model", "textblob", "--s2lct-report", "r.html", "--collect-only", "-q")
    ids = _ids(result)
    assert len(ids) == 16 and "LC1::LC1-0001[vader]" in ids and "LC1::LC1-0001[textblob]" in ids
    k = env.runpytest("--model", "vader,textblob", "-k", "textblob", "--collect-only", "-q")
    assert len(_ids(k)) == 8 and all(i.endswith("[textblob]") for i in _ids(k))
    run = env.runpytest("--model", "vader,textblob", "--s2lct-report", "r.html", "-q")
    assert run.ret == 1
    page = (env.path / "r.html").read_text()
    assert '<section class="model" data-model="vader">' in page and '<section class="model" data-model="textblob">' in page


def test_max_cases_per_capability_is_seeded(env):
    def ids(*extra):
        return _ids(env.runpytest("--model", "vader", "--max-cases-per-capability", "2", "--collect-only", "-q", *extra))

    first = ids()
    assert len(first) == 4 and sum(i.startswith("LC1::") for i in first) == 2
    assert ids() == first
    seeds = {tuple(ids("--s2lct-seed", str(s))) for s in range(6)}
    assert len(seeds) > 1


def test_xdist_gives_the_same_results(env):
    serial = env.runpytest("--model", "vader", "--s2lct-report", "serial.json", "-q", "-p", "no:cacheprovider")
    serial.assert_outcomes(passed=4, failed=4)
    parallel = env.runpytest("--model", "vader", "--s2lct-report", "xdist.json", "-n", "2", "-q", "-p", "no:cacheprovider",
                                 "-p", "no:benchmark")
    parallel.assert_outcomes(passed=4, failed=4)
    assert "s2lct results" in parallel.stdout.str()
    a = json.loads((env.path / "serial.json").read_text())
    b = json.loads((env.path / "xdist.json").read_text())
    assert a == b


def test_bad_input_errors(env):
    unknown = env.runpytest("--model", "robertta")
    assert unknown.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown model 'robertta' (did you mean 'roberta'?); known: vader" in unknown.stderr.str()
    missing = env.runpytest("--model", "vader", "--suite", "nowhere")
    assert missing.ret != 0 and "suite folder" in missing.stderr.str() and "does not exist" in missing.stderr.str()
    (env.path / "empty").mkdir()
    (env.path / "empty" / "LC1.jsonl").write_text("")
    empty = env.runpytest("--model", "vader", "--suite", "empty")
    assert empty.ret != 0 and "holds no cases" in empty.stderr.str()
    bad = env.path / "generated" / "LC1.jsonl"
    bad.write_text(bad.read_text() + "{broken\n")
    corrupt = env.runpytest("--model", "vader")
    assert corrupt.ret != 0 and f"{bad}:4:" in corrupt.stderr.str()
    report = env.runpytest("--model", "vader", "--s2lct-report", "r.pdf")
    assert report.ret != 0 and "use .json, .md or .html" in report.stderr.str()


def test_tiny_random_hf_model_and_neutral_band(env, tmp_path):
    # Random encoder, head fixed to softmax([0, 1]): p(positive) = 0.731 for every input.
    model = build_tiny_hf_model(tmp_path / "tiny", bias=[0.0, 1.0])
    positives = sum("positive" in c.expected for c in TINY_CASES)
    result = env.runpytest("--model", str(model), "--s2lct-report", "r.json", "-q")
    result.assert_outcomes(passed=positives, failed=len(TINY_CASES) - positives)
    d = json.loads((env.path / "r.json").read_text())
    probs = d["failing_cases"][0]["probs"]
    assert probs["positive"] == pytest.approx(1 / (1 + math.exp(-1)), abs=1e-5) and probs["neutral"] == 0.0
    # with the band widened to [0.2, 0.8] every prediction becomes neutral: nothing expects neutral here
    wide = env.runpytest("--model", str(model), "--s2lct-neutral-band", "0.2,0.8", "-q")
    wide.assert_outcomes(failed=len(TINY_CASES))
    # and a label map that swaps the classes turns the passes into failures and back
    swapped = env.runpytest("--model", str(model), "--s2lct-label-map", "0=positive,1=negative", "-q")
    swapped.assert_outcomes(passed=sum("negative" in c.expected for c in TINY_CASES),
                            failed=len(TINY_CASES) - sum("negative" in c.expected for c in TINY_CASES))


def test_truncation_is_counted(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    model = build_tiny_hf_model(tmp_path / "tiny", bias=[0.0, 1.0], max_length=8)
    cases = [make_case("LC1-0001", "LC1", "good", ["positive"]),
             make_case("LC1-0002", "LC1", "this movie is good and the food was not bad at all", ["positive"])]
    write_tiny_suite(pytester.path / "generated", cases)
    pytester.runpytest("--model", str(model), "--s2lct-report", "r.json", "-q").assert_outcomes(passed=2)
    d = json.loads((pytester.path / "r.json").read_text())
    assert d["total"]["truncated"] == 1 and d["capabilities"][0]["truncated"] == 1


def test_minilm_sst2(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    cases = [
        make_case("LC4-0001", "LC4", "This movie is not good.", ["negative"]),
        make_case("LC1-0001", "LC1", "This movie is good.", ["positive"]),
        make_case("LC3-0001", "LC3", "I don't think I have ever seen a better movie.", ["positive"]),
        make_case("LC3-0002", "LC3", "The food was terrible, but the staff were great.", ["positive"]),
    ]
    write_tiny_suite(pytester.path / "generated", cases)
    result = pytester.runpytest("--model", "minilm-sst2", "--s2lct-report", "r.json", "-q")
    result.assert_outcomes(passed=3, failed=1)
    assert "minilm-sst2 LC3: 1 failed, e.g. LC3-0001" in result.stdout.str()
    d = json.loads((pytester.path / "r.json").read_text())
    assert d["failing_cases"][0]["predicted"] == "negative"
    assert d["failing_cases"][0]["probs"]["negative"] == pytest.approx(0.934, abs=0.002)
    assert d["identity"].startswith("hf:") and d["identity"].split("@")[0].endswith("minilm-sst2")
    # a second run reads the cache: same report
    pytester.runpytest("--model", "minilm-sst2", "--s2lct-report", "r2.json", "-q").assert_outcomes(passed=3, failed=1)
    assert json.loads((pytester.path / "r2.json").read_text()) == d


def test_plugin_module_is_cheap_to_import():
    import subprocess
    import sys

    code = "import sys, s2lct.run.pytest_plugin; print(any(m in sys.modules for m in ('torch', 'transformers', 'rich')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_suite_dir_default_and_option(env):
    other = Path(env.path / "elsewhere")
    write_tiny_suite(other, TINY_CASES[:2])
    env.runpytest("--model", "vader", "--suite", "elsewhere", "-q").assert_outcomes(passed=2)


def test_prediction_progress_before_the_items(env):
    result = env.runpytest("--model", "vader", "-q", "-p", "no:cacheprovider", "--s2lct-no-cache", "--s2lct-progress")
    out = result.stdout.str()
    assert "s2lct: predicting vader: 8/8 texts" in out
    assert out.index("s2lct: predicting vader") < out.index("[100%]")
    plain = env.runpytest("--model", "vader", "-q", "-p", "no:cacheprovider", "--s2lct-no-cache").stdout.str()
    assert "s2lct: predicting" not in plain  # not a terminal and not asked


def test_only_selects_the_named_capabilities_and_the_header_counts_what_runs(env):
    result = env.runpytest("--model", "vader", "--only", "LC4", "-p", "no:cacheprovider")
    lc4 = [c for c in TINY_CASES if c.capability == "LC4"]
    result.assert_outcomes(passed=sum(c.id not in VADER_FAILING for c in lc4), failed=sum(c.id in VADER_FAILING for c in lc4))
    assert all(i.startswith("LC4::") for i in _ids(result) if i.startswith("LC"))
    result.stdout.fnmatch_lines([f"s2lct: {len(lc4)} of {len(lc4)} suite items selected"])


def test_header_counts_the_items_left_after_marker_selection(env):
    result = env.runpytest("--model", "vader", "-m", "negation", "-p", "no:cacheprovider")
    outcomes = result.parseoutcomes()
    ran = outcomes.get("passed", 0) + outcomes.get("failed", 0)
    assert ran == sum(c.capability == "LC4" for c in TINY_CASES)  # only LC4 is marked negation
    result.stdout.fnmatch_lines([f"s2lct: {ran} of {len(TINY_CASES)} suite items selected"])


def test_unknown_capability_in_only_suggests_the_closest(env):
    result = env.runpytest("--model", "vader", "--only", "LC44")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "unknown capability 'LC44' (did you mean 'LC4'?); available: LC1, LC4" in err and "Traceback" not in err
