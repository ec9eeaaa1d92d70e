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
that" it is not English either, and nor is a question without one ("Boy, has this franchise ever
run out of gas."). Two more forms have a subject and a finite verb and still cannot follow "that"
(issue 23's blind read): an *exclamation* ("What a bewilderingly brilliant movie this is.", one
opened by an interjection: "Look, this is a terrific flick", "Wow, ...") and an *imperative*
("Leave these Flowers unpicked -- they're dead on the vine.", "Imagine O. Henry's The Gift of the
Magi relocated to ..."). A superlative subject before a past participle that the tagger took for a
past verb ("Undoubtedly the scariest movie ever made about tattoos.") is a noun phrase, so a
fragment. spaCy already
tags the corpus, so its parser is the cheapest parse we have; the constituency parser of stage 3
(``s2lct.expand.parsing``) is not used here because generation must not import expansion.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from s2lct.corpus.referent import Referent, subject_referent
from s2lct.corpus.spacy_pipeline import load_pipeline
from s2lct.spec.terms import Shape, Tense  # the spec language's names for what this module finds

SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass", "csubj", "csubjpass", "expl"})
_NOUNS = frozenset({"NOUN", "PROPN", "PRON", "NUM"})
_PARSE_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler", "parser", "ner")
# bumped when the shape rules below change, so cached shapes are recomputed
SHAPE_RULES_VERSION = "20"  # 5: tense, clauses, finite verbs and subject; 6-7: exclamation, imperative, inverted questions, noun phrases read as clauses, subordinate clauses alone (issue 23); 8-9: an indefinite subject with a relative clause; 10: a main "verb" that is no verb; 11: an unknown word WordNet has no verb for; 12: an imperative after a dash or semicolon, "so" before a word it grades is no conjunction; 13: that imperative with a capitalised verb only on the main clause (not a title's "Enter"), a verb coordinated with an apposition's relative clause is no main verb; 14: a noun phrase with a clause joined to it; 15: an article alone is no subject; 16: an inverted copula with a clause for its subject ("..., but even more reassuring is how ...") is a clause, a free relative alone ("Exactly what its title implies: ...") a fragment; 17: whether the subject is a person, and of which gender the seed shows (``referent``); 18: "Too bad ..." is an exclamation, a clause wholly inside quotation marks a quotation; 19: a noun whose participle clause took its own complement's verb for the main verb ("An impressive debut ..., especially considering his background is in music video.") is a fragment; 20: a complement clause before its verb counts as a clause of its own (a splice: read 33), a speaker's comment or a call to the reader at the start ("Frankly, ...", "folks, ...") is dropped by a frame
FINITE_TAGS = frozenset({"VBD", "VBZ", "VBP", "MD"})
_AUX_DEPS = frozenset({"aux", "auxpass"})
#: dependents of the root that a spaCy parse gives a leading noun phrase it cannot attach
_LOOSE_NOUN_DEPS = frozenset({"npadvmod", "dep", "nmod", "appos"})
_NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
#: dependents of a noun-phrase root that join a clause of its own to it
_SPLICED_DEPS = frozenset({"conj", "parataxis"})
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


#: what a frame drops from the start of a seed before embedding it ("And ...", "Yes, ...", "... ");
#: ``s2lct.generate.transforms.strip_leading_conjunction``
LEADING_CONJUNCTIONS = frozenset({"and", "but", "or", "so", "yet", "nor", "plus"})
#: discourse words that open a seed only when a comma follows ("Yes, ...", "Well, ...")
#: a speaker's comment on his own words ("Frankly, ...") and a call to the reader ("folks, ...") go too: after "Do I
#: think that" they clash (reads 33, 34)
LEADING_INTERJECTIONS = frozenset({"yes", "no", "well", "oh", "ok", "okay", "sure", "alas", "still", "now", "frankly", "honestly",
                                   "personally", "seriously", "folks"})
LEADING_PUNCT = frozenset({"...", "..", "--", "-", ",", ";", ":"})
#: marks after which a second clause starts ("... movie -- go see it")
CLAUSE_DASHES = frozenset({"--", "-", "—", ";", ":"})
#: a clause opened by one of these and attached to the root is subordinate: no main clause follows
SUBORDINATORS = frozenset({"when", "if", "because", "although", "though", "while", "since", "unless", "whereas", "once", "whenever"})
#: words that open an exclamation when a comma follows ("Look, ...", "Boy, ..."); spaCy tags some
#: of them as verbs or nouns, so the tag alone does not find them
INTERJECTIONS = frozenset({"look", "listen", "boy", "man", "wow", "hey", "ah", "gosh", "god", "jeez", "whoa", "please", "say"})


@functools.cache
def _grades(word: str) -> bool:
    """Whether "so" before this word is a degree word, not a conjunction: an adjective, an adverb
    or a quantifier WordNet knows ("So stupid, so ill-conceived ...", "So few movies explore
    religion that ...": dropped, the seed lost its first degree word, blind reads), and no pronoun
    or determiner ("So it goes", "So the film ...")."""
    from nltk.corpus import wordnet as wn

    if word in _CLAUSE_OPENERS:
        return False
    return bool(wn.synsets(word, pos=wn.ADJ) or wn.synsets(word, pos=wn.ADV)) or word in ("few", "many", "much", "little")


#: words that open a clause after a conjunction "so" (WordNet lists some as adjectives or adverbs: "I", "then", "now")
_CLAUSE_OPENERS = frozenset("i you he she it we they this that these those there here the a an then now if when what why how".split())


def opening_dropped(words: Sequence[str]) -> int:
    """How many words at the start a frame drops: conjunctions, "..." and an interjection with its
    comma; "so" only as a conjunction (not "So stupid, ...")."""
    n = 0
    while n < len(words) - 1:
        word = words[n].lower()
        if word == "so" and _grades(words[n + 1].lower()):
            break
        if words[n] in LEADING_PUNCT or word in LEADING_CONJUNCTIONS:
            n += 1
        elif word in LEADING_INTERJECTIONS and words[n + 1] == ",":
            n += 2
        else:
            break
    return n if n < len(words) else 0


def mood_of(doc: Any) -> Shape | None:
    """The form of a parsed clause when it is not a plain statement (spaCy ``Doc``): "question"
    (finite verb or auxiliary before the root's subject), "exclamation", "imperative", "fragment"
    (a subordinate clause alone, or a noun phrase the parser read as a clause), or None."""
    rest = doc[opening_dropped([t.text for t in doc]) :]  # what the frame will embed
    words = [t for t in rest if not t.is_punct]
    if not words:
        return None
    first = words[0]
    low = first.text.lower()
    if any(t.dep_ == "intj" or t.tag_ == "UH" for t in rest) or (
        low in INTERJECTIONS and first.i + 1 < len(doc) and doc[first.i + 1].text == ","
    ):
        return "exclamation"
    if low in ("what", "how") and len(words) > 1 and words[1].tag_ in ("DT", "JJ", "JJR", "RB"):
        return "exclamation"  # "What a ... this is", "How good it is"
    if low == "too" and len(words) > 1 and words[1].text.lower() == "bad":
        return "exclamation"  # "Too bad writer-director Adam Rifkin situates it all in ...": after "Do I think that", read 30
    if first.tag_ == "VB" and not any(c.dep_ in SUBJECT_DEPS or c.dep_ in _AUX_DEPS for c in first.children):
        return "imperative"  # "Leave these Flowers unpicked -- ..."
    if first.tag_ == "NNP" and first.text[:1].isupper() and _only_a_verb(low):
        return "imperative"  # "Imagine" tagged as a name
    if any(t.tag_ == "VB" and t.i > first.i and doc[t.i - 1].text in CLAUSE_DASHES
           and (t.text[:1].islower() or t.head.dep_ == "ROOT") and not any(c.dep_ in SUBJECT_DEPS or c.dep_ in _AUX_DEPS for c in t.children) for t in rest):
        return "imperative"  # "This is a very fine movie--go see it.": embedded, "I think that ...--go see it";
        # a capitalised one only on the main clause ("...: Make a movie about ..."), not a title's verb that
        # modifies a noun ("The concept behind Kung Pow: Enter the Fist is hilarious")
    if low in SUBORDINATORS and first.head.dep_ == "ROOT" and first.dep_ in ("advmod", "mark"):
        return "fragment"  # "When Leguizamo finally plugged an irritating character late in the movie."
    roots = [t for t in doc if t.dep_ == "ROOT"]
    if len(roots) == 1:
        return _misparsed_clause(doc, roots[0], first)
    return None


def _root_coordinated_with(doc: Any, root: Any, relative: list[Any], after_subtree: bool = False) -> bool:
    """Whether the parser made a verb coordinated with the last relative clause the main verb: only
    punctuation and a conjunction lie between them (after the relative's head, or after its whole
    subtree), and the root has the relative's verb form."""
    if not relative:
        return False
    last = relative[-1]
    gap = doc[(last.right_edge.i if after_subtree else last.i) + 1 : root.i]
    return len(gap) > 0 and all(t.is_punct or t.tag_ == "CC" for t in gap) and root.tag_ == last.tag_


def _misparsed_clause(doc: Any, root: Any, first: Any) -> Shape | None:
    """A clause by its dependencies that a reader does not take for one: an inverted question, or
    a noun phrase whose relative clause or participle the parser made the main verb."""
    subjects = [c for c in root.children if c.dep_ in SUBJECT_DEPS]
    if not subjects:
        return None
    if root.tag_.startswith("VB") and _not_a_verb(root.text.lower()):
        return "fragment"  # "A film of ideas and wry comic mayhem.": the tagger made "wry" the verb
    auxes = [c.i for c in root.children if c.dep_ in _AUX_DEPS and c.tag_ in FINITE_TAGS]
    if (auxes and min(auxes) < subjects[0].i) or (root.i == first.i and root.tag_ in FINITE_TAGS):
        return "question"  # "Has this franchise ever run out of gas.", "Has the capability of ..."
    if any(c.tag_ in ("WP", "WDT") and c.dep_ in ("dobj", "attr") and c.i < subjects[0].i for c in root.children):
        return "fragment"  # "Exactly what its title implies: lusty, boisterous and utterly charming.": a free
        # relative alone is a noun phrase ("I used to think that exactly what its title implied: ..." came into LC3 with this stop's first draft)
    if len(subjects) > 1:
        return "fragment"  # "An engrossing portrait of a man whose engaging manner ... made him ...": two subjects
    subject = subjects[0]
    relative = [c for c in subject.children if c.dep_ == "relcl" and c.i < root.i]
    apposition_relative = [c for a in subject.children if a.dep_ == "appos" for c in a.children if c.dep_ == "relcl" and c.i < root.i]
    if _root_coordinated_with(doc, root, relative) or _root_coordinated_with(doc, root, apposition_relative, after_subtree=True):
        return "fragment"  # "A grittily beautiful film that looks, sounds, and feels ...": the root is the relative's;
        # "A comprehensive and provocative film--one that pushes the boundaries of biography, and challenges its
        # audience" (read 17): the relative of an apposition
    if subject.tag_.startswith("NN") and any(c.dep_ == "advcl" and c.tag_ in ("VBG", "VBN") and subject.i < c.i and c.right_edge.i + 1 == root.i
                                           for c in subject.children):
        return "fragment"  # "An impressive debut for ... Mark Romanek, especially considering his background is in
        # music video." (read 32): a noun's adverbial clause took the verb of its own complement for the main verb
    after = subject.right_edge.i + 1
    relative_next = after < len(doc) and doc[after].tag_ in ("WDT", "WP") and doc[after].i < root.i
    if (relative or relative_next) and subject.left_edge.i == first.i and first.text.lower() in ("a", "an"):
        return "fragment"  # "A movie that both thrills the eye and, in its way, touches the heart.", "A fast-moving
        # film that appears destined to ...": an indefinite noun phrase with a relative clause (or a relative
        # pronoun right after it) is how SST's fragments read; after "think that" it has no verb
    if root.tag_ == "VBD" and not any(c.dep_ == "dobj" for c in root.children):
        if any(c.tag_ == "JJS" or (c.tag_ == "JJ" and any(g.tag_ == "RBS" for g in c.children)) for c in subject.children):
            return "fragment"  # "the scariest movie ever made about tattoos"
        if subject.tag_ == "NN" and not any(c.dep_ in ("det", "poss", "nummod") for c in subject.children):
            return "fragment"  # "Hypnotically dull, ... wail pitched to the cadence of ...": a bare noun before a participle
    return None


@functools.cache
def _not_a_verb(word: str) -> bool:
    """A word the tagger took for the main verb that English never uses as one: lemminflect knows it
    and has no verb or auxiliary reading of it ("wry"), or it is a word it does not know that is a
    hyphenated compound ("by-the-numbers") or no verb form WordNet knows (the title "ivans xtc" in
    "A directorial tour de force by Bernard Rose, ivans xtc.")."""
    from lemminflect import getAllLemmas
    from nltk.corpus import wordnet as wn

    lemmas = getAllLemmas(word)
    if not lemmas:
        return "-" in word or wn.morphy(word, wn.VERB) is None
    return not {"VERB", "AUX"} & set(lemmas)


@functools.cache
def _only_a_verb(word: str) -> bool:
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word)
    return set(lemmas) == {"VERB"}


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
        if any(c[0] in _SPLICED_DEPS and c[1] in FINITE_TAGS for c in children):
            return "fragment"  # "A very witty take on change, risk and romance, and the film uses humour ...": a
            # noun phrase and a clause; "Would I call it ...?" would take the clause for part of its object (read 23)
        return "noun_phrase"
    return "fragment"


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
    predicate: int | None = None  # position of the first word after the root's subject (and all before it); None: no subject
    referent: Referent | None = None  # the subject is a person ("he", "she", "person": gender not shown) or not (None)

    def to_json(self) -> list[Any]:
        return [self.shape, self.tense, self.clauses, list(self.finite), self.subject, self.predicate, self.referent]

    @classmethod
    def from_json(cls, row: Any) -> SeedSyntax:
        if isinstance(row, str):  # a bare shape
            return cls(row)  # type: ignore[arg-type]
        shape, tense, clauses, finite, subject, predicate, *rest = row
        return cls(shape, tense, clauses, tuple(finite), subject, predicate, rest[0] if rest else None)


def _finite_of(tok: Any) -> Any | None:
    """The token that carries a clause's tense: the verb itself when finite, else its first finite auxiliary."""
    if tok.tag_ in _TENSE_OF_TAG:
        return tok
    return next((c for c in tok.children if c.dep_ in _AUX_DEPS and c.tag_ in _TENSE_OF_TAG), None)


def _has_subject(tok: Any) -> bool:
    return any(c.dep_ in SUBJECT_DEPS for c in tok.children)


def _inverted(tok: Any) -> bool:
    """A copula whose predicative comes first and whose subject follows as a clause, which the
    parser leaves without a subject ("..., but even more reassuring is how its makers ...": read
    24 took it for one clause, so a question frame took the seed)."""
    return any(c.dep_ in ("acomp", "attr") and c.i < tok.i for c in tok.children) and any(
        c.dep_ in ("ccomp", "csubj") and c.i > tok.i for c in tok.children)


def syntax_of(doc: Any, shape: Shape) -> SeedSyntax:
    """Tense, clauses, finite verbs and subject of a parsed seed (spaCy ``Doc``)."""
    roots = [t for t in doc if t.dep_ == "ROOT"]
    finite: list[int] = []
    todo = list(roots)
    while todo:
        head = todo.pop(0)
        verb = _finite_of(head)
        if verb is not None and (_has_subject(head) or _inverted(head)):
            finite.append(verb.i)
        # a complement clause before its verb is no complement: a clause spliced on ("... strangers in town - with
        # honest performances ..., this is a coming-of-age story": read 33) or one a comment follows ("..., I think")
        todo.extend(c for c in head.children if c.dep_ in CLAUSE_DEPS or (c.dep_ == "ccomp" and c.i < head.i))
    root = roots[0] if roots else None
    root_verb = _finite_of(root) if root is not None else None
    tense = _TENSE_OF_TAG[root_verb.tag_] if root_verb is not None else None
    head = next((c for c in root.children if c.dep_ in SUBJECT_DEPS), None) if root is not None else None
    subject = head.text.lower() if head is not None else None
    if subject == "it" and _extraposed(root):
        subject = None  # "it's hard to imagine acting that could be any flatter": "it" is not the film
    predicate = head.right_edge.i + 1 if head is not None else None
    referent = subject_referent(doc, root, head) if subject is not None else None
    return SeedSyntax(shape, tense, len(finite), tuple(finite), subject, predicate, referent)  # type: ignore[arg-type]


_COPULAS = frozenset({"is", "'s", "was", "be", "seems", "seemed", "appears", "appeared"})


def _extraposed(root: Any) -> bool:
    """The root's "it" stands for a clause after it ("it's spooky how Lillard channels the
    Shagster", "it's hard to imagine acting that ...", "it seems that ..."), not for a thing; "it's
    hard to watch" (nothing after "watch": "it" is what is watched) keeps its subject."""
    if root.text.lower() not in _COPULAS:
        return False
    heads = [root, *(c for c in root.children if c.dep_ in ("acomp", "attr"))]
    for head in heads:
        for c in head.children:
            if c.i < root.i:
                continue
            if c.dep_ in ("ccomp", "csubj"):
                return True
            if c.dep_ == "xcomp" and any(g.dep_ in ("dobj", "ccomp", "nsubj") for g in c.children):
                return True
    return False


class ShapeParser:
    def __init__(self, model: str) -> None:
        self.nlp = load_pipeline(model, exclude=["lemmatizer", "senter"])
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
            shape = shape_of(roots, asks=_ends_with_question_mark([t.text for t in doc]))
            if shape == "clause" and _article_subject(doc):
                shape = "noun_phrase"
            if shape == "clause":
                shape = mood_of(doc) or shape
            if shape == "clause" and _quoted([t.text for t in doc]):
                shape = "quotation"
            out.append(syntax_of(doc, shape))
        return out


def _article_subject(doc) -> bool:
    """A root whose subject is an article alone: "A must see for all sides of the political
    spectrum" is the noun phrase "a must-see", which the parser reads as "A | must see" (it sat
    in seven cases of the suite before shape 15: "I used to think that a must see for ...")."""
    return any(
        t.dep_ == "ROOT" and any(c.dep_ in SUBJECT_DEPS and c.lower_ in ("a", "an", "the") and not list(c.children) for c in t.children)
        for t in doc
    )


_CLOSERS = frozenset({"''", "'", '"', ")", "-RRB-", "..."})


_OPENING_QUOTES = frozenset({"'", '"', "`", "``"})
_CLOSING_QUOTES = frozenset({"'", '"', "''"})


def _quoted(words: Sequence[str]) -> bool:
    """The clause is wholly inside quotation marks ("'This movie sucks.'"): someone's words, which
    after "Do I think that" read as a quotation, not as the seed's own opinion (read 30)."""
    inner = list(words)
    while inner and inner[-1] in (".", "!", "?", "..."):
        inner.pop()
    if len(inner) < 3 or inner[0] not in _OPENING_QUOTES:
        return False
    if inner[-1] in _CLOSING_QUOTES:
        return True
    return inner[-2] in _CLOSING_QUOTES and inner[-1] in (".", "!", "?")  # "'It's all about the image.'"


def _ends_with_question_mark(words: Sequence[str]) -> bool:
    tail = [w for w in words if w not in _CLOSERS]
    return bool(tail) and tail[-1].endswith("?")


@functools.cache
def get_shape_parser(model: str) -> ShapeParser:
    return ShapeParser(model)
