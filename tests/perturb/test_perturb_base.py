"""The perturbation records, the registry and batch perturbation (issue 25, deliverable 2)."""

from __future__ import annotations

import random

import pytest

from s2lct.errors import S2LCTError
from s2lct.perturb.base import Change, Direction, Perturbed, apply_changes, match_case, perturbed
from s2lct.perturb.registry import available, get_perturbation, perturb_all

BUILT_IN = {
    "typo", "typo2", "typo_keyboard", "punctuation", "contractions", "urls_handles", "names", "locations", "numbers",
    "protected", "intensifiers", "reducers", "add_positive", "add_negative",
}
DIRECTIONS = {
    "intensifiers": Direction("predicted", "up"), "reducers": Direction("predicted", "down"),
    "add_positive": Direction("positive", "up"), "add_negative": Direction("negative", "up"),
}


def test_apply_changes_replaces_inserts_and_deletes_in_original_offsets():
    text = "the film was good"
    changes = [Change(0, 0, "", "Oh, "), Change(4, 8, "film", "movie"), Change(12, 17, " good", "")]
    assert apply_changes(text, changes) == "Oh, the movie was"
    assert apply_changes(text, []) == text


@pytest.mark.parametrize("changes", [
    [Change(4, 8, "film", "movie"), Change(0, 3, "the", "a")],  # not sorted
    [Change(0, 8, "the film", "x"), Change(4, 8, "film", "y")],  # overlapping
    [Change(4, 8, "flim", "movie")],  # old is not what the text holds there
    [Change(15, 20, "good!", "bad")],  # beyond the end
])
def test_apply_changes_refuses_changes_that_do_not_fit_the_text(changes):
    with pytest.raises(ValueError):
        apply_changes("the film was good", changes)


def test_perturbed_sorts_changes_and_never_returns_the_original():
    p = perturbed("ab cd", [Change(3, 5, "cd", "dc"), Change(0, 2, "ab", "ba")], "typo2")
    assert p == Perturbed("ab cd", "ba dc", (Change(0, 2, "ab", "ba"), Change(3, 5, "cd", "dc")), "typo2")
    assert perturbed("ab cd", [Change(0, 2, "ab", "ab")], "typo") is None
    assert perturbed("ab cd", [], "typo") is None


def test_match_case_and_direction_values():
    assert [match_case(m, "black") for m in ("asian", "Asian", "ASIAN")] == ["black", "Black", "BLACK"]
    with pytest.raises(ValueError):
        Direction("neutral", "up")
    with pytest.raises(ValueError):
        Direction("predicted", "sideways")


def test_registry_lists_every_perturbation_sorted_with_its_kind_and_direction():
    names = available()
    assert names == sorted(names) and BUILT_IN <= set(names)
    for name in BUILT_IN:
        p = get_perturbation(name)
        assert p.name == name
        assert (p.kind, p.direction) == (("dir", DIRECTIONS[name]) if name in DIRECTIONS else ("inv", None))
    assert {n for n in BUILT_IN if get_perturbation(n).needs_doc} == {"names", "locations", "numbers", "protected", "intensifiers", "reducers"}


def test_unknown_perturbation_is_a_one_line_error_naming_the_valid_ones():
    with pytest.raises(S2LCTError) as err:
        get_perturbation("typos")
    message = str(err.value)
    assert "\n" not in message
    assert message.startswith("unknown perturbation 'typos' (did you mean 'typo'?)")
    assert all(name in message for name in BUILT_IN)


def test_perturb_all_gives_each_text_its_own_generator_and_lists_the_skipped():
    texts = ["What a film.", "!!!", "Dull", "   ", "It was fine!"]
    done, skipped = perturb_all("punctuation", texts, seed=3)
    assert skipped == [1, 3]
    assert [p.text for p in done] == ["What a film", "Dull.", "It was fine"]

    texts = ["the movie was wonderful", "a dull and lifeless plot", "zz", "great acting all round"]
    done, skipped = perturb_all("typo", texts, seed="s")
    assert skipped == [2]
    assert done == [get_perturbation("typo")(t, random.Random(f"s:{i}")) for i, t in enumerate(texts) if i != 2]
    # a text's variant does not depend on the texts around it
    alone, _ = perturb_all("typo", texts[:1], seed="s")
    assert alone == done[:1]
    again, _ = perturb_all("typo", texts, seed="s")
    assert again == done
