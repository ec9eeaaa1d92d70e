"""Token patterns over a sentence's words and PoS tags, matched by spaCy's ``Matcher``.

A pattern is a spaCy ``Matcher`` token pattern (a list of token dicts), e.g. "an adjective right
after 'very'": ``[{"LOWER": "very"}, {"POS": "ADJ"}]``. Sentences are already tokenised and tagged
(PTB tags from spaCy, ``s2lct.corpus.tagging``), so a ``Doc`` is built from those words and tags
instead of running a pipeline again; ``POS`` (universal tags) is derived from the PTB tag with the
standard PTB → Universal Dependencies table below, the one spaCy's English attribute ruler applies.
No parse is run, so dependency attributes (``DEP``, ``HEAD``) and lemmas are not available; the spec
validator refuses them by name.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Sequence
from typing import Any

PTB_TO_UPOS = {
    "CC": "CCONJ", "CD": "NUM", "DT": "DET", "EX": "PRON", "FW": "X", "IN": "ADP", "JJ": "ADJ", "JJR": "ADJ",
    "JJS": "ADJ", "LS": "X", "MD": "AUX", "NN": "NOUN", "NNS": "NOUN", "NNP": "PROPN", "NNPS": "PROPN",
    "PDT": "DET", "POS": "PART", "PRP": "PRON", "PRP$": "PRON", "RB": "ADV", "RBR": "ADV", "RBS": "ADV",
    "RP": "ADP", "SYM": "SYM", "TO": "PART", "UH": "INTJ", "VB": "VERB", "VBD": "VERB", "VBG": "VERB",
    "VBN": "VERB", "VBP": "VERB", "VBZ": "VERB", "WDT": "PRON", "WP": "PRON", "WP$": "PRON", "WRB": "ADV",
    ",": "PUNCT", ".": "PUNCT", ":": "PUNCT", "``": "PUNCT", "''": "PUNCT", "-LRB-": "PUNCT", "-RRB-": "PUNCT",
    "HYPH": "PUNCT", "NFP": "PUNCT", "$": "SYM", "#": "SYM", "AFX": "ADJ", "ADD": "X", "XX": "X", "_SP": "SPACE",
}


@functools.lru_cache(maxsize=1)
def _vocab() -> Any:
    import spacy

    return spacy.blank("en").vocab


def _key(pattern: Sequence[dict[str, Any]]) -> str:
    return json.dumps(list(pattern), sort_keys=True)


@functools.lru_cache(maxsize=256)
def _matcher(key: str) -> Any:
    from spacy.matcher import Matcher

    matcher = Matcher(_vocab(), validate=True)
    matcher.add("p", [json.loads(key)])
    return matcher


@functools.lru_cache(maxsize=4096)
def _doc(tokens: tuple[str, ...], tags: tuple[str, ...]) -> Any:
    from spacy.tokens import Doc

    return Doc(_vocab(), words=list(tokens), tags=list(tags), pos=[PTB_TO_UPOS.get(t, "X") for t in tags])


def find_matches(pattern: Sequence[dict[str, Any]], tokens: Sequence[str], tags: Sequence[str]) -> list[tuple[int, int]]:
    """Token spans ``(start, end)`` where the pattern matches, in order (longest first at a start)."""
    if not tokens:
        return []
    spans = _matcher(_key(pattern))(_doc(tuple(tokens), tuple(tags)))
    return sorted(((s, e) for _, s, e in spans), key=lambda se: (se[0], -se[1]))


def contains_match(pattern: Sequence[dict[str, Any]], tokens: Sequence[str], tags: Sequence[str]) -> bool:
    return bool(find_matches(pattern, tokens, tags))
