"""Seed search: which labelled sentences meet a spec's search rules.

Each sentence is annotated once (PoS tags from spaCy, word polarity from SentiWordNet) into the
set of word classes it contains ("positive adj", "neutral noun", ...), so matching a rule is a few
set operations and at most three regex searches.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .corpus import Sentence
from .polarity import SentiWordNetPolarity, wordnet_pos
from .spec import CapabilitySpec, SearchRule

_WN_CLASS = {"a": "adj", "n": "noun", "v": "verb", "r": "adv"}


@dataclass(frozen=True, slots=True)
class AnnotatedSentence:
    sentence: Sentence
    tags: tuple[str, ...]
    word_classes: frozenset[str]
    words: frozenset[str]
    n_words: int

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.sentence.tokens

    @property
    def text(self) -> str:
        return self.sentence.text

    @property
    def label(self) -> str:
        return self.sentence.label


def count_words(tokens: Iterable[str]) -> int:
    """Words are tokens with at least one letter or digit (punctuation does not count)."""
    return sum(1 for t in tokens if any(c.isalnum() for c in t))


def word_classes(tokens: Sequence[str], tags: Sequence[str], polarity: SentiWordNetPolarity) -> frozenset[str]:
    out = set()
    for tok, tag in zip(tokens, tags, strict=True):
        wn = wordnet_pos(tag)
        if wn is None:
            continue
        pol = polarity.polarity(tok, tag)
        if pol != "mixed":
            out.add(f"{pol} {_WN_CLASS[wn]}")
    return frozenset(out)


def annotate(sentence: Sentence, tags: Sequence[str], polarity: SentiWordNetPolarity) -> AnnotatedSentence:
    return AnnotatedSentence(
        sentence,
        tuple(tags),
        word_classes(sentence.tokens, tags, polarity),
        frozenset(t.lower() for t in sentence.tokens),
        count_words(sentence.tokens),
    )


@functools.lru_cache(maxsize=1024)
def _compile(pattern: str, where: str) -> re.Pattern[str]:
    if where == "start":
        return re.compile(pattern if pattern.startswith("^") else "^(?:" + pattern + ")")
    if where == "end":
        return re.compile(pattern if pattern.endswith("$") else "(?:" + pattern + ")$")
    return re.compile(pattern)


def matches(rule: SearchRule, s: AnnotatedSentence) -> bool:
    if rule.label is not None and s.label not in rule.labels():
        return False
    if rule.length is not None:
        if rule.length.min is not None and s.n_words < rule.length.min:
            return False
        if rule.length.max is not None and s.n_words > rule.length.max:
            return False
    if rule.include and not s.word_classes.issuperset(rule.include):
        return False
    if rule.exclude and not s.word_classes.isdisjoint(rule.exclude):
        return False
    if rule.include_words and not s.words.issuperset(w.lower() for w in rule.include_words):
        return False
    if rule.exclude_words and not s.words.isdisjoint(w.lower() for w in rule.exclude_words):
        return False
    if rule.start is not None and not _compile(rule.start, "start").search(s.text):
        return False
    if rule.end is not None and not _compile(rule.end, "end").search(s.text):
        return False
    if rule.contains is not None and not _compile(rule.contains, "contains").search(s.text):
        return False
    return True


def matches_any(rules: Sequence[SearchRule], s: AnnotatedSentence) -> bool:
    return any(matches(r, s) for r in rules)


def search_pools(spec: CapabilitySpec, corpus: Sequence[AnnotatedSentence]) -> dict[str, list[AnnotatedSentence]]:
    """Seed pool name → matching sentences in corpus order, duplicates (same tokens) dropped."""
    pools: dict[str, list[AnnotatedSentence]] = {}
    for name, pool in spec.seeds.items():
        seen: set[tuple[str, ...]] = set()
        found = []
        for s in corpus:
            if s.tokens not in seen and matches_any(pool.any_of, s):
                seen.add(s.tokens)
                found.append(s)
        pools[name] = found
    return pools
