"""End-to-end generation on the shared SST data (seeds + transforms, no expansion)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.config import get_settings
from s2lct.generate.cases import build_capability
from s2lct.generate.search import fit_failures, matches_any
from s2lct.generate.transforms import apply_ops
from s2lct.pipeline import generate
from s2lct.spec import SeedLabel
from s2lct.suite import load_manifest, load_suite, read_cases, suite_files
from s2lct.text import detokenize


@pytest.fixture(scope="session")
def suite_dir(tmp_path_factory, repo_dir):
    out = tmp_path_factory.mktemp("suite")
    res = subprocess.run(
        [sys.executable, "-m", "s2lct.cli", "generate", "--no-expand", "--quiet", "--specs", str(repo_dir / "specs"), "--out", str(out), "--seed", "7"],
        capture_output=True, text=True,
    )
    assert res.returncode == 0, res.stderr
    return out


@pytest.fixture(scope="session")
def cases(suite_dir):
    return load_suite(suite_dir)


def test_one_suite_per_spec_and_manifest(suite_dir, specs, repo_dir):
    files = suite_files(suite_dir)
    assert sorted(files) == sorted(specs)
    manifest = load_manifest(suite_dir)
    assert manifest["seed"] == 7 and manifest["expanded"] is False
    assert set(manifest["data"]) == {"sst/trees/train.txt", "sst/trees/dev.txt", "sst/trees/test.txt"}
    for cap, info in manifest["capabilities"].items():
        n = sum(1 for _ in read_cases(files[cap]))
        assert info["cases"] == n > 0, cap
        assert info["name"] == specs[cap].name
        if specs[cap].sampling.max_cases:
            assert n <= specs[cap].sampling.max_cases


def test_every_case_meets_its_spec(cases, specs, corpus):
    by_ref = {(s.sentence.split, s.sentence.index): s for s in corpus}
    for case in cases:
        spec = specs[case.capability]
        template = next(t for t in spec.templates if t.id == case.template)
        assert set(case.expected) <= set(spec.expected_labels)
        if isinstance(template.expected, SeedLabel):
            assert case.expected == (next(s.label for s in case.seeds if s.slot == template.expected.seed_label),)
        assert all(case.text[f.start : f.end] == f.text for f in case.fragments)
        slots = {s.name: s for s in template.slots()}
        for ref in case.seeds:
            seed = by_ref[(ref.split, ref.index)]
            assert seed.text == ref.text and seed.label == ref.label
            # the seed meets the search rule of its pool before the transform
            assert matches_any(spec.seeds[slots[ref.slot].seed].any_of, seed), (case.id, ref)
            # and fits its slot's frame
            assert slots[ref.slot].accepts is None or not fit_failures(slots[ref.slot].accepts, seed), (case.id, ref)
            # and its fragment is one of the seed's transformed variants
            finite = seed.syntax.finite if seed.syntax is not None else ()
            variants = {v for v in apply_ops(seed.tokens, seed.tags, slots[ref.slot].ops, seed.first_keeps_capital, finite)}
            frag = next(f for f in case.fragments if f.slot == ref.slot)
            assert frag.label == ref.label and frag.kind == "seed"
            assert any(frag.text == detokenize(v.tokens) for v in variants)


def test_ids_are_unique_and_files_sorted(suite_dir):
    for path in suite_files(suite_dir).values():
        ids = [c.id for c in read_cases(path)]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)


def test_template_wording(cases):
    lc4 = [c for c in cases if c.capability == "LC4"]
    assert lc4 and all(("is not" in c.text or "isn't" in c.text or "are not" in c.text or "aren't" in c.text) for c in lc4)
    lc10 = [c for c in cases if c.capability == "LC10"]
    assert lc10 and all(c.text.startswith(("Do I think that", "Do I agree that", "Would I call it", "Would I describe it as")) for c in lc10)
    assert all(c.text.endswith(("? No, I don't.", "? No, I wouldn't.", "? No.")) for c in lc10)
    lc8 = [c for c in cases if c.capability == "LC8"]
    assert all(len(c.seeds) == 2 and c.expected == (next(s.label for s in c.seeds if s.slot == "author"),) for c in lc8)


def test_embedded_seeds_read_mid_sentence(cases, corpus):
    """An embedded seed starts with neither a conjunction nor a capital that the corpus writes
    lower-cased ("so" may open it where it grades the next word: "that so few movies explore ...");
    a title keeps its "The" ("Do I agree that The Master of Disguise is awful?"), "the film" does not."""
    from s2lct.corpus.shape import opening_dropped

    embedded = [(c, f) for c in cases for f in c.fragments if f.kind == "seed" and f.start > 0]
    assert embedded
    for c, f in embedded:
        assert opening_dropped([w.strip(",") for w in f.text.split()]) == 0 and not f.text.startswith(("...", "--")), c.text
    assert not [c.text for c, f in embedded if f.text.startswith(("Dull,", "A ", "It ", "This "))
                or (f.text.startswith("The ") and not f.text.split()[1][:1].isupper())]


def test_same_seed_gives_identical_bytes_and_other_seed_differs(tmp_path, suite_dir, repo_dir):
    again = generate(repo_dir / "specs", tmp_path / "a", get_settings(), seed=7, expand=False)
    for name in ["manifest.json", *(p.name for p in suite_files(suite_dir).values())]:
        assert (tmp_path / "a" / name).read_bytes() == (suite_dir / name).read_bytes(), name
    other = generate(repo_dir / "specs", tmp_path / "b", get_settings(), seed=8, expand=False, only=["LC9"])
    assert (tmp_path / "b" / "LC9.jsonl").read_bytes() != (suite_dir / "LC9.jsonl").read_bytes()
    assert again.manifest["capabilities"]["LC4"] == load_manifest(suite_dir)["capabilities"]["LC4"]
    assert other.manifest["seed"] == 8


def test_only_replaces_just_those_capabilities(tmp_path, suite_dir, repo_dir):
    import shutil

    out = tmp_path / "s"
    shutil.copytree(suite_dir, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    generate(repo_dir / "specs", out, get_settings(), seed=99, expand=False, only=["LC6"])
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert sorted(before) == sorted(after)
    assert sorted(n for n in before if before[n] != after[n]) == ["LC6.jsonl", "manifest.json"]
    assert sorted(load_manifest(out)["capabilities"]) == sorted(load_manifest(suite_dir)["capabilities"])  # every capability kept


def test_interrupted_write_leaves_previous_suite_intact(tmp_path, suite_dir, repo_dir, monkeypatch):
    import shutil

    import s2lct.pipeline as gen

    out = tmp_path / "s"
    shutil.copytree(suite_dir, out)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = {"n": 0}
    real = gen.write_cases

    def flaky(path, cases):
        calls["n"] += 1
        if calls["n"] == 5:
            raise KeyboardInterrupt
        real(path, cases)

    monkeypatch.setattr(gen, "write_cases", flaky)
    with pytest.raises(KeyboardInterrupt):
        generate(repo_dir / "specs", out, get_settings(), seed=1, expand=False)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no staging left, nothing replaced


def test_cli_errors_are_one_line(tmp_path, repo_dir):
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "generate", "--no-expand", "--only", "LC42", "--out", str(tmp_path)], capture_output=True, text=True, cwd=repo_dir)
    assert res.returncode != 0 and res.stderr.strip().startswith("error: --only: unknown capability 'LC42' (did you mean 'LC4'?); known: LC1,")
    res = subprocess.run([sys.executable, "-m", "s2lct.cli", "generate", "--no-expand", "--data-root", str(tmp_path), "--out", str(tmp_path / "o")], capture_output=True, text=True, cwd=repo_dir)
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.strip().splitlines()[-1].startswith(f"error: missing {tmp_path}/sst/trees/train.txt")
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_property_sampled_cases_respect_spec(data, specs, corpus):
    """Any capability, any seed: cases are within max_cases and expected labels within the spec."""
    spec = specs[data.draw(st.sampled_from(sorted(specs)))]
    seed = data.draw(st.integers(0, 10_000))
    limit = data.draw(st.integers(1, 50))
    result = build_capability(spec, corpus, seed, max_cases=limit)
    assert 0 < len(result.cases) <= limit
    for case in result.cases:
        assert set(case.expected) <= set(spec.expected_labels)
        assert case.capability == spec.id
