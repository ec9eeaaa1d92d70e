"""Seed reviews (``sampling.seed_review``): the cases on excluded seeds go, every other case stays."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.errors import S2LCTError, SpecError
from s2lct.generate.cases import build_capability
from s2lct.spec.sampling import Sampling, SeedReview
from s2lct.spec.loader import load_spec, spec_hash
from s2lct.spec.review import bind, seed_key
from s2lct.suite import load_suite

EXCLUDE = ["mixed", "descriptive", "wrong_label", "off_target", "needs_context", "not_fluent"]


def _row(s, verdict: str) -> str:
    return json.dumps({"source": s.sentence.source, "split": s.sentence.split, "index": s.sentence.index, "text": s.text,
                       "label": s.label, "verdict": verdict, "note": ""})


def _reviewed(spec, folder: Path, rows: list[str], max_cases: int | None):
    (folder / "review.jsonl").write_text("".join(r + "\n" for r in rows), encoding="utf-8")
    review = SeedReview(file="review.jsonl", exclude=EXCLUDE)
    bind(review, folder)
    return spec.model_copy(update={"sampling": Sampling(max_cases=max_cases, seed_review=review)})


def _seed_keys(case) -> set[str]:
    return {seed_key(s.source, s.split, s.index) for s in case.seeds}


@settings(max_examples=12, deadline=None)
@given(data=st.data())
def test_excluded_seeds_leave_and_every_other_case_stays(data, specs, corpus):
    """Any capability, limit and flagged subset of its seeds: no case is built on a flagged seed,
    and every case of the unreviewed draw that uses none is still there (LC8: partner slots too)."""
    spec = specs[data.draw(st.sampled_from(["LC3", "LC8", "LC6", "LC2", "LC12"]))]
    limit = data.draw(st.sampled_from([None, 40, 300]))
    plain = build_capability(spec.model_copy(update={"sampling": Sampling(max_cases=limit)}), corpus, 0, max_cases=limit)
    seeds = sorted({(s.sentence.split, s.sentence.index): s for pool in plain.pools.values() for s in pool}.values(), key=lambda s: (s.sentence.split, s.sentence.index))
    used = sorted({k for c in plain.cases for k in _seed_keys(c)})
    flagged_used = set(data.draw(st.lists(st.sampled_from(used), max_size=min(25, len(used)), unique=True)))
    rows = [_row(s, "mixed" if seed_key(s.sentence.source, s.sentence.split, s.sentence.index) in flagged_used else "clean") for s in seeds]
    with tempfile.TemporaryDirectory() as tmp:
        reviewed = build_capability(_reviewed(spec, Path(tmp), rows, limit), corpus, 0, max_cases=limit)
    after = {c.id for c in reviewed.cases}
    assert not any(_seed_keys(c) & flagged_used for c in reviewed.cases)
    kept_before = {c.id for c in plain.cases if not _seed_keys(c) & flagged_used}
    assert kept_before <= after
    assert reviewed.extra["seeds_removed_by_review"] == len({k for k in flagged_used})
    if limit is not None and len(plain.cases) == limit:
        assert len(after) == min(limit, reviewed.candidates)


def test_a_verdict_on_other_text_is_an_error_naming_its_line(specs, corpus, tmp_path):
    spec = specs["LC4"]
    plain = build_capability(spec.model_copy(update={"sampling": Sampling()}), corpus, 0)
    s = next(iter(plain.pools.values()))[0]
    row = json.loads(_row(s, "mixed"))
    row["text"] = "A different sentence."
    reviewed = _reviewed(spec, tmp_path, ["", json.dumps(row)], None)
    with pytest.raises(S2LCTError, match=r"review\.jsonl:2: the verdict on sst:\w+:\d+ is for 'A different sentence\.'"):
        build_capability(reviewed, corpus, 0)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"source": "sst", "split": "train", "index": 3, "text": "x", "verdict": "great"}\n', r"review\.jsonl:1: verdict 'great' is not one of clean, mixed"),
        ('{"source": "sst", "split": "train", "text": "x", "verdict": "clean"}\n', r"review\.jsonl:1: a verdict needs the keys .*missing \['index'\]"),
        ("not json\n", r"review\.jsonl:1: not JSON"),
        ('{"source": "sst", "split": "train", "index": 3, "text": "x", "verdict": "clean"}\n' * 2, r"review\.jsonl:2: sst:train:3 has a verdict already, on line 1"),
    ],
)
def test_bad_review_rows_are_one_line_errors(tmp_path, repo_dir, content, message):
    spec_text = (repo_dir / "specs" / "LC4.yaml").read_text(encoding="utf-8")
    (tmp_path / "LC4.yaml").write_text(spec_text, encoding="utf-8")
    (tmp_path / "seed_review.jsonl").write_text(content, encoding="utf-8")
    with pytest.raises(SpecError, match=r"LC4\.yaml:\d+: sampling\.seed_review\.file: .*" + message) as err:
        load_spec(tmp_path / "LC4.yaml")
    assert "\n" not in str(err.value)


def test_missing_review_file_and_clean_in_exclude_are_spec_errors(tmp_path, repo_dir):
    spec_text = (repo_dir / "specs" / "LC4.yaml").read_text(encoding="utf-8")
    (tmp_path / "LC4.yaml").write_text(spec_text, encoding="utf-8")
    line = next(i for i, t in enumerate(spec_text.splitlines(), 1) if t.strip().startswith("file: seed_review.jsonl"))
    with pytest.raises(SpecError, match=rf"LC4\.yaml:{line}: sampling\.seed_review\.file: .*seed_review\.jsonl: seed review file not found"):
        load_spec(tmp_path / "LC4.yaml")
    (tmp_path / "seed_review.jsonl").write_text("", encoding="utf-8")
    (tmp_path / "LC4.yaml").write_text(spec_text.replace("exclude: [mixed,", "exclude: [clean, mixed,"), encoding="utf-8")
    with pytest.raises(SpecError, match=r"'clean' marks the seeds a review keeps"):
        load_spec(tmp_path / "LC4.yaml")


def test_spec_hash_follows_the_verdicts_not_the_path(tmp_path, repo_dir):
    spec_text = (repo_dir / "specs" / "LC4.yaml").read_text(encoding="utf-8")
    row = '{"source": "sst", "split": "train", "index": 3, "text": "x", "verdict": "%s"}\n'
    hashes = []
    for folder, verdict in (("a", "clean"), ("b", "clean"), ("c", "mixed")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "LC4.yaml").write_text(spec_text, encoding="utf-8")
        (tmp_path / folder / "seed_review.jsonl").write_text(row % verdict, encoding="utf-8")
        hashes.append(spec_hash(load_spec(tmp_path / folder / "LC4.yaml")))
    assert hashes[0] == hashes[1] != hashes[2]


def test_committed_suite_keeps_no_excluded_seed(repo_dir, specs):
    """Every template case of the committed suite is built on seeds its spec's review keeps."""
    checked, bad = 0, []
    for case in load_suite(repo_dir / "generated"):
        review = specs[case.capability].sampling.seed_review
        if review is None or case.expansion is not None:
            continue
        checked += 1
        if _seed_keys(case) & set(review._loaded.flagged(review.exclude)):
            bad.append(case.id)
    assert not bad, bad[:5]
    assert checked > 5000


def test_a_presupposed_seed_leaves_only_the_capabilities_that_deny_it(repo_dir, specs):
    """``presupposed`` (read 23): an opinion a denial does not reach stays where a frame asserts or
    reverses it (LC3, LC9) and is gone where a frame denies it (LC4-LC7, LC10, LC11)."""
    denying = {"LC4", "LC5", "LC6", "LC7", "LC10", "LC11"}
    for cid, spec in specs.items():
        if spec.sampling.seed_review is not None:
            assert ("presupposed" in spec.sampling.seed_review.exclude) == (cid in denying), cid
    review = specs["LC6"].sampling.seed_review._loaded
    presupposed = set(review.flagged(["presupposed"]))
    assert presupposed
    where: dict[str, set[str]] = {}
    for case in load_suite(repo_dir / "generated"):
        for key in _seed_keys(case) & presupposed:
            where.setdefault(key, set()).add(case.capability)
    assert where and all(not caps & denying for caps in where.values())
    assert any(caps & {"LC3", "LC9"} for caps in where.values())
