"""--protocol beluga (issue 24): i.i.d., unseen-template and unseen-function partitions that never share a seed."""

from __future__ import annotations

import json

import pytest
from conftest import write_suite
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from s2lct.cli import app
from s2lct.retrain import retrain
from s2lct.retrain.protocol import ProtocolError, beluga_split, frame_of, groups_from_markers, parse_groups
from s2lct.retrain.split import SplitError, seed_texts, split_by_seed
from s2lct.suite import Case, Fragment, SeedRef, load_manifest, load_suite

JUDGED = ("train", "validation", "iid", "unseen_template", "unseen_function")


def framed(cid: str, cap: str, frame: str, seeds: list[str], label: str, template: str = "t") -> Case:
    text = f"{frame} " + " and ".join(seeds)
    frags = [Fragment(0, len(frame), frame, "template")]
    pos = len(frame) + 1
    for s in seeds:
        frags.append(Fragment(pos, pos + len(s), s, "seed", label, "s"))
        pos += len(s) + 5
    return Case(cid, cap, text, (label,), template, "none", tuple(SeedRef("s", s, label, "train", 0) for s in seeds), tuple(frags))


def _assert_disjoint(cases, parts):
    seeds = {p: set() for p in JUDGED}
    for c in cases:
        p = parts.assignment[c.id]
        if p in seeds:
            seeds[p].update(seed_texts(c))
    for i, a in enumerate(JUDGED):
        for b in JUDGED[i + 1:]:
            assert not seeds[a] & seeds[b], (a, b, sorted(seeds[a] & seeds[b])[:3])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["LCA", "LCB", "LCC"]), st.integers(0, 4), st.lists(st.integers(0, 59), min_size=1, max_size=2)),
                min_size=60, max_size=160), st.integers(0, 3))
def test_partitions_never_share_a_seed(rows, seed):
    cases = [framed(f"{cap}-{i}", cap, f"frame {f}", [f"seed {s}" for s in ss], "positive" if i % 2 else "negative")
             for i, (cap, f, ss) in enumerate(rows)]
    try:
        parts = beluga_split(cases, ["LCA"], {"LCA": "g", "LCB": "g", "LCC": "h"}, seed, min_groups=2)
    except (SplitError, ProtocolError):
        return  # too few seed groups for this draw: refused with the counts, never a partition that leaks
    _assert_disjoint(cases, parts)
    assert {parts.assignment[c.id] for c in cases if c.capability == "LCC"} == {"other"}
    assert all(parts.assignment[c.id] in ("unseen_function", "dropped") for c in cases if c.capability == "LCB")
    held = {tuple(f) for fs in parts.held_out_frames.values() for f in fs}
    for c in cases:
        if parts.assignment[c.id] in ("train", "validation", "iid"):
            assert frame_of(c) not in held
        if parts.assignment[c.id] == "unseen_template":
            assert frame_of(c) in held


def test_the_committed_suite_splits_lc8_and_keeps_the_partitions_apart(repo_dir):
    cases = load_suite(repo_dir / "generated")
    manifest = load_manifest(repo_dir / "generated")
    groups = groups_from_markers({c: v.get("markers") or [] for c, v in manifest["capabilities"].items()})
    assert groups["LC8"] == groups["LC3"] == "contrast" and groups["LC4"] == groups["LC7"] == "negation"
    lc8 = [c for c in cases if c.capability == "LC8"]
    split_by_seed(lc8)  # partner seeds drawn within blocks: LC8 is not one connected group
    parts = beluga_split(cases, ["LC8"], groups, 0)
    _assert_disjoint(cases, parts)
    counts = parts.counts(cases)
    assert parts.unseen_capabilities == ["LC3"]
    assert counts["iid"]["LC8"] >= 50 and counts["unseen_template"]["LC8"] >= 50 and counts["unseen_function"]["LC3"] >= 50
    assert counts["other"].keys() == {c for c in groups if groups[c] != "contrast"}


def test_groups_option_and_its_errors():
    known = ["LC1", "LC2", "LC3"]
    assert parse_groups("a=LC1,LC2; b=LC3", known) == {"LC1": "a", "LC2": "a", "LC3": "b"}
    for bad, words in (("a=LC1,LC9", "unknown capability 'LC9'"), ("a", "is not NAME=LC1,LC2"), ("a=LC1;b=LC1", "both")):
        with pytest.raises(ProtocolError, match=words):
            parse_groups(bad, known)


def _suite(tmp_path):
    cases = []
    for i in range(40):
        word, label = ("good", "positive") if i % 2 == 0 else ("bad", "negative")
        cases.append(framed(f"LCA-{i:03d}", "LCA", ["so", "well", "then", "now", "yes"][i % 5], [f"the noun{i} was {word}"], label))
        cases.append(framed(f"LCB-{i:03d}", "LCB", "and", [f"a noun{i} is {word}"], label))
        cases.append(framed(f"LCC-{i:03d}", "LCC", "so", [f"noun{i} {word}"], label))
    folder = write_suite(tmp_path / "suite", cases)
    manifest = json.loads((folder / "manifest.json").read_text())
    manifest["capabilities"] = {"LCA": {"name": "a", "markers": ["negation"]}, "LCB": {"name": "b", "markers": ["negation"]},
                                "LCC": {"name": "c", "markers": ["question"]}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


def test_retrain_under_beluga_reports_every_partition(tiny_model, tmp_path):
    suite = _suite(tmp_path)
    result = retrain(str(tiny_model), "LCA", out=tmp_path / "o", suite=suite, cache_dir=tmp_path / "cache", protocol="beluga",
                     method="finetune", lr=5e-3, epochs=4, batch_size=8, seed=1)
    parts = result["partitions"]
    split = json.loads((tmp_path / "o" / "split.json").read_text())
    assert split["protocol"] == "beluga" and split["unseen_capabilities"] == ["LCB"]
    assert parts["unseen_function"]["cases"] == sum(1 for p in split["assignment"].values() if p == "unseen_function")
    assert parts["iid"]["cases"] == sum(1 for p in split["assignment"].values() if p == "iid") > 0
    assert parts["unseen_template"]["cases"] > 0 and parts["other"]["cases"] == 40
    for row in parts.values():
        assert row["too_small"] == (row["cases"] < 50)
    rows = {r["capability"]: r for r in result["accounting"]["capabilities"]}
    assert rows["LCB"]["scope"] == "unseen function" and rows["LCA"]["too_small"]
    res = CliRunner().invoke(app, ["retrain", "--model", str(tiny_model), "-c", "LCA", "--suite", str(suite), "--out", str(tmp_path / "o"),
                                   "--cache-dir", str(tmp_path / "cache"), "--protocol", "beluga", "--method", "finetune", "--lr", "5e-3",
                                   "--epochs", "4", "--batch-size", "8", "--seed", "1", "-q"])
    assert res.exit_code == 0, res.output
    assert "unseen templates" in res.output and "too small to judge" in res.output


def test_beluga_with_too_few_seeds_left_gives_the_counts(tiny_model, tmp_path):
    suite = _suite(tmp_path)
    res = CliRunner().invoke(app, ["retrain", "--model", str(tiny_model), "-c", "LCA,LCB,LCC", "--suite", str(suite), "--out",
                                   str(tmp_path / "o"), "--protocol", "beluga", "--groups", "all=LCA,LCB,LCC;x=LCA"])
    assert res.exit_code == 2 and "puts LCA in both" in res.output
