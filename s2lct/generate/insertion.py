"""The ``insert`` seed operation: put a word or phrase into a seed at a position a token pattern finds.

``{insert: [very, extremely], before: [{POS: ADJ}]}`` gives one variant per word, each inserted
before the first adjective of the seed (``after:`` inserts after the match; ``which: last`` uses the
last match; ``token: N`` picks the N-th token of a several-token match, so
``before: [{LOWER: is}, {TAG: JJ}], token: 1`` inserts before an adjective that follows "is"). A
seed without a match is skipped, like a seed without a copula for ``negate_copula``.
Positions come from spaCy's ``Matcher`` (``s2lct.generate.patterns``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from s2lct.generate.patterns import find_matches
from s2lct.text import keeps_capital

if TYPE_CHECKING:
    from s2lct.spec.templates import Insert


def insert_words(tokens_in: Sequence[str], tags_in: Sequence[str], op: Insert) -> list[tuple[tuple[str, ...], tuple[str, ...], str]]:
    """``(tokens, tags, what was inserted)`` per entry of ``op.insert``; empty when the pattern does not match."""
    pattern = op.before if op.before is not None else op.after
    spans = find_matches(pattern, tokens_in, tags_in)
    if not spans:
        return []
    start, end = spans[-1] if op.which == "last" else spans[0]
    if op.token is not None:
        at = start + op.token + (0 if op.before is not None else 1)
    else:
        at = start if op.before is not None else end
    out = []
    for phrase in op.insert:
        words = tuple(phrase.split())
        tokens, tags = list(tokens_in), list(tags_in)
        if at == 0 and tokens and tokens[0][:1].isupper():
            # the phrase now starts the sentence: it takes the capital; the old first word loses it
            # unless it keeps its capital mid-sentence (names, "I")
            words = (words[0][:1].upper() + words[0][1:],) + words[1:]
            if not keeps_capital(tokens[0], tags[0]):
                tokens[0] = tokens[0][:1].lower() + tokens[0][1:]
        tokens[at:at] = words
        tags[at:at] = [op.tag] * len(words)
        out.append((tuple(tokens), tuple(tags), phrase))
    return out
