"""Per-capability results and their presentation: rich table, JSON, Markdown and HTML.

A case *fails* when the predicted label is not among its expected labels (METHOD.md §1.4). Per
capability we report cases, failures, failure rate and, for syntax-based expansions, how many
expansions failed while the seed case they expand passed ("seed passed, expansion failed"), plus
how many inputs the model truncated.

JSON report (``--json`` / ``--s2lct-report x.json``) for one model::

    {"model": "vader", "identity": "...", "suite": "generated",
     "capabilities": [{"id", "name", "cases", "failures", "failure_rate", "expansion_cases",
                       "expansion_failures", "seed_passed_expansion_failed", "truncated"}, ...],
     "total": {same keys but id/name},
     "failing_cases": [{"id", "capability", "text", "expected", "predicted", "probs", ...}, ...]}

With several models the file is ``{"models": [<one such object per model>]}``.
The HTML report is rendered by :mod:`s2lct.run.html_report`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

from s2lct.atomic import write_text
from s2lct.errors import S2LCTError
from s2lct.models.base import DEFAULT_NEUTRAL_BAND
from s2lct.suite import natural_key

REPORT_SUFFIXES = (".json", ".md", ".html")
MD_FAILING_PER_CAPABILITY = 5


@dataclass(frozen=True, slots=True)
class CaseOutcome:
    case_id: str
    capability: str
    text: str
    expected: tuple[str, ...]
    predicted: str
    probs: dict[str, float]
    passed: bool
    truncated: bool = False
    seed_case: str | None = None
    seed_passed: bool | None = None  # for expansions: did the seed case pass (None: unknown)
    explanation: dict[str, Any] | None = None  # top evidence of the failure, when an explainer ran

    @property
    def is_expansion(self) -> bool:
        return self.seed_case is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.case_id,
            "capability": self.capability,
            "text": self.text,
            "expected": list(self.expected),
            "predicted": self.predicted,
            "probs": {k: round(v, 6) for k, v in self.probs.items()},
            "passed": self.passed,
            "truncated": self.truncated,
            "seed_case": self.seed_case,
            "seed_passed": self.seed_passed,
            **({"explanation": self.explanation} if self.explanation is not None else {}),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> CaseOutcome:
        return cls(
            case_id=d["id"], capability=d["capability"], text=d["text"], expected=tuple(d["expected"]),
            predicted=d["predicted"], probs=dict(d["probs"]), passed=bool(d["passed"]),
            truncated=bool(d.get("truncated", False)), seed_case=d.get("seed_case"), seed_passed=d.get("seed_passed"),
            explanation=d.get("explanation"),
        )


@dataclass
class CapabilityStats:
    id: str
    name: str
    cases: int = 0
    failures: int = 0
    expansion_cases: int = 0
    expansion_failures: int = 0
    seed_passed_expansion_failed: int = 0
    truncated: int = 0

    @property
    def failure_rate(self) -> float:
        return self.failures / self.cases if self.cases else 0.0

    def add(self, o: CaseOutcome) -> None:
        self.cases += 1
        self.failures += not o.passed
        self.truncated += o.truncated
        if o.is_expansion:
            self.expansion_cases += 1
            self.expansion_failures += not o.passed
            self.seed_passed_expansion_failed += (not o.passed) and o.seed_passed is True

    def to_json(self, with_id: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "name": self.name} if with_id else {}
        d.update(
            cases=self.cases,
            failures=self.failures,
            failure_rate=round(self.failure_rate, 6),
            expansion_cases=self.expansion_cases,
            expansion_failures=self.expansion_failures,
            seed_passed_expansion_failed=self.seed_passed_expansion_failed,
            truncated=self.truncated,
        )
        return d


@dataclass
class ModelReport:
    model: str
    identity: str
    capabilities: list[CapabilityStats]
    total: CapabilityStats
    failing: list[CaseOutcome] = field(default_factory=list)
    suite: str | None = None
    #: for a binary model, the band of p(positive) read as ``neutral``; ``None`` for 3-class models
    neutral_band: tuple[float, float] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "identity": self.identity,
            "suite": self.suite,
            "capabilities": [c.to_json() for c in self.capabilities],
            "total": self.total.to_json(with_id=False),
            "failing_cases": [o.to_json() for o in self.failing],
        }


def build_report(
    model: str,
    identity: str,
    outcomes: Iterable[CaseOutcome],
    names: Mapping[str, str] | None = None,
    suite: str | None = None,
    neutral_band: tuple[float, float] | None = None,
) -> ModelReport:
    """Aggregate case outcomes per capability (capabilities in natural order, failures in case order).

    ``neutral_band`` is the model's band; it is kept only when the outcomes are a binary model's
    (see :func:`is_binary`), so that the reports can show p(positive) against it instead of a
    meaningless p(neutral) of 0. Binary without a band given: the default band.
    """
    outcomes = list(outcomes)
    names = names or {}
    caps: dict[str, CapabilityStats] = {}
    total = CapabilityStats("total", "total")
    failing: list[CaseOutcome] = []
    for o in outcomes:
        st = caps.get(o.capability)
        if st is None:
            st = caps[o.capability] = CapabilityStats(o.capability, names.get(o.capability) or o.capability)
        st.add(o)
        total.add(o)
        if not o.passed:
            failing.append(o)
    ordered = [caps[k] for k in sorted(caps, key=natural_key)]
    failing.sort(key=lambda o: (natural_key(o.capability), o.case_id))
    band = (neutral_band or DEFAULT_NEUTRAL_BAND) if is_binary(outcomes) else None
    return ModelReport(model, identity, ordered, total, failing, suite, band)


def is_binary(outcomes: Sequence[CaseOutcome]) -> bool:
    """Whether these are a binary model's outcomes: adapters give binary models ``neutral: 0.0`` always.

    A 3-class model's softmax is never exactly 0, and a lexicon model's only at a score of exactly ±1.
    """
    return bool(outcomes) and all(o.probs.get("neutral", 0.0) == 0.0 for o in outcomes)


# --------------------------------------------------------------------------------------- table
def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


#: What each table column means; printed under every table and in docs/running.md.
COLUMN_HELP = {
    "Cases": "test cases run",
    "Fails": "cases whose predicted label is not among the expected labels",
    "Rate": "Fails / Cases",
    "Exp.": "of the cases, syntax-based expansions of a seed case",
    "Exp.fail|seed ok": "expansions that fail while their seed case passes",
    "Trunc.": "inputs cut to the model's length limit",
}


def _legend(capabilities: Sequence[CapabilityStats], width: int) -> str:
    """One line per capability id: its name, cut to the width (the full name is in the reports)."""
    lines = []
    for c in capabilities:
        line = f"  {c.id:<5} {c.name}"
        lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return "\n".join(lines)


def _footer(columns: Sequence[str], width: int) -> str:
    import textwrap

    text = "; ".join(f"{col}: {COLUMN_HELP[col]}" for col in columns if col in COLUMN_HELP)
    return textwrap.fill(text, width=width)


def render_table(report: ModelReport, width: int = 80) -> Any:
    """One model's per-capability results: a table of ids and numbers, the names, and what each column means."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    show_exp = report.total.expansion_cases > 0
    show_trunc = report.total.truncated > 0
    t = Table(title=f"s2lct: {report.model}", title_justify="left")
    columns = ["Cases", "Fails", "Rate"] + (["Exp.", "Exp.fail|seed ok"] if show_exp else []) + (["Trunc."] if show_trunc else [])
    t.add_column("ID", no_wrap=True)
    for col in columns:
        t.add_column(col, justify="right", no_wrap=True)
    rows = [*report.capabilities, report.total]
    for i, c in enumerate(rows):
        cells = [c.id if c is not report.total else "TOTAL", str(c.cases), str(c.failures), _pct(c.failure_rate)]
        if show_exp:
            cells += [str(c.expansion_cases), str(c.seed_passed_expansion_failed)]
        if show_trunc:
            cells.append(str(c.truncated))
        t.add_row(*cells, end_section=(i == len(rows) - 2))
    return Group(t, Text(_legend(report.capabilities, width)), Text(_footer(columns, width), style="dim"))


def render_side_by_side(reports: Sequence[ModelReport], width: int = 80) -> Any:
    """Several models in one table: failure rate (and fails/cases) per capability and model."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    t = Table(title="s2lct: " + " vs ".join(r.model for r in reports), title_justify="left")
    t.add_column("ID", no_wrap=True)
    t.add_column("Cases", justify="right", no_wrap=True)
    for r in reports:
        t.add_column(f"{r.model}\nRate (Fails)", justify="right", overflow="fold")
    caps = _all_capabilities(reports)
    by_model = [{c.id: c for c in r.capabilities} for r in reports]
    rows: list[tuple[str, list[CapabilityStats | None]]] = [(cid, [m.get(cid) for m in by_model]) for cid, _ in caps]
    rows.append(("TOTAL", [r.total for r in reports]))
    for i, (cid, stats) in enumerate(rows):
        cases = next((str(st.cases) for st in stats if st is not None), "-")
        t.add_row(cid, cases, *[f"{_pct(st.failure_rate)} ({st.failures})" if st else "-" for st in stats], end_section=(i == len(rows) - 2))
    named = [CapabilityStats(cid, name) for cid, name in caps]
    return Group(t, Text(_legend(named, width)), Text(_footer(["Cases", "Rate", "Fails"], width) + "; one column per model", style="dim"))


def render_tables(reports: Sequence[ModelReport], width: int = 80) -> list[Any]:
    """What ``s2lct run`` and ``pytest --model`` print: each model's table, then all side by side."""
    out = [render_table(r, width) for r in reports]
    if len(reports) > 1:
        out.append(render_side_by_side(reports, width))
    return out


def tables_text(reports: Sequence[ModelReport], width: int = 100, color: bool = False) -> str:
    """The tables of all models rendered to text (for pytest's terminal summary)."""
    from rich.console import Console

    buf = StringIO()
    console = Console(file=buf, width=width, force_terminal=color, color_system="standard" if color else None, highlight=False)
    for table in render_tables(reports, width):
        console.print(table)
    return buf.getvalue()


# --------------------------------------------------------------------------------------- writers
def reports_json(reports: Sequence[ModelReport]) -> dict[str, Any]:
    if len(reports) == 1:
        return reports[0].to_json()
    return {"models": [r.to_json() for r in reports]}


def write_json_report(path: str | Path, reports: Sequence[ModelReport]) -> None:
    write_text(path, json.dumps(reports_json(reports), ensure_ascii=False, indent=2) + "\n")


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def render_markdown(reports: Sequence[ModelReport]) -> str:
    out: list[str] = ["# s2lct results", ""]
    if len(reports) > 1:
        caps = _all_capabilities(reports)
        out += ["## Failure rates side by side", "",
                "| Capability | " + " | ".join(_md_escape(r.model) for r in reports) + " |",
                "|---|" + "---:|" * len(reports)]
        for cap_id, name in caps:
            cells = []
            for r in reports:
                st = next((c for c in r.capabilities if c.id == cap_id), None)
                cells.append(_pct(st.failure_rate) if st else "–")
            out.append(f"| {cap_id} {_md_escape(name)} | " + " | ".join(cells) + " |")
        out.append("")
    for r in reports:
        out += [f"## {_md_escape(r.model)}", "", f"Model identity: `{r.identity}`", "",
                "| Capability | Name | Cases | Failures | Failure rate | Expansions | Seed passed, expansion failed | Truncated |",
                "|---|---|---:|---:|---:|---:|---:|---:|"]
        for c in [*r.capabilities, r.total]:
            cid = "**TOTAL**" if c is r.total else c.id
            name = "" if c is r.total else _md_escape(c.name)
            out.append(f"| {cid} | {name} | {c.cases} | {c.failures} | {_pct(c.failure_rate)} | "
                       f"{c.expansion_cases} | {c.seed_passed_expansion_failed} | {c.truncated} |")
        out.append("")
        if r.failing:
            out += ["### Failing cases (first {} per capability)".format(MD_FAILING_PER_CAPABILITY), "",
                    "| Case | Text | Expected | Predicted | p(neg / neu / pos) |", "|---|---|---|---|---|"]
            for o in first_failing(r, MD_FAILING_PER_CAPABILITY):
                p = o.probs
                why = f"<br>{_md_escape(o.explanation['summary'])}" if o.explanation else ""
                out.append(f"| {o.case_id} | {_md_escape(o.text)}{why} | {', '.join(o.expected)} | {o.predicted} | "
                           f"{p['negative']:.3f} / {p['neutral']:.3f} / {p['positive']:.3f} |")
            out.append("")
    return "\n".join(out)


def first_failing(report: ModelReport, per_capability: int) -> list[CaseOutcome]:
    """The first ``per_capability`` failing cases of each capability, in report order."""
    shown: dict[str, int] = {}
    out = []
    for o in report.failing:
        if shown.get(o.capability, 0) < per_capability:
            shown[o.capability] = shown.get(o.capability, 0) + 1
            out.append(o)
    return out


def _all_capabilities(reports: Sequence[ModelReport]) -> list[tuple[str, str]]:
    seen: dict[str, str] = {}
    for r in reports:
        for c in r.capabilities:
            seen.setdefault(c.id, c.name)
    return [(k, seen[k]) for k in sorted(seen, key=natural_key)]


def write_report(path: str | Path, reports: Sequence[ModelReport]) -> None:
    """Write the report in the format given by the suffix of ``path`` (.json, .md or .html)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        write_json_report(path, reports)
    elif suffix == ".md":
        write_text(path, render_markdown(reports))
    elif suffix in (".html", ".htm"):
        from s2lct.run.html_report import render_html  # a cycle at import time: the HTML module builds on this one

        write_text(path, render_html(reports))
    else:
        raise S2LCTError(f"report file {path}: unknown format {suffix or '(no suffix)'}; use .json, .md or .html")


def check_report_path(path: str | Path | None) -> None:
    """Fail early (before any inference) on an unsupported report suffix."""
    if path is not None and Path(path).suffix.lower() not in (*REPORT_SUFFIXES, ".htm"):
        raise S2LCTError(f"report file {path}: unknown format {Path(path).suffix or '(no suffix)'}; use .json, .md or .html")
