"""The stacking check: an inserted adverb next to another adverb (issue 22's blind read)."""

from __future__ import annotations

from s2lct.expand.checks import CheckItem, make_check


def item(seed: str, tags: str, pos: int, word: str, sym: str = "RB") -> CheckItem:
    s = tuple(seed.split())
    return CheckItem(s, tuple(tags.split()), s[:pos] + (word,) + s[pos:], (pos,), (sym,), "VP -> ADVP VBZ")


def verdicts(*items: CheckItem) -> list[tuple[bool, str | None]]:
    return [(r.passed, r.rule) for r in make_check("stacking").check(list(items), None)]


def test_stacked_adverbs_refused_manner_and_negation_kept():
    assert verdicts(
        item("This is not so bad .", "DT VBZ RB RB JJ .", 4, "really"),  # "not so [really] bad"
        item("an insultingly inept film", "DT RB JJ NN", 1, "incredibly"),  # "[incredibly] insultingly"
        item("The piece works brilliantly .", "DT NN VBZ RB .", 3, "quite"),  # "works [quite] brilliantly"
        item("It is not bad .", "PRP VBZ RB JJ .", 3, "really"),  # "not [really] bad"
        item("His work is particularly impressive .", "PRP$ NN VBZ RB JJ .", 3, "really"),  # not a manner adverb
        item("The actors are fantastic .", "DT NNS VBP JJ .", 3, "really"),
        item("The actors are fantastic .", "DT NNS VBP JJ .", 1, "other", "JJ"),  # not an adverb: not this check's
    ) == [(False, "after_adverb"), (False, "before_adverb"), (True, None), (True, None), (False, "before_adverb"), (True, None),
          (True, None)]
