"""The words every part of the spec language uses: labels, shapes, persons and tenses, the strict
base model, regex and token-pattern checks, and the path tag that lets the loader point at a line."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Label = Literal["negative", "neutral", "positive"]
WORD_CLASS_PATTERN = r"^(positive|negative|neutral) (adj|noun|verb|adv)$"
WordClass = Annotated[str, Field(pattern=WORD_CLASS_PATTERN, description="'<polarity> <word class>', e.g. 'neutral adj'")]
IDENT = r"^[A-Za-z][A-Za-z0-9_\-]*$"
SeedOp = Literal["negate_copula", "strip_final_punct", "lowercase_first", "strip_leading_conjunction", "backshift", "full_stop"]
Person = Literal["first", "second", "third"]
Tense = Literal["present", "past", "modal"]
Number = Literal["singular", "plural"]
#: the object pronoun a later clause would use for a seed's subject (``s2lct.corpus.referent``)
Pronoun = Literal["it", "him", "her", "them"]
#: second opinions on a seed's label, besides the treebank's (docs/specs.md, "Seed quality")
SecondOpinion = Literal["opinion_lexicon"]
Shape = Literal["clause", "question", "exclamation", "imperative", "quotation", "noun_phrase", "fragment", "sentences"]
PhraseLabel = Literal["very negative", "negative", "neutral", "positive", "very positive"]
# SST's fine labels, in order 0..4
PHRASE_LABELS: tuple[str, ...] = ("very negative", "negative", "neutral", "positive", "very positive")
#: Token attributes a token pattern may test (plus the quantifier key ``OP``); sentences are tagged,
#: not parsed, so dependency attributes and lemmas are not available.
PATTERN_ATTRS = (
    "ORTH", "TEXT", "LOWER", "LENGTH", "TAG", "POS", "IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER",
    "IS_UPPER", "IS_TITLE", "IS_PUNCT", "IS_STOP", "LIKE_NUM", "OP",
)


PATH_TAG = re.compile(r"^@([^@]*)@ ")


def at_path(path: tuple[Any, ...], message: str) -> str:
    """Tag a model-level validation message with the path it concerns, so the loader finds its line."""
    return "@" + ".".join(map(str, path)) + "@ " + message


class StrictModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_GLOBAL_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


def anchored(pattern: str, where: str) -> str:
    """The regex a ``start``/``end`` rule runs: anchored at that end, leading global flags such as
    ``(?i)`` kept in front (Python refuses them anywhere else)."""
    flags = m.group(0) if (m := _GLOBAL_FLAGS.match(pattern)) else ""
    body = pattern[len(flags):]
    if where == "start":
        return pattern if body.startswith("^") else f"{flags}^(?:{body})"
    if where == "end":
        return pattern if body.endswith("$") else f"{flags}(?:{body})$"
    return pattern


def check_regex(value: str | None, where: str = "contains") -> str | None:
    if value is not None:
        try:
            re.compile(anchored(value, where))
        except re.error as exc:
            raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


def check_token_pattern(pattern: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Attributes we can provide, then spaCy's own Matcher validation (one line)."""
    if pattern is None:
        return None
    if not pattern:
        raise ValueError("a token pattern needs at least one token dict, e.g. [{POS: ADJ}]")
    import difflib

    for i, token in enumerate(pattern):
        for key in token:
            if key not in PATTERN_ATTRS:
                close = difflib.get_close_matches(str(key).upper(), PATTERN_ATTRS, n=1)
                hint = f"did you mean {close[0]!r}? " if close and close[0] != key else ""
                raise ValueError(f"token {i}: attribute {key!r} is not available ({hint}usable: {', '.join(PATTERN_ATTRS)}; sentences are tagged, not parsed)")
    try:
        from spacy.matcher import Matcher
        from spacy.vocab import Vocab

        Matcher(Vocab(), validate=True).add("p", [pattern])
    except ImportError:  # pragma: no cover - spaCy is a dependency
        pass
    except Exception as exc:  # noqa: BLE001 - spaCy's MatchPatternError is multi-line
        raise ValueError("invalid token pattern: " + " ".join(str(exc).split())[:300]) from None
    return pattern


TokenPattern = Annotated[
    list[dict[str, Any]],
    Field(description="a spaCy Matcher token pattern over words and PoS tags, e.g. [{LOWER: very}, {POS: ADJ}] (docs/specs.md)"),
]
