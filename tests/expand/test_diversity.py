"""Self-BLEU and production coverage, per capability, seeds vs seeds+expansions."""

from __future__ import annotations

import _engine_models as models
from nltk import Tree

from s2lct.expand.diversity import (
    bootstrap_interval,
    distinct_productions,
    diversity_report,
    self_bleu,
    tokenize,
)
from s2lct.suite import Case, Fragment, SeedRef, write_cases


def test_self_bleu_identical_vs_diverse():
    same = [["the", "film", "is", "fine", "."]] * 5
    assert abs(self_bleu(same) - 1.0) < 1e-9
    diverse = [["a", "b", "c", "d"], ["e", "f", "g", "h"], ["i", "j", "k", "l"]]
    assert self_bleu(diverse) < 0.1
    assert self_bleu([["one"]]) is None
    many = [[str(i), "x", str(i % 7), "y"] for i in range(50)]
    assert self_bleu(many, sample=10, seed=1) == self_bleu(many, sample=10, seed=1)


def test_distinct_productions():
    t = Tree.fromstring("(S (NP (DT the) (NN film)) (VP (VBZ is) (ADJP (JJ fine))) (. .))")
    u = Tree.fromstring("(S (NP (DT a) (NN dog)) (VP (VBZ runs)) (. .))")
    assert distinct_productions([t, u, None]) == {
        "S -> NP VP .", "NP -> DT NN", "VP -> VBZ ADJP", "ADJP -> JJ", "VP -> VBZ",
    }


def _case(cap: str, i: int, text: str, expansion=None) -> Case:
    return Case(
        id=f"{cap}-{i:012x}", capability=cap, text=text, expected=("neutral",), template="t", transform="none",
        seeds=(SeedRef("seed", text, "neutral", "dev", i),), fragments=(Fragment(0, len(text), text, "seed", "neutral", "seed"),),
        expansion=expansion,
    )


def test_diversity_report(tmp_path):
    seeds = ["Or both .", "A quiet film .", "The acting is fine ."]
    exps = ["Or both ways .", "A quiet little film .", "The acting is really fine ."]
    write_cases(tmp_path / "LC1.jsonl", [_case("LC1", i, t) for i, t in enumerate(seeds)]
                + [_case("LC1", 10 + i, t, {"seed_case": f"LC1-{i:012x}"}) for i, t in enumerate(exps)])
    write_cases(tmp_path / "LC2.jsonl", [_case("LC2", 0, "It works well for me ."), _case("LC2", 1, "It works well for me .")])
    rep = diversity_report(tmp_path, parser=models.parser())
    assert set(rep) == {"LC1", "LC2"}
    s, a = rep["LC1"]["seeds"], rep["LC1"]["seeds+expansions"]
    assert (s["cases"], a["cases"]) == (3, 6)
    assert a["productions"] > s["productions"] > 0  # expansions add productions (e.g. NP -> DT NNS)
    assert s["self_bleu_sample"] == a["self_bleu_sample"] == 3  # equal-size samples: the seed cases' number
    assert s["productions_sample"] == a["productions_sample"] == 3
    for col in (s, a):
        lo, hi = col["self_bleu_ci"]
        assert lo <= col["self_bleu"] <= hi
    assert abs(rep["LC2"]["seeds"]["self_bleu"] - 1.0) < 1e-9
    assert diversity_report(tmp_path, parser=models.parser()) == rep  # deterministic


def test_tokenize_ptb():
    assert tokenize('A "quiet" (film).') == ["A", "``", "quiet", "''", "-LRB-", "film", "-RRB-", "."]


def test_every_case_is_parsed_so_more_cases_never_show_fewer_productions(tmp_path):
    # the old 1,000-case cap made a column with expansions show fewer productions than its seeds
    seeds = ["A quiet film .", "The acting is fine .", "It runs long ."]
    exps = ["A very quiet film .", "The acting is really fine .", "It runs too long .", "A quiet little film ."]
    write_cases(tmp_path / "LC1.jsonl", [_case("LC1", i, t) for i, t in enumerate(seeds)]
                + [_case("LC1", 10 + i, t, {"seed_case": "LC1-000000000000"}) for i, t in enumerate(exps)])
    rep = diversity_report(tmp_path, parser=models.parser(), sample=2)["LC1"]
    assert rep["seeds+expansions"]["productions"] >= rep["seeds"]["productions"]
    assert rep["seeds"]["self_bleu_sample"] == rep["seeds+expansions"]["self_bleu_sample"] == 2
    assert rep["seeds+expansions"]["cases"] == 7 and rep["seeds+expansions"]["productions_sample"] == 3


def test_bootstrap_interval():
    assert bootstrap_interval([]) is None
    assert bootstrap_interval([0.5] * 10) == (0.5, 0.5)
    vals = [i / 100 for i in range(100)]
    lo, hi = bootstrap_interval(vals, resamples=500, seed=3)
    assert lo < sum(vals) / 100 < hi and hi - lo < 0.2
    assert bootstrap_interval(vals, resamples=500, seed=3) == (lo, hi)


def test_diversity_report_samples_large_capabilities_first(tmp_path):
    texts = [f"The film number {i} is fine ." for i in range(30)]
    write_cases(tmp_path / "CL1.jsonl", [_case("CL1", i, t) for i, t in enumerate(texts)])
    rep = diversity_report(tmp_path, parser=models.parser(), max_cases=8, seed=2)
    assert rep["CL1"]["seeds"]["cases"] == 8 and rep["CL1"]["seeds"]["self_bleu_sample"] == 8
    assert diversity_report(tmp_path, parser=models.parser(), max_cases=8, seed=2) == rep
    assert diversity_report(tmp_path, parser=models.parser(), max_cases=100)["CL1"]["seeds"]["cases"] == 30
