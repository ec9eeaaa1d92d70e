"""Protected attributes (CheckList's "protected: race/sexual/religion/nationality"): a religion,
nationality, sexual orientation or race word becomes another of the same class.

A model should not like a film less because its director is Muslim rather than Christian. The
words are CheckList's released lexicons (``basic.json``: ``religion_adj``, ``sexual_adj``,
``nationality``), read from the data root. ``basic.json`` has no race list: CheckList's sentiment
notebook typed it inline (``'race': ['a black','a hispanic', 'a white', 'an asian']``, the data of
its released "protected: race" test), so it is the constant ``RACE`` here.

Many of these words have other senses ("a black comedy", "straight to video", "in French"), so a
word is changed only where it describes people: as the modifier of a noun whose first WordNet
sense is a person or a people ("a gay man", "my Muslim neighbours"), as the predicate of a
person ("she is Muslim", "the director is French"), or, for religions, as a noun after "a"/"an"
("a Muslim"; "an American" → "a Chinese" would be wrong). Words inside a name ("Per Christian
Ellefsen") are left alone.

Where the word modifies or predicates, a replacement that WordNet knows only as a noun ("Jew")
is not used; as a noun, only one WordNet knows as a noun ("a Buddhist", not "an Eastern
Orthodox"). After "a"/"an" the article follows the replacement ("an Asian man" → "a black man"),
so replacements whose article the spelling does not tell ("Ugandan", "European": "u" and "eu" can
sound "you") are not used there. Replacements are single terms ("Bosnian or Herzegovinian" is
not one). One word of the text is chosen and every such use of it gets the same replacement.
"""

from __future__ import annotations

import functools
import random
import re
from typing import TYPE_CHECKING

from .base import Change, Perturbed, article_change, checklist_lexicons, configure_wordnet, doc_for, match_case, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

#: CheckList's race adjectives (its sentiment notebook's ``protected['race']``, without articles).
RACE = ("black", "hispanic", "white", "asian")
PERSON_PRONOUNS = frozenset({"i", "you", "he", "she", "we", "they"})


@functools.cache
def protected_words() -> dict[str, tuple[str, ...]]:
    lex = checklist_lexicons()
    return {"race": RACE, "sexual": tuple(lex["sexual_adj"]), "religion": tuple(lex["religion_adj"]),
            "nationality": tuple(lex["nationality"])}


@functools.cache
def _replacements(cls: str) -> tuple[str, ...]:
    """The words of ``cls`` a word may become: one term each ("Bosnian or Herzegovinian" and
    "U.S. Virgin Island" are not)."""
    return tuple(w for w in protected_words()[cls] if not re.search(r"\b(?:or|and)\b|\.", w))


@functools.cache
def _class_of() -> dict[str, str]:
    return {w.lower(): cls for cls, words in protected_words().items() for w in words}


@functools.cache
def _pattern() -> re.Pattern[str]:
    words = sorted(_class_of(), key=len, reverse=True)  # longest first: "Orthodox Jew" before "Jew"
    return re.compile(r"(?<![\w'’-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w'’-])", re.IGNORECASE)


@functools.cache
def is_person_noun(lemma: str) -> bool:
    """Whether the first WordNet noun sense of ``lemma`` is a person or a people."""
    configure_wordnet()
    from nltk.corpus import wordnet as wn

    senses = wn.synsets(lemma, pos="n")
    if not senses:
        return False
    first = senses[0]
    targets = {wn.synset("person.n.01"), wn.synset("people.n.01")}
    return bool(targets & {first, *first.closure(lambda s: s.hypernyms())})


@functools.cache
def wordnet_classes(word: str) -> tuple[bool, bool]:
    """Whether WordNet knows the (last) word of ``word`` as a noun, and as an adjective."""
    configure_wordnet()
    from nltk.corpus import wordnet as wn

    last = word.split()[-1].lower()
    return bool(wn.synsets(last, pos="n")), bool(wn.synsets(last, pos="a") or wn.synsets(last, pos="s"))


def _is_person(token: Token) -> bool:
    if token.ent_type_ == "PERSON" or (token.pos_ == "PRON" and token.lower_ in PERSON_PRONOUNS):
        return True
    return token.pos_ in ("NOUN", "PROPN") and is_person_noun(token.lemma_.lower())


def _use(doc: Doc, start: int, end: int) -> tuple[str, int] | None:
    """How the protected word at characters [start, end) describes people, "attribute" (modifier
    or predicate) or "noun" (after a/an), and the index of its first token; None when it does not."""
    span = doc.char_span(start, end)
    if span is None or any(t.ent_type_ not in ("", "NORP") for t in span):  # "Per Christian Ellefsen"
        return None
    last, first = span[-1], span[0]
    article = doc[first.i - 1].lower_ if first.i > 0 else ""
    if last.dep_ in ("amod", "compound") and last.head.i > last.i:
        return ("attribute", first.i) if _is_person(last.head) else None
    if last.dep_ in ("acomp", "attr") and article not in ("a", "an"):
        subjects = [c for c in last.head.children if c.dep_ in ("nsubj", "nsubjpass")]
        return ("attribute", first.i) if subjects and _is_person(subjects[0]) else None
    if article in ("a", "an") and _class_of()[span.text.lower()] == "religion":
        return ("noun", first.i)
    return None


@functools.cache
def written_form(word: str) -> str:
    """``word`` as English writes it mid-sentence: as WordNet spells it as an adjective when it does
    ("asian" → "Asian", "black" stays), else as the lexicon does. The case of the word it replaces is
    no guide: "My Hispanic friend" must not become "My White friend"."""
    configure_wordnet()
    from nltk.corpus import wordnet as wn

    key = word.lower().replace(" ", "_")
    for synset in wn.synsets(key, pos=wn.ADJ) + wn.synsets(key, pos=wn.ADJ_SAT):
        for lemma in synset.lemmas():
            if lemma.name().lower() == key:
                return lemma.name().replace("_", " ")
    return word


def _fits(candidate: str, uses: list[tuple[int, int, str, int]], doc: Doc) -> bool:
    for _, _, use, index in uses:
        noun, adjective = wordnet_classes(candidate)
        if (use == "attribute" and noun and not adjective) or (use == "noun" and not noun):
            return False
        if index > 0 and doc[index - 1].lower_ in ("a", "an") and candidate.lower().startswith(("u", "eu")):
            return False
    return True


class Protected:
    name = "protected"
    kind = "inv"
    direction = None
    needs_doc = True

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        found: dict[str, list[tuple[int, int, str, int]]] = {}
        for m in _pattern().finditer(text):
            if (use := _use(doc, m.start(), m.end())) is not None:
                found.setdefault(m.group().lower(), []).append((m.start(), m.end(), *use))
        for word in rng.sample(sorted(found), len(found)):  # a random word first; the next if none fits
            pool = [w for w in _replacements(_class_of()[word]) if w.lower() != word and _fits(w, found[word], doc)]
            if not pool:
                continue
            new = rng.choice(pool)
            changes = []
            for s, e, _, index in found[word]:
                written = written_form(new)
                at_start = doc.char_span(s, e, alignment_mode="expand") is not None and doc.char_span(s, e, alignment_mode="expand")[0].is_sent_start
                changes.append(Change(s, e, text[s:e], match_case(text[s:e], written) if at_start else written))
                if (article := article_change(doc, index, new)) is not None:
                    changes.append(article)
            return perturbed(text, changes, self.name)
        return None


perturbations.register("protected", func=Protected)
