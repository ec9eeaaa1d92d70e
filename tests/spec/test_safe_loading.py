"""Spec loading cannot be abused: aliases, anchors, merge keys, tags, huge files, huge templates."""

from __future__ import annotations

import subprocess
import sys
import time

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.error import YAMLError

from s2lct.errors import SpecError
from s2lct.spec import load_spec
from s2lct.spec.templates import MAX_TEMPLATE_COMBINATIONS
from s2lct.spec.loader import MAX_SPEC_BYTES, refuse_unsafe_yaml

BOMB = "\n".join(
    ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    + [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 10)]
) + "\n"

GOOD = """id: LCX
name: Demo
expected_labels: [positive]
seeds:
  demo:
    any_of:
      - label: positive
templates:
  - id: t
    parts:
      - {seed: demo}
    expected: [positive]
"""


def _validate(path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "s2lct.cli", "validate", str(path)], capture_output=True, text=True, timeout=120)


def test_alias_bomb_is_refused_at_once(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    assert len(BOMB) < 1000
    start = time.monotonic()
    res = _validate(path)  # the timeout above only guards against a hang
    assert res.returncode == 2
    assert res.stderr.strip() == f"{path}:1: YAML anchor '&l0' is not allowed in specs; write the value out"
    assert time.monotonic() - start < 60


@pytest.mark.parametrize(
    "text, line, words",
    [
        ("id: LCX\nname: &n Demo\n", 2, "anchor '&n'"),
        ("id: LCX\nname: *n\n", 2, "alias '*n'"),
        ("id: LCX\nbase:\n  <<: {label: negative}\n", 3, "merge key '<<'"),
        ("id: LCX\nname: !!python/object/apply:os.system ['true']\n", 2, "tag"),
        ("id: LCX\nname: !custom x\n", 2, "tag '!custom'"),
    ],
)
def test_unsafe_yaml_features_are_refused_with_line(tmp_path, text, line, words):
    path = tmp_path / "s.yaml"
    path.write_text(text)
    with pytest.raises(SpecError) as exc:
        load_spec(path)
    assert exc.value.line == line
    assert words in str(exc.value)


def test_a_10_mb_spec_is_refused_before_reading(tmp_path):
    path = tmp_path / "big.yaml"
    path.write_text(GOOD + "# " + "x" * (10 * 1024 * 1024) + "\n")
    with pytest.raises(SpecError) as exc:
        load_spec(path)
    assert f"{path.stat().st_size:,} bytes" in str(exc.value)
    assert f"{MAX_SPEC_BYTES:,}" in str(exc.value)


def test_over_combinatorial_template_is_refused_with_the_numbers(tmp_path):
    alternatives = "[" + ", ".join(f"w{i}" for i in range(30)) + "]"
    path = tmp_path / "combo.yaml"
    path.write_text(GOOD.replace("      - {seed: demo}\n", f"      - {alternatives}\n      - {{seed: demo}}\n      - {alternatives}\n      - {alternatives}\n"))
    with pytest.raises(SpecError) as exc:
        load_spec(path)
    message = str(exc.value)
    assert "27,000 combinations (30 × 30 × 30)" in message
    assert f"{MAX_TEMPLATE_COMBINATIONS:,}" in message
    assert exc.value.line is not None


def test_a_plain_spec_still_loads(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text(GOOD)
    assert load_spec(path).id == "LCX"


PLAIN = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(min_size=1, max_size=6), inner, max_size=4)),
    max_leaves=20,
)


def _dump(data) -> str:
    import io

    buf = io.StringIO()
    YAML(typ="safe", pure=True).dump(data, buf)
    return buf.getvalue()


@settings(max_examples=100, deadline=None)
@given(PLAIN)
def test_plain_data_is_never_refused(data):
    text = _dump({"value": data})
    try:  # ruamel cannot read back a few of its own dumps (e.g. a key ':0'); those are not specs
        YAML(typ="safe", pure=True).load(text)
    except YAMLError:
        assume(False)
    refuse_unsafe_yaml("x.yaml", text)


@settings(max_examples=100, deadline=None)
@given(PLAIN, st.integers(min_value=0, max_value=5))
def test_any_alias_is_refused_on_its_line(data, padding):
    text = "\n" * padding + "first: &anchor 1\n" + _dump({"value": data}) + "again: *anchor\n"
    with pytest.raises(SpecError) as exc:
        refuse_unsafe_yaml("x.yaml", text)
    assert exc.value.line == padding + 1
