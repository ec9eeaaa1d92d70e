"""Typos (CheckList's "typos", "2 typos"), and a keyboard slip: a robust model reads through them.

A swap of two adjacent letters changes the text at exactly those two positions; pairs of equal
letters ("oo") are never chosen, since swapping them changes nothing. The keyboard neighbours are
derived from the QWERTY rows and their stagger rather than typed out, so the map cannot hold a
slip of its own.
"""

from __future__ import annotations

import functools
import random
from typing import TYPE_CHECKING

from .base import Change, Perturbed, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc

QWERTY_ROWS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
# how far each row sits to the right of the one above's start, in key widths
QWERTY_STAGGER = (0.0, 0.25, 0.75)


@functools.cache
def keyboard_neighbours() -> dict[str, tuple[str, ...]]:
    """Letter → the letters whose keys touch it: beside it in its row, or overlapping it in the row
    above or below (keys one wide, rows shifted by their stagger)."""
    keys = [(ch, r, c + QWERTY_STAGGER[r]) for r, row in enumerate(QWERTY_ROWS) for c, ch in enumerate(row)]
    return {
        ch: tuple(sorted(o for o, r2, x2 in keys if (r2 == r and abs(x2 - x) == 1) or (abs(r2 - r) == 1 and abs(x2 - x) < 1)))
        for ch, r, x in keys
    }


def swappable(text: str) -> list[int]:
    """Positions i where letters i and i+1 are both letters (so in one word) and differ."""
    return [i for i in range(len(text) - 1) if text[i].isalpha() and text[i + 1].isalpha() and text[i] != text[i + 1]]


def _swap(text: str, i: int) -> Change:
    return Change(i, i + 2, text[i : i + 2], text[i + 1] + text[i])


class Typo:
    kind = "inv"
    direction = None
    needs_doc = False

    def __init__(self, name: str, swaps: int) -> None:
        if swaps not in (1, 2):
            raise ValueError("a typo perturbation makes one or two swaps")
        self.name, self.swaps = name, swaps

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        pairs = swappable(text)
        if self.swaps == 2:  # a first swap that leaves room for a second, which must not overlap it
            pairs = [i for i in pairs if any(abs(i - j) >= 2 for j in pairs)]
        if not pairs:
            return None
        chosen = [rng.choice(pairs)]
        if self.swaps == 2:
            chosen.append(rng.choice([j for j in pairs if abs(j - chosen[0]) >= 2]))
        return perturbed(text, [_swap(text, i) for i in chosen], self.name)


class KeyboardTypo:
    name = "typo_keyboard"
    kind = "inv"
    direction = None
    needs_doc = False

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        near = keyboard_neighbours()
        positions = [i for i, ch in enumerate(text) if ch.lower() in near]
        if not positions:
            return None
        i = rng.choice(positions)
        new = rng.choice(near[text[i].lower()])
        return perturbed(text, [Change(i, i + 1, text[i], new.upper() if text[i].isupper() else new)], self.name)


perturbations.register("typo", func=lambda: Typo("typo", 1))
perturbations.register("typo2", func=lambda: Typo("typo2", 2))
perturbations.register("typo_keyboard", func=KeyboardTypo)
