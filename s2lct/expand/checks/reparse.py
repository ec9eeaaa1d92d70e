"""Check (a): the expanded seed, parsed again, still has the production Algorithm 1 grew.

The masks were placed by aligning the *seed's* tree with a reference production; a fill that the
parser, reading the whole new sentence, puts somewhere else ("One [part] of the best ..." read as
a noun compound) shows the sentence is not the one the grammar predicted. Score per fill, the
lowest over the fills:

    1.0  the fill's preterminal is the mask symbol and its parent expands by the target production
    0.67 the preterminal is the symbol and the parent has the production's left-hand side
    0.33 only the preterminal is the symbol
    0.0  not even that

Parses go through the expander's ``Parser`` (cached by parser identity and tokens).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from nltk import Tree

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks, split_production


def production_level(tree: Tree, position: int, symbol: str, lhs: str, rhs: tuple[str, ...]) -> float:
    """How much of the target production survives around leaf ``position`` of ``tree``."""
    try:
        leaf = tree.leaf_treeposition(position)
    except IndexError:
        return 0.0
    pre = tree[leaf[:-1]]
    if pre.label() != symbol:
        return 0.0
    if len(leaf) < 2:
        return 0.33
    parent = tree[leaf[:-2]] if len(leaf) > 2 else tree
    if parent.label() != lhs:
        return 0.33
    if tuple(c.label() if isinstance(c, Tree) else c for c in parent) != rhs:
        return 0.67
    return 1.0


class Reparse:
    name = "reparse"
    version = "1"

    def __init__(self, min_score: float = 0.33) -> None:
        self.min_score = min_score

    def settings(self) -> dict[str, Any]:
        return {"min_score": self.min_score}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        trees = ctx.parser.parse([it.tokens for it in items]) if items else []
        out = []
        for it, tree in zip(items, trees, strict=True):
            if tree is None:
                out.append(CheckResult(False, 0.0, "parse_failed"))
                continue
            lhs, rhs = split_production(it.production)
            score = min(production_level(tree, p, s, lhs, rhs) for p, s in zip(it.positions, it.symbols))
            out.append(CheckResult(score >= self.min_score, score))
        return out


@fluency_checks.register("reparse")
def make_reparse(**settings: Any) -> Reparse:
    return Reparse(**settings)
