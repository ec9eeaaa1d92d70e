"""The perturbations that read a spaCy parse (names, places, numbers, protected words, degree
adverbs), on hand-written sentences; the pipeline is loaded once for the module."""

from __future__ import annotations

import gzip
import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from s2lct.config import get_settings
from s2lct.perturb.base import Direction, PerturbError, apply_changes, default_nlp
from s2lct.perturb.degree import downtoners, intensifiers
from s2lct.perturb.locations import kind_of, replacements
from s2lct.perturb.names import gender, name_lists
from s2lct.perturb.numeric import nearby, within_20_percent
from s2lct.perturb.protected import RACE, protected_words
from s2lct.perturb.registry import available, get_perturbation, perturb_all

SENTENCES = [
    "I watched it with John Smith yesterday.", "It was an amazing film and the acting is good.",
    "We flew from Paris to the United States and then Texas.", "It lasted 120 minutes and cost 45 dollars in 1999.",
    "He is a gay man.", "The director is French.", "Great film!", "The film is not good.", "Nothing here at all",
]


@pytest.fixture(scope="module")
def nlp():
    return default_nlp()


def run(nlp, name: str, text: str, seed: int = 0):
    return get_perturbation(name)(text, random.Random(seed), nlp(text))


def test_every_perturbation_changes_the_text_or_returns_none_and_records_its_edits(nlp):
    for name in available():
        for text in SENTENCES:
            p = run(nlp, name, text)
            if p is not None:
                assert p.text != text and p.original == text and p.perturbation == name
                assert apply_changes(text, p.changes) == p.text


def test_a_person_name_becomes_another_of_the_same_gender_and_nothing_else_changes(nlp):
    lists = name_lists()
    seen = set()
    for seed in range(8):
        p = run(nlp, "names", "I watched it with John Smith yesterday.", seed)
        m = re.fullmatch(r"I watched it with (\w+) (\w+) yesterday\.", p.text)
        assert m, p.text
        first, last = m.groups()
        assert first in lists["male"] and gender(first) == "male" and first != "John"
        assert last in lists["last"] and last != "Smith"
        seen.add(first)
    assert len(seen) > 1
    p = run(nlp, "names", "Mary loved it, and her brother hated it. Mary cried.", 1)
    new = p.changes[0].new
    assert gender(new) == "female" and p.text == f"{new} loved it, and her brother hated it. {new} cried."
    assert run(nlp, "names", "The film was directed by Spielberg.") is None  # no known first name: gender unknown
    assert run(nlp, "names", "The acting was good.") is None


NAMES = st.sampled_from(["John", "Mary", "David", "Linda", "Michael", "Susan"])
LASTS = st.sampled_from(["Smith", "Johnson", "Brown", "Miller", "Davis"])
FRAMES = st.sampled_from(["I watched it with {} yesterday.", "{} loved the film.", "The film stars {}, and it is great.",
                          "My friend {} said it was dull."])


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(FRAMES, NAMES, st.one_of(st.none(), LASTS), st.integers(0, 1000))
def test_only_the_name_changes(nlp, frame, first, last, seed):
    name = f"{first} {last}" if last else first
    text = frame.format(name)
    p = run(nlp, "names", text, seed)
    if p is None:  # NER missed the name or cut it wrong ("John yesterday")
        assert name not in {e.text for e in nlp(text).ents if e.label_ == "PERSON"}
        return
    start = frame.index("{}")
    prefix, suffix = frame[:start], frame[start + 2 :]
    assert p.text.startswith(prefix) and p.text.endswith(suffix)
    new = p.text[len(prefix) : len(p.text) - len(suffix)].split(" ")
    assert len(new) == len(name.split(" ")) and gender(new[0]) == gender(first) and new[0] != first
    assert all(c.old in name.split(" ") for c in p.changes)


def test_places_keep_their_kind_and_drop_a_the_they_no_longer_take(nlp):
    text = "We flew from Paris to the United States and then Texas."
    for seed in range(5):
        p = run(nlp, "locations", text, seed)
        m = re.fullmatch(r"We flew from Paris to (.+) and then (.+)\.", p.text)
        assert m, p.text
        country, state = m.groups()
        assert country in replacements("country") and kind_of(country) == "country"
        assert state in replacements("state") and state != "Texas"
    assert kind_of("Georgia") is None and kind_of("New York") is None  # on two lists: left alone
    people = {n for names in name_lists().values() for n in names}
    assert kind_of("Charlotte") is None and kind_of("Jordan") is None  # also a person's name
    assert not people & {n for kind in ("country", "city", "state") for n in replacements(kind)}
    assert run(nlp, "locations", "I grew up in Georgia.") is None
    assert run(nlp, "locations", "The film was shot in a barn.") is None
    p = run(nlp, "locations", "It was a hit in Chicago.", 2)
    assert kind_of(p.changes[0].new) == "city" and p.text == f"It was a hit in {p.changes[0].new}."


def test_numbers_move_within_20_percent_and_years_and_small_numbers_stay(nlp):
    text = "It lasted 120 minutes and cost 45 dollars in 1999."
    for seed in range(10):
        p = run(nlp, "numbers", text, seed)
        m = re.fullmatch(r"It lasted (\d+) minutes and cost (\d+) dollars in 1999\.", p.text)
        assert m, p.text
        minutes, dollars = map(int, m.groups())
        assert 96 <= minutes <= 144 and minutes != 120 and 36 <= dollars <= 54 and dollars != 45
    assert run(nlp, "numbers", "I gave it 3 stars out of 4 in 2003.") is None
    for text in ("It spoofs those old '50's giant creature features.", "A spoof of the '80 slasher films.",
                 "A murder in 1873 and rage in 2002."):
        assert run(nlp, "numbers", text) is None, text  # years
    assert within_20_percent(5) == (4, 6) and within_20_percent(4) == (4, 4) and within_20_percent(100) == (80, 120)
    values = {nearby(10, random.Random(seed)) for seed in range(200)}
    assert values == {8, 9, 11, 12}


@pytest.mark.parametrize("text, cls, word", [
    ("He is a gay man.", "sexual", "gay"),
    ("My Muslim neighbours were lovely.", "religion", "Muslim"),
    ("The director is French.", "nationality", "French"),
    ("She is a Muslim.", "religion", "Muslim"),
])
def test_a_protected_word_becomes_another_of_its_class(nlp, text, cls, word):
    same_class = {w.lower() for w in protected_words()[cls]}
    for seed in range(12):
        p = run(nlp, "protected", text, seed)
        (change,) = [c for c in p.changes if c.old == word]
        assert change.new.lower() in same_class and change.new.lower() != word.lower()
        assert not re.search(r"\b(or|and)\b", change.new)  # one term, not "Bosnian or Herzegovinian"
        assert p.text == apply_changes(text, p.changes) and len(p.changes) <= 2


def test_a_protected_word_in_another_sense_is_left_alone_and_articles_follow(nlp):
    for text in ("It is a black comedy in black and white.", "It went straight to video.", "The dialogue is in French.",
                 "An American film.", "Elling, portrayed by Per Christian Ellefsen, is a truly singular character."):
        assert run(nlp, "protected", text) is None, text
    for seed in range(8):
        p = run(nlp, "protected", "An Asian woman directed it.", seed)
        m = re.fullmatch(r"(An?) (\w+) woman directed it\.", p.text)
        assert m and m.group(2).lower() in RACE and m.group(2) != "Asian"
        assert m.group(1) == ("An" if m.group(2)[0].lower() in "aeiou" else "A")


def test_race_words_are_those_of_checklists_released_protected_race_test():
    path = get_settings().data_root / "checklist" / "sentiment_suite_export.json.gz"
    (test,) = [t for t in json.loads(gzip.decompress(path.read_bytes()))["tests"] if t["name"] == "protected: race"]
    words = {re.search(r" an? (\w+) ", case).group(1) for case in test["data"][0]}
    assert words == set(RACE)


def test_intensifiers_and_reducers_go_before_a_sentiment_adjective_with_their_direction(nlp):
    for name, pool, direction in (("intensifiers", intensifiers(), Direction("predicted", "up")),
                                  ("reducers", downtoners(), Direction("predicted", "down"))):
        assert get_perturbation(name).direction == direction
        for seed in range(6):
            p = run(nlp, name, "It was an amazing film.", seed)
            m = re.fullmatch(r"It was (an?) (\w+) amazing film\.", p.text)
            assert m and m.group(2) in pool and m.group(2) != "so", p.text  # "a so amazing film" is wrong
            assert m.group(1) == ("an" if m.group(2)[0] in "aeiou" else "a")
            p = run(nlp, name, "Great film!", seed)
            word = p.text.split()[0]
            assert word.lower() in pool and word[0].isupper() and p.text == f"{word} great film!"
        for text in ("The film is not good.", "The film is very good.", "It was a long film.", "The well-made film ended."):
            assert run(nlp, name, text) is None, (name, text)


def test_downtoners_are_vaders_decrementers_without_negations():
    from vaderSentiment.vaderSentiment import BOOSTER_DICT, NEGATE

    words = downtoners()
    assert words and all(BOOSTER_DICT[w] < 0 for w in words)
    assert not set(words) & ({"hardly", "barely", "scarcely", "scarce"} | set(NEGATE))
    assert "slightly" in words and "somewhat" in words


def test_same_seed_same_variant_other_seeds_other_variants(nlp):
    for name, text in (("names", "I watched it with John Smith yesterday."), ("numbers", "It lasted 120 minutes."),
                       ("locations", "It was a hit in Chicago."), ("protected", "He is a gay man."),
                       ("intensifiers", "Great film!"), ("reducers", "Great film!")):
        assert run(nlp, name, text, 5) == run(nlp, name, text, 5)
        assert len({run(nlp, name, text, seed).text for seed in range(10)}) > 1, name


def test_perturb_all_parses_in_batches_without_changing_the_variants(nlp):
    texts = ["I watched it with John Smith yesterday.", "It lasted 120 minutes.", "Nothing to see", "Great film!"]
    variants, skipped = perturb_all("numbers", texts, seed=9, nlp=nlp, batch_size=1)
    assert skipped == [0, 2, 3]
    assert variants == [get_perturbation("numbers")(texts[1], random.Random("9:1"), nlp(texts[1]))]
    assert perturb_all("numbers", texts, seed=9, batch_size=3) == (variants, skipped)  # the configured pipeline


def test_a_doc_of_another_text_is_refused(nlp):
    with pytest.raises(PerturbError):
        get_perturbation("names")("John Smith was great.", random.Random(0), nlp("Mary was great."))
    # without a Doc the configured pipeline parses the text
    assert get_perturbation("numbers")("It lasted 120 minutes.", random.Random(0)) == run(nlp, "numbers", "It lasted 120 minutes.")


def test_used_to_frames_the_opinion_in_the_past_keeping_proper_nouns_capitalised(nlp):
    p = run(nlp, "used_to", "The film is a mess.")
    assert re.fullmatch(r"I used to (think|believe) that the film is a mess\.", p.text)
    assert get_perturbation("used_to").kind == "dir" and get_perturbation("used_to").direction == Direction("predicted", "down")
    q = run(nlp, "used_to", "Steven Spielberg brings us another masterpiece.")
    assert q.text.endswith("that Steven Spielberg brings us another masterpiece.")
    assert run(nlp, "used_to", '"Frailty" is a gem.') is None
