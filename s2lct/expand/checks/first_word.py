"""Check (c): no conjunction or sentence adverb as a *new* first word.

The masked LM likes "And"/"But"/"So" at a sentence start (14.6% of expanded seeds in the suite
before this check); templates then embed the seed mid-sentence ("I think that and the mushy
finale ..."), and even alone it reads as a fragment of a larger text. A fill at position 0 is
rejected when it is tagged CC or is one of the discourse openers below. A plain word list: the
set is closed and small, and spaCy tags several of these as RB like any other adverb.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

OPENERS = frozenset(
    "and but so or nor yet plus then also still however thus hence therefore besides anyway anyhow well now though "
    "although because instead meanwhile otherwise indeed moreover furthermore again too oh yes sure okay ok "
    "finally actually basically honestly admittedly ultimately overall "
    # a hedge or a frequency before the whole opinion makes it partial ("[Sometimes] it is very amusing,
    # and that's all it needs to be", read 43, both reads; "[Perhaps] this was one baaaaaaaaad movie")
    "sometimes occasionally often perhaps maybe probably possibly".split()
)


class FirstWord:
    name = "first_word"
    version = "2"  # 2: hedges and frequency adverbs as openers

    def __init__(self, openers: Sequence[str] | None = None) -> None:
        self.openers = frozenset(w.lower() for w in openers) if openers is not None else OPENERS

    def settings(self) -> dict[str, Any]:
        return {"openers": sorted(self.openers), "reject_cc": True}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for it in items:
            bad = 0 in it.positions and (it.tag(0) == "CC" or it.tokens[0].lower() in self.openers)
            out.append(CheckResult(not bad, 0.0 if bad else 1.0, "opener" if bad else None))
        return out


@fluency_checks.register("first_word")
def make_first_word(**settings: Any) -> FirstWord:
    return FirstWord(**settings)
