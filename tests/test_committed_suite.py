"""The committed suites in generated/ are what the committed specs produce (regenerate when specs change)."""

from __future__ import annotations

import pytest

from s2lct.atomic import sha256_file
from s2lct.spec import load_specs, spec_hash
from s2lct.suite import load_manifest, read_cases, suite_files


@pytest.mark.parametrize(("suite_dir", "specs_dir"), [("generated", "specs"), ("generated/checklist", "specs/checklist")])
def test_manifest_matches_specs_and_files(repo_dir, suite_dir, specs_dir):
    suite = repo_dir / suite_dir
    manifest = load_manifest(suite)
    specs = {s.id: s for s in load_specs([repo_dir / specs_dir])}
    assert manifest["specs"] == {k: spec_hash(v) for k, v in specs.items()}, f"specs changed: run `s2lct generate --specs {specs_dir} --out {suite_dir}`"
    files = suite_files(suite)
    assert sorted(files) == sorted(specs)
    for cap, path in files.items():
        info = manifest["capabilities"][cap]
        assert info["sha256"] == sha256_file(path), path
        cases = list(read_cases(path))
        assert len(cases) == info["cases"]
        assert sum(c.expansion is not None for c in cases) == info["expansion_cases"]
        assert all(set(c.expected) <= set(specs[cap].expected_labels) for c in cases)
        assert all(c.test_type == (specs[cap].test.type if specs[cap].test else "mft") for c in cases)
        assert all(p != c.text for c in cases for p in c.perturbed), "a generated pair never repeats its original"


def test_committed_suite_is_expanded_and_small(repo_dir):
    suite = repo_dir / "generated"
    manifest = load_manifest(suite)
    assert manifest["expanded"] is True
    # a capability may keep no expansion at all: every one must pass the fluency checks
    assert sum(info["expansion_cases"] for info in manifest["capabilities"].values()) > 0
    mft = [info for info in manifest["capabilities"].values() if info.get("test_type", "mft") == "mft"]
    assert all("expansion" in info for info in mft), "every MFT capability went through expansion"
    pairs = [info for info in manifest["capabilities"].values() if info.get("test_type", "mft") != "mft"]
    assert all("perturbation" in info and info["expansion_cases"] == 0 for info in pairs), "INV/DIR capabilities are not expanded"
    total = sum(p.stat().st_size for p in suite.iterdir())
    assert total < 30 * 2**20, f"generated/ is {total / 2**20:.1f} MiB; keep it under 30 MiB"
    ids = [c.id for p in suite_files(suite).values() for c in read_cases(p)]
    assert len(ids) == len(set(ids))
    by_id = set(ids)
    for p in suite_files(suite).values():
        for c in read_cases(p):
            if c.expansion is not None:
                assert c.expansion["seed_case"] in by_id


def test_committed_expansions_follow_the_engine_rules(repo_dir):
    """What the slot-kind engine promises, read off the committed suite itself (issue 22): no
    inserted word in more than 15% of the expansions; an intensifier only in a polar seed whose
    opinion the case does not deny; every expansion passed the fluency selector recorded with it."""
    from collections import Counter

    from s2lct.expand.boosters import is_intensifier, keeps_label
    from s2lct.expand.suite_expansion import MAX_WORD_SHARE

    manifest = load_manifest(repo_dir / "generated")
    words: Counter[str] = Counter()
    n = 0
    for p in suite_files(repo_dir / "generated").values():
        for c in read_cases(p):
            if c.expansion is None:
                continue
            n += 1
            masks = c.expansion["masks"]
            words[" ".join(m["word"].lower() for m in masks)] += 1
            seed_label = next(s.label for s in c.seeds if s.slot == c.expansion["slot"])
            if any(is_intensifier(m["word"], m["symbol"]) for m in masks):
                assert keeps_label([(m["word"], m["symbol"]) for m in masks], seed_label, c.expected), (c.id, c.text)
            assert c.expansion["checks"]["selector"]["pass"] is True, c.id
            reader = c.expansion["checks"]["reader"]  # the read ranker scored it, at or above its floor
            assert reader["pass"] is True and reader["score"] >= manifest["expansion_checks"]["ranker"]["floor"], c.id
    assert n > 0 and manifest["expansion_checks"]["fluency"] is not None
    assert max(words.values()) <= max(1, int(MAX_WORD_SHARE * n)), words.most_common(3)
