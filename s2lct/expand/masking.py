"""Algorithm 1 of the paper (METHOD §1.3 steps 3–4): where can a seed's parse tree grow?

For every production ``L → s_rhs`` of the seed tree and every reference production ``L → r_rhs``
in which ``s_rhs`` is an ordered subsequence of the strictly longer ``r_rhs``, the extra symbols
of ``r_rhs`` are inserted as masks at their positions; only insertions whose extra symbols are all
word-level PoS tags (``grammar.WORD_TAGS``) are kept. Reading the leaves of the expanded tree left
to right gives the masked sentence, each mask carrying its PoS symbol.

Written by hand because no library matches a sequence against a grammar this way (nltk's CFG
tools parse strings, they do not align right-hand sides).

Ambiguous alignment: ``s_rhs`` may embed into ``r_rhs`` in several ways (``NN`` into ``NN NN``:
a mask before or after the noun). We enumerate *all* distinct embeddings; they give different
masked sentences. The same masked sentence reached through several productions/embeddings is kept
once, with the most probable production (ties: alphabetically first production string).

Speed: extra symbols must be word-level, so the non-word-level symbols of ``r_rhs`` are exactly
those of ``s_rhs``, in order. Reference rules are indexed once by ``(lhs, non-word symbols)``, so
a seed production is compared only against the handful of rules that can possibly match.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Container, Iterator
from dataclasses import dataclass

from nltk import Tree

from s2lct.expand.grammar import WORD_TAGS, ReferenceGrammar, Rhs, format_production

Tokens = tuple[str, ...]
MASK = "[MASK]"


def embeddings(s_rhs: Rhs, r_rhs: Rhs, insertable: Container[str] | None = None) -> Iterator[tuple[int, ...]]:
    """All order-preserving injections ``e`` of ``s_rhs`` into ``r_rhs`` (``r_rhs[e[i]] == s_rhs[i]``)
    for a strictly longer ``r_rhs``, such that every unmatched symbol of ``r_rhs`` is in
    ``insertable`` (any symbol if ``None``). Yielded in lexicographic order of ``e``."""
    n, m = len(s_rhs), len(r_rhs)
    if m <= n:
        return

    def ok_extra(sym: str) -> bool:
        return insertable is None or sym in insertable

    def rec(i: int, j: int, acc: list[int]) -> Iterator[tuple[int, ...]]:
        if i == n:
            if all(ok_extra(r_rhs[t]) for t in range(j, m)):
                yield tuple(acc)
            return
        # r_rhs[j:] must still hold s_rhs[i:]
        for t in range(j, m - (n - i) + 1):
            if r_rhs[t] == s_rhs[i]:
                acc.append(t)
                yield from rec(i + 1, t + 1, acc)
                acc.pop()
            if not ok_extra(r_rhs[t]):
                return  # r_rhs[t] would be an extra symbol that may not be inserted

    yield from rec(0, 0, [])


@dataclass(frozen=True, slots=True)
class MaskedSentence:
    """One candidate expansion of a seed: its tokens with ``[MASK]`` at ``mask_positions``."""

    seed: Tokens
    tokens: Tokens
    mask_positions: tuple[int, ...]
    mask_symbols: tuple[str, ...]
    lhs: str
    rhs: Rhs  # the reference production's right-hand side
    seed_rhs: Rhs
    node: tuple[int, ...]  # tree position of the expanded node in the seed tree
    embedding: tuple[int, ...]
    probability: float

    @property
    def production(self) -> str:
        return format_production(self.lhs, self.rhs)

    @property
    def masked_text(self) -> str:
        toks = list(self.tokens)
        for p, sym in zip(self.mask_positions, self.mask_symbols):
            toks[p] = f"[MASK:{sym}]"
        return " ".join(toks)


def _spans(tree: Tree) -> dict[tuple[int, ...], tuple[int, int]]:
    """Leaf span (start, end) of every subtree, by tree position."""
    spans: dict[tuple[int, ...], tuple[int, int]] = {}

    def rec(node: Tree | str, pos: tuple[int, ...], start: int) -> int:
        if not isinstance(node, Tree):
            return start + 1
        end = start
        for k, child in enumerate(node):
            end = rec(child, pos + (k,), end)
        spans[pos] = (start, end)
        return end

    rec(tree, (), 0)
    return spans


class MaskGenerator:
    """Algorithm 1 against one reference grammar; build once, call ``masked_sentences`` per tree."""

    def __init__(self, grammar: ReferenceGrammar, insertable: frozenset[str] = WORD_TAGS, max_extra: int | None = None) -> None:
        self.grammar = grammar
        self.insertable = insertable
        self.max_extra = max_extra  # at most this many inserted symbols per production (None: any number)
        index: dict[tuple[str, Rhs], list[tuple[Rhs, float]]] = defaultdict(list)
        for lhs in grammar.counts:
            for rhs, prob in grammar.rules(lhs):
                index[(lhs, self._signature(rhs))].append((rhs, prob))
        self._index = dict(index)
        self._memo: dict[tuple[str, Rhs], list[tuple[Rhs, float, tuple[int, ...]]]] = {}

    def _signature(self, rhs: Rhs) -> Rhs:
        return tuple(sym for sym in rhs if sym not in self.insertable)

    def matches(self, lhs: str, s_rhs: Rhs) -> list[tuple[Rhs, float, tuple[int, ...]]]:
        """Reference rules ``lhs → r_rhs`` that extend ``s_rhs``, with every embedding (memoised)."""
        key = (lhs, s_rhs)
        hit = self._memo.get(key)
        if hit is None:
            hit = []
            for r_rhs, prob in self._index.get((lhs, self._signature(s_rhs)), ()):
                if len(r_rhs) > len(s_rhs) and (self.max_extra is None or len(r_rhs) - len(s_rhs) <= self.max_extra):
                    hit.extend((r_rhs, prob, e) for e in embeddings(s_rhs, r_rhs, self.insertable))
            self._memo[key] = hit
        return hit

    def _candidates(self, tree: Tree) -> dict[tuple[tuple[int, str], ...], tuple]:
        """Distinct insertions ``((seed leaf index, symbol), ...)`` → best (prob, lhs, rhs, ...)."""
        spans = _spans(tree)
        best: dict[tuple[tuple[int, str], ...], tuple] = {}
        for pos in sorted(spans):
            node = tree[pos] if pos else tree
            if not len(node) or not all(isinstance(c, Tree) for c in node):
                continue  # preterminal: a lexical production
            lhs = node.label()
            s_rhs = tuple(c.label() for c in node)
            matches = self.matches(lhs, s_rhs)
            if not matches:
                continue
            starts = [spans[pos + (k,)][0] for k in range(len(node))] + [spans[pos][1]]
            for r_rhs, prob, emb in matches:
                inserts = []
                i = 0
                for j, sym in enumerate(r_rhs):
                    if i < len(emb) and emb[i] == j:
                        i += 1
                    else:
                        inserts.append((starts[i], sym))
                key = tuple(inserts)
                old = best.get(key)
                if old is None or prob > old[0] or (prob == old[0] and (lhs, r_rhs) < (old[1], old[2])):
                    best[key] = (prob, lhs, r_rhs, s_rhs, pos, emb)
        return best

    def masked_sentences(self, tree: Tree, k: int | None = None, seed: int = 0) -> list[MaskedSentence]:
        """Steps 3+4 for one seed tree: its distinct masked sentences ranked by reference
        production probability, at most ``k``. Ties are broken by a random order drawn from a
        generator seeded with (``seed``, the seed sentence), so the choice for one seed never
        depends on which other seeds are expanded with it."""
        leaves: Tokens = tuple(tree.leaves())
        best = self._candidates(tree)
        if not best:
            return []
        digest = hashlib.sha256("\x1f".join((str(seed), *leaves)).encode()).digest()
        rng = random.Random(int.from_bytes(digest[:8], "big"))
        keys = sorted(best)  # canonical order before drawing tie-breakers
        ranked = sorted(((-best[key][0], rng.random(), key) for key in keys), key=lambda t: (t[0], t[1]))
        if k is not None:
            ranked = ranked[:k]
        return [_insert(leaves, list(key), *best[key][1:], best[key][0]) for _, _, key in ranked]


def _insert(
    seed: Tokens,
    inserts: list[tuple[int, str]],
    lhs: str,
    r_rhs: Rhs,
    s_rhs: Rhs,
    node: tuple[int, ...],
    emb: tuple[int, ...],
    prob: float,
) -> MaskedSentence:
    tokens: list[str] = []
    positions: list[int] = []
    symbols: list[str] = []
    q = 0
    for idx in range(len(seed) + 1):
        while q < len(inserts) and inserts[q][0] == idx:
            positions.append(len(tokens))
            symbols.append(inserts[q][1])
            tokens.append(MASK)
            q += 1
        if idx < len(seed):
            tokens.append(seed[idx])
    return MaskedSentence(seed, tuple(tokens), tuple(positions), tuple(symbols), lhs, r_rhs, s_rhs, node, emb, prob)


def expanded_tree(tree: Tree, ms: MaskedSentence) -> Tree:
    """The seed tree with the masks inserted as ``(SYMBOL [MASK])`` preterminals at ``ms.node``
    (the tree the paper reads the masked sentence from; used to check ``ms.tokens``)."""
    new = tree.copy(deep=True)
    node = new[ms.node] if ms.node else new
    old_children = list(node)
    children: list[Tree] = []
    i = 0
    for j, sym in enumerate(ms.rhs):
        if i < len(ms.embedding) and ms.embedding[i] == j:
            children.append(old_children[i])
            i += 1
        else:
            children.append(Tree(sym, [MASK]))
    node[:] = children
    return new

