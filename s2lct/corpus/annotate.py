"""Annotated corpus: each labelled sentence with its PoS tags and the word classes it contains.

Annotating once ("positive adj", "neutral noun", ...) makes every search rule a few set
operations; expansion re-annotates an expanded seed the same way to check it still meets the rules.
"""

from __future__ import annotations

import functools
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
from s2lct.corpus.shape import FINITE_TAGS, SeedSyntax, get_shape_parser, opening_dropped
from s2lct.corpus.tagging import get_tagger
from s2lct.errors import S2LCTError
from s2lct.progress import ProgressFactory, no_progress
from s2lct.scale.base import Engine
from s2lct.scale.engine import LocalEngine
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
    # whether the first word a frame embeds (after what ``opening_dropped`` drops) keeps its capital
    # inside another sentence; None: decide from the tag
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
    word; where the corpus has no evidence, spaCy's tag decides. An adverb in "-ly" that WordNet
    knows is lower-cased whatever the evidence ("... Stylistically, the movie is a disaster": the
    corpus's one capital is that sentence's own start after "...", and no name is such an adverb).
    """

    def __init__(self, sentences: Iterable[Sequence[str]]) -> None:
        self.lower: Counter[str] = Counter()
        self.capital: Counter[str] = Counter()
        self.lower_before: Counter[tuple[str, str]] = Counter()
        self.capital_before: Counter[tuple[str, str]] = Counter()
        # three words whose third is capitalised, counted wherever the first stands inside a
        # sentence (also after a bracket or comma): a title's opening ("Murder by Numbers")
        self.lower_title: Counter[tuple[str, str, str]] = Counter()
        self.capital_title: Counter[tuple[str, str, str]] = Counter()
        for tokens in sentences:
            for i, tok in enumerate(tokens[1:], 1):
                if i + 2 < len(tokens) and tokens[i + 2][:1].isupper():
                    key = (tok.lower(), tokens[i + 1].lower(), tokens[i + 2].lower())
                    if tok[:1].islower():
                        self.lower_title[key] += 1
                    elif tok[:1].isupper():
                        self.capital_title[key] += 1
                # the pair counts only after a word: after "...", "--" or ":" a sentence may start again
                after = tokens[i + 1] if i + 1 < len(tokens) and tokens[i - 1][:1].isalnum() else None
                if tok[:1].islower():
                    self.lower[tok] += 1
                    if after is not None:
                        self.lower_before[tok, after] += 1
                elif tok[:1].isupper() and not tok.isupper():
                    self.capital[tok.lower()] += 1
                    if after is not None:
                        self.capital_before[tok.lower(), after] += 1

    def keeps_capital(self, token: str, tag: str, after: str = "", verb_follows: bool = False, third: str = "") -> bool:
        """``after`` is the next token: the corpus's evidence for the two words together decides
        first ("Men in Black II has sequel-itis ...": "men" is lower-cased inside sentences, "Men in"
        mostly not), and a number before a capitalised word opens a title ("Two Weeks Notice").
        ``third``, the word after that, when capitalised: the three words written so inside
        sentences more often than not open a title ("Murder by Numbers just doesn't add up",
        note 43: "murder by Numbers" after a frame).
        Where the corpus has no evidence for the word, a capital inside it ("IHOPs") or a subject
        no dictionary knows (``verb_follows``: the next word is a finite verb) is a name: spaCy
        tags "Hatosy ... portrays" and "Louiso lets" as common nouns."""
        if token == "I" or token.startswith("I'") or (len(token) > 1 and token.isupper()):
            return True
        if _ly_adverb(token.lower()):
            return False
        if after:
            low, cap = self.lower_before[token.lower(), after], self.capital_before[token.lower(), after]
            if low + cap >= 2 and cap != low:  # a single or tied count is as often a title's tail ("All or Nothing is") as a name
                return cap > low
            if tag == "CD" and after[:1].isupper() and after != "I" and not after.isupper():
                return True
            if third[:1].isupper() and third != "I":
                key = (token.lower(), after.lower(), third.lower())
                if self.capital_title[key] > self.lower_title[key]:
                    return True
        low, cap = self.lower[token.lower()], self.capital[token.lower()]
        if low or cap:
            return cap >= low
        if any(ch.isupper() for ch in token[1:]) or (verb_follows and tag != "UH" and unknown_name(token)):
            return True
        return keeps_capital(token, tag)


#: endings of words made from other words (an adverb, a gerund, an abstract noun), which a writer
#: coins ("Talkiness", "Vibrantly") and no name has
_DERIVED_ENDINGS = ("ly", "ing", "ness")


@functools.cache
def unknown_name(token: str) -> bool:
    """A single alphabetic word WordNet does not know in any inflection and that does not end like
    a coined derivation: as a sentence's subject, most likely a surname ("Grenier", "Arteta")."""
    from nltk.corpus import wordnet as wn

    word = token.lower()
    if not token.isalpha() or word.endswith(_DERIVED_ENDINGS):
        return False
    return not wn.synsets(word) and wn.morphy(word) is None


def verb_follows(tokens: Sequence[str], tags: Sequence[str], i: int) -> bool:
    """Whether the first word after ``tokens[i]`` (past punctuation: "Hatosy ... portrays") is a finite verb."""
    nxt = next((j for j in range(i + 1, len(tokens)) if tokens[j][:1].isalnum()), None)
    return nxt is not None and tags[nxt] in FINITE_TAGS


@functools.cache
def _ly_adverb(word: str) -> bool:
    from nltk.corpus import wordnet as wn

    return word.endswith("ly") and bool(wn.synsets(word, pos=wn.ADV))


class TagBatch:
    """An engine worker (``s2lct.scale.engine``): PoS tags of one batch of sentences."""

    def __init__(self, model: str) -> None:
        self.tagger = get_tagger(model)

    def __call__(self, batch: Sequence[Sequence[str]]) -> tuple[str, list[str]]:
        return self.tagger.identity, [" ".join(tags) for tags in self.tagger.tag(batch)]


class ShapeBatch:
    """An engine worker: the seed shape and syntax of one batch of sentences (``s2lct.corpus.shape``)."""

    def __init__(self, model: str) -> None:
        self.parser = get_shape_parser(model)

    def __call__(self, batch: Sequence[Sequence[str]]) -> tuple[str, list[Any]]:
        return self.parser.identity, [s.to_json() for s in self.parser.analyse(batch)]


def _table_corpus(settings: Settings, engine: Engine, text_code: list[str], progress: ProgressFactory) -> tuple[list[Sentence], dict[str, str]]:
    """The ``corpus`` setting's sentences (``s2lct.corpus.shards``), read one shard per engine batch."""
    from s2lct.corpus.shards import ReadShard, find_shards, rows_to_sentences, shard_hashes

    root, shards = find_shards(settings.corpus)  # type: ignore[arg-type]
    hashes = shard_hashes(root, shards)
    columns = [settings.corpus_text_column, settings.corpus_label_column]

    def compute() -> list[list[Any]]:
        task = progress("reading corpus shards", len(shards))
        read = engine.map_batches("read", functools.partial(ReadShard, str(root), *columns), [str(p) for p in shards], task, weight=lambda _: 1)
        task.close()
        return [row for rows in read for row in rows]

    rows, _ = cached_json(settings.cache_dir, "corpus", ["table", code_fingerprint("s2lct.corpus.shards"), *text_code, *columns, *(f"{k}={v}" for k, v in sorted(hashes.items()))], compute)
    return rows_to_sentences(rows), hashes


def data_hashes(data_root: Path) -> dict[str, str]:
    root = Path(data_root)
    return {str(p.relative_to(root)): sha256_file(p) for p in sst_files(root).values()}


def load_annotated_corpus(
    settings: Settings, progress: ProgressFactory = no_progress, engine: Engine | None = None
) -> tuple[list[AnnotatedSentence], dict[str, Any]]:
    """SST sentences (or the ``corpus`` setting's tables) with PoS tags, word classes and shapes;
    tagging and parsing are cached on disk and computed by ``engine`` (default: this process).

    Every cache key holds the data hashes, the settings and library versions used, and the
    fingerprint of the code that computes the entry, so no entry from older code is ever reused.
    """
    configure_nltk(settings)
    engine = engine if engine is not None else LocalEngine()
    tagger_name = settings.spacy_model
    text_code = [code_fingerprint("s2lct.corpus.sst", "s2lct.text"), library_version("nltk")]
    spacy_key = [tagger_name, library_version("spacy")]
    if settings.corpus:
        kind, sentences, hashes = "table", *_table_corpus(settings, engine, text_code, progress)
        data_key = [*sorted(hashes.values()), settings.corpus_text_column, settings.corpus_label_column]  # other columns, other sentences
    else:
        kind, hashes = "sst", data_hashes(settings.data_root)
        data_key = sorted(hashes.values())

        def compute_sentences() -> list[list[Any]]:
            return [[list(s.tokens), s.text, s.label, s.split, s.index, s.fine_label, s.phrase_labels, s.phrase_longest, s.phrase_first_end]
                    for s in load_sst(settings.data_root)]

        rows, _ = cached_json(settings.cache_dir, "corpus", ["sst", *text_code, *data_key], compute_sentences)
        sentences = [
            Sentence(tuple(t), text, label, split, idx, "sst", fine, tuple(phrases) if phrases is not None else None,  # type: ignore[arg-type]
                     tuple(longest) if longest is not None else None, tuple(first_end) if first_end is not None else None)  # type: ignore[arg-type]
            for t, text, label, split, idx, fine, phrases, longest, first_end in rows
        ]
    if not sentences:
        raise S2LCTError(f"--corpus {settings.corpus}: no sentence with text in it")

    batch = 512  # the batches, not the engine, decide the results: both engines cut them alike
    batches = [[s.tokens for s in sentences[i : i + batch]] for i in range(0, len(sentences), batch)]

    def compute_tags() -> dict[str, Any]:
        task = progress("tagging corpus", len(sentences))
        done = engine.map_batches("tag", functools.partial(TagBatch, tagger_name), batches, task)
        task.close()
        return {"identity": done[0][0], "tags": [line for _, lines in done for line in lines]}  # done: at least one batch (checked above)

    token_key = [*text_code, *spacy_key, *data_key]
    tagged, _ = cached_json(settings.cache_dir, "tags", [f"{kind}-tags", code_fingerprint("s2lct.corpus.tagging"), *token_key], compute_tags)

    def compute_shapes() -> dict[str, Any]:
        task = progress("parsing corpus (seed shapes)", len(sentences))
        done = engine.map_batches("shape", functools.partial(ShapeBatch, tagger_name), batches, task)
        task.close()
        return {"identity": done[0][0], "shapes": [row for _, rows in done for row in rows]}

    shaped, _ = cached_json(settings.cache_dir, "shapes", [f"{kind}-shapes", code_fingerprint("s2lct.corpus.shape"), *token_key], compute_shapes)
    polarity = get_polarity()
    capitals = CapitalEvidence(s.tokens for s in sentences)
    syntaxes = [SeedSyntax.from_json(row) for row in shaped["shapes"]]
    corpus = [
        annotate(s, tags, polarity, syntax.shape, capitals.keeps_capital(s.tokens[first], tags[first], s.tokens[first + 1] if first + 1 < len(s.tokens) else "",
                                                                      verb_follows(s.tokens, tags, first),
                                                                      s.tokens[first + 2] if first + 2 < len(s.tokens) else ""), syntax)
        for s, tags, syntax in zip(sentences, (line.split(" ") for line in tagged["tags"]), syntaxes, strict=True)
        for first in (opening_dropped(s.tokens),)  # the word a frame embeds first ("... Stylistically, the movie is ...")
    ]
    polarity.save()
    resources = {"tagger": tagged["identity"], "shape_parser": shaped["identity"], "polarity": polarity.identity}
    return corpus, {"data": hashes, "resources": resources}
