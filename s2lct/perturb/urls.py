"""A random URL or @handle at the start or end (CheckList's "add random urls and handles").

Tweets and reviews scraped from the web carry them, and they say nothing about the writer's
opinion. The strings are random letters and digits drawn from the perturbation's generator, so a
model cannot have learnt a polarity for them.
"""

from __future__ import annotations

import random
import string
from typing import TYPE_CHECKING

from .base import Change, Perturbed, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc

_LETTERS = string.ascii_lowercase
_ALNUM = string.ascii_lowercase + string.digits
_DOMAINS = (".com", ".org", ".net", ".io")


def _random(rng: random.Random, alphabet: str, low: int, high: int) -> str:
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))


def random_url(rng: random.Random) -> str:
    return f"https://{_random(rng, _LETTERS, 4, 10)}{rng.choice(_DOMAINS)}/{_random(rng, _ALNUM, 6, 10)}"


def random_handle(rng: random.Random) -> str:
    return "@" + rng.choice(_LETTERS) + _random(rng, _ALNUM, 3, 11)


class UrlsHandles:
    name = "urls_handles"
    kind = "inv"
    direction = None
    needs_doc = False

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        if not text.strip():
            return None
        extra = random_url(rng) if rng.random() < 0.5 else random_handle(rng)
        if rng.random() < 0.5:
            start = len(text) - len(text.lstrip())
            return perturbed(text, [Change(start, start, "", extra + " ")], self.name)
        end = len(text.rstrip())
        return perturbed(text, [Change(end, end, "", " " + extra)], self.name)


perturbations.register("urls_handles", func=UrlsHandles)
