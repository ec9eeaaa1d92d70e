"""Text helpers shared by every stage that turns tokens into sentences and back.

Generation (seed text, lower-casing a seed's first word) and expansion (casing a fill-in, the
expanded seed's text) must agree on these, so they live below both.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

_KEEP_CASE_TAGS = frozenset({"NNP", "NNPS"})


@functools.cache
def _detokenizer():
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    return TreebankWordDetokenizer()


def detokenize(tokens: Sequence[str]) -> str:
    """PTB tokens → natural text ("do n't" → "don't", `` '' → ", no space before punctuation)."""
    return _detokenize(tuple(tokens))


@functools.lru_cache(maxsize=65536)
def _detokenize(tokens: tuple[str, ...]) -> str:
    # NLTK's detokenizer runs ~30 regexes per call; seeds recur across templates and options
    return _detokenizer().detokenize(list(tokens))


@functools.cache
def _tokenizer():
    from nltk.tokenize import TreebankWordTokenizer

    return TreebankWordTokenizer()


def tokenize(text: str) -> tuple[str, ...]:
    """Natural text → PTB tokens, the same convention as SST leaves."""
    return tuple(_tokenizer().tokenize(text))


def keeps_capital(token: str, tag: str) -> bool:
    """A capital that stays mid-sentence: proper nouns, "I" (and "I'm"...), acronyms."""
    return tag in _KEEP_CASE_TAGS or token == "I" or token.startswith("I'") or (len(token) > 1 and token.isupper())
