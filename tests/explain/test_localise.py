"""Localisation of rmax in hand-built cases: template text, seeds with labels, expansion and transform words."""

from __future__ import annotations

import pytest

from s2lct.explain.base import Explanation
from s2lct.explain.localise import aggregate, evidence, localise, word_origins
from s2lct.explain.words import split_words
from s2lct.suite import Case, Fragment, SeedRef

TEMPLATE = "I don't think that"
POS = "a truly great movie"
NEG = "the plot is bad."


def hybrid_case(expansion: bool = False) -> Case:
    """"I don't think that <positive seed>, but <negative seed>"; with ``expansion`` the positive
    seed carries the word "truly" inserted by the expansion."""
    if not expansion:
        return hybrid_case_plain()
    text = f"{TEMPLATE} {POS}, but {NEG}"
    a = len(TEMPLATE) + 1
    b = a + len(POS)
    c = b + len(", but ")
    frags = (Fragment(0, len(TEMPLATE), TEMPLATE, "template"), Fragment(a, b, POS, "seed", "positive", "pos"),
             Fragment(b, b + 5, ", but", "template"), Fragment(c, len(text), NEG, "seed", "negative", "neg"))
    seeds = (SeedRef("pos", "A great movie.", "positive", "test", 1), SeedRef("neg", "The plot is bad.", "negative", "test", 2))
    exp = {"slot": "pos", "seed_text": "A great movie.", "expanded_seed": "A truly great movie.", "masks": [{"position": 1, "word": "truly"}]}
    return Case("LC9-x", "LC9", text, ("negative",), "t", "none", seeds, frags, exp)


def hybrid_case_plain() -> Case:
    pos = "a great movie"
    text = f"{TEMPLATE} {pos}, but {NEG}"
    a = len(TEMPLATE) + 1
    b = a + len(pos)
    c = b + len(", but ")
    frags = (Fragment(0, len(TEMPLATE), TEMPLATE, "template"), Fragment(a, b, pos, "seed", "positive", "pos"),
             Fragment(b, b + 5, ", but", "template"), Fragment(c, len(text), NEG, "seed", "negative", "neg"))
    seeds = (SeedRef("pos", "A great movie.", "positive", "test", 1), SeedRef("neg", "The plot is bad.", "negative", "test", 2))
    return Case("LC9-y", "LC9", text, ("negative",), "t", "none", seeds, frags, None)


def make_exp(case: Case, hot: str, target: str, value: float = 2.0) -> Explanation:
    w = split_words(case.text)
    rel = tuple(value if word == hot else 0.1 * (i % 3 - 1) for i, word in enumerate(w.words))
    return Explanation("test", target, w.words, w.spans, rel)


def test_word_origins_of_a_hybrid_case_with_an_expansion():
    case = hybrid_case(expansion=True)
    words = split_words(case.text).words
    cats = dict(zip(words, (o.category for o in word_origins(case)), strict=False))
    assert cats["don't"] == "template" and cats["think"] == "template" and cats["but"] == "template"
    assert cats["great"] == "seed:positive" and cats["movie"] == "seed:positive"
    assert cats["truly"] == "expansion"
    assert cats["plot"] == "seed:negative" and cats["bad"] == "seed:negative"


def test_transform_words_are_found_by_diff():
    text = "This isn't a great movie."
    case = Case("LC4-a", "LC4", text, ("neutral", "positive"), "negated", "negate_copula:isn't",
                (SeedRef("demo", "This is a great movie.", "negative", "train", 3),), (Fragment(0, len(text), text, "seed", "negative", "demo"),))
    cats = [o.category for o in word_origins(case)]
    assert cats == ["seed:negative", "transform", "seed:negative", "seed:negative", "seed:negative", "seed:negative"]


def test_rmax_in_the_fragment_with_the_wrong_label_is_a_hit():
    case = hybrid_case_plain()
    loc = localise(case, make_exp(case, "great", "positive"))
    assert loc["word"] == "great" and loc["category"] == "seed:positive" and loc["hit"] is True
    assert loc["fragment_text"] == "a great movie" and loc["slot"] == "pos"
    words = split_words(case.text).words
    assert loc["random_baseline"] == pytest.approx(sum(w in {"a", "great", "movie"} for w in words) / len(words), abs=1e-6)
    miss = localise(case, make_exp(case, "bad", "positive"))
    assert miss["category"] == "seed:negative" and miss["hit"] is False
    tmpl = localise(case, make_exp(case, "don't", "positive"))
    assert tmpl["category"] == "template" and tmpl["label"] is None and tmpl["hit"] is False


def test_flat_explanation_points_nowhere():
    case = hybrid_case_plain()
    w = split_words(case.text)
    flat = Explanation("test", "positive", w.words, w.spans, tuple(0.0 for _ in w.words))
    assert localise(case, flat)["category"] == "flat" and flat.rmax is None


def test_evidence_and_counter_evidence_words_and_ngrams():
    case = hybrid_case_plain()
    w = split_words(case.text)
    rel = [0.0] * len(w)
    rel[w.words.index("great")] = 3.0
    rel[w.words.index("movie")] = 1.0
    rel[w.words.index("bad")] = -2.0
    exp = Explanation("test", "positive", w.words, w.spans, tuple(rel))
    ev = evidence(exp, word_origins(case), case.text)
    assert [e["text"] for e in ev["evidence"]] == ["great", "movie"]
    assert [e["text"] for e in ev["counter_evidence"]] == ["bad"]
    assert ev["evidence_ngrams"][0]["text"] in {"a great movie", "great movie,"}
    assert ev["evidence"][0]["origin"] == "seed:positive"


def test_aggregate_shares_per_capability():
    case = hybrid_case_plain()
    recs = []
    for hot in ("great", "great", "great", "don't"):
        recs.append({"status": "ok", "capability": "LC9", "explainer": "ig", "localisation": localise(case, make_exp(case, hot, "positive"))})
    recs.append({"status": "not_applicable", "capability": "LC9", "explainer": "deeplift"})
    agg = aggregate(recs)["LC9"]
    assert set(aggregate(recs)["LC9"]) == {"ig"}
    assert agg["ig"]["shares"] == {"seed:positive": 0.75, "template": 0.25}
    assert agg["ig"]["hit_rate"] == 0.75
    assert agg["ig"]["sentence"] == "LC9 (ig): 75% of failures point at the positive seed sentence ('great'), 25% at the template text ('don't')"
