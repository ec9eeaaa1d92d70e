"""Words of a text with their character spans, and subword-to-word aggregation.

Relevances are reported per word so they can be compared across models with different
tokenizers and looked up in a case's fragments (which are character spans). A *word* is a run of
word characters with inner apostrophes, hyphens or dots ("isn't", "warmed-over", "U.S"), or a run
of other non-space characters (punctuation). Subword tokens map to the word holding their first
non-space character; special tokens map to no word.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

WORD_RE = re.compile(r"\w+(?:['’\-.]\w+)*|[^\w\s]+")


@dataclass(frozen=True, slots=True)
class Words:
    text: str
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    def __len__(self) -> int:
        return len(self.words)

    def char_to_word(self) -> np.ndarray:
        """Array over characters: the index of the word holding it, -1 for spaces."""
        out = np.full(len(self.text), -1, dtype=np.int64)
        for i, (s, e) in enumerate(self.spans):
            out[s:e] = i
        return out

    def render(self, states: Sequence[int], placeholder: str) -> str:
        """The text with words kept (0), replaced by ``placeholder`` (1) or deleted (2).

        Kept words keep the gap that preceded them in the text (so "movie," stays glued).
        """
        parts: list[str] = []
        for i, ((s, _e), w, st) in enumerate(zip(self.spans, self.words, states, strict=True)):
            if st == 2:
                continue
            if parts:
                gap = self.text[self.spans[i - 1][1] : s]
                parts.append(gap if gap else ("" if st == 0 else " "))
            parts.append(w if st == 0 else placeholder)
        return "".join(parts).strip()


def split_words(text: str) -> Words:
    spans = tuple((m.start(), m.end()) for m in WORD_RE.finditer(text))
    return Words(text, tuple(text[s:e] for s, e in spans), spans)


def token_to_word(words: Words, token_spans: Sequence[tuple[int, int] | None]) -> list[int]:
    """Word index of every token (``None`` span or no word → -1)."""
    c2w = words.char_to_word()
    text = words.text
    out: list[int] = []
    for span in token_spans:
        w = -1
        if span is not None:
            a, b = span
            for c in range(a, min(b, len(text))):
                if not text[c].isspace():
                    w = int(c2w[c])
                    break
        out.append(w)
    return out


def sum_to_words(token_relevance: Sequence[float] | np.ndarray, token_word: Sequence[int], n_words: int) -> np.ndarray:
    """Sum token relevances into their words; tokens of no word (specials) are dropped."""
    out = np.zeros(n_words, dtype=np.float64)
    for r, w in zip(np.asarray(token_relevance, dtype=np.float64), token_word, strict=True):
        if w >= 0:
            out[w] += r
    return out
