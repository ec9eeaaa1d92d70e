"""The agreement paradigm's task model for the GRU: Linzen et al.'s (2016) number-prediction task,
the task Poerner et al. (§4.2) trained their RNNs on — read the prefix of a sentence up to a
present-tense verb, predict whether the verb is singular (VBZ, is, was) or plural (VBP, are, were).

Poerner et al. trained on Linzen's 1.4 M Wikipedia prefixes, which cannot be downloaded here. The
prefixes are made the way Linzen made theirs, from the running text on disk, tagged by NLTK's
averaged-perceptron tagger: NLTK's movie_reviews (about 65,000 sentences), SST's sentences,
the mini 20 Newsgroups and the UCI review sentences. The Penn Treebank sample is left out: its
prefixes are the card's evaluation items. A sentence gives one prefix per present-tense verb that has
a noun before it; duplicate prefixes count once. The network is ``gru-sst2``'s architecture trained
from scratch on this task (``s2lct build-task-model gru-number``); the card of ``gru-sst2`` explains
it in the agreement paradigm instead of a probe on the sentiment GRU, whose states hold almost no
number information (a probe on them reached 0.62 held-out accuracy against a majority of 0.61).
"""

from __future__ import annotations

import io
import random
import re
import tarfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from s2lct.errors import MissingResourceError

NUMBER_CLASSES = ("Sg", "Pl")
VERB_NUMBER = {"VBZ": 0, "VBP": 1}
COPULA = {"is": 0, "was": 0, "are": 1, "were": 1, "'s": None}
NOUN_TAGS = {"NN", "NNS", "NNP", "NNPS"}
MAX_PREFIX_WORDS = 40
_HEADER = re.compile(r"^[A-Za-z-]+: ")


def _movie_review_sentences() -> Iterator[list[str]]:
    from nltk.corpus import movie_reviews

    for fileid in sorted(movie_reviews.fileids()):
        yield from (list(s) for s in movie_reviews.sents(fileid))


def _newsgroup_sentences(path: Path) -> Iterator[list[str]]:
    from nltk.tokenize import sent_tokenize, word_tokenize

    with tarfile.open(path) as tar:
        for member in sorted(tar.getmembers(), key=lambda m: m.name):
            if not member.isfile():
                continue
            raw = tar.extractfile(member).read().decode("latin-1")  # type: ignore[union-attr]
            body = raw.split("\n\n", 1)[-1]
            lines = [ln for ln in body.splitlines() if ln.strip() and not ln.startswith((">", "|")) and not _HEADER.match(ln)]
            for sent in sent_tokenize(" ".join(lines)):
                words = word_tokenize(sent)
                if 3 <= len(words) <= 60:
                    yield words


def _text_sentences(texts: Iterator[str]) -> Iterator[list[str]]:
    from nltk.tokenize import word_tokenize

    for text in texts:
        yield word_tokenize(text)


def corpus_sentences(data_root: Path) -> Iterator[tuple[str, list[str]]]:
    """(source, tokens) of every sentence the prefixes come from."""
    from s2lct.corpus.sst import load_sst

    yield from (("movie_reviews", s) for s in _movie_review_sentences())
    yield from (("sst", s) for s in _text_sentences(s.text for s in load_sst(data_root, ("train", "dev", "test"))))
    news = data_root / "newsgroups" / "mini_newsgroups.tar.gz"
    if not news.is_file():
        raise MissingResourceError(news, "the mini 20 Newsgroups archive is expected at <data root>/newsgroups/")
    yield from (("newsgroups", s) for s in _newsgroup_sentences(news))
    uci = data_root / "reviews" / "sentiment_labelled_sentences"
    for name in ("amazon_cells_labelled.txt", "imdb_labelled.txt", "yelp_labelled.txt"):
        with io.open(uci / name, encoding="utf-8", errors="replace") as fh:
            yield from (("uci", s) for s in _text_sentences(ln.rsplit("\t", 1)[0] for ln in fh if ln.strip()))


def prefixes_of(words: list[str], tags: list[str]) -> list[tuple[str, int]]:
    """(prefix up to a present-tense verb, 0 = Sg / 1 = Pl) of one tagged sentence; the prefix must
    hold a noun (something for the verb to agree with)."""
    out = []
    for i in range(1, min(len(words), MAX_PREFIX_WORDS + 1)):
        w, t = words[i].lower(), tags[i]
        number = COPULA.get(w) if w in COPULA else VERB_NUMBER.get(t)
        if number is not None and any(tg in NOUN_TAGS for tg in tags[:i]):
            out.append((" ".join(words[:i]), number))
    return out


def number_prefixes(data_root: Path, seed: int = 0) -> tuple[list[tuple[str, int]], dict[str, int]]:
    """(prefix text, 0 = Sg / 1 = Pl) rows, shuffled with ``seed``, and how many came from each source."""
    from s2lct.config import configure_nltk, get_settings
    from s2lct.trust.agreement import _tagger

    configure_nltk(get_settings(data_root=data_root))
    tagger = _tagger()
    seen: set[str] = set()
    rows: list[tuple[str, int]] = []
    counts: dict[str, int] = {}
    for source, words in corpus_sentences(Path(data_root)):
        for prefix, number in prefixes_of(words, [t for _w, t in tagger.tag(words)]):
            if prefix in seen:
                continue
            seen.add(prefix)
            rows.append((prefix, number))
            counts[source] = counts.get(source, 0) + 1
    random.Random(f"s2lct-number-prefixes:{seed}").shuffle(rows)
    return rows, counts


def build_number_model(out: Path, data_root: Path, opts: Any = None, *, progress: Any = None, log: Any = None) -> dict[str, Any]:
    """Train the GRU on the number-prediction task: 95 % of the prefixes to train, 5 % held out for
    model selection."""
    from .training import TrainingOptions, train_task_model

    rows, counts = number_prefixes(data_root)
    if log:
        log(f"number prediction: {len(rows):,} prefixes ({', '.join(f'{k} {v:,}' for k, v in counts.items())})")
    cut = len(rows) // 20
    opts = opts or TrainingOptions(epochs=3, threads=1)
    plural = sum(y for _t, y in rows[:cut]) / max(cut, 1)
    opts = TrainingOptions(**{**opts.__dict__, "extra": {**opts.extra, "prefixes_by_source": counts,
                                                          "heldout_majority": round(max(plural, 1 - plural), 4)}})
    return train_task_model("gru", rows[cut:], rows[:cut], out, opts, name="gru-number", progress=progress, log=log,
                            classes=NUMBER_CLASSES,
                            data="present-tense verb prefixes from NLTK-tagged movie_reviews, SST, mini 20 Newsgroups, UCI "
                                 "(Linzen et al.'s number-prediction task); model selection on 5 % held out")
