"""The records of an expansion: the fills of one candidate, the candidate (a suite "Expansion
object" before the capability's checks), one seed's result, and the total order that ranks them."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from s2lct.expand.checks.base import passed

Tokens = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class MaskFill:
    position: int  # token index in the expanded seed
    symbol: str
    word: str
    score: float  # the masked LM's probability


@dataclass(frozen=True)
class ExpansionCandidate:
    """One accepted expansion of a seed (the data behind a suite "Expansion object")."""

    seed: Tokens
    tokens: Tokens  # the expanded seed
    masks: tuple[MaskFill, ...]
    production: str  # e.g. "NP -> DT NNS"
    production_probability: float
    score: float  # product of the mask probabilities
    checks: Mapping[str, Any] = field(default_factory=dict, hash=False, compare=True)  # name → True or {"pass", "score"}

    @property
    def accepted(self) -> bool:
        """Passed every check it ran (PoS, neutrality and the fluency checks)."""
        return passed(self.checks)

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": list(self.seed),
            "tokens": list(self.tokens),
            "masks": [asdict(m) for m in self.masks],
            "production": self.production,
            "production_probability": self.production_probability,
            "score": self.score,
            "checks": dict(self.checks),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> ExpansionCandidate:
        return cls(
            tuple(d["seed"]), tuple(d["tokens"]), tuple(MaskFill(**m) for m in d["masks"]),
            d["production"], d["production_probability"], d["score"], dict(d["checks"]),
        )

    def expansion_record(self, detokenize: Callable[[Sequence[str]], str] = " ".join, **extra: Any) -> dict[str, Any]:
        """The suite-format expansion object (docs/suite-format.md); the caller adds ``seed_case``,
        ``seed_text`` and its ``checks["search"]`` through ``extra``/``checks``."""
        checks = {**self.checks, **extra.pop("checks", {})}
        return {
            "expanded_seed": detokenize(self.tokens),
            "masks": [asdict(m) for m in self.masks],
            "production": self.production,
            "production_probability": self.production_probability,
            "score": self.score,
            "checks": checks,
            **extra,
        }


def best(candidates: Iterable[ExpansionCandidate], k: int | None, keep: Callable[[ExpansionCandidate], bool] | None = None) -> list[ExpansionCandidate]:
    """Check (c) and step 7 for one capability: the ``k`` best-scoring candidates that ``keep``
    accepts (score, then production probability, then tokens: a total order)."""
    kept = [c for c in candidates if keep is None or keep(c)]
    kept.sort(key=_rank_key)
    return kept if k is None else kept[:k]


def _rank_key(c: ExpansionCandidate) -> tuple:
    return (-c.score, -c.production_probability, c.tokens, tuple((m.position, m.symbol) for m in c.masks))


@dataclass(frozen=True)
class SeedResult:
    status: str  # "ok" | "parse_failed"
    candidates: tuple[ExpansionCandidate, ...]  # passed every check, best first
    error: str | None = None
    masked: int = 0  # masked sentences tried
    fills: int = 0  # fills the masked LM offered
    rejected: tuple[ExpansionCandidate, ...] = ()  # passed PoS and neutrality, failed a fluency check
