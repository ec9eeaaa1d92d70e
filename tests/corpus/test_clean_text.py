"""Clean text: no Penn Treebank token survives in a sentence that leaves the corpus."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.corpus.sst import load_sst
from s2lct.text import detokenize

# what a reader must never see: treebank quotes and bracket escapes, split clitics, spaced
# punctuation, a quote with a space on its inner side, a doubled period
LEAKS = {
    "backtick": re.compile(r"`"),
    "ptb double quote": re.compile(r"''"),
    "bracket escape": re.compile(r"-[LR][RSC]B-"),
    "split clitic": re.compile(r"\s(n't|'s|'re|'ve|'ll|'d|'m)\b", re.I),
    "space before punctuation": re.compile(r"\s[,.;:!?](?!\.\.)"),
    "space inside brackets": re.compile(r"\(\s|\s\)"),
    "doubled period": re.compile(r"(?<!\.)\.\s*\.(?!\.)"),
    "opening single quote with a space after it": re.compile(r"(^|[\s(])'\s"),
    "opening single quote glued to the word before it": re.compile(r"\b(of|as|the|a|like|called)'\s"),
    "closing single quote that nothing opened": re.compile(r"^[^']*[.!?,;:]'(\s|$)"),
}


def leaks(text: str) -> list[str]:
    return [name for name, pattern in LEAKS.items() if pattern.search(text)]


@pytest.fixture(scope="module")
def sst(shared_dir):
    return load_sst(shared_dir / "data")


def test_no_treebank_token_in_any_sst_sentence(sst):
    bad = [(s.split, s.index, s.text, leaks(s.text)) for s in sst if leaks(s.text)]
    assert not bad, f"{len(bad)} of {len(sst)} SST sentences leak treebank tokens, e.g. {bad[:5]}"


@pytest.mark.parametrize(
    "tokens,text",
    [
        ("standbys like ` masterpiece ' .", "standbys like 'masterpiece'."),
        ("` Tadpole ' was one", "'Tadpole' was one"),
        ("-LRB- ` I speak fluent flatula , ' advises -RRB-", "('I speak fluent flatula,' advises)"),
        ("In a word : No. .", "In a word: No."),
        ("Walter Hill 's Undisputed is like a 1940s Warner Bros. .", "Walter Hill's Undisputed is like a 1940s Warner Bros."),
        ("the films ' plot is n't `` good '' .", "the films' plot isn't \"good\"."),
        ("an unclosed ` quote", "an unclosed quote"),
        ("Nijinsky says , ' I know how to suffer ' and", "Nijinsky says, 'I know how to suffer' and"),
        ("known as ' a perfect family film , ' because", "known as 'a perfect family film,' because"),
        ("the films ' plot and the actors ' faces", "the films' plot and the actors' faces"),
        ("If the ' 70 's were your idea", "If the '70's were your idea"),
        ("-LRB- The Cockettes -RRB- provides a window . '", "(The Cockettes) provides a window."),
    ],
)
def test_treebank_tokens_become_written_english(tokens, text):
    assert detokenize(tokens.split()) == text


_WORD = st.sampled_from(["the", "film", "Bros.", "No.", "it", "good", "plot", "films", "do", "is"])
# a clitic only ever follows a word in PTB text
_UNIT = st.one_of(
    _WORD.map(lambda w: [w]),
    st.tuples(_WORD, st.sampled_from(["n't", "'s", "'re"])).map(list),
    st.sampled_from(["`", "'", "``", "''", "-LRB-", "-RRB-", ".", ",", "...", "?", ":"]).map(lambda p: [p]),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(_UNIT, min_size=1, max_size=12))
def test_no_ptb_escape_backtick_or_split_clitic_survives_any_token_sequence(units):
    tokens = [t for unit in units for t in unit]
    text = detokenize(tokens)
    assert "`" not in text and "-LRB-" not in text and "-RRB-" not in text
    assert not re.search(r"\w\s(n't|'s|'re)\b", text), text
    assert not re.search(r"(?<!\.)\.\s*\.(?!\.)", text), text
