"""Text helpers shared by every stage that turns tokens into sentences and back.

Generation (seed text, lower-casing a seed's first word) and expansion (casing a fill-in, the
expanded seed's text) must agree on these, so they live below both.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

_KEEP_CASE_TAGS = frozenset({"NNP", "NNPS"})


@functools.cache
def _detokenizer():
    from nltk.tokenize.treebank import TreebankWordDetokenizer

    return TreebankWordDetokenizer()


# PTB bracket escapes (SST and benepar write them); un-escaped before text is made.
PTB_ESCAPES = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}"}
# Placeholders for single quotes: NLTK's detokenizer pairs `` '' but leaves a lone ` and spaces a
# single opening quote ("like ` masterpiece'", "(' I speak"); word-like placeholders keep their
# neighbours' spacing intact and are replaced by attached quotes afterwards.
_OPEN_SQ, _CLOSE_SQ = "QXOPENSQX", "QXCLOSESQX"
_ABBREV_SQ = "QXABBREVSQX"
_OPENERS = ("`", "‘")
_QUOTE_INTRODUCERS = frozenset({"as", "of", "the", "a", "an", "like", "called", "titled", "named", "is", "was", "from", "in", "on", "for", "and", "or", "with", "say", "says", "said"})
# after these a straight ' cannot be a possessive or a closing quote of its own, so it opens one
_QUOTE_OPEN_AFTER = frozenset({"(", "[", "{", ":", ",", ";", "--", _OPEN_SQ})


#: a straight ' after these, with no quotation open, closes a quotation SST cut off: it is dropped
_STRAY_CLOSE_AFTER = frozenset({".", "!", "?", ",", ";", ":", "...", "--"})


def detokenize(tokens: Sequence[str]) -> str:
    """PTB tokens → natural text.

    Clitics join ("do n't" → "don't"), `` '' become paired double quotes, ` ... ' paired single
    quotes attached to what they enclose (a straight ' opens one at the start or after a bracket,
    colon, comma or semicolon when another closes it later), PTB bracket escapes become brackets, a closing ' with no opening one after punctuation is
    dropped, and a period after
    a token that already ends in one ("Bros. .") is dropped. Why not only NLTK: its
    ``TreebankWordDetokenizer`` does the clitics and double quotes but not the last three.
    """
    return _detokenize(tuple(tokens))


def _prepare(tokens: tuple[str, ...]) -> list[str]:
    out: list[str] = []
    open_single = False
    for i, tok in enumerate(tokens):
        tok = PTB_ESCAPES.get(tok, tok)
        if tok == "." and out and out[-1].endswith("."):
            continue
        # a straight ' where a quotation can open (start, after a bracket or colon) and closed later
        if tok == "'" and i + 1 < len(tokens) and tokens[i + 1][:1].isdigit():  # "the ' 70 's" → "the '70's"
            out.append(_ABBREV_SQ)
            continue
        # a straight ' that opens a quotation: at the start, after a bracket or comma, or after a
        # word that introduces a name or phrase ("known as 'a perfect family film'"); after any other
        # word it is a possessive ("the films' plot")
        opens_here = tok == "'" and "'" in tokens[i + 1 :] and (not out or out[-1] in _QUOTE_OPEN_AFTER or out[-1].lower() in _QUOTE_INTRODUCERS)
        if tok in _OPENERS or (opens_here and not open_single):
            out.append(_OPEN_SQ)
            open_single = True
            continue
        if tok in ("'", "’") and open_single:
            out.append(_CLOSE_SQ)
            open_single = False
            continue
        if tok == "'" and out and out[-1] in _STRAY_CLOSE_AFTER:  # closes nothing: "imaginable . '"
            continue
        out.append(tok)
    if open_single:  # an opening quote never closed: drop it rather than leave a stray mark
        i = max(i for i, t in enumerate(out) if t == _OPEN_SQ)
        del out[i]
    return out


@functools.lru_cache(maxsize=65536)
def _detokenize(tokens: tuple[str, ...]) -> str:
    # NLTK's detokenizer runs ~30 regexes per call; seeds recur across templates and options
    text = _detokenizer().detokenize(_prepare(tokens))
    text = re.sub(_OPEN_SQ + r"\s*", "'", text)
    text = re.sub(r"\s*" + _CLOSE_SQ, "'", text)
    text = re.sub(_ABBREV_SQ + r"\s*", "'", text)
    return text


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
