"""Names the masked LM invents: a proper-noun fill ("John" was inserted 321 times) adds a person
or title the seed never mentioned, and a determiner before a seed's name ("[the] Ballistic: Ecks
vs. Sever") breaks the title. Both rules read tags only (the fill's mask symbol, the seed's parse
tags), so they cost nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

NAME_TAGS = frozenset({"NNP", "NNPS"})


class Names:
    name = "names"
    version = "1"

    def settings(self) -> dict[str, Any]:
        return {"rules": ["invented_name", "determiner_before_name"]}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for it in items:
            rule = None
            for p, sym in zip(it.positions, it.symbols):
                if sym in NAME_TAGS:
                    rule = "invented_name"
                elif sym in ("DT", "PRP$") and p + 1 < len(it.tokens) and p + 1 not in it.positions and it.tag(p + 1) in NAME_TAGS:
                    rule = "determiner_before_name"
                if rule:
                    break
            out.append(CheckResult(rule is None, 0.0 if rule else 1.0, rule))
        return out


@fluency_checks.register("names")
def make_names(**settings: Any) -> Names:
    return Names(**settings)
