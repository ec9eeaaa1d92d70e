"""Deletion pairs: real sentences minus one optional constituent (issue 22, deliverables 1 and 2).

A real sentence with one optional word or phrase removed, so that what is left is still a
sentence, is a seed the expander could meet; the real sentence is a known-fluent expansion of
it at exactly one slot. Such pairs measure how often the engine proposes and accepts the
original (recall@accepted, ``benchmarks/bench_deletion.py``) and give positives for training a
fluency selector without annotation.

What counts as optional (the kinds the findings say fluent insertions come from):

- ``adverb``: a one-word ADVP or RB that modifies a verb or adjective (child of VP, ADJP or S,
  not sentence-initial and not a negation: deleting "not" flips the meaning);
- ``degree``: a degree word before an adjective (``ADJP -> RB JJ``);
- ``adjective``: an attributive JJ in an NP, followed by a noun of the same NP;
- ``that``: the complementiser "that" of a complement clause (``SBAR -> IN S`` under a VP);
- ``pp``: a prepositional adjunct of 2–3 words after a VP's verb or an NP's head.

The remainder must be a sentence: the parent's reduced production (its right-hand side minus
the deleted child) occurs in the reference grammar, the root is a clause and at least three
tokens remain. Whether it also re-parses as a sentence is checked by the property test with the
real parser.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from nltk import Tree

Tokens = tuple[str, ...]

KINDS = ("adverb", "degree", "adjective", "that", "pp")
NEGATIONS = frozenset("not n't never no nor".split())
CLAUSE = frozenset({"S", "SINV", "SQ"})
NOUNS = frozenset({"NN", "NNS", "NNP", "NNPS"})


@dataclass(frozen=True, slots=True)
class DeletionPair:
    """``original`` minus ``original[start:start + len(words)]`` is ``seed``."""

    original: Tokens
    seed: Tokens
    start: int
    words: Tokens
    kind: str
    production: str  # the parent's production in the original: "VP -> VBZ ADVP ADJP"


def _leaf_starts(tree: Tree) -> dict[tuple[int, ...], int]:
    starts: dict[tuple[int, ...], int] = {}

    def rec(node: Tree | str, pos: tuple[int, ...], start: int) -> int:
        if not isinstance(node, Tree):
            return start + 1
        starts[pos] = start
        end = start
        for k, child in enumerate(node):
            end = rec(child, pos + (k,), end)
        return end

    rec(tree, (), 0)
    return starts


def _kind(parent: Tree, k: int) -> str | None:
    """Which optional kind child ``k`` of ``parent`` is, or None."""
    child = parent[k]
    if not isinstance(child, Tree):
        return None
    lab, plab = child.label(), parent.label()
    words = [w.lower() for w in child.leaves()]
    if (lab == "ADVP" and len(child) == 1 and isinstance(child[0], Tree) and child[0].label() == "RB") or lab == "RB":
        if words[0] in NEGATIONS or len(words) != 1:
            return None
        if plab == "ADJP" and k + 1 < len(parent) and isinstance(parent[k + 1], Tree) and parent[k + 1].label() == "JJ":
            return "degree"
        if plab in ("VP", "ADJP") or (plab in CLAUSE and k > 0):
            return "adverb"
        return None
    if lab == "JJ" and plab == "NP":
        after = [c.label() for c in parent[k + 1 :] if isinstance(c, Tree)]
        return "adjective" if after and after[-1] in NOUNS and all(a in NOUNS or a.startswith("JJ") for a in after) else None
    if lab == "IN" and plab == "SBAR" and words == ["that"] and k == 0 and len(parent) == 2:
        return "that"
    if lab == "PP" and 2 <= len(words) <= 3 and k > 0:
        head = parent[0].label() if isinstance(parent[0], Tree) else ""
        if (plab == "VP" and head.startswith("VB")) or (plab == "NP" and head in ("NP",)):
            return "pp"
    return None


def deletion_pairs(tree: Tree, grammar_counts: dict[str, dict[tuple[str, ...], int]] | None = None) -> Iterator[DeletionPair]:
    """Every deletion pair of one parsed sentence (no ``TOP`` root), in tree order.

    ``grammar_counts`` (``ReferenceGrammar.counts``) restricts them to deletions whose reduced
    production the reference grammar knows; for a "that" the SBAR then holds only its S, so the
    check is on the SBAR's parent keeping an SBAR (always true) and is skipped."""
    if tree.label() not in CLAUSE:
        return
    leaves: Tokens = tuple(tree.leaves())
    starts = _leaf_starts(tree)
    for pos in tree.treepositions():
        node = tree[pos]
        if not isinstance(node, Tree) or not all(isinstance(c, Tree) for c in node):
            continue
        for k in range(len(node)):
            kind = _kind(node, k)
            if kind is None:
                continue
            rhs = tuple(c.label() for c in node)
            reduced = rhs[:k] + rhs[k + 1 :]
            if not reduced:
                continue
            if grammar_counts is not None and kind != "that" and not grammar_counts.get(node.label(), {}).get(reduced):
                continue
            n = len(node[k].leaves())
            start = starts[pos + (k,)]
            seed = leaves[:start] + leaves[start + n :]
            if len(seed) < 3:
                continue
            if start == 0:
                seed = (seed[0][:1].upper() + seed[0][1:],) + seed[1:]
            yield DeletionPair(leaves, seed, start, leaves[start : start + n], kind, f"{node.label()} -> {' '.join(rhs)}")


def is_recovered(original: Tokens, tokens: Tokens) -> bool:
    """Whether an expanded seed is the original sentence (case-insensitive: fills are re-cased)."""
    return len(original) == len(tokens) and all(a.lower() == b.lower() for a, b in zip(original, tokens))
