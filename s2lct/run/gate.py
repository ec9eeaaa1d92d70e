"""The CI gate: a minimum pass rate per capability, so a pipeline can fail on a capability that
regressed rather than on any single case (a behavioural suite always has failing cases).

Minimums come, highest priority first, from ``--min-pass-rate`` (``s2lct run``) or
``--s2lct-min-pass-rate`` (pytest), ``$S2LCT_MIN_PASS_RATE`` or ``min_pass_rate`` in the
configuration file, then each spec's ``min_pass_rate`` (recorded in the suite's manifest). A value
is one rate for every capability (``0.8``), per capability (``LC4=0.9,LC8=0.7``) or both
(``0.8,LC4=0.9``: LC4 0.9, the rest 0.8). A capability with no minimum anywhere is not gated.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from s2lct.errors import S2LCTError

#: exit code of ``s2lct run`` when a capability is below its minimum (1 is taken by user errors)
GATE_FAILED_EXIT = 3


@dataclass(frozen=True, slots=True)
class GateResult:
    capability: str
    pass_rate: float
    minimum: float
    cases: int
    model: str

    @property
    def ok(self) -> bool:
        return self.pass_rate + 1e-12 >= self.minimum

    def line(self) -> str:
        verdict = "ok" if self.ok else "BELOW"
        return (f"gate {verdict}: {self.model} {self.capability} pass rate {100 * self.pass_rate:.1f}% "
                f"(minimum {100 * self.minimum:.1f}%, {self.cases} cases)")


def _rate(text: str, where: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise S2LCTError(f"{where}: {text!r} is not a number; give a pass rate between 0 and 1, e.g. 0.8 or LC4=0.9") from None
    if not 0.0 <= value <= 1.0:
        raise S2LCTError(f"{where}: {text} is outside 0..1; a pass rate is a share, e.g. 0.8 for 80%")
    return value


def parse_min_pass_rate(value: str | None, where: str = "--min-pass-rate") -> dict[str | None, float]:
    """``"0.8,LC4=0.9"`` → ``{None: 0.8, "LC4": 0.9}`` (``None``: every capability)."""
    out: dict[str | None, float] = {}
    if value is None or not str(value).strip():
        return out
    for part in str(value).split(","):
        part = part.strip()
        if not part:
            continue
        if "=" in part:
            cap, _, rate = part.partition("=")
            if not cap.strip():
                raise S2LCTError(f"{where}: {part!r} has no capability before '='; write e.g. LC4=0.9")
            out[cap.strip()] = _rate(rate.strip(), where)
        else:
            out[None] = _rate(part, where)
    return out


def minimums(manifest: Mapping[str, Any], capabilities: list[str], override: Mapping[str | None, float],
             configured: Mapping[str | None, float]) -> dict[str, float]:
    """Each gated capability's minimum pass rate; an override naming an unknown capability is an error."""
    known = set(capabilities)
    for source in (override, configured):
        unknown = sorted(c for c in source if c is not None and c not in known)
        if unknown:
            from s2lct.suggest import unknown_names

            raise S2LCTError("min pass rate: " + unknown_names("capability", unknown, capabilities, valid_label="in this run"))
    caps = manifest.get("capabilities") or {}
    out: dict[str, float] = {}
    for cap in capabilities:
        for source in (override, configured):
            if cap in source:
                out[cap] = source[cap]
                break
            if None in source:
                out[cap] = source[None]
                break
        else:
            spec_min = (caps.get(cap) or {}).get("min_pass_rate") if isinstance(caps.get(cap), Mapping) else None
            if spec_min is not None:
                out[cap] = float(spec_min)
    return out


def evaluate(reports: list[Any], mins: Mapping[str, float]) -> list[GateResult]:
    """One result per (model, gated capability), in report order."""
    out = []
    for r in reports:
        for c in r.capabilities:
            if c.id in mins:
                out.append(GateResult(c.id, 1.0 - c.failure_rate, mins[c.id], c.judged, r.model))
    return out


def gate_from_settings(value: str | None, manifest: Mapping[str, Any], capabilities: list[str]) -> dict[str, float]:
    """Minimums for a run: ``value`` (the flag) over the configured setting over the specs."""
    from s2lct.config import get_settings

    configured = get_settings().min_pass_rate
    return minimums(manifest, capabilities, parse_min_pass_rate(value),
                    parse_min_pass_rate(configured, "min_pass_rate (S2LCT_MIN_PASS_RATE or the configuration file)"))
