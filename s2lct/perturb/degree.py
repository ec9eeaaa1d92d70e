"""Degree adverbs before a sentiment adjective (CheckList's "intensifiers" and "reducers", DIR):
"a good film" → "a really good film" should make the predicted class more likely, "a slightly
good film" less.

Intensifiers are the repo's own list (``s2lct.expand.boosters.insertable_intensifiers``: VADER's
incrementers that WordNet knows as plain degree adverbs). Downtoners are VADER's decrementers
(``BOOSTER_DICT`` values below 0), filtered the same way rather than typed: one word; not a
negation (vaderSentiment's ``NEGATE``); not a near-negation, i.e. sharing no WordNet adverb sense
with "hardly", "barely" or "scarcely" (this removes "scarce" too), since "barely good" flips a
label instead of softening it; and a degree adverb, i.e. a WordNet adverb whose first sense is
glossed "to <some> degree/extent" ("to a small degree or extent"). That leaves "kinda",
"slightly" and "somewhat"; "almost", "little", "less", "marginally", "occasionally" and "partly"
fail the last test (an action short of completion, "not much", the comparative marker, a manner,
a frequency, "in part").

Only an adjective that carries sentiment is modified (a non-zero VADER valence, PoS ADJ, plain
degree JJ: "very better" is wrong), with no adverb already before it, not inside a name or a
hyphenated word, and with no negation earlier in its sentence ("not good" → "not very good"
moves the other way). One such adjective is chosen; an "a"/"an" before it follows the inserted
word, a capitalised sentence-initial adjective passes its capital on, and "so" goes before a
predicative adjective only.
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING

from .base import Change, Direction, Perturbed, article_change, configure_wordnet, doc_for, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

#: degree adverbs that modify a predicative adjective only ("so good", not "a so good film")
PREDICATIVE_ONLY = frozenset({"so"})


@functools.cache
def intensifiers() -> tuple[str, ...]:
    configure_wordnet()
    from s2lct.expand.boosters import insertable_intensifiers

    return insertable_intensifiers()


@functools.cache
def downtoners() -> tuple[str, ...]:
    configure_wordnet()
    from s2lct.expand.boosters import downtoners as vader_downtoners

    return vader_downtoners()


@functools.cache
def _valence() -> dict[str, float]:
    from vaderSentiment.vaderSentiment import SentimentIntensityAnalyzer

    return SentimentIntensityAnalyzer().lexicon


@functools.cache
def _negations() -> frozenset[str]:
    from vaderSentiment.vaderSentiment import NEGATE

    return frozenset(NEGATE) | {"n't", "not", "no"}


def modifiable(doc: Doc, tok: Token) -> bool:
    """A sentiment adjective that may take a degree adverb (see the module docstring)."""
    if tok.pos_ != "ADJ" or tok.tag_ != "JJ" or tok.ent_type_ or not _valence().get(tok.lower_):
        return False
    text = doc.text
    end = tok.idx + len(tok.text)
    if (tok.idx > 0 and text[tok.idx - 1] == "-") or text[end : end + 1] == "-":
        return False
    if tok.i > 0 and (doc[tok.i - 1].pos_ == "ADV" or doc[tok.i - 1].lower_ in intensifiers() + downtoners()):
        return False
    if any(c.dep_ == "advmod" and c.i < tok.i for c in tok.children):
        return False
    return not any(t.lower_ in _negations() for t in doc[tok.sent.start : tok.i])


def insertion(doc: Doc, tok: Token, word: str) -> list[Change]:
    """``word`` before ``tok``, with the article and a sentence-initial capital fixed."""
    if tok.is_sent_start and tok.text[:1].isupper() and not tok.text.isupper():
        changes = [Change(tok.idx, tok.idx + len(tok.text), tok.text, f"{word.capitalize()} {tok.text[0].lower()}{tok.text[1:]}")]
    else:
        changes = [Change(tok.idx, tok.idx, "", word + " ")]
    article = article_change(doc, tok.i, word)
    return changes + ([article] if article else [])


class DegreeAdverb:
    kind = "dir"
    needs_doc = True

    def __init__(self, name: str, words: str, direction: Direction) -> None:
        self.name, self.words, self.direction = name, words, direction

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        targets = [t for t in doc if modifiable(doc, t)]
        if not targets:
            return None
        tok = rng.choice(targets)
        pool = intensifiers() if self.words == "intensifiers" else downtoners()
        if tok.dep_ == "amod":
            pool = tuple(w for w in pool if w not in PREDICATIVE_ONLY)
        return perturbed(text, insertion(doc, tok, rng.choice(pool)), self.name)


perturbations.register("intensifiers", func=lambda: DegreeAdverb("intensifiers", "intensifiers", Direction("predicted", "up")))
perturbations.register("reducers", func=lambda: DegreeAdverb("reducers", "downtoners", Direction("predicted", "down")))
