"""Annotated corpus: each labelled sentence with its PoS tags and the word classes it contains.

Annotating once ("positive adj", "neutral noun", ...) makes every search rule a few set
operations; expansion re-annotates an expanded seed the same way to check it still meets the rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file
from s2lct.cache import cached_json, code_fingerprint, library_version
from s2lct.config import Settings, configure_nltk
from s2lct.corpus.polarity import SentiWordNetPolarity, get_polarity, wordnet_pos
from s2lct.corpus.sst import Sentence, load_sst, sst_files
from s2lct.corpus.shape import SeedSyntax, get_shape_parser
from s2lct.corpus.tagging import get_tagger
from s2lct.progress import ProgressFactory, no_progress
from s2lct.text import keeps_capital

_WN_CLASS = {"a": "adj", "n": "noun", "v": "verb", "r": "adv"}


@dataclass(frozen=True, slots=True)
class AnnotatedSentence:
    sentence: Sentence
    tags: tuple[str, ...]
    word_classes: frozenset[str]
    words: frozenset[str]
    n_words: int
    # clause / question / noun_phrase / fragment / sentences (``s2lct.corpus.shape``); None when not parsed
    shape: str | None = None
    # whether the first word keeps its capital inside another sentence; None: decide from the tag
    first_keeps_capital: bool | None = None
    # tense, clauses, finite verbs and subject from the same parse (``s2lct.corpus.shape``); None when not parsed
    syntax: SeedSyntax | None = None

    @property
    def persons(self) -> frozenset[str]:
        """Who the seed speaks as or to (``persons_of``)."""
        return persons_of(self.tokens)

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.sentence.tokens

    @property
    def text(self) -> str:
        return self.sentence.text

    @property
    def label(self) -> str:
        return self.sentence.label


FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "we", "us", "our", "ours", "ourselves"})
SECOND_PERSON = frozenset({"you", "your", "yours", "yourself", "yourselves", "ya", "y'all"})


def persons_of(tokens: Sequence[str]) -> frozenset[str]:
    """``first`` when the seed has a first-person pronoun, ``second`` a second-person one, else
    ``third``: "Many critics say that" + "I loved every minute" mixes two voices, whoever the
    sentence's grammatical subject is."""
    words = {t.lower() for t in tokens}
    out = {name for name, ws in (("first", FIRST_PERSON), ("second", SECOND_PERSON)) if words & ws}
    return frozenset(out or {"third"})


def count_words(tokens: Iterable[str]) -> int:
    """Words are tokens with at least one letter or digit (punctuation does not count)."""
    return sum(1 for t in tokens if any(c.isalnum() for c in t))


def word_classes(tokens: Sequence[str], tags: Sequence[str], polarity: SentiWordNetPolarity) -> frozenset[str]:
    out = set()
    for tok, tag in zip(tokens, tags, strict=True):
        wn = wordnet_pos(tag)
        if wn is None:
            continue
        pol = polarity.polarity(tok, tag)
        if pol != "mixed":
            out.add(f"{pol} {_WN_CLASS[wn]}")
    return frozenset(out)


def annotate(
    sentence: Sentence,
    tags: Sequence[str],
    polarity: SentiWordNetPolarity,
    shape: str | None = None,
    first_keeps_capital: bool | None = None,
    syntax: SeedSyntax | None = None,
) -> AnnotatedSentence:
    return AnnotatedSentence(
        sentence,
        tuple(tags),
        word_classes(sentence.tokens, tags, polarity),
        frozenset(t.lower() for t in sentence.tokens),
        count_words(sentence.tokens),
        shape,
        first_keeps_capital,
        syntax,
    )


class CapitalEvidence:
    """How a word is written *inside* sentences of the corpus: lower-cased or capitalised.

    spaCy tags many capitalised sentence-initial common words as proper nouns ("Dull, a road-trip
    movie", "Hope keeps arising"), so its tag alone would keep a capital mid-sentence. Where the
    corpus writes the word inside sentences more often lower-cased than capitalised, it is a common
    word; where the corpus has no evidence, spaCy's tag decides.
    """

    def __init__(self, sentences: Iterable[Sequence[str]]) -> None:
        self.lower: Counter[str] = Counter()
        self.capital: Counter[str] = Counter()
        for tokens in sentences:
            for tok in tokens[1:]:
                if tok[:1].islower():
                    self.lower[tok] += 1
                elif tok[:1].isupper() and not tok.isupper():
                    self.capital[tok.lower()] += 1

    def keeps_capital(self, token: str, tag: str) -> bool:
        if token == "I" or token.startswith("I'") or (len(token) > 1 and token.isupper()):
            return True
        low, cap = self.lower[token.lower()], self.capital[token.lower()]
        if low or cap:
            return cap >= low
        return keeps_capital(token, tag)


def data_hashes(data_root: Path) -> dict[str, str]:
    root = Path(data_root)
    return {str(p.relative_to(root)): sha256_file(p) for p in sst_files(root).values()}


def load_annotated_corpus(
    settings: Settings, progress: ProgressFactory = no_progress
) -> tuple[list[AnnotatedSentence], dict[str, Any]]:
    """SST sentences with PoS tags, word classes and shapes; tagging and parsing are cached on disk.

    Every cache key holds the data hashes, the settings and library versions used, and the
    fingerprint of the code that computes the entry, so no entry from older code is ever reused.
    """
    configure_nltk(settings)
    hashes = data_hashes(settings.data_root)
    tagger_name = settings.spacy_model
    data_key = sorted(hashes.values())
    text_code = [code_fingerprint("s2lct.corpus.sst", "s2lct.text"), library_version("nltk")]
    spacy_key = [tagger_name, library_version("spacy")]

    def compute_sentences() -> list[list[Any]]:
        return [[list(s.tokens), s.text, s.label, s.split, s.index, s.fine_label, s.phrase_labels, s.phrase_longest, s.phrase_first_end]
                for s in load_sst(settings.data_root)]

    rows, _ = cached_json(settings.cache_dir, "corpus", ["sst", *text_code, *data_key], compute_sentences)
    sentences = [
        Sentence(tuple(t), text, label, split, idx, "sst", fine, tuple(phrases) if phrases is not None else None,  # type: ignore[arg-type]
                 tuple(longest) if longest is not None else None, tuple(first_end) if first_end is not None else None)  # type: ignore[arg-type]
        for t, text, label, split, idx, fine, phrases, longest, first_end in rows
    ]

    def compute_tags() -> dict[str, Any]:
        tagger = get_tagger(tagger_name)
        task = progress("tagging corpus", len(sentences))
        out = []
        batch = 512
        for i in range(0, len(sentences), batch):
            chunk = sentences[i : i + batch]
            out.extend(" ".join(tags) for tags in tagger.tag([s.tokens for s in chunk]))
            task.advance(len(chunk))
        task.close()
        return {"identity": tagger.identity, "tags": out}

    token_key = [*text_code, *spacy_key, *data_key]
    tagged, _ = cached_json(settings.cache_dir, "tags", ["sst-tags", code_fingerprint("s2lct.corpus.tagging"), *token_key], compute_tags)

    def compute_shapes() -> dict[str, Any]:
        parser = get_shape_parser(tagger_name)
        task = progress("parsing corpus (seed shapes)", len(sentences))
        out: list[Any] = []
        batch = 512
        for i in range(0, len(sentences), batch):
            chunk = sentences[i : i + batch]
            out.extend(s.to_json() for s in parser.analyse([s.tokens for s in chunk]))
            task.advance(len(chunk))
        task.close()
        return {"identity": parser.identity, "shapes": out}

    shaped, _ = cached_json(settings.cache_dir, "shapes", ["sst-shapes", code_fingerprint("s2lct.corpus.shape"), *token_key], compute_shapes)
    polarity = get_polarity()
    capitals = CapitalEvidence(s.tokens for s in sentences)
    syntaxes = [SeedSyntax.from_json(row) for row in shaped["shapes"]]
    corpus = [
        annotate(s, tag_line.split(" "), polarity, syntax.shape, capitals.keeps_capital(s.tokens[0], tag_line.split(" ", 1)[0]), syntax)
        for s, tag_line, syntax in zip(sentences, tagged["tags"], syntaxes, strict=True)
    ]
    polarity.save()
    resources = {"tagger": tagged["identity"], "shape_parser": shaped["identity"], "polarity": polarity.identity}
    return corpus, {"data": hashes, "resources": resources}
