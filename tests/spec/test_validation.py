"""Validation reports every error of a file, suggests the closest key, rejects duplicate ids across files."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.spec import check_specs

from tests.spec.test_spec import VALID, write


def _validate(*paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "s2lct.cli", "validate", *map(str, paths)], capture_output=True, text=True)


def test_misspelt_top_level_key_names_the_typo_and_the_closest_key(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("expected_labels:", "expected_lables:"))
    _, errors = check_specs([path])
    assert [str(e) for e in errors] == [f"{path}:3: unknown key 'expected_lables' — did you mean 'expected_labels'?"]


def test_misspelt_nested_key_is_suggested_from_that_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, VALID.replace("        start:", "        strat:"))
    _, errors = check_specs([path])
    assert [str(e) for e in errors] == [f"{path}:8: unknown key 'strat' — did you mean 'start'?"]


def test_every_error_of_a_file_is_reported_with_its_line(tmp_path: Path) -> None:
    text = VALID.replace("expected_labels:", "expected_lables:").replace("label: negative", "label: angry").replace("[negate_copula]", "[negat_copula]")
    path = write(tmp_path, text)
    res = _validate(path)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [f"{path}:3", f"{path}:7", f"{path}:13"], lines
    assert "did you mean 'expected_labels'" in lines[0] and "angry" in lines[1] and "did you mean 'negate_copula'" in lines[2]


def test_duplicate_ids_across_files_fail_validate(tmp_path: Path) -> None:
    a = write(tmp_path, VALID, "a.yaml")
    b = write(tmp_path, VALID, "b.yaml")
    res = _validate(tmp_path)
    assert res.returncode == 2
    assert res.stderr.strip() == f"{b}:1: duplicate capability id 'LCX', also in {a}; ids must be unique across files"


def test_missing_folder_is_a_user_error(tmp_path: Path) -> None:
    res = _validate(tmp_path / "nowhere")
    assert res.returncode == 2 and res.stderr.strip() == f"{tmp_path / 'nowhere'}: file not found"


def test_missing_suite_folder_is_a_user_error(tmp_path: Path) -> None:
    for command in (["run", "--model", "vader"], ["diversity"]):
        res = subprocess.run([sys.executable, "-m", "s2lct.cli", *command, "--suite", str(tmp_path / "nowhere")], capture_output=True, text=True)
        assert res.returncode == 2, (command, res.stderr)
        assert res.stderr.startswith("error: suite folder") and "Traceback" not in res.stderr


@settings(max_examples=200, deadline=None)
@given(
    prefix=st.text(alphabet="abcXYZ ", min_size=1, max_size=6),
    text=st.text(alphabet="abcXYZ ", max_size=12),
    where=st.sampled_from(["start", "end"]),
)
def test_start_and_end_rules_anchor_with_a_leading_case_flag(prefix, text, where):
    """``(?i)`` at the front of a start/end rule is legal (it used to crash at search time)."""
    import re

    from s2lct.spec.terms import anchored

    pattern = re.compile(anchored("(?i)" + re.escape(prefix), where))
    probe = prefix.upper() + text if where == "start" else text + prefix.swapcase()
    assert pattern.search(probe)
    other = text.lower()
    expected = other.startswith(prefix.lower()) if where == "start" else other.endswith(prefix.lower())
    assert bool(pattern.search(other)) == expected
