"""Numbers (CheckList's "change numbers"): each integer becomes another within 20% of it.

"It lasted 120 minutes" and "it lasted 131 minutes" say the same about a film. Changed: tokens of
ASCII digits only (no "1,000", "3.5", "9/10", "2nd"), without a leading zero, outside any entity or
in a numeric one (CARDINAL, QUANTITY, MONEY, PERCENT, TIME, DATE). Left alone: numbers inside
names ("Apollo 13", "Ocean's 11": WORK_OF_ART, PRODUCT, ...), four-digit numbers 1000–2099 whatever
their entity (years: spaCy often misses a bare one, a film "set in 1873" is about history, and a
year moved by 20% is another era; counts that large are rare in reviews) and short years ("the
'50s"), and integers below 5,
which have no other integer within 20% (this also spares "2" and "4", which CheckList skips as
homophones of "to" and "for"). The same number becomes the same number throughout the text.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .base import Change, Perturbed, doc_for, perturbations, perturbed

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

NUMERIC_ENTITIES = frozenset({"", "CARDINAL", "QUANTITY", "MONEY", "PERCENT", "TIME", "DATE"})
YEARS = range(1000, 2100)


def within_20_percent(n: int) -> tuple[int, int]:
    """The smallest and largest integers within 20% of ``n`` (exact integer arithmetic)."""
    return -(-4 * n // 5), 6 * n // 5


def changeable(token: Token) -> bool:
    text = token.text
    if not (text.isascii() and text.isdigit()) or (len(text) > 1 and text[0] == "0"):
        return False
    n = int(text)
    low, high = within_20_percent(n)
    after_apostrophe = token.idx > 0 and token.doc.text[token.idx - 1] in "'’"  # "the '50s"
    return token.ent_type_ in NUMERIC_ENTITIES and n not in YEARS and high > low and not after_apostrophe


def nearby(n: int, rng: random.Random) -> int:
    """An integer within 20% of ``n``, not ``n``, uniformly."""
    low, high = within_20_percent(n)
    k = rng.randint(low, high - 1)
    return k + 1 if k >= n else k


class Numbers:
    name = "numbers"
    kind = "inv"
    direction = None
    needs_doc = True

    def __call__(self, text: str, rng: random.Random, doc: Doc | None = None) -> Perturbed | None:
        doc = doc_for(text, doc)
        new_number: dict[str, str] = {}
        changes = [
            Change(t.idx, t.idx + len(t.text), t.text, new_number.setdefault(t.text, str(nearby(int(t.text), rng))))
            for t in doc if changeable(t)
        ]
        return perturbed(text, changes, self.name) if changes else None


perturbations.register("numbers", func=Numbers)
