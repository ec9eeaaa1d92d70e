"""Person names (CheckList's "change names"): another name of the same gender.

Who is named should not change what is said about a film. Names are spaCy PERSON entities shaped
like CheckList's: a known first name, alone or followed by a known last name ("John", "John
Smith"); other shapes ("Spielberg", "Philip Seymour Hoffman", "John Malkovich" with an unknown last
name) are left alone, because without a known first name the gender is a guess. A first name that
faker lists for both genders ("Jordan") counts as the one whose frequency weight is higher.
Replacements come from faker's en_US person word lists (the provider's class attributes: no
``Faker()`` instance and no randomness of faker's own), chosen with the perturbation's generator;
the same name is replaced by the same name throughout the text, also where NER missed it (a proper
noun of the same spelling outside other entities).
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING

from .base import Change, Perturbed, doc_for, other_than, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Span


@functools.cache
def name_lists() -> dict[str, tuple[str, ...]]:
    """faker en_US: ``male`` and ``female`` first names and ``last`` names, in faker's order."""
    from faker.providers.person.en_US import Provider

    return {"male": tuple(Provider.first_names_male), "female": tuple(Provider.first_names_female),
            "last": tuple(Provider.last_names)}


@functools.cache
def _genders() -> dict[str, str]:
    from faker.providers.person.en_US import Provider

    male, female = Provider.first_names_male, Provider.first_names_female
    out = {n: "female" for n in female}
    for n, weight in male.items():
        if n not in female or weight > female[n]:
            out[n] = "male"
        elif weight == female[n]:
            del out[n]  # as common for either: no gender to keep
    return out


@functools.cache
def _last_names() -> frozenset[str]:
    return frozenset(name_lists()["last"])


def gender(first_name: str) -> str | None:
    return _genders().get(first_name)


def _name_words(ent: Span) -> list[int] | None:
    """Token indices of (first) or (first, last) when the entity is a name to replace, else None."""
    words = [t for t in ent if not (t.is_punct or t.tag_ == "POS")]
    if not 1 <= len(words) <= 2 or not all(t.is_alpha and t.text.istitle() for t in words):
        return None
    if gender(words[0].text) is None:
        return None
    if len(words) == 2 and words[1].text not in _last_names():
        return None
    return [t.i for t in words]


@functools.cache
def _pool(kind: str) -> tuple[str, ...]:
    """Replacements: last names, or the first names of one gender (none that counts as the other)."""
    return tuple(n for n in name_lists()[kind] if kind == "last" or gender(n) == kind)


class Names:
    name = "names"
    kind = "inv"
    direction = None
    needs_doc = True

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        new_name: dict[str, str] = {}
        replaced: set[int] = set()
        for ent in doc.ents:
            if ent.label_ != "PERSON" or (indices := _name_words(ent)) is None:
                continue
            for pos, i in enumerate(indices):
                word = doc[i].text
                if word not in new_name:
                    new_name[word] = other_than(rng, _pool((gender(word) or "male") if pos == 0 else "last"), word)
                replaced.add(i)
        # the same name where NER missed it ("Mary loved it. Mary cried."): a proper noun outside other entities
        replaced |= {t.i for t in doc if t.text in new_name and t.pos_ == "PROPN" and t.ent_type_ in ("", "PERSON")}
        changes = [Change(doc[i].idx, doc[i].idx + len(doc[i].text), doc[i].text, new_name[doc[i].text]) for i in sorted(replaced)]
        return perturbed(text, changes, self.name) if changes else None


perturbations.register("names", func=Names)
