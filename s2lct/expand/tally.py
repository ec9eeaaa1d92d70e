"""Where a capability's expansion candidates drop out, so one that gets none can say why.

Seed-level counts (parse, masks, fills, PoS/neutrality, fluency checks) are over the capability's
distinct seed sentences; case-level ones (repeated word, search rule, transform, beyond
``max_per_seed``) over candidate uses, one per seed case and slot.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from s2lct.expand.checks import passed

if TYPE_CHECKING:
    from s2lct.expand.expander import SeedResult
    from s2lct.spec import CapabilitySpec


def expansion_off(spec: CapabilitySpec, expand: bool = True) -> str | None:
    """Why expansion does not run for this capability (``None``: it runs)."""
    if not expand:
        return "--no-expand"
    if getattr(spec, "test", None) is not None:
        return "INV/DIR pairs (test: in the spec)"
    if not spec.expansion.enabled:
        return "expansion.enabled: false in the spec"
    if spec.expansion.max_per_seed <= 0:
        return "expansion.max_per_seed: 0 in the spec"
    return None


def first_failed_check(checks: Mapping[str, Any]) -> str | None:
    """The first check in a candidate's record that it failed."""
    return next((name for name, value in checks.items() if not passed({name: value})), None)


@dataclass
class ExpansionTally:
    """Counts of one capability's expansion funnel, from seeds to kept expansions."""

    off: str | None = None  # expansion did not run: why
    seeds: int = 0  # distinct seed sentences expanded
    parse_failed: int = 0
    no_place: int = 0  # parsed seeds where the grammar allows no further word (no masked sentence)
    fills: int = 0  # fills the masked LM offered
    pos_neutral: int = 0  # fills dropped by the PoS or neutrality check (or reaching an earlier sentence)
    fluency: dict[str, int] = field(default_factory=dict)  # fluency check → candidates it rejected first
    repeats: int = 0  # candidate uses whose fill repeats its neighbour
    connective_so: int = 0  # ... whose "so" follows a comma, where it reads as "therefore"
    capability_rules: int = 0  # ... refused by a capability rule: intensifier in a neutral seed, slot kind, fill after a negation
    search: int = 0  # ... after which the seed no longer meets its pool's search rule
    transform: int = 0  # ... whose slot transform no longer gives the same variant
    beyond_k: int = 0  # valid, but beyond max_per_seed
    word_cap: int = 0  # kept expansions dropped so that no inserted word passes MAX_WORD_SHARE
    expansions: int = 0  # expanded cases in the suite
    expanded_cases: int = 0  # template (seed) cases with at least one expansion
    none_reasons: dict[str, int] = field(default_factory=dict)  # template cases with none, by reason (they add up)

    def top_reasons(self, k: int = 3) -> str:
        """The ``k`` commonest reasons template cases got no expansion, e.g. "selector 120, no_slot 40"."""
        ranked = sorted(self.none_reasons.items(), key=lambda kv: (-kv[1], kv[0]))[:k]
        return ", ".join(f"{name} {n}" for name, n in ranked)

    def add_seeds(self, results: Iterable[SeedResult]) -> None:
        """Count the seed-level stages of these (distinct) seeds' expansion results."""
        for r in results:
            self.seeds += 1
            if r.status != "ok":
                self.parse_failed += 1
                continue
            self.no_place += r.masked == 0
            self.fills += r.fills
            self.pos_neutral += r.fills - len(r.candidates) - len(r.rejected)
            for c in r.rejected:
                name = first_failed_check(c.checks) or "fluency"
                self.fluency[name] = self.fluency.get(name, 0) + 1

    def drops(self) -> list[tuple[str, int]]:
        """Every check that dropped something, with its count: stage by stage, the fluency checks by name."""
        named = [("PoS/neutral", self.pos_neutral), *sorted(self.fluency.items()), ("repeated word", self.repeats),
                 ("'so' after a comma", self.connective_so),
                 ("capability rule", self.capability_rules),
                 ("search rule", self.search), ("transform", self.transform), ("word share cap", self.word_cap)]
        return [(name, n) for name, n in named if n]

    def reason(self) -> str | None:
        """Why the capability got no expansion; ``None`` when it got some."""
        if self.expansions:
            return None
        if self.off:
            return f"off: {self.off}"
        if not self.seeds:
            return "no seed case to expand"
        if self.parse_failed == self.seeds:
            return f"no seed parsed ({self.seeds} failed)"
        if self.no_place == self.seeds - self.parse_failed:
            return f"no seed had a grammar difference (no place for one more word in {self.no_place} seeds)"
        if not self.fills:
            return "the masked LM offered no fill"
        rejected = ", ".join(f"{name} {n}" for name, n in self.drops())
        return f"all {self.fills} fills of {self.seeds} seeds rejected: {rejected}"
