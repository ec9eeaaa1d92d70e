"""Places (CheckList's "change locations"): a country for a country, a city for a city, a US state
for a state.

Where a film is set or seen should not change what is said about it. Places are spaCy GPE
entities whose name is on exactly one list; a name on two ("Georgia", "New York") or on none
("America", "U.S.", "Paris": the city list is of US cities) is left alone, because its kind cannot
be told, and so is a place that is also a person's name on the lists of :mod:`.names` ("Charlotte",
"Austin", "Jordan"), because NER confuses the two and a character would become a town. Countries and cities
are CheckList's own lists (``basic.json``, the ones its perturbation used, read from the data
root): faker's en_US cities are made up from parts ("Lake Jonathanbury") and its country list holds
territories and duplicates. US states are faker's en_US list.

Replacements never need "the" (no plural or "Republic/Kingdom/United/Federation" names), and a
replaced country that took "the" ("the United States", "the Netherlands") loses it, so the article
is always right. The same place is replaced by the same place throughout the text.
"""

from __future__ import annotations

import functools
import random
import re
from typing import TYPE_CHECKING

from .base import Change, Perturbed, checklist_lexicons, doc_for, other_than, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span

KINDS = ("country", "city", "state")
_TAKES_THE = re.compile(r"\b(?:Republic|Kingdom|United|Federation)\b|s\Z")
_PLAIN_NAME = re.compile(r"[A-Z][a-z]*\.?(?: [A-Z][a-z]+)*")


@functools.cache
def places() -> dict[str, tuple[str, ...]]:
    from faker.providers.address.en_US import Provider

    lex = checklist_lexicons()
    return {"country": tuple(lex["country"]), "city": tuple(lex["city"]), "state": tuple(Provider.states)}


@functools.cache
def _kinds() -> dict[str, str | None]:
    """Name → its kind, or None when it is on more than one list or is also a person's name."""
    from .names import name_lists

    people = {n for names in name_lists().values() for n in names}
    out: dict[str, str | None] = {}
    for kind, names in places().items():
        for n in names:
            out[n] = kind if out.get(n, kind) == kind and n not in people else None
    return out


def kind_of(name: str) -> str | None:
    return _kinds().get(name)


@functools.cache
def replacements(kind: str) -> tuple[str, ...]:
    """The places of ``kind`` a name may become: plain names of one kind only that need no "the"."""
    return tuple(n for n in places()[kind] if _PLAIN_NAME.fullmatch(n) and kind_of(n) == kind and not _TAKES_THE.search(n))


def _place(doc: Doc, ent: Span) -> tuple[int, str, str] | None:
    """(start offset, name, kind) of a GPE to replace; the start covers a "the" the name takes."""
    tokens = list(ent)
    if tokens and tokens[0].lower_ == "the":
        tokens = tokens[1:]
    if not tokens:
        return None
    name = doc[tokens[0].i : tokens[-1].i + 1].text
    kind = kind_of(name)
    if kind is None:
        return None
    start = tokens[0].idx
    if kind == "country" and _TAKES_THE.search(name) and tokens[0].i > 0 and doc[tokens[0].i - 1].lower_ == "the":
        start = doc[tokens[0].i - 1].idx
    return start, name, kind


class Locations:
    name = "locations"
    kind = "inv"
    direction = None
    needs_doc = True

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        new_name: dict[str, str] = {}
        changes = []
        for ent in doc.ents:
            if ent.label_ != "GPE" or (found := _place(doc, ent)) is None:
                continue
            start, name, kind = found
            new = new_name.setdefault(name, other_than(rng, replacements(kind), name))
            end = ent.end_char
            changes.append(Change(start, end, text[start:end], new))
        return perturbed(text, changes, self.name) if changes else None


perturbations.register("locations", func=Locations)
