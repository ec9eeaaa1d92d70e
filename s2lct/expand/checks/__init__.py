"""Fluency checks on expanded seeds, run after the PoS and neutrality checks (issue 10).

A masked LM's fill can pass PoS and neutrality and still break grammar or idiom ("an [few]
inferior level", "[And] the mushy finale ..."). Each check here is one module behind one
interface (``FluencyCheck``) and registered in a ``catalogue`` registry (like parsers and models),
so checks are added without touching the expander. ``FluencyFilter`` runs them in a fixed order,
cheapest first, and records every score it computed in the candidate's ``checks``::

    {"first_word": {"pass": true, "score": 1.0}, "pll": {"pass": false, "score": -1.73}, ...}

With ``cascade`` (the default) a candidate that fails one check is not scored by the later,
costlier ones (its record then holds the checks that ran); calibration turns it off to score
every candidate with every check. A candidate is accepted when every check it ran passed.

Settings (thresholds) and each check's version enter ``description()``, which the expander hashes
into its store key and the suite manifest records: results cached under other settings never leak.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import catalogue

from s2lct.expand.checks.base import (
    CheckContext,
    CheckItem,
    CheckResult,
    FluencyCheck,
    fluency_checks,
    lower,
    passed,
    split_production,
)

__all__ = [
    "DEFAULT_CHECKS", "CheckContext", "CheckItem", "CheckResult", "FluencyCheck", "FluencyFilter", "fluency_checks",
    "lower", "make_check", "passed", "split_production",
]

#: the default order: cheap word rules first, then the masked-LM score, then the re-parse
DEFAULT_CHECKS: tuple[str, ...] = ("first_word", "names", "function_words", "insertions", "pll", "reparse")


def make_check(name: str, **settings: Any) -> FluencyCheck:
    from s2lct.errors import S2LCTError

    _register_builtin()
    try:
        factory = fluency_checks.get(name)
    except catalogue.RegistryError:
        raise S2LCTError(f"unknown fluency check {name!r}; registered: {', '.join(sorted(fluency_checks.get_all()))}") from None
    return factory(**settings)


def _register_builtin() -> None:
    # importing the modules registers them
    from s2lct.expand.checks import attested, first_word, function_words, insertions, names, pll, reparse, selector, stacking  # noqa: F401


class FluencyFilter:
    """Runs registered checks in order over the candidates of one seed."""

    def __init__(self, checks: Sequence[FluencyCheck] | None = None, *, cascade: bool = True) -> None:
        self.checks = list(checks) if checks is not None else [make_check(n) for n in DEFAULT_CHECKS]
        self.cascade = cascade

    @classmethod
    def off(cls) -> FluencyFilter:
        """No fluency check (the paper's engine: PoS and neutrality only)."""
        return cls([])

    @classmethod
    def from_settings(cls, settings: Mapping[str, Mapping[str, Any]], cascade: bool = True) -> FluencyFilter:
        return cls([make_check(name, **dict(s)) for name, s in settings.items()], cascade=cascade)

    def description(self) -> dict[str, Any]:
        return {
            "cascade": self.cascade,
            "checks": [{"name": c.name, "version": c.version, "settings": c.settings()} for c in self.checks],
        }

    def run(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[dict[str, dict[str, Any]]]:
        """``checks`` records per item; an item passed iff every recorded check passed."""
        records: list[dict[str, dict[str, Any]]] = [{} for _ in items]
        alive = list(range(len(items)))
        for chk in self.checks:
            if not alive:
                break
            results = chk.check([items[i] for i in alive], ctx)
            for i, r in zip(alive, results, strict=True):
                records[i][chk.name] = r.to_json()
            if self.cascade:
                alive = [i for i, r in zip(alive, results) if r.passed]
        return records


