"""Seed shape from a spaCy dependency parse: a full clause, a noun phrase, another fragment, or several sentences.

Templates that embed a seed after "I thought that" need a clause with a subject; SST holds many
noun-phrase and verb-phrase fragments ("A stupid, derivative horror film.") that read as broken
English there. A dependency parse tells them apart cheaply: the seed is a *clause* when it has
one root, that root governs a subject (nsubj, nsubjpass, csubj, csubjpass, expl) and it is finite
(a present/past verb, or a verb with a finite auxiliary or modal): "a competent entertainment
destined to fill the after-school slot" has a subject-like noun but no finite verb. spaCy already
tags the corpus, so its parser is the cheapest parse we have; the constituency parser of stage 3
(``s2lct.expand.parsing``) is not used here because generation must not import expansion.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Literal

from s2lct.errors import MissingResourceError

Shape = Literal["clause", "noun_phrase", "fragment", "sentences"]
SHAPES: tuple[str, ...] = ("clause", "noun_phrase", "fragment", "sentences")
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_NOUNS = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
_PARSE_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler", "parser")
# bumped when the shape rules below change, so cached shapes are recomputed
SHAPE_RULES_VERSION = "2"
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_AUX_DEPS = frozenset({"aux", "auxpass"})


def shape_of(roots: Sequence[tuple[str, str, Sequence[tuple[str, str]]]]) -> Shape:
    """Shape from the sentence roots: for each, (coarse PoS, PTB tag, (dependency, PTB tag) of each child)."""
    if len(roots) != 1:
        return "sentences"
    pos, tag, children = roots[0]
    deps = {dep for dep, _ in children}
    finite = tag in FINITE_TAGS or any(dep in _AUX_DEPS and t in FINITE_TAGS for dep, t in children)
    if SUBJECT_DEPS.intersection(deps) and finite:
        return "clause"
    if pos in _NOUNS:
        return "noun_phrase"
    return "fragment"


class ShapeParser:
    def __init__(self, model: str) -> None:
        import spacy

        try:
            self.nlp = spacy.load(model, exclude=["ner", "lemmatizer", "senter"])
        except OSError as exc:
            raise MissingResourceError(
                f"spaCy pipeline {model!r}",
                f"install it or set S2LCT_SPACY_MODEL / --spacy-model ({str(exc).splitlines()[0][:120]})",
            ) from None
        meta = self.nlp.meta
        self.identity = f"spacy:{meta.get('lang', 'xx')}_{meta.get('name', model)}=={meta.get('version', '?')}+shape{SHAPE_RULES_VERSION}"
        self._components = [(n, p) for n, p in self.nlp.pipeline if n in _PARSE_COMPONENTS]

    def shapes(self, sentences: Sequence[Sequence[str]], batch_size: int = 256) -> list[Shape]:
        """The shape of each pre-tokenised sentence (one spaCy token per given token)."""
        from spacy.tokens import Doc

        docs = (Doc(self.nlp.vocab, words=list(words)) for words in sentences)
        for _name, proc in self._components:
            docs = proc.pipe(docs, batch_size=batch_size)
        out: list[Shape] = []
        for doc in docs:
            roots = [(t.pos_, t.tag_, [(c.dep_, c.tag_) for c in t.children]) for t in doc if t.dep_ == "ROOT"]
            out.append(shape_of(roots))
        return out


@functools.cache
def get_shape_parser(model: str) -> ShapeParser:
    return ShapeParser(model)
