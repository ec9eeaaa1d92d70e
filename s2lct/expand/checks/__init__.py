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

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import catalogue

Tokens = tuple[str, ...]

fluency_checks = catalogue.create("s2lct", "fluency_checks", entry_points=True)

#: the default order: cheap word rules first, then the masked-LM score, then the re-parse
DEFAULT_CHECKS: tuple[str, ...] = ("first_word", "names", "function_words", "insertions", "pll", "reparse")


@dataclass(frozen=True)
class CheckItem:
    """What a check sees of one candidate: the seed (tokens and PTB tags of its parse), the
    expanded seed as it will be written (cased), the fills, and the production used."""

    seed: Tokens
    seed_tags: tuple[str, ...]
    tokens: Tokens
    positions: tuple[int, ...]
    symbols: tuple[str, ...]
    production: str  # "NP -> DT JJ NN"

    @property
    def fills(self) -> tuple[str, ...]:
        return tuple(self.tokens[p] for p in self.positions)

    def seed_index(self, i: int) -> int | None:
        """Index in the seed of expanded token ``i`` (None for a fill)."""
        if i in self.positions:
            return None
        return i - sum(1 for p in self.positions if p < i)

    def tag(self, i: int) -> str:
        """PTB tag of expanded token ``i``: the mask symbol for a fill, the seed's tag otherwise."""
        j = self.seed_index(i)
        return self.symbols[self.positions.index(i)] if j is None else self.seed_tags[j]


@dataclass(frozen=True, slots=True)
class CheckResult:
    passed: bool
    score: float
    rule: str | None = None  # which rule of a rule-based check fired

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"pass": self.passed, "score": self.score}
        if self.rule:
            d["rule"] = self.rule
        return d


class CheckContext(Protocol):
    """Shared models a check may use (the expander's, loaded lazily)."""

    @property
    def parser(self) -> Any: ...

    @property
    def mlm(self) -> Any: ...


class FluencyCheck(Protocol):
    name: str
    version: str

    def settings(self) -> dict[str, Any]:
        """Thresholds and knobs (recorded in the store key and the manifest)."""
        ...

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        """One result per item, in order. Items are the candidates of one seed."""
        ...


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
    from s2lct.expand.checks import first_word, function_words, insertions, names, pll, reparse  # noqa: F401


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


def passed(checks: Mapping[str, Any]) -> bool:
    """Whether a candidate's ``checks`` record is all passes (booleans or ``{"pass": ...}``)."""
    return all((v.get("pass", False) if isinstance(v, Mapping) else bool(v)) for v in checks.values())


def split_production(production: str) -> tuple[str, tuple[str, ...]]:
    lhs, _, rhs = production.partition(" -> ")
    return lhs, tuple(rhs.split())


def lower(tokens: Iterable[str]) -> list[str]:
    return [t.lower() for t in tokens]
