"""Template transforms: turn seed sentences into labelled test cases.

A template is a list of parts (literal text, alternatives, seed slots with operations). Parts are
joined with one space, except that no space goes before a part that starts with punctuation, so
``["Do I think that", {seed}, "? yes"]`` reads "Do I think that it works? yes". Every part becomes
a fragment with its character span and its own label (template text: none; a seed: its label).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from s2lct.corpus.shape import opening_dropped
from s2lct.suite import Fragment
from s2lct.text import detokenize, keeps_capital

COPULA_NEGATIONS: dict[str, tuple[str, ...]] = {"is": ("not", "n't"), "are": ("not", "n't")}
# Words that negate what follows them; after a copula they make the seed negated already.
NEGATORS = frozenset({"not", "n't", "no", "never", "neither", "nor", "none", "nothing", "nobody", "nowhere", "hardly", "barely", "scarcely"})
FINAL_PUNCT = frozenset({".", "!", "?", ";", ":", "...", "..", "--", "-"})
_NO_SPACE_BEFORE = tuple(",.;:?!")


@dataclass(frozen=True, slots=True)
class Variant:
    """One transformed seed: tokens, tags, and a short name of what was done."""

    tokens: tuple[str, ...]
    tags: tuple[str, ...]
    name: str
    # whether the first word a frame embeds (the first token once ``strip_leading_conjunction`` has
    # run) keeps its capital mid-sentence (corpus evidence, see
    # ``s2lct.corpus.annotate.CapitalEvidence``); None: decide from its PoS tag
    first_keeps_capital: bool | None = None
    # positions of the main clauses' finite verbs (``s2lct.corpus.shape.SeedSyntax.finite``), for
    # ``backshift``; only the seed itself has them (backshift must come first)
    finite: tuple[int, ...] = ()


class TransformError(ValueError):
    """The operation does not apply to this seed (e.g. no copula to negate)."""


def negate_copula(v: Variant) -> list[Variant]:
    """First ``is``/``are`` → ``is not``/``isn't`` (``are not``/``aren't``): two variants.

    A copula that a negator already follows, in any case ("is NOT", "is never"), is refused: negating
    it again would give a double negation whose label no reader agrees on.
    """
    for i, tok in enumerate(v.tokens):
        negs = COPULA_NEGATIONS.get(tok.lower())
        if negs is not None:
            if i + 1 < len(v.tokens) and v.tokens[i + 1].lower() in NEGATORS:
                raise TransformError(f"the copula is already negated ({tok} {v.tokens[i + 1]})")
            out = []
            for neg in negs:
                tokens = v.tokens[: i + 1] + (neg,) + v.tokens[i + 1 :]
                tags = v.tags[: i + 1] + ("RB",) + v.tags[i + 1 :]
                shown = f"{tok} {neg}" if neg == "not" else f"{tok}{neg}"
                out.append(Variant(tokens, tags, _join_name(v.name, f"negate_copula:{shown}"), v.first_keeps_capital))
            return out
    raise TransformError("no copula (is/are) to negate")


CLOSING_QUOTES = frozenset({"'", "''", "’", "”"})
#: double quotes, which SST writes `` and '' (an excerpt of a quotation may keep only one of them)
OPENING_DOUBLE = frozenset({"``", "“"})
CLOSING_DOUBLE = frozenset({"''", "”"})


def _stray_quote(tokens: Sequence[str], at: int) -> bool:
    """Whether the double quote at ``at`` has no partner in the seed: the sentence is an excerpt
    of a quotation ("`` ... something appears to have been lost", "an interesting movie ! ''")."""
    opening = sum(t in OPENING_DOUBLE for t in tokens)
    closing = sum(t in CLOSING_DOUBLE for t in tokens)
    return opening != closing and (tokens[at] in OPENING_DOUBLE if opening > closing else tokens[at] in CLOSING_DOUBLE)


def strip_final_punct(v: Variant) -> list[Variant]:
    """Drop final punctuation, also inside a closing quote ("... 20 years .'" → "... 20 years'"),
    and a closing double quote that closes nothing (a blind review found "... but I feel that this
    is an interesting movie!\"")."""
    toks, tags = list(v.tokens), list(v.tags)
    quote = None
    while len(toks) > 1 and (toks[-1] in FINAL_PUNCT or _stray_quote(toks, len(toks) - 1)):
        toks.pop()
        tags.pop()
    if len(toks) > 2 and toks[-1] in CLOSING_QUOTES and toks[-2] in FINAL_PUNCT:
        quote = (toks.pop(), tags.pop())
    n = len(toks)
    while n > 1 and toks[n - 1] in FINAL_PUNCT:
        n -= 1
    toks, tags = toks[:n], tags[:n]
    if quote is not None:
        toks.append(quote[0])
        tags.append(quote[1])
    return [Variant(tuple(toks), tuple(tags), v.name, v.first_keeps_capital)]


def lowercase_first(v: Variant) -> list[Variant]:
    """Lower-case the first word unless it keeps its capital, so the seed reads mid-sentence."""
    if not v.tokens:
        return [v]
    keep = v.first_keeps_capital if v.first_keeps_capital is not None else keeps_capital(v.tokens[0], v.tags[0])
    if keep:
        return [v]
    first = v.tokens[0]
    return [Variant((first[:1].lower() + first[1:],) + v.tokens[1:], v.tags, v.name)]


#: present → past of the auxiliaries and modals a finite verb may be; a clitic that would have to
#: change its spelling ("'ve", "'ll", "'d") is refused rather than guessed
BACKSHIFT = {
    "is": "was", "are": "were", "am": "was", "'s": "was", "'re": "were", "'m": "was", "has": "had", "have": "had",
    "does": "did", "do": "did", "can": "could", "ca": "could", "will": "would", "wo": "would", "may": "might", "shall": "should",
}
ALREADY_PAST = frozenset({"VBD"})
_KEEP_MODALS = frozenset({"would", "could", "might", "should", "must", "ought", "need"})


@functools.cache
def _past_form(word: str) -> bool:
    """Whether a word the tagger called past (VBD) is a past form: the small tagger marks some
    present verbs so ("The action clichés just *pile* up", a blind read found it left present
    after "I used to think that"). A word lemminflect does not know as a verb is taken at the
    tagger's word; "put", "set" and "cut" are their own past."""
    from lemminflect import getInflection, getLemma

    lemmas = getLemma(word, upos="VERB")
    if not lemmas or not lemmas[0]:
        return True
    return word in getInflection(lemmas[0], tag="VBD") + getInflection(lemmas[0], tag="VBN")


#: present modals: those whose backshift is a modal that stays ("can" → "could")
_PRESENT_MODALS = frozenset(w for w, past in BACKSHIFT.items() if past in _KEEP_MODALS)


def _present(word: str, tag: str) -> bool:
    return tag in ("VBZ", "VBP") or (tag == "MD" and word.lower() in _PRESENT_MODALS)


#: what may follow a verb (its object, a preposition, an adverb), where a plural noun ends its phrase
_VERB_CONTINUATIONS = frozenset({"DT", "IN", "TO", "PRP", "PRP$", "RB", "JJ", "CD"})


def _known_verb(lemma: str) -> bool:
    """A verb WordNet knows: lemminflect's rules also make "politic" of "politics"."""
    from nltk.corpus import wordnet as wn

    return bool(wn.synsets(lemma, pos=wn.VERB))


def _reads_as_present_verb(word: str, form: str) -> bool:
    """``word`` is the ``form`` (VBZ or VBP) of a verb lemminflect inflects and WordNet knows: what
    a token the tagger called a noun or a bare verb must be to count as a present verb it missed."""
    from lemminflect import getInflection, getLemma

    low = word.lower()
    lemmas = getLemma(low, upos="VERB")
    return bool(lemmas) and low in getInflection(lemmas[0], tag=form) and _known_verb(lemmas[0])


def _coordinated_present(toks: Sequence[str], tags: Sequence[str], finite: Sequence[int]) -> int | None:
    """A present verb coordinated with a finite main verb that the tagger did not tag as one:
    "succumbs to gravity and plummets to earth" (NNS), "keep the film grounded and [ultimately]
    keep the audience riveted" (VB). The word comes right after "and"/"or" (adverbs between), reads
    as a present form of a verb (lemminflect), and a present finite main verb comes before it with
    no modal or infinitive between (their verbs stay bare: "can laugh and cry", "to entertain and
    inform"); a plural noun must go on like a verb (an object or a preposition next: "plummets to",
    not "acting and plots."), and its lemma a verb WordNet knows ("reduces ... social mores and
    politics to jargon" stays)."""
    present = [i for i in finite if tags[i] in ("VBZ", "VBP")]
    for j in range(1, len(toks)):
        if tags[j] not in ("NNS", "VB"):
            continue
        k = j - 1
        while k > 0 and tags[k] == "RB":
            k -= 1
        if k < 1 or toks[k].lower() not in ("and", "or") or tags[k - 1] == "VB":  # "laugh and cry": bare verbs joined
            continue
        before = [i for i in present if i < k]
        if not before:
            continue
        between = range(before[-1] + 1, k)
        if any(tags[i] == "MD" or (tags[i] == "TO" and i + 1 < len(tags) and tags[i + 1] == "VB") for i in between):
            continue
        if tags[j] != "VB" and not (j + 1 < len(toks) and tags[j + 1] in _VERB_CONTINUATIONS):
            continue
        if _reads_as_present_verb(toks[j], "VBZ" if tags[j] == "NNS" else "VBP"):
            return j
    return None


#: what comes before a noun and never before a verb
_NOUN_OPENERS = frozenset({"DT", "PRP$", "JJ", "JJR", "JJS", "CD", "POS"})


def _relative_present(toks: Sequence[str], tags: Sequence[str]) -> int | None:
    """A relative clause's present verb that the tagger took for a plural noun: "suspense, which
    director Shekhar Kapur *supplies* with tremendous skill" (NNS; read 23 found it left present after
    "I used to think that the story gave ..."). The word follows a relative pronoun and the relative
    clause's subject with no verb between, does not follow a determiner or an adjective, goes on like a
    verb (a preposition or an object next), and reads as the present of a verb WordNet knows."""
    for r, tag in enumerate(tags):
        if tag not in ("WDT", "WP"):
            continue
        for j in range(r + 2, len(toks) - 1):  # a subject of at least one word between
            if tags[j].startswith("VB") or tags[j] in ("MD", ",", ".", ":", "CC"):
                break
            if tags[j] != "NNS" or tags[j + 1] not in _VERB_CONTINUATIONS or tags[j - 1] in _NOUN_OPENERS:
                continue  # "which the fans of comedy loved": after a determiner or an adjective it is the noun
            if _reads_as_present_verb(toks[j], "VBZ"):
                return j
    return None


def _free_relative_present(toks: Sequence[str], tags: Sequence[str], finite: Sequence[int]) -> int | None:
    """A free relative's present verb that the tagger took for a plural noun: "Where the film
    *falters* is in its tone" (NNS; read 36 found "where the film falters was in its tone" after "At
    first I thought that"). The sentence opens with "where", "what", "how", "why" or "when", a subject
    of at least one word follows with no verb, and the word comes right before the main clause's
    finite verb ("what the fans wanted was ..." keeps its noun) and reads as the present of a verb
    WordNet knows."""
    if not toks or toks[0].lower() not in ("where", "what", "how", "why", "when") or tags[0] not in ("WRB", "WP"):
        return None
    for j in range(2, len(toks) - 1):
        if tags[j].startswith("VB") or tags[j] in ("MD", ",", ".", ":", "CC"):
            return None
        if tags[j] == "NNS" and j + 1 in finite and _reads_as_present_verb(toks[j], "VBZ"):
            return j
    return None


def backshift(v: Variant) -> list[Variant]:
    """Present main verbs → past, so the seed reads after a past frame ("I used to think that the
    story is pathetic" → "... the story was pathetic"). Only the finite verbs of the seed's main
    clauses change, one token each; "would", "could", "must" and past verbs stay. A lexical verb
    takes its past form from lemminflect ("works" → "worked"). A seed with a present verb elsewhere
    (a relative or complement clause: "a vastness that is breathtaking") is refused: the frame
    would leave it present, and a reader hears the clash (issue 23)."""
    if not v.finite:
        raise TransformError("no finite main verb to backshift")
    toks = list(v.tokens)
    tags = list(v.tags)
    left = [toks[i] for i in range(len(toks)) if i not in v.finite and _present(toks[i], tags[i])]
    if left:  # "there was a vastness that *is* breathtaking": a present verb the frame leaves behind
        raise TransformError(f"present verb {left[0]!r} outside the main clauses would stay present after a past frame")
    missed = _coordinated_present(toks, tags, v.finite)
    if missed is not None:  # "each scene succumbs to gravity and *plummets* to earth", the second verb tagged NNS
        raise TransformError(f"{toks[missed]!r} after 'and' reads as a present verb the tagger did not mark; it would stay present")
    missed = _relative_present(toks, tags)
    if missed is not None:  # "which director Shekhar Kapur *supplies* with tremendous skill", tagged NNS
        raise TransformError(f"{toks[missed]!r} in a relative clause reads as a present verb the tagger did not mark; it would stay present")
    missed = _free_relative_present(toks, tags, v.finite)
    if missed is not None:  # "Where the film *falters* is in its tone", tagged NNS
        raise TransformError(f"{toks[missed]!r} in the opening free relative reads as a present verb the tagger did not mark; it would stay present")
    for i in v.finite:
        word, tag = toks[i], tags[i]
        low = word.lower()
        if (tag in ALREADY_PAST and _past_form(low)) or low in _KEEP_MODALS:
            continue
        if low == "'s" and i + 1 < len(toks) and toks[i + 1].lower() == "been":
            new = "had"  # "it's been done" is "it has been done": "it had been done", not "it was been done"
        elif low == "'s" and i + 1 < len(toks) and tags[i + 1] == "VBN":
            # "it's lost the politics" is "has lost", "it's made by" is "is made": the clitic does not say which
            raise TransformError(f"{word!r} before the participle {toks[i + 1]!r} may be 'has' or 'is'")
        elif low in BACKSHIFT and (low != "'s" or tag == "VBZ"):
            new = BACKSHIFT[low]
        elif (tag in ("VBZ", "VBP") or tag in ALREADY_PAST) and low not in BACKSHIFT and not low.startswith("'"):
            from lemminflect import getInflection, getLemma

            lemma = getLemma(low, upos="VERB")
            past = getInflection(lemma[0], tag="VBD") if lemma else ()
            if not past:
                raise TransformError(f"no past form for {word!r}")
            new = past[0]
        else:
            raise TransformError(f"cannot backshift {word!r} ({tag})")
        toks[i] = new[:1].upper() + new[1:] if word[:1].isupper() else new
        tags[i] = "VBD" if tag != "MD" else "MD"
    return [Variant(tuple(toks), tuple(tags), _join_name(v.name, "backshift"), v.first_keeps_capital)]


def strip_leading_conjunction(v: Variant) -> list[Variant]:
    """Drop an opening "And"/"But"/"So", "Yes,"/"Well," or "..." from a seed embedded after "that",
    and a double quote at either end that the seed never closes or never opened (an excerpt of a
    quotation: "I felt that \"...something appeared ...", "... I feel that this is an interesting
    movie!\"", both in a blind review).

    Embedded, they read "I think that and the finale ..." or "Do I agree that yes, ...".
    """
    toks, tags = v.tokens, v.tags
    while len(toks) > 1 and _stray_quote(toks, len(toks) - 1):  # "... an interesting movie ! ''"
        toks, tags = toks[:-1], tags[:-1]
    quoted = False
    while True:  # "`` ...something appears to ...": the quote, then what opening_dropped drops, in any order
        quote = len(toks) > 1 and _stray_quote(toks, 0)
        n = 1 if quote else opening_dropped(toks)
        if n == 0:
            break
        quoted = quoted or quote
        toks, tags = toks[n:], tags[n:]
    if toks is v.tokens:
        return [v]
    # the annotation's capital evidence is for the word after what opening_dropped drops; after a quote, the tag decides
    return [Variant(toks, tags, v.name, None if quoted else v.first_keeps_capital)]


def full_stop(v: Variant) -> list[Variant]:
    """End a seed with a full stop where it ends with "!": a frame that reports the opinion ("...,
    but I think that this is a must!") reads as an exclamation after "think that" (a blind read)."""
    toks, tags = list(v.tokens), list(v.tags)
    n = len(toks)
    while n > 1 and toks[n - 1] in ("!", "!!", "?!", "!?"):
        n -= 1
    if n == len(toks):
        return [v]
    return [Variant((*toks[:n], "."), (*tags[:n], "."), v.name, v.first_keeps_capital, v.finite)]


OPS: dict[str, Callable[[Variant], list[Variant]]] = {
    "full_stop": full_stop,
    "negate_copula": negate_copula,
    "strip_final_punct": strip_final_punct,
    "lowercase_first": lowercase_first,
    "strip_leading_conjunction": strip_leading_conjunction,
    "backshift": backshift,
}


def _join_name(a: str, b: str) -> str:
    return b if a in ("", "none") else f"{a}+{b}"


def _op(op: Any) -> Callable[[Variant], list[Variant]]:
    if isinstance(op, str):
        return OPS[op]
    from s2lct.generate.insertion import insert_words  # the parametrised operation (spec Insert)

    def insert(v: Variant) -> list[Variant]:
        done = insert_words(v.tokens, v.tags, op)
        if not done:
            raise TransformError("no match for the insert pattern")
        return [Variant(tokens, tags, _join_name(v.name, f"insert:{phrase}"), v.first_keeps_capital) for tokens, tags, phrase in done]

    return insert


def apply_ops(
    tokens: Sequence[str], tags: Sequence[str], ops: Sequence[Any], first_keeps_capital: bool | None = None, finite: Sequence[int] = ()
) -> list[Variant]:
    """All variants of a seed after the operations, in a fixed order; raises ``TransformError``."""
    variants = [Variant(tuple(tokens), tuple(tags), "none", first_keeps_capital, tuple(finite))]
    for op in ops:
        fn = _op(op)
        variants = [w for v in variants for w in fn(v)]
    return variants


@dataclass(frozen=True, slots=True)
class Piece:
    """A part of a case before joining: its text and, for seeds, slot and label."""

    text: str
    kind: str
    label: str | None = None
    slot: str | None = None


def join_pieces(pieces: Sequence[Piece]) -> tuple[str, tuple[Fragment, ...]]:
    text = ""
    fragments = []
    for piece in pieces:
        if text and not piece.text.startswith(_NO_SPACE_BEFORE):
            text += " "
        start = len(text)
        text += piece.text
        fragments.append(Fragment(start, len(text), piece.text, piece.kind, piece.label, piece.slot))
    return text, tuple(fragments)


def variant_text(v: Variant) -> str:
    return detokenize(v.tokens)
