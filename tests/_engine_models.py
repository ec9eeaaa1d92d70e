"""Shared, load-once models and stubs for the expansion-engine tests (one load per test session)."""

from __future__ import annotations

import functools
from collections.abc import Sequence

from nltk import Tree

from s2lct.expand.fillin import Fill


@functools.cache
def parser():
    from s2lct.expand.parsing import Parser

    return Parser()


@functools.cache
def grammar():
    from s2lct.expand.grammar import load_reference_grammar

    return load_reference_grammar()


@functools.cache
def mlm():
    from s2lct.expand.fillin import MaskedLM

    return MaskedLM()


@functools.cache
def tagger():
    from s2lct.corpus.tagging import get_tagger

    return get_tagger()


@functools.cache
def polarity():
    from s2lct.corpus.polarity import get_polarity

    return get_polarity()


class StubMLM:
    """Offers the same words, with fixed probabilities, for every single-mask sentence."""

    identity = "stub-mlm"

    def __init__(self, words: Sequence[tuple[str, float]]) -> None:
        self.words = list(words)
        self.calls = 0

    def fill(self, sentences, top_n: int = 10) -> list[list[Fill]]:
        self.calls += len(sentences)
        out = []
        for _tokens, positions in sentences:
            if len(positions) != 1:
                out.append([])
                continue
            out.append([Fill((w,), (p,), p) for w, p in self.words[:top_n]])
        return out


class StubParser:
    """Returns fixed trees; counts calls."""

    identity = "stub-parser"

    def __init__(self, trees: dict[tuple[str, ...], str]) -> None:
        self.trees = trees
        self.failures: dict = {}
        self.calls = 0

    def parse(self, sentences):
        self.calls += len(sentences)
        out = []
        for s in sentences:
            t = self.trees.get(tuple(s))
            if t is None:
                self.failures[tuple(s)] = "no stub tree"
            out.append(None if t is None else Tree.fromstring(t))
        return out
