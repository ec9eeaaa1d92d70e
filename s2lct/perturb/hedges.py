"""A past opinion frame (CheckList's DIR '"used to" should reduce'): "X" becomes "I used to think
that x". Saying one *used to* hold an opinion distances the speaker from it, so a model should not
be more confident in the original's label afterwards. The first word loses its capital unless it is
a proper noun, "I" or an acronym (spaCy's tag), so the frame reads as one sentence.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .base import Change, Direction, Perturbed, doc_for, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc

FRAMES = ("I used to think that", "I used to believe that")


class UsedTo:
    name = "used_to"
    kind = "dir"
    direction = Direction("predicted", "down")
    needs_doc = True

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        words = [t for t in doc if not t.is_space]
        if not words or not words[0].text[:1].isalpha():
            return None  # a seed opening with a quote or a number does not read after "that"
        first = words[0]
        frame = rng.choice(FRAMES) + " "
        keep = first.tag_ in ("NNP", "NNPS") or first.text == "I" or (len(first.text) > 1 and first.text.isupper())
        changes = [Change(first.idx, first.idx, "", frame)]
        if not keep:
            changes.append(Change(first.idx, first.idx + 1, first.text[0], first.text[0].lower()))
        return perturbed(text, _merge(changes), self.name)


def _merge(changes: list[Change]) -> list[Change]:
    """The insertion and the lower-casing at the same offset as one edit (``apply_changes`` wants
    edits that do not touch)."""
    if len(changes) == 1:
        return changes
    ins, low = changes
    return [Change(low.start, low.end, low.old, ins.new + low.new)]


perturbations.register("used_to", func=UsedTo)
