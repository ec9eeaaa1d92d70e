from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from s2lct.corpus.sst import tokenize
from s2lct.generate.transforms import (
    NEGATORS,
    Piece,
    TransformError,
    Variant,
    apply_ops,
    join_pieces,
    lowercase_first,
    negate_copula,
    strip_final_punct,
)
from s2lct.text import detokenize


def texts_after(sentence: str, ops: list[str], tags: list[str] | None = None) -> list[str]:
    tokens = sentence.split()
    return [detokenize(v.tokens) for v in apply_ops(tokens, tags or ["XX"] * len(tokens), ops)]


def test_copula_negation_paper_example():
    assert texts_after("These are bad ideas .", ["negate_copula"]) == ["These are not bad ideas.", "These aren't bad ideas."]
    assert texts_after("This is a dull movie .", ["negate_copula"]) == ["This is not a dull movie.", "This isn't a dull movie."]


def test_only_the_first_copula_is_negated():
    assert texts_after("That is what it is .", ["negate_copula"])[1] == "That isn't what it is."


def test_no_copula_is_an_error_not_a_silent_case():
    with pytest.raises(TransformError):
        apply_ops(["It", "was", "bad", "."], ["PRP", "VBD", "JJ", "."], ["negate_copula"])


def test_strip_and_lowercase():
    v = Variant(("The", "film", "is", "fine", "!", "."), ("DT", "NN", "VBZ", "JJ", ".", "."), "none")
    assert strip_final_punct(v)[0].tokens == ("The", "film", "is", "fine")
    assert lowercase_first(v)[0].tokens[0] == "the"
    # proper nouns and "I" keep their case
    assert lowercase_first(Variant(("Spielberg", "wins"), ("NNP", "VBZ"), "none"))[0].tokens[0] == "Spielberg"
    assert lowercase_first(Variant(("I", "liked", "it"), ("PRP", "VBD", "PRP"), "none"))[0].tokens[0] == "I"


def test_join_puts_no_space_before_punctuation_and_spans_fit():
    text, frags = join_pieces([Piece("Do I think that", "template"), Piece("it works", "seed", "positive", "s"), Piece("? yes", "template")])
    assert text == "Do I think that it works? yes"
    assert [text[f.start : f.end] for f in frags] == ["Do I think that", "it works", "? yes"]
    assert [f.label for f in frags] == [None, "positive", None]


# no copula and no negator: a copula already negated ("is NO", "is never") is refused by design
# (tests/generate/test_negation.py), so it has no round trip to check
_word = st.from_regex(r"[A-Za-z]{1,8}", fullmatch=True).filter(lambda w: w.lower() not in {"is", "are", "nt"} | NEGATORS)
_sentences = st.lists(_word, min_size=0, max_size=6)


@given(before=_sentences, cop=st.sampled_from(["is", "are", "Is", "ARE"]), after=_sentences)
def test_negation_round_trips(before, cop, after):
    tokens = before + [cop] + after + ["."]
    variants = negate_copula(Variant(tuple(tokens), ("XX",) * len(tokens), "none"))
    assert len(variants) == 2
    for v in variants:
        i = len(before)
        assert v.tokens[i] == cop and v.tokens[i + 1] in ("not", "n't")
        # removing the inserted negation gives back the seed exactly
        assert v.tokens[: i + 1] + v.tokens[i + 2 :] == tuple(tokens)
        assert len(v.tags) == len(v.tokens)
        # and the detokenised text re-tokenises to the same tokens (the case text is faithful)
        assert tokenize(detokenize(v.tokens)) == v.tokens


@given(st.lists(st.tuples(st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=10).filter(str.strip), st.sampled_from(["template", "seed"])), min_size=1, max_size=6))
def test_fragments_always_tile_the_text(parts):
    text, frags = join_pieces([Piece(t, k) for t, k in parts])
    assert all(text[f.start : f.end] == f.text for f in frags)
    assert all(a.end <= b.start for a, b in zip(frags, frags[1:]))
    # only single spaces between fragments
    gaps = [text[a.end : b.start] for a, b in zip(frags, frags[1:])]
    assert set(gaps) <= {"", " "}


@pytest.mark.parametrize(
    "tokens,text",
    [
        ("And the mushy finale turns John Q into a movie .", "the mushy finale turns John Q into a movie."),
        ("But , it works .", "it works."),
        ("Yes , MIBII is rote work .", "MIBII is rote work."),
        ("... a sour little movie .", "a sour little movie."),
        ("Andrew works .", "Andrew works."),  # a name, not a conjunction
        ("No one cares .", "No one cares."),  # "No" without a comma is a determiner
        # a double quote the excerpt never closes or never opened goes (a blind review's "I felt that \"...something")
        ("`` ... something appears to have been lost .", "something appears to have been lost."),
        ("This is an interesting movie ! ''", "This is an interesting movie!"),
        ("But it is `` great '' .", 'it is "great".'),  # a quotation the seed closes stays
        # "So" that grades the next word is no conjunction (read 15: "say that stupid, so ill-conceived")
        ("So stupid , so ill-conceived , it created new levels of ugly .", "So stupid, so ill-conceived, it created new levels of ugly."),
        ("So few movies explore religion that it 's disappointing .", "So few movies explore religion that it's disappointing."),
        ("So it goes .", "it goes."),
        ("So , it works .", "it works."),
    ],
)
def test_strip_leading_conjunction(tokens, text):
    from s2lct.generate.transforms import strip_leading_conjunction

    toks = tuple(tokens.split())
    (v,) = strip_leading_conjunction(Variant(toks, ("XX",) * len(toks), "none"))
    assert detokenize(v.tokens) == text


def test_lowercase_first_follows_corpus_evidence_over_the_tag():
    # spaCy tags the sentence-initial "Dull" NNP; the corpus writes "dull" lower-cased inside sentences
    dull = Variant(("Dull", ",", "a", "road-trip", "movie"), ("NNP", ",", "DT", "NN", "NN"), "none", first_keeps_capital=False)
    assert lowercase_first(dull)[0].tokens[0] == "dull"
    name = Variant(("Spielberg", "wins"), ("NN", "VBZ"), "none", first_keeps_capital=True)
    assert lowercase_first(name)[0].tokens[0] == "Spielberg"


def test_strip_final_punct_inside_a_closing_quote():
    toks = ("It", "sets", "us", "back", "20", "years", ".", "'")
    (v,) = strip_final_punct(Variant(toks, ("XX",) * len(toks), "none"))
    assert detokenize(v.tokens) == "It sets us back 20 years'"


def test_strip_final_punct_drops_a_closing_quote_that_closes_nothing():
    toks = ("This", "is", "an", "interesting", "movie", "!", "''")
    (v,) = strip_final_punct(Variant(toks, ("XX",) * len(toks), "none"))
    assert detokenize(v.tokens) == "This is an interesting movie"
    toks = ("It", "is", "``", "great", "!", "''")
    (v,) = strip_final_punct(Variant(toks, ("XX",) * len(toks), "none"))
    assert detokenize(v.tokens) == 'It is "great"'  # a paired quote stays, the punctuation inside it goes


_PIECES = st.lists(st.sampled_from(["it", "works", "``", "''", "...", "But", ",", ".", "!"]), max_size=5)


@given(_PIECES, _PIECES)
def test_embedding_ops_never_leave_an_unpaired_double_quote_at_an_end(before, after):
    """After the embedding ops a seed never starts with a quote it does not close or ends with one it did not open."""
    toks = (*before, "it", "works", *after)
    for v in apply_ops(toks, ("XX",) * len(toks), ["strip_leading_conjunction", "strip_final_punct"]):
        opening, closing = sum(t == "``" for t in v.tokens), sum(t == "''" for t in v.tokens)
        if v.tokens and opening > closing:
            assert v.tokens[0] != "``" or v.tokens.count("``") > 1
        if v.tokens and closing > opening:
            assert v.tokens[-1] != "''" or v.tokens.count("''") > 1


def test_full_stop_ends_an_exclamation_with_a_period():
    from s2lct.generate.transforms import full_stop

    toks = ("for", "fans", ",", "this", "is", "a", "must", "!")
    (v,) = full_stop(Variant(toks, ("XX",) * len(toks), "none", first_keeps_capital=False))
    assert v.tokens == toks[:-1] + (".",) and v.first_keeps_capital is False
    plain = Variant(("it", "works", "."), ("PRP", "VBZ", "."), "none")
    assert full_stop(plain) == [plain]


def test_capital_evidence_is_kept_for_the_word_after_what_the_frame_drops():
    """The annotation's evidence is for the word a frame embeds first ("... Stylistically, the
    movie is a disaster": read 15 found "I used to think that Stylistically, ..."); after a stray
    quote the tag decides."""
    from s2lct.generate.transforms import strip_leading_conjunction

    toks = ("...", "Stylistically", ",", "the", "movie", "is", "a", "disaster", ".")
    tags = (":", "NNP", ",", "DT", "NN", "VBZ", "DT", "NN", ".")
    (v,) = apply_ops(toks, tags, ["strip_leading_conjunction", "lowercase_first"], first_keeps_capital=False)
    assert v.tokens[0] == "stylistically"
    (name,) = apply_ops(toks, tags, ["strip_leading_conjunction", "lowercase_first"], first_keeps_capital=True)
    assert name.tokens[0] == "Stylistically"
    quoted = ("``", "Stylistically", "the", "movie", "works", ".")
    (q,) = strip_leading_conjunction(Variant(quoted, ("``", "NNP", "DT", "NN", "VBZ", "."), "none", first_keeps_capital=False))
    assert q.first_keeps_capital is None
