"""Names typed on the command line: a one-letter typo gets the closest valid name, one line, exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from s2lct.suggest import closest, unknown_names

REPO = Path(__file__).resolve().parents[1]


def _cli(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**__import__("os").environ, "S2LCT_CACHE_DIR": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "s2lct.cli", *args], capture_output=True, text=True, cwd=REPO, env=env)


@pytest.mark.parametrize(("args", "wrong", "meant"), [
    (("run", "--model", "vadr"), "vadr", "vader"),
    (("run", "--model", "vader", "--only", "LC44"), "LC44", "LC4"),
    (("generate", "--no-expand", "--only", "lc12"), "lc12", "LC12"),
    (("explain", "--model", "vader", "--explainers", "occlusoin1", "--only", "LC4"), "occlusoin1", "occlusion1"),
])
def test_a_one_letter_typo_gets_the_meant_name(args, wrong, meant, tmp_path):
    args = (*args, "--out", str(tmp_path / "out")) if args[0] in ("generate", "explain") else args
    res = _cli(*args, tmp_path=tmp_path)
    assert res.returncode == 2, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.stderr
    assert f"{wrong!r} (did you mean {meant!r}?)" in lines[0]
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())  # nothing half-written


def test_run_only_runs_exactly_the_named_capabilities(tmp_path):
    out = tmp_path / "r.json"
    res = _cli("run", "--model", "vader", "--only", "LC4,LC5", "--json", str(out), "--quiet", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    report = json.loads(out.read_text())
    expected = {cap: sum(1 for line in (REPO / "generated" / f"{cap}.jsonl").open() if line.strip()) for cap in ("LC4", "LC5")}
    assert {c["id"]: c["cases"] for c in report["capabilities"]} == expected


@given(st.sampled_from(["vader", "textblob", "roberta", "minilm-sst2", "occlusion1", "limsse_ms_p"]),
       st.integers(min_value=0, max_value=100), st.sampled_from(["drop", "swap", "double"]))
def test_closest_finds_the_name_behind_any_one_letter_typo(name, at, kind):
    i = at % (len(name) - 1)
    typo = {"drop": name[:i] + name[i + 1:], "swap": name[:i] + name[i + 1] + name[i] + name[i + 2:],
            "double": name[:i] + name[i] + name[i:]}[kind]
    valid = ["vader", "textblob", "bert", "roberta", "distilbert", "minilm-sst2", "occlusion1", "occlusion3",
             "omission1", "limsse_ms_p", "limsse_ms_s"]
    guess = closest(typo, valid)
    assert guess is not None
    # the guess is the name itself, or one at least as close to the typo (a typo can land between two names)
    import difflib
    ratio = lambda a: difflib.SequenceMatcher(None, typo.lower(), a.lower()).ratio()  # noqa: E731
    assert ratio(guess) >= ratio(name)


def test_nothing_close_gets_no_guess_but_the_valid_names():
    msg = unknown_names("model", ["qqqqqq"], ["vader", "textblob"], valid_label="known")
    assert msg == "unknown model 'qqqqqq'; known: vader, textblob"
