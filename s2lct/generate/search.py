"""Seed search: which annotated sentences meet a spec's search rules.

Sentences come annotated with the word classes they contain (``s2lct.corpus.annotate``), so
matching a rule is a few set operations and at most three regex searches.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from s2lct.corpus.annotate import AnnotatedSentence
from s2lct.spec import CapabilitySpec, SearchRule


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
    if rule.token_pattern is not None:
        from s2lct.generate.patterns import contains_match

        return contains_match(rule.token_pattern, s.tokens, s.tags)
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
