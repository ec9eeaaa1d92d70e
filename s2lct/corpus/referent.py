"""What a later pronoun would call a seed's subject: a person ("him", "her") or a thing ("it").

LC3 closes a past opinion with "..., but now I can't stand it", whose "it" refers back to the
seed's subject. After a person ("I used to think that Paul Bettany was cool, but now I can't stand
it") the present opinion is about something else: blind reads 25, 27, 28 and 29 marked such cases
"different things". The closing needs "him" or "her", so the seed's annotation says whether its
subject is a person and, where the seed itself shows it, which.

A person is what spaCy's named-entity recogniser calls PERSON, a name after a title (Mr., Ms.) or
a role noun (director, actress), "he" or "she", or a role noun alone ("the director"). The
recogniser also calls many film titles PERSON ("Yellow Asphalt", "Secret Ballot"); a subject the
seed calls a film ("... is an uncompromising film", "... is a genuine love story") is a thing
whatever the recogniser says. Gender comes only from the seed's own words (its title, "he"/"she",
"his"/"her"...): a list of first names would call "Chelsea Walls" (a film) a woman, and English
has no neutral singular pronoun a reader accepts here, so a person of unknown gender gets no
pronoun and frames that need one do not take the seed.
"""

from __future__ import annotations

from typing import Any, Literal

Referent = Literal["he", "she", "person"]

MALE_WORDS = frozenset({"he", "him", "his", "himself", "mr", "mr."})
FEMALE_WORDS = frozenset({"she", "her", "hers", "herself", "ms", "ms.", "mrs", "mrs.", "miss", "actress"})
#: titles before a name that make it a person's
TITLES = frozenset({"mr", "mr.", "ms", "ms.", "mrs", "mrs.", "miss", "dr", "dr."})
#: the people a review's opinion is about: a singular subject with one of these heads is a person
#: (the viewer or the audience is who holds the opinion, not what it is about, so they are not here)
ROLE_NOUNS = frozenset({
    "director", "filmmaker", "writer", "screenwriter", "writer-director", "co-writer", "actor", "actress",
    "star", "performer", "comedian", "auteur", "helmer", "cast-member",
})
#: what a film is called: a subject the predicate calls one of these is the film, not a person
WORK_NOUNS = frozenset({
    "film", "movie", "picture", "flick", "comedy", "drama", "story", "tale", "thriller", "documentary",
    "romance", "fantasy", "feature", "sequel", "remake", "musical", "adaptation", "satire", "melodrama",
    "farce", "epic", "western", "cartoon", "show", "work", "yarn", "ride", "piece", "production", "entertainment",
})


def _name_words(head: Any) -> list[Any]:
    """The subject's head with the words that make up its name ("Paul" of "Paul Bettany", "Mr.", "Director")."""
    return [c for c in head.children if c.dep_ in ("compound", "flat", "nmod") and c.i < head.i] + [head]


def _called_a_work(root: Any) -> bool:
    """The root's predicate calls its subject a film ("is a genuine love story", "is one of the
    greatest date movies", "is Leguizamo's best movie work")."""
    for attr in (c for c in root.children if c.dep_ == "attr"):
        nouns = [attr, *(g for g in attr.subtree if g.dep_ in ("compound", "pobj") and g.head.i <= attr.i + 3)]
        if any(n.lemma_.lower() in WORK_NOUNS or n.text.lower() in WORK_NOUNS for n in nouns):
            return True
    return False


def subject_referent(doc: Any, root: Any, head: Any) -> Referent | None:
    """"he" or "she" for a person the seed shows the gender of, "person" for one it does not, None
    for a thing (or no subject). ``doc`` needs the recogniser's entities (spaCy ``ner``)."""
    if head is None:
        return None
    word = head.text.lower()
    if word in ("he", "she"):
        return word  # type: ignore[return-value]
    name = _name_words(head)
    words = {t.text.lower() for t in name}
    if head.tag_ in ("NNP", "NNPS") or head.pos_ == "PROPN":
        person = bool(words & TITLES) or bool(words & ROLE_NOUNS) or head.ent_type_ == "PERSON"
        if person and not (words & TITLES) and _called_a_work(root):
            person = False
    else:
        person = word in ROLE_NOUNS
    if not person:
        return None
    if any(c.dep_ == "conj" or (c.dep_ == "appos" and any(g.dep_ == "conj" for g in c.children)) for c in head.children):
        return "person"  # "director Hoffman, his writer and Kline's agent should ...": several people, whom no "him" covers
    if words & TITLES:
        seen = words
    else:
        seen = {t.text.lower() for t in doc}
    male, female = bool(seen & MALE_WORDS), bool(seen & FEMALE_WORDS)
    if male != female:
        return "he" if male else "she"
    return "person"
