"""The read ranker (issues 22, 23): a head trained on the suite's blind reads ranks and floors the
accepted expansions; the read set is what its README says; a selector file without the head names
the command that rebuilds it."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import _engine_models as models
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.errors import MissingResourceError
from s2lct.expand.checks.selector import BUILD_COMMAND
from s2lct.expand.expander import ExpansionCandidate, MaskFill, SeedResult
from s2lct.expand.read_ranker import NAME, ReadRanker, read_score, reader_head
from s2lct.expand.reasons import seed_reason

REPO = Path(__file__).resolve().parents[2]
READS = REPO / "tests" / "data" / "read_expansions.jsonl"
sys.path.insert(0, str(REPO / "benchmarks"))


def read_set() -> list[dict]:
    return [json.loads(line) for line in READS.read_text(encoding="utf-8").splitlines()]


def candidate(seed: tuple[str, ...], pos: int, word: str, score: float = 0.1, **checks) -> ExpansionCandidate:
    return ExpansionCandidate(seed, seed[:pos] + (word,) + seed[pos:], (MaskFill(pos, "RB", word, score),), "VP -> RB VBZ", 0.1, score,
                              {"pos": True, "neutral": True, **checks})


class RuleRanker(ReadRanker):
    """A ranker whose score is a given function of the candidate (no model)."""

    def __init__(self, score, floor: float) -> None:
        super().__init__(mlm=None, head={"floor": floor, "identity": "rule"})
        self.score = score

    def scores(self, candidates):
        return [self.score(c) for c in candidates]


def by_word(scores: dict[str, float]):
    return lambda c: scores[c.masks[0].word]


def test_the_read_set_is_what_its_readme_says():
    rows = read_set()
    assert len(rows) >= 700
    _check_read_rows(rows)
    valid = sum(r["valid"] for r in rows)
    assert 0.6 < valid / len(rows) < 0.95  # both classes well represented


def test_the_next_reads_are_kept_in_the_same_form_and_not_trained_on():
    """Read 51's marks wait in read_expansions_next.jsonl for the next ranker (tests/data/README.md);
    read 49's, which waited there at the last stop, and read 50's are in the training set now."""
    from train_selector import READS as trained_on

    rows = [json.loads(line) for line in (READS.parent / "read_expansions_next.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) >= 40
    _check_read_rows(rows)
    assert {r for row in rows for r in row["reads"]} <= {"read 51", "read 51 (second read)"}
    assert Path(trained_on).name == "read_expansions.jsonl"
    trained = {r for row in read_set() for r in row["reads"]}
    assert not {"read 51", "read 51 (second read)"} & trained
    assert {"read 18", "read 22", "read 26", "read 29", "read 32", "read 36", "read 37", "read 38", "read 39", "read 40",
            "read 41", "read 41 (second read)", "band read 48", "band read 48 (second read)", "read 42", "read 43", "read 44", "read 45", "read 45 (second read)",
            "read 46", "read 46 (second read)", "read 47", "read 47 (second read)", "read 48", "read 48 (second read)",
            "read 49", "read 49 (second read)", "read 50", "read 50 (second read)"} <= trained


def _check_read_rows(rows: list[dict]) -> None:
    assert len({(tuple(r["seed"]), tuple(r["tokens"])) for r in rows}) == len(rows)
    for r in rows:
        tokens = list(r["seed"])
        for m in sorted(r["masks"], key=lambda m: m["position"]):
            tokens.insert(m["position"], m["word"])
        assert tokens == r["tokens"]
        assert r["fluent_reads"] + r["inserted_word_reads"] >= 1
        assert r["valid"] == (r["fluent_reads"] > r["inserted_word_reads"])
        assert r["texts"] and all(m["word"].lower() in " ".join(r["texts"]).lower() for m in r["masks"])


def test_floor_is_where_the_reads_were_mostly_not_fluent():
    from train_selector import floor_at

    scores = [i / 100 for i in range(100)]
    # the 20 lowest were not fluent: below 0.33 at most 40% fluent (13 of 33), below 0.34 14 of 34
    assert floor_at(scores, [0] * 20 + [1] * 80, 0.4) == 0.33
    assert floor_at(scores, [1] * 100, 0.4) == 0.0
    assert floor_at(scores[:9], [0] * 9, 0.4) == 0.0  # fewer than ten below: no floor


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 1)), max_size=80), st.sampled_from([0.3, 0.4, 0.5]))
def test_floor_property_at_most_share_fluent_below_it(rows, share):
    from train_selector import floor_at

    scores, valid = [p for p, _ in rows], [v for _, v in rows]
    floor = floor_at(scores, valid, share)
    below = [v for p, v in zip(scores, valid) if p < floor]
    assert floor == 0.0 or (len(below) >= 10 and sum(below) <= share * len(below) + 1e-9)


def test_trained_ranker_beats_the_fill_probability_on_the_reads(selector_weights):
    """Out of sample (cross-fitted by seed): the head separates fluent from faulted expansions
    better than the fill probability and the selector, and its floor raises the share fluent."""
    head = reader_head()
    cf = head["cross_fitted"]
    assert cf["auc"] > 0.7 and cf["auc"] > cf["auc_fill_probability"] + 0.1 and cf["auc"] > cf["auc_selector"]
    assert cf["at_floor"]["precision"] > cf["at_floor"]["precision_all"]
    assert 0 < head["floor"] < 0.5 and cf["at_floor"]["kept"] >= 0.8 * head["trained_on"]["rows"]


def test_scores_are_deterministic_and_independent_of_the_batch(selector_weights):
    rows = read_set()[:10]
    cands = [ExpansionCandidate(tuple(r["seed"]), tuple(r["tokens"]), tuple(MaskFill(**m) for m in r["masks"]), r["production"], 0.1, r["score"])
             for r in rows]
    ranker = ReadRanker(models.mlm())
    a, b = ranker.scores(cands), ranker.scores(cands)
    assert a == b and all(0 <= p <= 1 for p in a)
    assert abs(ranker.scores(cands[4:5])[0] - a[4]) < 1e-3


def test_mark_records_the_score_and_floors_like_a_check():
    seed_a, seed_b = ("It", "works", "."), ("It", "fails", ".")
    results = {
        seed_a: SeedResult("ok", (candidate(seed_a, 1, "really"), candidate(seed_a, 1, "so")), None, 1, 2),
        seed_b: SeedResult("ok", (candidate(seed_b, 1, "so"),), None, 1, 1),
    }
    marked = RuleRanker(by_word({"really": 0.9, "so": 0.1}), floor=0.5).mark(results)
    kept = marked[seed_a].candidates
    assert [c.masks[0].word for c in kept] == ["really"] and kept[0].checks[NAME] == {"pass": True, "score": 0.9}
    assert [c.masks[0].word for c in marked[seed_a].rejected] == ["so"] and not marked[seed_a].rejected[0].accepted
    assert marked[seed_b].candidates == () and seed_reason(marked[seed_b]) == f"rejected:{NAME}"
    assert seed_reason(results[seed_b]) == "expanded"  # before the floor
    assert read_score(kept[0].checks, 0.01) == 0.9 and read_score({"pos": True}, 0.01) == 0.01


def test_a_selector_file_without_the_head_names_the_command(tmp_path):
    old = tmp_path / "selector.json"
    old.write_text(json.dumps({"mean": [0.0], "std": [1.0], "w": [0.0], "b": 0.0, "threshold": 0.5}), encoding="utf-8")
    with pytest.raises(MissingResourceError) as err:
        reader_head(str(old))
    assert BUILD_COMMAND in str(err.value) and str(old) in str(err.value)
