"""The blind review committed with the suite (issue 23, tests/data/README.md): 200 random cases of
generated/, read as a careful annotator would with the text, capability and expected label only.
It must be a review of *this* suite (a regenerated suite needs a new review), drawn as its README
says, and the figures docs/specs.md quotes must be the file's."""

from __future__ import annotations

import glob
import json
import os
import random
import re

REVIEW_SEED = 2425  # `blind-sample generated -n 200 --seed 2425`
MARKS = ("fluent", "label_ok", "on_capability")
DEFECTS = {"none", "not_one_sided", "partial_negation", "voice_clash", "run_on", "tense", "different_things",
           "fragment", "inserted_word", "label_noise", "other"}


def _review(repo_dir) -> list[dict]:
    with open(repo_dir / "tests" / "data" / "suite_review.jsonl", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_the_review_is_a_random_draw_of_the_committed_suite(repo_dir):
    rows = _review(repo_dir)
    cases = []
    for path in sorted(glob.glob(os.path.join(repo_dir / "generated", "*.jsonl*"))):  # the draw of blind-sample
        with open(path, encoding="utf-8") as fh:
            cases.extend(json.loads(line) for line in fh)
    drawn = random.Random(REVIEW_SEED).sample(cases, 200)
    assert [r["id"] for r in rows] == [c["id"] for c in drawn], "tests/data/suite_review.jsonl reviews another suite: review the regenerated one"
    for r, c in zip(rows, drawn):
        assert (r["text"], r["expected"], r["capability"]) == (c["text"], c["expected"], c["capability"])
        assert r["kind"] == ("expansion" if c["expansion"] else "template")
        assert all(isinstance(r[m], bool) for m in MARKS) and r["defect"] in DEFECTS
        assert r["defect"] == "none" or r["note"], r["n"]


def test_the_docs_quote_the_reviews_figures(repo_dir):
    rows = _review(repo_dir)
    doc = (repo_dir / "docs" / "specs.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in doc.splitlines() if ln.startswith("Blind review of the committed suite:")]
    n = len(rows)
    for mark, words in (("fluent", "fluent"), ("label_ok", "label beyond dispute"), ("on_capability", "on-capability")):
        share = sum(r[mark] for r in rows) / n
        assert re.search(rf"{words} {share:.2f}\b", line), (words, round(share, 2), line)
    all_three = sum(all(r[m] for m in MARKS) for r in rows)
    assert f"all three {all_three}/{n}" in line


def test_the_second_read_is_of_the_same_cases_and_the_docs_quote_it(repo_dir):
    """Two other annotator sessions read the same 200 cases again (shuffled, in two sheets): how
    much the committed figures owe to who read them."""
    rows = _review(repo_dir)
    with open(repo_dir / "tests" / "data" / "suite_review_second.jsonl", encoding="utf-8") as fh:
        second = [json.loads(line) for line in fh]
    assert [(r["id"], r["text"], r["expected"]) for r in second] == [(r["id"], r["text"], r["expected"]) for r in rows]
    for r in second:
        assert all(isinstance(r[m], bool) for m in MARKS) and r["defect"] in DEFECTS
        assert (r["defect"] == "none") == all(r[m] for m in MARKS), r["n"]
    doc = (repo_dir / "docs" / "specs.md").read_text(encoding="utf-8")
    (line,) = [ln for ln in doc.splitlines() if ln.startswith("A second read of the same 200 cases:")]
    for mark, words in (("fluent", "fluent"), ("label_ok", "label beyond dispute"), ("on_capability", "on-capability")):
        assert re.search(rf"{words} {sum(r[mark] for r in second) / len(second):.2f}\b", line), (words, line)
    assert f"all three {sum(all(r[m] for m in MARKS) for r in second)}/{len(second)}" in line
