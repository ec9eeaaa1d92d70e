"""INV/DIR capabilities (a spec's ``test:`` section): what the spec accepts, and the pair cases
generated from real seeds (never an identical pair; seeds with nothing to change counted; same seed,
same cases)."""

from __future__ import annotations

import pytest

from s2lct.errors import SpecError
from s2lct.generate.cases import NO_SAMPLING, build_capability
from s2lct.generate.perturbed import apply_test
from s2lct.perturb.base import apply_changes
from s2lct.spec import load_spec
from s2lct.suite import Direction

SPEC = """\
id: RBX
name: Demo pairs
expected_labels: [negative, positive]
test:
  type: inv
  perturbation: typo
seeds:
  polar:
    any_of:
      - label: positive
        length: {min: 5, max: 12}
      - label: negative
        length: {min: 5, max: 12}
templates:
  - id: seed
    parts:
      - seed: polar
    expected: {seed_label: polar}
"""


def _spec(tmp_path, text=SPEC):
    p = tmp_path / "spec.yaml"
    p.write_text(text, encoding="utf-8")
    return load_spec(p), p


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("perturbation: typo", "perturbation: typos", 6, "unknown perturbation 'typos' (did you mean 'typo'?)"),
    ("perturbation: typo", "perturbation: intensifiers", 5, "perturbation 'intensifiers' is DIR, the test is INV (a perturbation that should change the label is DIR or MFT, never INV)"),
    ("type: inv", "type: dir", 5, "perturbation 'typo' is INV, the test is DIR"),
    ("type: inv", "type: swap", 5, "'inv' or 'dir'"),
    ("  perturbation: typo", "  perturbation: typo\n  margin: 0.2", 5, "an INV test takes no direction, margin or unless_original"),
])
def test_bad_test_section_is_one_line_with_file_and_line(tmp_path, old, new, line, message):
    with pytest.raises(SpecError) as err:
        _spec(tmp_path, SPEC.replace(old, new))
    text = str(err.value)
    assert text.startswith(f"{tmp_path / 'spec.yaml'}:{line}: ") and message in text and "\n" not in text, text


def test_inv_pairs_from_real_seeds_change_only_what_the_perturbation_says(tmp_path, corpus):
    spec, _ = _spec(tmp_path)
    result = build_capability(spec, corpus, seed=0, max_cases=NO_SAMPLING)
    seeds = {c.text for c in result.cases}
    apply_test(result, seed=0, limit=40)
    assert len(result.cases) == 40
    for c in result.cases:
        assert c.test_type == "inv" and c.expected == () and c.text in seeds
        (p,) = c.perturbed
        assert p != c.text and len(p) == len(c.text) and sorted(p) == sorted(c.text)  # two letters swapped
        assert sum(a != b for a, b in zip(p, c.text)) == 2
    info = result.extra["perturbation"]
    assert info["cases"] == 40 and info["tried"] >= 40 + info["nothing_to_change"]


def test_pairs_are_the_same_for_the_same_seed(tmp_path, corpus):
    spec, _ = _spec(tmp_path)
    runs = []
    for _ in range(2):
        result = build_capability(spec, corpus, seed=3, max_cases=NO_SAMPLING)
        apply_test(result, seed=3, limit=25)
        runs.append([(c.id, c.perturbed) for c in result.cases])
    assert runs[0] == runs[1]


def test_dir_capability_skips_seeds_with_nothing_to_change_and_counts_them(tmp_path, corpus):
    text = SPEC.replace("type: inv\n  perturbation: typo", "type: dir\n  perturbation: intensifiers\n  tolerance: 0.1\n  unless_original: [neutral]")
    spec, _ = _spec(tmp_path, text)
    result = build_capability(spec, corpus, seed=0, max_cases=NO_SAMPLING)
    by_text = {c.text for c in result.cases}
    apply_test(result, seed=0, limit=30)
    info = result.extra["perturbation"]
    assert info["nothing_to_change"] > 0 and info["cases"] == len(result.cases) == 30
    for c in result.cases:
        assert c.text in by_text and c.direction == Direction("predicted", "up", 0.0, 0.1, ("neutral",))
        inserted = c.perturbed[0].split()
        assert len(inserted) >= len(c.text.split()) + 1  # one intensifier (and maybe a/an) inserted
