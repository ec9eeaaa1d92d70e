"""Final punctuation (CheckList's "punctuation"): strip it, or add a period where there is none.

A sentence's closing marks rarely carry its sentiment, so the label should survive either edit.
The marks are stripped inside a closing quotation mark (``"Wow!"`` → ``"Wow"``), and a text that is
nothing but marks ("!!!") is left alone: stripping would leave nothing to classify.
"""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING

from .base import Change, Perturbed, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc

_FINAL = re.compile(r"([.!?…;:,]+)([\"'’”»]*)\s*\Z")


class Punctuation:
    name = "punctuation"
    kind = "inv"
    direction = None
    needs_doc = False

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        if not any(ch.isalnum() for ch in text):
            return None
        m = _FINAL.search(text)
        if m:
            return perturbed(text, [Change(m.start(1), m.end(1), m.group(1), "")], self.name)
        end = len(text.rstrip())
        return perturbed(text, [Change(end, end, "", ".")], self.name)


perturbations.register("punctuation", func=Punctuation)
