"""Intensifiers a polar seed may take (issue 22, deliverable 4): VADER's booster words.

SentiWordNet gives "very", "really" and "quite" some polarity, so under the paper's rule (a fill
must be pure neutral) no intensifier ever passes. An intensifier changes the strength of a seed's
sentiment, not its direction, so it keeps the label of a positive or negative seed; a neutral seed
has no sentiment to intensify ("a [very] quiet film" reads as a judgement), so it never takes one.
The list is VADER's (``vaderSentiment.BOOSTER_DICT``, a maintained lexicon, declared in
pyproject), its incrementers only: its decrementers include near-negations ("hardly", "barely",
"scarcely") that flip a polar seed's label ("barely watchable"), and nothing separates them
from the harmless ones ("slightly") but a hand-typed list. One-word entries, adverb masks only
(the adjectives "total", "utter" add a property).
"""

from __future__ import annotations

import functools

ADVERB_TAGS = frozenset({"RB", "RBR", "RBS"})


@functools.cache
def intensifiers() -> frozenset[str]:
    from vaderSentiment.vaderSentiment import BOOSTER_DICT, NEGATE

    return frozenset(w for w, v in BOOSTER_DICT.items() if v > 0 and " " not in w and w not in NEGATE)


def is_intensifier(word: str, symbol: str) -> bool:
    """A booster word at an adverb mask."""
    return symbol in ADVERB_TAGS and word.lower() in intensifiers()


def keeps_label(fills: list[tuple[str, str]], seed_label: str) -> bool:
    """Whether fills ``(word, symbol)`` that passed neutrality keep a seed of ``seed_label``: an
    intensifier only in a positive or negative seed."""
    return seed_label != "neutral" or not any(is_intensifier(w, s) for w, s in fills)
