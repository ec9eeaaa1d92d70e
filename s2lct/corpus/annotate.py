"""Annotated corpus: each labelled sentence with its PoS tags and the word classes it contains.

Annotating once ("positive adj", "neutral noun", ...) makes every search rule a few set
operations; expansion re-annotates an expanded seed the same way to check it still meets the rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file
from s2lct.cache import cached_json
from s2lct.config import Settings, configure_nltk
from s2lct.corpus.polarity import SentiWordNetPolarity, get_polarity, wordnet_pos
from s2lct.corpus.sst import Sentence, load_sst, sst_files
from s2lct.corpus.tagging import get_tagger
from s2lct.progress import ProgressFactory, no_progress

_WN_CLASS = {"a": "adj", "n": "noun", "v": "verb", "r": "adv"}


@dataclass(frozen=True, slots=True)
class AnnotatedSentence:
    sentence: Sentence
    tags: tuple[str, ...]
    word_classes: frozenset[str]
    words: frozenset[str]
    n_words: int

    @property
    def tokens(self) -> tuple[str, ...]:
        return self.sentence.tokens

    @property
    def text(self) -> str:
        return self.sentence.text

    @property
    def label(self) -> str:
        return self.sentence.label


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


def annotate(sentence: Sentence, tags: Sequence[str], polarity: SentiWordNetPolarity) -> AnnotatedSentence:
    return AnnotatedSentence(
        sentence,
        tuple(tags),
        word_classes(sentence.tokens, tags, polarity),
        frozenset(t.lower() for t in sentence.tokens),
        count_words(sentence.tokens),
    )


def data_hashes(data_root: Path) -> dict[str, str]:
    root = Path(data_root)
    return {str(p.relative_to(root)): sha256_file(p) for p in sst_files(root).values()}


def load_annotated_corpus(
    settings: Settings, progress: ProgressFactory = no_progress
) -> tuple[list[AnnotatedSentence], dict[str, Any]]:
    """SST sentences with PoS tags and word classes; tagging is cached on disk (once per corpus+tagger)."""
    configure_nltk(settings)
    hashes = data_hashes(settings.data_root)
    tagger_name = settings.spacy_model

    def compute_sentences() -> list[list[Any]]:
        return [[list(s.tokens), s.text, s.label, s.split, s.index, s.fine_label] for s in load_sst(settings.data_root)]

    rows, _ = cached_json(settings.cache_dir, "corpus", ["sst", *sorted(hashes.values())], compute_sentences)
    sentences = [Sentence(tuple(t), text, label, split, idx, "sst", fine) for t, text, label, split, idx, fine in rows]

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

    tagged, _ = cached_json(settings.cache_dir, "tags", ["sst-tags-v2", tagger_name, *sorted(hashes.values())], compute_tags)
    polarity = get_polarity()
    corpus = [annotate(s, tags.split(" "), polarity) for s, tags in zip(sentences, tagged["tags"], strict=True)]
    polarity.save()
    return corpus, {"data": hashes, "resources": {"tagger": tagged["identity"], "polarity": polarity.identity}}
