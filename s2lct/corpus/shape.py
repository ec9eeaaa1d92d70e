"""Seed shape from a spaCy dependency parse: a full clause, a noun phrase, another fragment, or several sentences.

Templates that embed a seed after "I thought that" need a clause with a subject; SST holds many
noun-phrase and verb-phrase fragments ("A stupid, derivative horror film.") that read as broken
English there. A dependency parse tells them apart cheaply: the seed is a *clause* when it has
one root, that root governs a subject (nsubj, nsubjpass, csubj, csubjpass, expl) and it is finite
(a present/past verb, or a verb with a finite auxiliary or modal): "a competent entertainment
destined to fill the after-school slot" has a subject-like noun but no finite verb. A clause
whose subject comes after a noun phrase of three or more words hanging off the root ("a sly
female empowerment movie, although not in a way anyone would expect", "a nearly 21/2 hours, the
film is way too indulgent") reads as broken English after "that" and after "Would I call it"
alike, so it counts as a fragment, which no embedding frame takes. A clause that ends in a question
mark is a *question* ("Wow, so who knew Charles Dickens could be so light-hearted?"): after "I feel
that" it is not English either. spaCy already
tags the corpus, so its parser is the cheapest parse we have; the constituency parser of stage 3
(``s2lct.expand.parsing``) is not used here because generation must not import expansion.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from s2lct.corpus.spacy_pipeline import load_pipeline

Shape = Literal["clause", "question", "noun_phrase", "fragment", "sentences"]
SHAPES: tuple[str, ...] = ("clause", "question", "noun_phrase", "fragment", "sentences")
SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_NOUNS = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
_PARSE_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler", "parser")
# bumped when the shape rules below change, so cached shapes are recomputed
SHAPE_RULES_VERSION = "5"  # 5: tense, clauses, finite verbs and subject (issue 23)
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_AUX_DEPS = frozenset({"aux", "auxpass"})
#: dependents of the root that a spaCy parse gives a leading noun phrase it cannot attach
_LOOSE_NOUN_DEPS = frozenset({"npadvmod", "dep", "nmod", "appos"})
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
#: a leading loose noun phrase this long is not a time adverbial ("Last year, ...")
LOOSE_NP_MIN_WORDS = 3


def _leading_noun_phrase(children: Sequence[tuple]) -> bool:
    """A noun phrase of several words before the root's subject, not itself the subject."""
    located = [c for c in children if len(c) >= 4]
    subjects = [c[2] for c in located if c[0] in SUBJECT_DEPS]
    if not subjects:
        return False
    first_subject = min(subjects)
    return any(
        dep in _LOOSE_NOUN_DEPS and tag in _NOUN_TAGS and pos < first_subject and size >= LOOSE_NP_MIN_WORDS
        for dep, tag, pos, size in located
    )


def shape_of(roots: Sequence[tuple[str, str, Sequence[tuple]]], asks: bool = False) -> Shape:
    """Shape from the sentence roots: for each, (coarse PoS, PTB tag, children), a child being
    (dependency, PTB tag) or (dependency, PTB tag, position, words in its subtree). ``asks``: the
    sentence ends in a question mark."""
    if len(roots) != 1:
        return "sentences"
    pos, tag, children = roots[0]
    deps = {c[0] for c in children}
    finite = tag in FINITE_TAGS or any(c[0] in _AUX_DEPS and c[1] in FINITE_TAGS for c in children)
    if SUBJECT_DEPS.intersection(deps) and finite:
        if _leading_noun_phrase(children):
            return "fragment"
        return "question" if asks else "clause"
    if pos in _NOUNS:
        return "noun_phrase"
    return "fragment"


Tense = Literal["present", "past", "modal"]
#: dependents of a clause that head another clause of the same rank (an opinion of their own):
#: coordinated ("..., but it drags"), juxtaposed ("...; it drags") or adverbial ("..., although it drags")
CLAUSE_DEPS = frozenset({"conj", "parataxis", "advcl"})
_TENSE_OF_TAG = {"VBD": "past", "VBZ": "present", "VBP": "present", "MD": "modal"}


@dataclass(frozen=True, slots=True)
class SeedSyntax:
    """What frames need to know about a seed (issue 23): its shape, the tense of its main verb, how
    many clauses carry an opinion of their own, where their finite verbs are, and its subject."""

    shape: Shape
    tense: Tense | None = None  # of the root's finite verb or auxiliary; None: no finite main verb
    clauses: int = 0  # finite clauses with a subject: the root's and those under CLAUSE_DEPS, recursively
    finite: tuple[int, ...] = ()  # token positions of those clauses' finite verbs, the root's first
    subject: str | None = None  # the root's subject, its head word lower-cased ("film", "it")

    def to_json(self) -> list[Any]:
        return [self.shape, self.tense, self.clauses, list(self.finite), self.subject]

    @classmethod
    def from_json(cls, row: Any) -> SeedSyntax:
        if isinstance(row, str):  # a bare shape
            return cls(row)  # type: ignore[arg-type]
        shape, tense, clauses, finite, subject = row
        return cls(shape, tense, clauses, tuple(finite), subject)


def _finite_of(tok: Any) -> Any | None:
    """The token that carries a clause's tense: the verb itself when finite, else its first finite auxiliary."""
    if tok.tag_ in _TENSE_OF_TAG:
        return tok
    return next((c for c in tok.children if c.dep_ in _AUX_DEPS and c.tag_ in _TENSE_OF_TAG), None)


def _has_subject(tok: Any) -> bool:
    return any(c.dep_ in SUBJECT_DEPS for c in tok.children)


def syntax_of(doc: Any, shape: Shape) -> SeedSyntax:
    """Tense, clauses, finite verbs and subject of a parsed seed (spaCy ``Doc``)."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    finite: list[int] = []
    todo = list(roots)
    while todo:
        head = todo.pop(0)
        verb = _finite_of(head)
        if verb is not None and _has_subject(head):
            finite.append(verb.i)
        todo.extend(c for c in head.children if c.dep_ in CLAUSE_DEPS)
    root = roots[0] if roots else None
    root_verb = _finite_of(root) if root is not None else None
    tense = _TENSE_OF_TAG[root_verb.tag_] if root_verb is not None else None
    subject = next((c.text.lower() for c in root.children if c.dep_ in SUBJECT_DEPS), None) if root is not None else None
    return SeedSyntax(shape, tense, len(finite), tuple(finite), subject)  # type: ignore[arg-type]


class ShapeParser:
    def __init__(self, model: str) -> None:
        self.nlp = load_pipeline(model, exclude=["ner", "lemmatizer", "senter"])
        meta = self.nlp.meta
        self.identity = f"spacy:{meta.get('lang', 'xx')}_{meta.get('name', model)}=={meta.get('version', '?')}+shape{SHAPE_RULES_VERSION}"
        self._components = [(n, p) for n, p in self.nlp.pipeline if n in _PARSE_COMPONENTS]

    def shapes(self, sentences: Sequence[Sequence[str]], batch_size: int = 256) -> list[Shape]:
        """The shape of each pre-tokenised sentence (one spaCy token per given token)."""
        return [s.shape for s in self.analyse(sentences, batch_size)]

    def analyse(self, sentences: Sequence[Sequence[str]], batch_size: int = 256) -> list[SeedSyntax]:
        """Shape, tense, clauses and subject of each pre-tokenised sentence."""
        from spacy.tokens import Doc

        docs = (Doc(self.nlp.vocab, words=list(words)) for words in sentences)
        for _name, proc in self._components:
            docs = proc.pipe(docs, batch_size=batch_size)
        out: list[SeedSyntax] = []
        for doc in docs:
            roots = [
                (t.pos_, t.tag_, [(c.dep_, c.tag_, c.i, c.right_edge.i - c.left_edge.i + 1) for c in t.children])
                for t in doc
                if t.dep_ == "ROOT"
            ]
            out.append(syntax_of(doc, shape_of(roots, asks=_ends_with_question_mark([t.text for t in doc]))))
        return out


_CLOSERS = frozenset({"''", "'", '"', ")", "-RRB-", "..."})


def _ends_with_question_mark(words: Sequence[str]) -> bool:
    tail = [w for w in words if w not in _CLOSERS]
    return bool(tail) and tail[-1].endswith("?")


@functools.cache
def get_shape_parser(model: str) -> ShapeParser:
    return ShapeParser(model)
