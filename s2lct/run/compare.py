"""``s2lct compare``: one model on two suites, failure rates side by side per capability, so a user
sees what CheckList's hand templates find next to what real-seed suites find.

Rows are matched through the CheckList test names a spec declares it covers (``checklist:`` in the
spec, recorded in the manifest) against an imported CheckList suite's test names; suites that are
neither are matched by capability name. A row whose test no spec covers shows "-" on our side: the
gaps are part of the answer.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from s2lct.suite import MANIFEST_NAME, load_manifest


@dataclass(frozen=True, slots=True)
class ComparedRow:
    name: str  # CheckList test name, or the shared capability name
    test_type: str
    a: list[tuple[str, Any]]  # (capability id, CapabilityStats) in suite A
    b: list[tuple[str, Any]]  # in suite B

    @staticmethod
    def rate(cells: list[tuple[str, Any]]) -> tuple[int, int] | None:
        """(failures, judged cases) over the cells, or None when there are none."""
        if not cells:
            return None
        return sum(s.failures for _, s in cells), sum(s.judged for _, s in cells)

    def to_json(self) -> dict[str, Any]:
        def side(cells: list[tuple[str, Any]]) -> dict[str, Any] | None:
            r = self.rate(cells)
            return None if r is None else {"capabilities": [c for c, _ in cells], "failures": r[0], "cases": r[1],
                                           "failure_rate": round(r[0] / r[1], 6) if r[1] else None}
        return {"name": self.name, "test_type": self.test_type, "a": side(self.a), "b": side(self.b)}


def _manifest(suite: Path) -> dict[str, Any]:
    return load_manifest(suite) if (suite / MANIFEST_NAME).is_file() else {}


def _keys(manifest: Mapping[str, Any]) -> dict[str, list[str]]:
    """Capability id → the names it is matched by: CheckList test names it is or covers, else its own name."""
    out = {}
    for cid, info in (manifest.get("capabilities") or {}).items():
        if not isinstance(info, Mapping):
            continue
        if isinstance(info.get("checklist"), Mapping):  # an imported CheckList test
            out[cid] = [str(info["checklist"]["name"])]
        elif info.get("checklist_tests"):
            out[cid] = [str(n) for n in info["checklist_tests"]]
        else:
            out[cid] = [str(info.get("name") or cid)]
    return out


def compare_reports(report_a: Any, manifest_a: Mapping[str, Any], report_b: Any, manifest_b: Mapping[str, Any]) -> list[ComparedRow]:
    """Rows in suite A's order, then names only suite B has."""
    stats_a = {c.id: c for c in report_a.capabilities}
    stats_b = {c.id: c for c in report_b.capabilities}
    keys_a, keys_b = _keys(manifest_a), _keys(manifest_b)
    caps_a = manifest_a.get("capabilities") or {}
    caps_b = manifest_b.get("capabilities") or {}
    names: dict[str, str] = {}
    for cid in stats_a:
        for n in keys_a.get(cid, [stats_a[cid].name]):
            names.setdefault(n, (caps_a.get(cid) or {}).get("test_type", "mft"))
    for cid in stats_b:
        for n in keys_b.get(cid, [stats_b[cid].name]):
            names.setdefault(n, (caps_b.get(cid) or {}).get("test_type", "mft"))
    rows = []
    for n, kind in names.items():
        a = [(cid, s) for cid, s in stats_a.items() if n in keys_a.get(cid, [s.name])]
        b = [(cid, s) for cid, s in stats_b.items() if n in keys_b.get(cid, [s.name])]
        rows.append(ComparedRow(n, kind, a, b))
    return rows


def compare_suites(model: str, suite_a: str | Path, suite_b: str | Path | Sequence[str | Path],
                   **run_options: Any) -> tuple[list[ComparedRow], Any, Any]:
    """Run ``model`` on suite A and on the suite(s) B (predictions cached) and match their
    capabilities; several B folders (``generated`` and ``generated/checklist``) count as one suite."""
    from dataclasses import replace

    from s2lct.run.runner import run_suite

    (rep_a,) = run_suite([model], suite_a, **run_options)
    b_suites = [suite_b] if isinstance(suite_b, (str, Path)) else list(suite_b)
    reports, caps = [], {}
    for s in b_suites:
        (rep,) = run_suite([model], s, **run_options)
        reports.append(rep)
        caps.update((_manifest(Path(s)).get("capabilities") or {}))
    rep_b = replace(reports[0], capabilities=[c for r in reports for c in r.capabilities])
    return compare_reports(rep_a, _manifest(Path(suite_a)), rep_b, {"capabilities": caps}), rep_a, rep_b


def render_comparison(rows: Sequence[ComparedRow], model: str, label_a: str, label_b: str) -> Any:
    from rich.table import Table

    t = Table(title=f"s2lct compare: {model}", title_justify="left")
    t.add_column("Test / capability", overflow="fold", ratio=3)
    t.add_column("Type", no_wrap=True)
    for label in (label_a, label_b):
        t.add_column(f"{label}: fail rate (fails/cases) ids", overflow="fold", ratio=2)
    for r in rows:
        cells = [r.name, r.test_type.upper()]
        for side in (r.a, r.b):
            rate = ComparedRow.rate(side)
            cells.append("-" if rate is None else f"{100 * rate[0] / max(rate[1], 1):.1f}% ({rate[0]}/{rate[1]}) {','.join(c for c, _ in side)}")
        t.add_row(*cells)
    return t
