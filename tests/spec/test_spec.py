from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from s2lct.errors import SpecError
from s2lct.spec import json_schema, load_spec, load_specs
from s2lct.suite import natural_key

VALID = """\
id: LCX
name: Demo
expected_labels: [neutral, positive]
seeds:
  demo:
    any_of:
      - label: negative
        start: '(This|That) is'
templates:
  - id: t
    parts:
      - seed: demo
        ops: [negate_copula]
    expected: [neutral, positive]
"""


def write(tmp_path: Path, text: str, name: str = "spec.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_committed_specs_load_one_capability_per_file_in_natural_order(repo_dir):
    """The ids come from the files in specs/ (adding a spec needs no test edit), and the main set
    keeps every capability of the paper's set in specs/paper/."""
    ids = [s.id for s in load_specs([repo_dir / "specs"])]
    assert len(ids) == len(list((repo_dir / "specs").glob("*.yaml"))) == len(set(ids))
    assert ids == sorted(ids, key=natural_key)
    paper = {s.id for s in load_specs([repo_dir / "specs" / "paper"])}
    assert paper and paper <= set(ids)


def test_committed_schema_is_generated_from_the_models(repo_dir):
    committed = json.loads((repo_dir / "specs" / "schema.json").read_text())
    assert committed == json.loads(json.dumps(json_schema())), "run `s2lct schema --out specs/schema.json`"


def test_jsonschema_accepts_committed_specs_and_rejects_unknown_keys(repo_dir):
    schema = json_schema()
    for f in sorted((repo_dir / "specs").glob("*.yaml")):
        jsonschema.validate(yaml.safe_load(f.read_text()), schema)
    bad = yaml.safe_load(VALID)
    bad["colour"] = "red"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema)


def test_valid_spec_loads(tmp_path):
    spec = load_spec(write(tmp_path, VALID))
    assert spec.id == "LCX" and spec.templates[0].slots()[0].ops == ["negate_copula"]


@pytest.mark.parametrize(
    "old,new,line,message",
    [
        ("name: Demo", "name: Demo\ncolour: red", 3, "unknown key 'colour'"),
        ("        start: '(This|That) is'", "        start: '(This|That is'", 8, "invalid regular expression"),
        ("      - label: negative", "      - label: angry", 7, "angry"),
        ("    parts:\n      - seed: demo\n        ops: [negate_copula]", "    parts: []", 11, "at least 1"),
        ("        ops: [negate_copula]", "        ops: [shout]", 13, "negate_copula"),
        ("expected_labels: [neutral, positive]", "expected_labels: neutral", 3, "expected_labels"),
        ("      - seed: demo", "      - seed: nowhere", 12, "nowhere"),
        ("    expected: [neutral, positive]", "    expected: [negative]", 14, "outside expected_labels"),
        ("      - seed: demo\n        ops: [negate_copula]", "      - ['a', 'b']", 11, "at least one seed slot"),
        ("      - seed: demo\n        ops: [negate_copula]", "      - []\n      - seed: demo", 11, "empty list of alternatives"),
        ("        start: '(This|That) is'", "        length: {min: 5, max: 2}", 8, "min (5) is greater than max (2)"),
    ],
)
def test_invalid_specs_name_file_line_and_problem(tmp_path, old, new, line, message):
    assert old in VALID
    path = write(tmp_path, VALID.replace(old, new))
    with pytest.raises(SpecError) as err:
        load_spec(path)
    text = str(err.value)
    assert text.startswith(f"{path}:{line}: "), text
    assert message in text
    assert "\n" not in text


def test_yaml_syntax_error_has_line(tmp_path):
    path = write(tmp_path, VALID.replace("name: Demo", "name: [Demo"))
    with pytest.raises(SpecError, match=r"spec\.yaml:\d+: invalid YAML"):
        load_spec(path)


def test_not_a_mapping(tmp_path):
    with pytest.raises(SpecError, match=r":1: a spec must be a YAML mapping"):
        load_spec(write(tmp_path, "- just\n- a list\n"))


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, VALID, "a.yaml")
    write(tmp_path, VALID, "b.yaml")
    with pytest.raises(SpecError, match="duplicate capability id 'LCX'"):
        load_specs([tmp_path])


def test_cli_validate_exit_codes_and_no_traceback(tmp_path, repo_dir):
    good = write(tmp_path, VALID, "good.yaml")
    bad = write(tmp_path, VALID.replace("name: Demo", "name: Demo\ncolour: red"), "bad.yaml")
    ok = subprocess.run([sys.executable, "-m", "s2lct.cli", "validate", str(good)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "validate", str(good), str(bad)], capture_output=True, text=True)
    assert res.returncode == 2
    assert res.stderr.strip().startswith(f"{bad}:3: unknown key 'colour'; check the spelling against specs/schema.json (valid keys: checklist, description, ")
    assert len(res.stderr.strip().splitlines()) == 1
    assert "Traceback" not in res.stderr


# --- property: whatever YAML a user writes, loading either succeeds or raises a one-line SpecError

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-3, 30), st.text(max_size=12))
_values = st.recursive(_scalars, lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)), max_leaves=8)
_keys = st.sampled_from(["id", "name", "expected_labels", "seeds", "templates", "sampling", "expansion", "markers", "x"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(mutations=st.dictionaries(_keys, _values, max_size=3))
def test_any_mutation_gives_spec_or_one_line_error(tmp_path, mutations):
    doc = yaml.safe_load(VALID)
    doc.update(mutations)
    path = tmp_path / "prop.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    try:
        spec = load_spec(path)
    except SpecError as exc:
        assert str(exc).startswith(f"{path}:") and "\n" not in str(exc)
        assert exc.line is None or 1 <= exc.line <= len(path.read_text().splitlines()) + 1
    else:
        assert spec.id and spec.templates and set(spec.templates[0].expected) <= set(spec.expected_labels) | {"seed_label"}


@pytest.mark.parametrize("fills", ["[also, 'two words']", "['']", "also"])
def test_exclude_fills_must_be_a_list_of_single_words(tmp_path, fills):
    path = write(tmp_path, VALID + f"expansion:\n  exclude_fills: {fills}\n")
    with pytest.raises(SpecError) as err:
        load_spec(path)
    text = str(err.value)
    assert text.startswith(f"{path}:") and "exclude_fills" in text and "\n" not in text


def test_exclude_fills_are_read(tmp_path):
    spec = load_spec(write(tmp_path, VALID + "expansion:\n  exclude_fills: [Also, probably]\n"))
    assert spec.expansion.exclude_fills == ["Also", "probably"]
