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
from collections.abc import Collection

ADVERB_TAGS = frozenset({"RB", "RBR", "RBS"})


@functools.cache
def intensifiers() -> frozenset[str]:
    from vaderSentiment.vaderSentiment import BOOSTER_DICT, NEGATE

    return frozenset(w for w, v in BOOSTER_DICT.items() if v > 0 and " " not in w and w not in NEGATE)


@functools.cache
def insertable_intensifiers() -> tuple[str, ...]:
    """The intensifiers the masked LM is asked to rank at an adverb slot before an adjective
    (``ExpansionConfig.intensifier_fills``): those that are WordNet adverbs whose first adverb
    sense is neither colloquial ("fucking", "awfully": WordNet's gloss or usage domain says so), nor
    the comparative or superlative marker ("more", "most": "a more gripping film" compares with
    nothing), nor a maximizer (glossed "complete(ly)": "completely", "absolutely", "utterly" want a
    limit adjective, and a blind read found "[completely] wonderful", "[absolutely] funny"). Sorted,
    so the list and the masked LM's ranking over it are deterministic."""
    from nltk.corpus import wordnet as wn

    out = []
    for w in sorted(intensifiers()):
        senses = wn.synsets(w, pos="r")
        if not senses:
            continue
        first = senses[0]
        lemma = next((lm for lm in first.lemmas() if lm.name().lower() == w), None)
        domains = lemma.usage_domains() if lemma is not None else []  # the word's own, not a synonym's
        marks = first.definition().lower() + " " + " ".join(d.name() for d in domains)
        if not any(m in marks for m in ("colloquial", "obscen", "vulgar", "comparative", "superlative", "complete")):
            out.append(w)
    return tuple(out)


def is_intensifier(word: str, symbol: str) -> bool:
    """A booster word at an adverb mask."""
    return symbol in ADVERB_TAGS and word.lower() in intensifiers()


def keeps_label(fills: list[tuple[str, str]], seed_label: str, expected: Collection[str] | None = None) -> bool:
    """Whether fills ``(word, symbol)`` that passed neutrality keep a seed of ``seed_label``: an
    intensifier only in a positive or negative seed, and, given the ``expected`` labels of the case
    the seed goes into, not where the case *denies* the seed's opinion: the seed's label is not
    expected and neutral is (denying an opinion does not assert its opposite, which is why those
    specs allow neutral: LC4, LC6, LC7, LC10, LC11). There the stronger opinion changes what is
    denied: "Do I think that it is [extremely] good? No." may still mean good. A case that
    overrides the seed's opinion with another (LC3's past opinion, LC8's critics) expects one
    label and keeps its intensifiers: "I used to think it was [really] dull, but now I love it"."""
    if not any(is_intensifier(w, s) for w, s in fills):
        return True
    if seed_label == "neutral":
        return False
    return expected is None or seed_label in expected or "neutral" not in expected
