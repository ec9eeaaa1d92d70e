"""Intensifiers a polar seed may take (issue 22, deliverable 4): VADER's booster words.

SentiWordNet gives "very", "really" and "quite" some polarity, so under the paper's rule (a fill
must be pure neutral) no intensifier ever passes. An intensifier changes the strength of a seed's
sentiment, not its direction, so it keeps the label of a positive or negative seed; a neutral seed
has no sentiment to intensify ("a [very] quiet film" reads as a judgement), so it never takes one.
The list is VADER's (``vaderSentiment.BOOSTER_DICT``, a maintained lexicon, declared in
pyproject), its incrementers here: its decrementers include near-negations ("hardly", "barely",
"scarcely") that flip a polar seed's label ("barely watchable"), so they enter only as the
downtoners below, which WordNet separates from the near-negations. One-word entries, adverb masks
only (the adjectives "total", "utter" add a property).

Where a case denies the seed's opinion (LC6, LC7, LC10, LC11), a stronger opinion changes what is
denied ("Do I think that it is [extremely] good? No." may still mean good), so only the
intensifiers whose negation is a plain one go there ("not very good", "not really good").

Downtoners (VADER's decrementers that are plain degree adverbs: ``downtoners``) are the mirror
case: where a case *denies* the seed's opinion ("Do I think that it is [somewhat] dull? No."), a
weaker opinion makes the denial stronger, never weaker, so they keep that case's label; in a case
that asserts an opinion they would soften it toward neutral, and there they never pass.
"""

from __future__ import annotations

import functools
from collections.abc import Collection

ADVERB_TAGS = frozenset({"RB", "RBR", "RBS"})


@functools.cache
def intensifiers() -> frozenset[str]:
    from vaderSentiment.vaderSentiment import BOOSTER_DICT, NEGATE

    return frozenset(w for w, v in BOOSTER_DICT.items() if v > 0 and " " not in w and w not in NEGATE)


NEAR_NEGATIONS = ("hardly", "barely", "scarcely")
_DEGREE_GLOSS = ("degree", "extent")


@functools.cache
def downtoners() -> tuple[str, ...]:
    """VADER's decrementers that are one-word degree adverbs and neither negations nor
    near-negations: not in vaderSentiment's ``NEGATE``, sharing no WordNet adverb sense with
    "hardly", "barely" or "scarcely" ("barely good" flips a label instead of softening it), and
    a WordNet adverb whose first sense is glossed "to <some> degree/extent". That leaves "kinda",
    "slightly" and "somewhat"; "almost", "little", "less", "marginally", "occasionally" and
    "partly" fail the last test (an action short of completion, "not much", the comparative
    marker, a manner, a frequency, "in part")."""
    from nltk.corpus import wordnet as wn
    from vaderSentiment.vaderSentiment import BOOSTER_DICT, NEGATE

    near = {s for w in NEAR_NEGATIONS for s in wn.synsets(w, pos="r")}
    out = []
    for word, value in sorted(BOOSTER_DICT.items()):
        if value >= 0 or not word.isalpha() or word in NEGATE or word in NEAR_NEGATIONS:
            continue
        senses = wn.synsets(word, pos="r")
        gloss = senses[0].definition() if senses else ""
        if senses and not near & set(senses) and gloss.startswith("to ") and any(g in gloss for g in _DEGREE_GLOSS):
            out.append(word)
    return tuple(out)


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


#: intensifiers whose negation reads as a plain negation, not as a weaker opinion: "not very good",
#: "not really good", "not particularly good", "not so good" mean "rather poor" (Quirk et al.'s
#: downtoning "not very"), where "not extremely good" may still mean good
PLAIN_UNDER_NEGATION = frozenset({"very", "really", "particularly", "so"})


def is_intensifier(word: str, symbol: str) -> bool:
    """A booster word at an adverb mask."""
    return symbol in ADVERB_TAGS and word.lower() in intensifiers()


def is_downtoner(word: str, symbol: str) -> bool:
    """A downtoner (``downtoners``) at an adverb mask."""
    return symbol in ADVERB_TAGS and word.lower() in downtoners()


def denies(seed_label: str, expected: Collection[str] | None) -> bool:
    """Whether a case expecting ``expected`` denies its seed's opinion: the seed's label is not
    expected and neutral is (LC4, LC6, LC7, LC10, LC11: denying an opinion does not assert its
    opposite, which is why those specs allow neutral)."""
    return expected is not None and seed_label not in expected and "neutral" in expected


def softens(seed_label: str, expected: Collection[str] | None) -> bool:
    """Whether a case expecting ``expected`` softens its seed's opinion: the seed's polar label is
    expected and so is neutral (LC12's reducers: "The film is [somewhat] insightful" may read
    neutral)."""
    return expected is not None and seed_label != "neutral" and seed_label in expected and "neutral" in expected


def keeps_label(fills: list[tuple[str, str]], seed_label: str, expected: Collection[str] | None = None) -> bool:
    """Whether fills ``(word, symbol)`` that passed neutrality keep a seed of ``seed_label``: an
    intensifier only in a positive or negative seed, and, given the ``expected`` labels of the case
    the seed goes into, not where the case *denies* the seed's opinion: the seed's label is not
    expected and neutral is (denying an opinion does not assert its opposite, which is why those
    specs allow neutral: LC4, LC6, LC7, LC10, LC11). There the stronger opinion changes what is
    denied: "Do I think that it is [extremely] good? No." may still mean good; only the
    intensifiers whose negation is a plain one (``PLAIN_UNDER_NEGATION``: "Do I think that it is
    [really] good? No.", "I was told that the plot was [so] predictable, but that wasn't true") go
    into such a case. A case that overrides the seed's opinion with another (LC3's past opinion,
    LC8's critics) expects one label and keeps its intensifiers: "I used to think it was [really]
    dull, but now I love it".
    A downtoner goes the other way: only into a polar seed that the case denies. Neither goes into a
    case that softens the seed (LC12's reducers): the template grades the opinion there, and a second
    degree word pulls against it ("The film [really] is somewhat insightful") or doubles it."""
    boosted = [w.lower() for w, s in fills if is_intensifier(w, s)]
    toned = any(is_downtoner(w, s) for w, s in fills)
    if (boosted or toned) and (seed_label == "neutral" or softens(seed_label, expected)):
        return False
    if toned and not denies(seed_label, expected):
        return False  # a softened opinion asserted: "The film is [somewhat] dull" drifts toward neutral
    return not (denies(seed_label, expected) and any(w not in PLAIN_UNDER_NEGATION for w in boosted))
