"""The interface every fluency check implements, and the registry they join (see the package
docstring); separate from the package so check modules import it without an import circle."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import catalogue

Tokens = tuple[str, ...]

fluency_checks = catalogue.create("s2lct", "fluency_checks", entry_points=True)



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
    score: float = 1.0  # the masked LM's probability of the fills (product over masks)

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


def passed(checks: Mapping[str, Any]) -> bool:
    """Whether a candidate's ``checks`` record is all passes (booleans or ``{"pass": ...}``)."""
    return all((v.get("pass", False) if isinstance(v, Mapping) else bool(v)) for v in checks.values())


def split_production(production: str) -> tuple[str, tuple[str, ...]]:
    lhs, _, rhs = production.partition(" -> ")
    return lhs, tuple(rhs.split())


def lower(tokens: Iterable[str]) -> list[str]:
    return [t.lower() for t in tokens]
