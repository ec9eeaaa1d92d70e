"""An inserted adverb next to another adverb (issue 22, found in a blind read of the slot-kind
engine's expansions): "is not so [really] bad", "an [incredibly] insultingly inept", "the movie
completely [really] transfixes", "is painfully [incredibly] foolish", "are [quite] nowhere near".
Two degree words stacked read as machine text. Allowed: a degree word right before a "-ly"
manner adverb that follows a verb ("works [quite] brilliantly"); "-ly" words that are not manner
adverbs (``insertions.NOT_MANNER``: "is [really] particularly", "'s [probably] absolutely") are not. Tags only: the fill's mask
symbol, the seed's parse tags around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks
from s2lct.expand.checks.insertions import NOT_MANNER

ADVERBS = frozenset({"RB", "RBR", "RBS"})
VERBS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})
NEGATIONS = frozenset({"not", "n't", "never"})


class Stacking:
    name = "stacking"
    version = "2"

    def settings(self) -> dict[str, Any]:
        return {"rules": ["after_adverb", "before_adverb"]}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for it in items:
            rule = next((r for p, s in zip(it.positions, it.symbols) if s in ADVERBS and (r := self._rule(it, p))), None)
            out.append(CheckResult(rule is None, 0.0 if rule else 1.0, rule))
        return out

    @staticmethod
    def _rule(it: CheckItem, p: int) -> str | None:
        n = len(it.tokens)
        prev_tag = it.tag(p - 1) if p > 0 else ""
        if prev_tag in ADVERBS and it.tokens[p - 1].lower() not in NEGATIONS:
            return "after_adverb"
        if p + 1 < n and it.tag(p + 1) in ADVERBS:
            nxt = it.tokens[p + 1].lower()
            manner = nxt.endswith("ly") and nxt not in NOT_MANNER and prev_tag in VERBS
            if not manner:
                return "before_adverb"
        return None


@fluency_checks.register("stacking")
def make_stacking(**settings: Any) -> Stacking:
    return Stacking(**settings)
