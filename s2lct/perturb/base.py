"""The perturbation interface, the record of one perturbed text, and the perturbation registry.

A perturbation turns a seed text into a variant whose expected prediction is known relative to
the seed's: the same label (``kind == "inv"``) or a class probability that moves one way
(``kind == "dir"``, see :class:`Direction`). It returns ``None`` when the text offers nothing to
change (no person name, no adjective), so callers can count the seeds it does not apply to
instead of testing an unchanged text. It is a pure function of the text, the state of the
``random.Random`` it is given and the spaCy ``Doc`` (for those with ``needs_doc``): the same
seed gives the same variant on every run and machine.

Every variant records its edits as :class:`Change` objects in the *original* text's character
offsets, so a report can show exactly what changed and a test can check that nothing else did.

Perturbations register under the ``s2lct.perturbations`` catalogue registry (``entry_points=True``:
a package can add its own through the ``s2lct_perturbations`` entry-point group); the built-in
ones are registered by the modules :mod:`s2lct.perturb.registry` imports.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import catalogue

from s2lct.errors import MissingResourceError, S2LCTError

if TYPE_CHECKING:
    import random

    from spacy.language import Language
    from spacy.tokens import Doc

perturbations = catalogue.create("s2lct", "perturbations", entry_points=True)

KINDS = ("inv", "dir")
DIRECTION_LABELS = ("positive", "negative", "predicted")
DIRECTION_CHANGES = ("up", "down")


class PerturbError(S2LCTError):
    """Bad perturbation input: an unknown name, or a Doc that is not of the text."""

    exit_code = 2


@dataclass(frozen=True, slots=True)
class Change:
    """One edit in the original text's character offsets (``start == end``: an insertion)."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class Perturbed:
    original: str
    text: str
    changes: tuple[Change, ...]
    perturbation: str


@dataclass(frozen=True, slots=True)
class Direction:
    """Which class's probability a DIR perturbation moves, and which way. ``"predicted"`` is the
    label predicted for the original; the probability must not move the other way by more than
    the test's margin."""

    label: str
    change: str

    def __post_init__(self) -> None:
        if self.label not in DIRECTION_LABELS or self.change not in DIRECTION_CHANGES:
            raise ValueError(f"Direction({self.label!r}, {self.change!r}): label one of {DIRECTION_LABELS}, change one of {DIRECTION_CHANGES}")


class Perturbation(Protocol):
    name: str
    kind: str
    direction: Direction | None
    needs_doc: bool

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None: ...


def apply_changes(original: str, changes: Iterable[Change]) -> str:
    """``original`` with ``changes`` (sorted, non-overlapping, each ``old`` found at its offsets) made."""
    out: list[str] = []
    pos = 0
    for c in changes:
        if c.start < pos or c.end < c.start or c.end > len(original):
            raise ValueError(f"change {c} overlaps the previous one or lies outside the text (length {len(original)})")
        if original[c.start : c.end] != c.old:
            raise ValueError(f"change {c} does not match the text there ({original[c.start:c.end]!r})")
        out += [original[pos : c.start], c.new]
        pos = c.end
    out.append(original[pos:])
    return "".join(out)


def perturbed(original: str, changes: Iterable[Change], name: str) -> Perturbed | None:
    """The record of ``changes`` to ``original``, or ``None`` when they leave it as it was."""
    ordered = tuple(sorted(changes, key=lambda c: (c.start, c.end)))
    text = apply_changes(original, ordered)
    if text == original:
        return None
    return Perturbed(original, text, ordered, name)


def other_than(rng: random.Random, pool: Iterable[str], old: str) -> str:
    """A random entry of ``pool`` other than ``old`` (the replacement a swap draws)."""
    return rng.choice([w for w in pool if w != old])


def match_case(model: str, word: str) -> str:
    """``word`` cased like ``model``: ALL CAPS (two letters or more), Capitalised, or as given."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def article_for(word: str) -> str:
    """"an" before a vowel letter, else "a": right for the words put after an article here (degree
    adverbs; protected words not spelt "u…"/"eu…"), none of which says "you-" or has a silent h."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def article_change(doc: Doc, index: int, new_word: str) -> Change | None:
    """The edit of the indefinite article right before token ``index`` that ``new_word`` needs
    there ("an amazing" → "a very amazing"), or ``None`` when there is none or it fits already."""
    if index == 0:
        return None
    prev = doc[index - 1]
    if prev.lower_ not in ("a", "an") or prev.lower_ == article_for(new_word):
        return None
    return Change(prev.idx, prev.idx + len(prev.text), prev.text, match_case(prev.text, article_for(new_word)))


@functools.cache
def default_nlp() -> Language:
    """The configured spaCy pipeline (``spacy_model`` setting), every component on: NER, PoS and the parse."""
    from s2lct.config import get_settings
    from s2lct.corpus.spacy_pipeline import load_pipeline

    return load_pipeline(get_settings().spacy_model, exclude=())


def doc_for(text: str, doc: Doc | None) -> Doc:
    """``doc``, checked to be of ``text``, or ``text`` parsed by the configured pipeline."""
    if doc is None:
        return default_nlp()(text)
    if doc.text != text:
        raise PerturbError(f"the spaCy Doc given is of {doc.text[:60]!r}, not of the text {text[:60]!r}")
    return doc


def configure_wordnet() -> None:
    """NLTK's search path from the settings, for the modules that read WordNet."""
    from s2lct.config import configure_nltk, get_settings

    configure_nltk(get_settings())


@functools.cache
def checklist_lexicons() -> dict[str, Any]:
    """CheckList's released word lists (``<data_root>/checklist/lexicons/basic.json``), read where
    the settings say the data is: used, not copied, so their licence and provenance stay in one place."""
    from s2lct.config import get_settings, how_to_set

    path = get_settings().data_root / "checklist" / "lexicons" / "basic.json"
    if not path.is_file():
        raise MissingResourceError(path, "copy checklist/data/lexicons/basic.json from github.com/marcotcr/checklist there, "
                                         f"or set {how_to_set('data_root')}")
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)
