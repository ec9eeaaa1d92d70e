"""Per-seed reasons for no expansion add up to the seeds (issue 22)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from s2lct.expand.expander import ExpansionCandidate, SeedResult
from s2lct.expand.reasons import EXPANDED, seed_reason, tally

SEED = ("It", "works", ".")


def cand(checks: dict) -> ExpansionCandidate:
    return ExpansionCandidate(SEED, ("It", "really", "works", "."), (), "VP -> ADVP VBZ", 0.1, 0.2, {"pos": True, "neutral": True, **checks})


GOOD = cand({"pll": {"pass": True, "score": 0.0}})
BY_PLL = cand({"names": {"pass": True, "score": 1.0}, "pll": {"pass": False, "score": -1.0}})
BY_NAMES = cand({"names": {"pass": False, "score": 0.0}})


def test_each_stage_named():
    assert seed_reason(SeedResult("parse_failed", (), "too long")) == "parse_failed"
    assert seed_reason(SeedResult("ok", (), masked=0)) == "no_slot"
    assert seed_reason(SeedResult("ok", (), masked=3, fills=0)) == "no_fill"
    assert seed_reason(SeedResult("ok", (), masked=3, fills=30)) == "pos_or_neutral"
    assert seed_reason(SeedResult("ok", (), masked=3, fills=30, rejected=(BY_PLL, BY_PLL, BY_NAMES))) == "rejected:pll"
    assert seed_reason(SeedResult("ok", (GOOD,), masked=3, fills=30, rejected=(BY_NAMES,))) == EXPANDED


results = st.builds(
    SeedResult,
    status=st.sampled_from(["ok", "parse_failed"]),
    candidates=st.lists(st.just(GOOD), max_size=2).map(tuple),
    masked=st.integers(0, 3),
    fills=st.integers(0, 3),
    rejected=st.lists(st.sampled_from([BY_PLL, BY_NAMES]), max_size=3).map(tuple),
)


@given(st.lists(results, max_size=40))
def test_reasons_add_up_to_the_seeds(rs):
    t = tally(rs)
    assert sum(t.values()) == len(rs)
    assert t[EXPANDED] == sum(1 for r in rs if r.status == "ok" and r.candidates)
