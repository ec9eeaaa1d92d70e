"""The perturbations that need no parse: typos, punctuation, contractions, URLs and handles, and
appended polar sentences."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.config import get_settings
from s2lct.corpus.sst import load_sst
from s2lct.perturb.base import Change, Direction, apply_changes
from s2lct.perturb.contraction import IRREGULAR_NEGATIONS, NEGATABLE, PRONOUN_AUX, contract, expand
from s2lct.perturb.phrases import MAX_WORDS, MIN_WORDS, polar_phrases
from s2lct.perturb.registry import get_perturbation
from s2lct.perturb.typos import keyboard_neighbours, swappable

TEXTS = st.text(alphabet=st.sampled_from("abcXYZéß  .,!'-0123"), max_size=30)
SENTENCES = ["The film was a joy to watch.", "I didn't like it, but it's fine", "Truly awful acting!!"]


def run(name: str, text: str, seed: int = 0):
    return get_perturbation(name)(text, random.Random(seed))


def differing(a: str, b: str) -> list[int]:
    assert len(a) == len(b)
    return [i for i, (x, y) in enumerate(zip(a, b)) if x != y]


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(0, 2**32))
def test_a_typo_swaps_exactly_one_pair_of_adjacent_letters(text, seed):
    p = run("typo", text, seed)
    if not swappable(text):
        assert p is None
        return
    (i, j) = differing(text, p.text)
    assert j == i + 1 and text[i].isalpha() and text[j].isalpha()
    assert (p.text[i], p.text[j]) == (text[j], text[i])
    assert p.changes == (Change(i, i + 2, text[i : i + 2], p.text[i : i + 2]),)
    assert apply_changes(text, p.changes) == p.text != text


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.integers(0, 2**32))
def test_two_typos_swap_two_separate_pairs(text, seed):
    p = run("typo2", text, seed)
    if p is None:
        pairs = swappable(text)
        assert not any(b - a >= 2 for a in pairs for b in pairs)  # no two swaps fit without overlapping
        return
    a, a1, b, b1 = differing(text, p.text)
    assert (a1, b1) == (a + 1, b + 1) and b >= a + 2
    for i in (a, b):
        assert (p.text[i], p.text[i + 1]) == (text[i + 1], text[i])
    assert len(p.changes) == 2 and apply_changes(text, p.changes) == p.text


def test_keyboard_neighbours_come_from_the_qwerty_layout():
    near = keyboard_neighbours()
    assert set(near) == set("abcdefghijklmnopqrstuvwxyz")
    assert near["g"] == tuple("bfhtvy") and near["q"] == ("a", "w") and near["a"] == tuple("qswz")
    assert near["m"] == ("j", "k", "n") and near["p"] == ("l", "o")
    assert all(k in near[n] for k, ns in near.items() for n in ns)  # touching is mutual


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from("aqzMP .!1é"), max_size=20), st.integers(0, 2**32))
def test_a_keyboard_typo_replaces_one_letter_by_a_neighbour_of_the_same_case(text, seed):
    p = run("typo_keyboard", text, seed)
    if not any(ch.lower() in keyboard_neighbours() for ch in text):
        assert p is None
        return
    (i,) = differing(text, p.text)
    assert p.text[i].lower() in keyboard_neighbours()[text[i].lower()]
    assert p.text[i].isupper() == text[i].isupper()


@pytest.mark.parametrize("text, expected", [
    ("What a film.", "What a film"),
    ("Awful!!!", "Awful"),
    ('She said "wow!"', 'She said "wow"'),
    ("what a film", "what a film."),
    ("what a film  ", "what a film.  "),
    ("Great :)", "Great :)."),
])
def test_punctuation_strips_final_marks_or_adds_a_period(text, expected):
    assert run("punctuation", text).text == expected


@pytest.mark.parametrize("text", ["", "  ", "!!!", "..."])
def test_punctuation_leaves_texts_without_words(text):
    assert run("punctuation", text) is None


@pytest.mark.parametrize("text, expected", [
    ("It is not good, but I have seen worse.", "It isn't good, but I've seen worse."),
    ("I cannot say what it is.", "I can't say what it is."),
    ("Do not watch it: you will not like it.", "Don't watch it: you won't like it."),
    ("I am sure that is what they are doing.", "I'm sure that's what they're doing."),
    ("IT IS BAD", "IT'S BAD"),
    # nothing to contract: expand
    ("It's great and I don't care.", "It is great and I do not care."),
    ("Can't. Won't. Shan't.", "Cannot. Will not. Shall not."),
    # "'s"/"'d" before a participle may be "has"/"had": left alone; "I've" is unambiguous
    ("It's been fun and I'd seen it, but I've loved it since.", "It's been fun and I'd seen it, but I have loved it since."),
])
def test_contractions_contract_or_else_expand(text, expected):
    assert run("contractions", text).text == expected


@pytest.mark.parametrize("text", [
    "The film was a joy.",
    "They have a dog and it is.",  # "have" as a main verb, "it is" with nothing after it
    "It is been a while.",  # left alone both ways
    "Let's go, John's car is here.",  # not contractions of the table
])
def test_contractions_leave_texts_with_nothing_to_change(text):
    assert run("contractions", text) is None


def _pairs() -> list[str]:
    out = ["cannot", *(f"{aux} not" for aux in (*NEGATABLE, *IRREGULAR_NEGATIONS))]
    out += [f"{pron} {aux}" for aux, (_, prons) in PRONOUN_AUX.items() for pron in prons]
    return [p.replace("i ", "I ") if p.startswith("i ") else p for p in out]


FILLERS = ["good", "the", "film", "not", "been", "seen", "better", "a", "done", "it", "is", "will", "have"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_pairs() + FILLERS), min_size=1, max_size=8), st.booleans(), st.sampled_from(["", ".", "!"]))
def test_contracting_then_expanding_gives_the_text_back(words, capital, end):
    text = " ".join(words) + end
    if capital:
        text = text[0].upper() + text[1:]
    contracted = apply_changes(text, contract(text))
    assert apply_changes(contracted, expand(contracted)) == text
    if re.search(r"\b(do not|cannot|will not)\b", text, re.IGNORECASE):
        assert contracted != text


def test_contractions_of_a_pair_followed_by_a_word_are_made():
    for pair in _pairs():
        text = f"{pair} {'seen' if pair.endswith(' have') else 'good'}"  # "have" contracts before a participle only
        contracted = apply_changes(text, contract(text))
        assert contracted.count(" ") < text.count(" ") or pair == "cannot" and contracted == "can't good", pair


def test_urls_and_handles_are_random_and_added_at_either_end():
    text = "The film was a joy."
    seen = set()
    for seed in range(40):
        p = run("urls_handles", text, seed)
        (change,) = p.changes
        assert change.old == "" and change.start in (0, len(text))
        added = change.new.strip()
        assert re.fullmatch(r"@[a-z][a-z0-9]{3,11}|https://[a-z]{4,10}\.(com|org|net|io)/[a-z0-9]{6,10}", added), added
        assert p.text in (f"{added} {text}", f"{text} {added}")
        seen.add((added[0], change.start))
    assert seen == {("@", 0), ("@", len(text)), ("h", 0), ("h", len(text))}
    assert run("urls_handles", "   ") is None


def test_polar_phrases_are_short_very_polar_sst_sentences():
    phrases = polar_phrases()
    sst = {s.text: s for s in load_sst(get_settings().data_root)}
    for label, fine in (("positive", 4), ("negative", 0)):
        assert len(phrases[label]) >= 50 and list(phrases[label]) == sorted(set(phrases[label]))
        for text in phrases[label]:
            s = sst[text]
            assert s.fine_label == fine and MIN_WORDS <= len([t for t in s.tokens if any(c.isalnum() for c in t)]) <= MAX_WORDS
            assert text[0].isupper() and text[-1] in ".!"
    assert "It's a masterpiece." in phrases["positive"] and "Bad movie." in phrases["negative"]
    assert not set(phrases["positive"]) & set(phrases["negative"])


@pytest.mark.parametrize("label", ["positive", "negative"])
def test_add_phrase_appends_a_polar_sentence(label):
    p = get_perturbation(f"add_{label}")
    assert p.direction == Direction(label, "up")
    out = p("The plot was thin", random.Random(1))
    (change,) = out.changes
    assert change == Change(17, 17, "", change.new) and change.new.startswith(". ")
    assert change.new[2:] in polar_phrases()[label]
    out = p("The plot was thin! ", random.Random(1))
    (change,) = out.changes
    assert change.start == 18 and change.new[1:] in polar_phrases()[label]
    assert out.text == f"The plot was thin! {change.new[1:]} "
    assert p("...", random.Random(1)) is None


@pytest.mark.parametrize("name", ["typo", "typo2", "typo_keyboard", "urls_handles", "add_positive", "add_negative"])
def test_same_seed_same_variant_other_seeds_other_variants(name):
    for text in SENTENCES:
        assert run(name, text, 11) == run(name, text, 11)
        assert len({run(name, text, seed).text for seed in range(10)}) > 1


@pytest.mark.parametrize("name", ["punctuation", "contractions"])
def test_deterministic_perturbations_ignore_the_seed(name):
    for text in SENTENCES:
        assert len({run(name, text, seed) for seed in range(5)}) == 1
