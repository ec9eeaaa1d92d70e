"""A short, clearly polar sentence appended (CheckList's "add positive/negative phrases", DIR):
after "A masterpiece." the positive class should be more likely, after "Bad movie." the negative.

The sentences are real labelled data, not typed: every SST sentence (train, dev and test, from
the repo's SST reader) whose root is very positive (fine label 4) or very negative (0), of 2–5
words, that is a plain sentence (starts with a capital, ends with "." or "!", no brackets or
quotation marks, no capital after the first word except "I": no names or titles to carry a
sentiment of their own) and in which no sub-phrase is labelled on the other side (SST's phrase
labels: "Sweet and memorable film." has no negative part). About 70 per side. They are computed
once and cached on disk under the cache folder, keyed by the SST files' hashes and this code.
"""

from __future__ import annotations

import functools
import random
import re
from typing import TYPE_CHECKING, Any

from .base import Change, Direction, Perturbed, perturbations, perturbed

if TYPE_CHECKING:
    from s2lct.corpus.sst import Sentence
    from spacy.tokens import Doc

_PLAIN_SENTENCE = re.compile(r"[A-Z][^()\[\]\"“”‘’`]*[.!]")
_QUOTES = frozenset("`'\"")
_SENTENCE_END = re.compile(r"[.!?…][\"'’”»]*\s*\Z")
MIN_WORDS, MAX_WORDS = 2, 5


def _words(tokens: tuple[str, ...]) -> list[str]:
    return [t for t in tokens if any(ch.isalnum() for ch in t)]


def is_polar_phrase(s: Sentence, label: str) -> bool:
    fine, other = (4, (0, 1)) if label == "positive" else (0, (3, 4))
    words = _words(s.tokens)
    if s.fine_label != fine or not MIN_WORDS <= len(words) <= MAX_WORDS or not _PLAIN_SENTENCE.fullmatch(s.text):
        return False
    if any(set(t) <= _QUOTES for t in s.tokens):  # a quotation mark token (clitics such as "'s" are not)
        return False
    if any(w[:1].isupper() and w != "I" and not w.startswith("I'") for w in words[1:]):
        return False
    return s.phrase_labels is not None and all(s.phrase_labels[k] == 0 for k in other)


@functools.cache
def polar_phrases() -> dict[str, tuple[str, ...]]:
    """``positive`` and ``negative``: the sentences described in the module docstring, sorted."""
    from s2lct.atomic import sha256_file
    from s2lct.cache import cached_json, code_fingerprint
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst, sst_files

    settings = get_settings()

    def compute() -> dict[str, Any]:
        sentences = load_sst(settings.data_root)
        return {label: sorted({s.text for s in sentences if is_polar_phrase(s, label)}) for label in ("positive", "negative")}

    hashes = sorted(sha256_file(p) for p in sst_files(settings.data_root).values())
    key = ["polar-phrases", code_fingerprint("s2lct.perturb.phrases", "s2lct.corpus.sst", "s2lct.text"), *hashes]
    value, _ = cached_json(settings.cache_dir, "perturb", key, compute)
    return {label: tuple(value[label]) for label in ("positive", "negative")}


class AddPhrase:
    kind = "dir"
    needs_doc = False

    def __init__(self, label: str) -> None:
        self.label = label
        self.name = f"add_{label}"
        self.direction = Direction(label, "up")

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        if not any(ch.isalnum() for ch in text):
            return None
        phrase = rng.choice(polar_phrases()[self.label])
        end = len(text.rstrip())
        sep = " " if _SENTENCE_END.search(text) else ". "
        return perturbed(text, [Change(end, end, "", sep + phrase)], self.name)


perturbations.register("add_positive", func=lambda: AddPhrase("positive"))
perturbations.register("add_negative", func=lambda: AddPhrase("negative"))
