"""Reference grammar from the NLTK treebank sample."""

from __future__ import annotations

import json

import _engine_models as models
from nltk import Tree

from s2lct.expand.grammar import (
    ReferenceGrammar,
    clean_label,
    clean_tree,
    load_reference_grammar,
    productions,
)


def test_clean_label():
    assert clean_label("NP-SBJ-1") == "NP"
    assert clean_label("PP-LOC=2") == "PP"
    assert clean_label("ADVP|PRT") == "ADVP|PRT"
    assert clean_label("-LRB-") == "-LRB-" and clean_label("-NONE-") == "-NONE-"
    assert clean_label("PRP$") == "PRP$"


def test_clean_tree_removes_none_and_empty_constituents():
    t = Tree.fromstring("(S (NP-SBJ-1 (-NONE- *T*-1)) (VP (VBD said) (SBAR (-NONE- 0) (S (-NONE- *T*-2)))) (. .))")
    assert clean_tree(t) == Tree.fromstring("(S (VP (VBD said)) (. .))")
    assert list(productions(clean_tree(t))) == [("S", ("VP", ".")), ("VP", ("VBD",))]


def test_from_trees_counts_and_probabilities():
    trees = [Tree.fromstring("(S (NP-SBJ (DT the) (NNS ways)) (VP (VBZ go)))"), Tree.fromstring("(S (NP (DT a)) (VP (VBZ go)))")]
    g = ReferenceGrammar.from_trees(trees, "x")
    assert g.counts["NP"] == {("DT", "NNS"): 1, ("DT",): 1}
    assert g.probability("NP", ("DT", "NNS")) == 0.5
    assert g.rules("S") == [(("NP", "VP"), 1.0)]
    assert ReferenceGrammar.from_json(json.loads(json.dumps(g.to_json()))) == g


def test_real_grammar_has_running_example_rule_and_is_cached(tmp_path):
    g = models.grammar()
    assert g.probability("NP", ("DT", "NNS")) > 0
    assert all(not lhs.startswith("-NONE-") and "-" not in lhs.strip("-") for lhs in g.counts)
    assert all("-NONE-" not in rhs for c in g.counts.values() for rhs in c)
    for lhs in ("NP", "VP", "S"):
        assert abs(sum(p for _, p in g.rules(lhs)) - 1.0) < 1e-9
    g1 = load_reference_grammar(cache_dir=tmp_path)
    (cache,) = tmp_path.glob("grammar-*.json")
    assert g1 == g
    cache.write_text(json.dumps({**json.loads(cache.read_text()), "productions": [["NP", ["XX"], 1]]}))
    assert load_reference_grammar(cache_dir=tmp_path).counts == {"NP": {("XX",): 1}}  # read from the cache
