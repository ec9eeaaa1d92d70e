"""Deletion pairs (issue 22): a real sentence minus one optional constituent, the remainder still a sentence."""

from __future__ import annotations

import functools

import _engine_models as models
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nltk import Tree

from s2lct.expand.deletion import KINDS, deletion_pairs, is_recovered


@functools.cache
def treebank_trees() -> list[Tree]:
    """The PTB sample's sentences, cleaned as the reference grammar reads them (real, hand-parsed text)."""
    from nltk.corpus import treebank

    from s2lct.expand.grammar import clean_tree

    out = []
    for t in treebank.parsed_sents()[:600]:
        c = clean_tree(t)
        if c is not None and c.label() == "S":
            out.append(c)
    return out


def test_each_kind_on_a_hand_tree():
    tree = Tree.fromstring(
        "(S (NP (DT The) (JJ long) (NN film)) (VP (VBZ is) (ADVP (RB not)) (ADJP (RB very) (JJ good))) (. .))"
    )
    pairs = {(p.kind, p.words) for p in deletion_pairs(tree)}
    assert ("adjective", ("long",)) in pairs and ("degree", ("very",)) in pairs
    assert not any(p[1] == ("not",) for p in pairs)  # deleting a negation would flip the meaning
    said = Tree.fromstring("(S (NP (PRP He)) (VP (VBD said) (SBAR (IN that) (S (NP (PRP it)) (VP (VBD worked))))) (. .))")
    (that,) = [p for p in deletion_pairs(said) if p.kind == "that"]
    assert that.seed == ("He", "said", "it", "worked", ".") and that.start == 2


def test_no_pairs_from_a_fragment():
    assert list(deletion_pairs(Tree.fromstring("(NP (DT a) (JJ quiet) (NN film))"))) == []


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_pairs_are_real_sentences_minus_one_optional_constituent(data):
    trees = treebank_trees()
    tree = trees[data.draw(st.integers(0, len(trees) - 1), label="tree")]
    grammar = models.grammar()
    pairs = list(deletion_pairs(tree, grammar.counts))
    if not pairs:
        return
    p = pairs[data.draw(st.integers(0, len(pairs) - 1), label="pair")]
    assert p.original == tuple(tree.leaves()) and p.kind in KINDS
    n = len(p.words)
    assert p.original[p.start : p.start + n] == p.words
    rest = p.original[: p.start] + p.original[p.start + n :]
    assert [t.lower() for t in p.seed] == [t.lower() for t in rest] and len(p.seed) >= 3
    # putting the words back at the slot gives the original: what the expander must propose
    back = p.seed[: p.start] + p.words + p.seed[p.start :]
    assert is_recovered(p.original, back)
    # the remainder still parses as a sentence (the real parser, not the original tree)
    (parsed,) = models.parser().parse([p.seed])
    assert parsed is not None and parsed.label() in ("S", "SINV", "SQ"), (p, parsed)


def test_every_kind_occurs_in_real_text():
    grammar = models.grammar()
    kinds = {p.kind for t in treebank_trees() for p in deletion_pairs(t, grammar.counts)}
    assert kinds == set(KINDS)
