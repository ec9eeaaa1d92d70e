"""Why a seed got no expansion (issue 22, deliverable 5): one reason per seed, so they add up.

The first stage that left the seed with nothing, in pipeline order: the parser failed; the
reference grammar offers no slot (no grammar difference); the masked LM offered no fill; every
fill failed the PoS or neutrality check; or every candidate was rejected by a fluency check (the
check that rejected most of them first is named). A seed with an accepted candidate is
``expanded`` here; per capability, its candidates may still be refused by the capability (its
search rules, its transform, a capability rule, the word cap: ``capability_refused``), which only
the caller can tell.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

EXPANDED = "expanded"


def seed_reason(result: Any) -> str:
    """The reason for one ``SeedResult`` (``expanded`` when it has an accepted candidate)."""
    if result.status != "ok":
        return "parse_failed"
    if result.candidates:
        return EXPANDED
    if not result.masked:
        return "no_slot"
    if not result.fills:
        return "no_fill"
    if not result.rejected:
        return "pos_or_neutral"
    first = Counter(
        next((name for name, v in c.checks.items() if isinstance(v, Mapping) and not v.get("pass", False)), "other")
        for c in result.rejected
    )
    name, _ = min(first.items(), key=lambda kv: (-kv[1], kv[0]))
    return f"rejected:{name}"


#: a template case whose seed had accepted candidates that the capability then refused (its search
#: rules, its transform, a capability rule such as ``exclude_fills``, or the suite's word cap)
CAPABILITY_REFUSED = "capability_refused"


def case_reason(seed_reasons: Iterable[str]) -> str:
    """One reason for a template case with no expansion, from the reasons of its seeds."""
    rs = sorted(seed_reasons)
    if not rs:
        return "no_seed"
    return CAPABILITY_REFUSED if EXPANDED in rs else rs[0]


def tally(results: Iterable[Any]) -> Counter:
    """Seeds per reason; the counts sum to the number of results."""
    return Counter(seed_reason(r) for r in results)
