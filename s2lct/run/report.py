"""Per-capability results presented as rich tables, JSON and Markdown (HTML: :mod:`s2lct.run.html_report`).

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
from collections.abc import Sequence
from io import StringIO
from pathlib import Path
from typing import Any

from s2lct.atomic import write_text
from s2lct.errors import S2LCTError
from s2lct.run.html_report import render_html
from s2lct.run.outcomes import (  # noqa: F401 (re-exported: the report API)
    CapabilityStats,
    CaseOutcome,
    ModelReport,
    all_capabilities,
    band_limit,
    band_rule,
    build_report,
    first_failing,
    is_binary,
    percent,
    shown_expected,
    shown_predicted,
    shown_text,
)

REPORT_SUFFIXES = (".json", ".md", ".html")
MD_FAILING_PER_CAPABILITY = 5


# --------------------------------------------------------------------------------------- table


#: What each table column means; printed under every table and in docs/running.md.
COLUMN_HELP = {
    "Cases": "test cases run",
    "Fails": "cases whose predicted label is not among the expected labels (INV/DIR: whose perturbed text broke the expectation)",
    "Rate": "Fails / Cases (DIR cases not applicable to the original's prediction left out)",
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
        cells = [c.id if c is not report.total else "TOTAL", str(c.cases), str(c.failures), percent(c.failure_rate)]
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
    caps = all_capabilities(reports)
    by_model = [{c.id: c for c in r.capabilities} for r in reports]
    rows: list[tuple[str, list[CapabilityStats | None]]] = [(cid, [m.get(cid) for m in by_model]) for cid, _ in caps]
    rows.append(("TOTAL", [r.total for r in reports]))
    for i, (cid, stats) in enumerate(rows):
        cases = next((str(st.cases) for st in stats if st is not None), "-")
        t.add_row(cid, cases, *[f"{percent(st.failure_rate)} ({st.failures})" if st else "-" for st in stats], end_section=(i == len(rows) - 2))
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
        caps = all_capabilities(reports)
        out += ["## Failure rates side by side", "",
                "| Capability | " + " | ".join(_md_escape(r.model) for r in reports) + " |",
                "|---|" + "---:|" * len(reports)]
        for cap_id, name in caps:
            cells = []
            for r in reports:
                st = next((c for c in r.capabilities if c.id == cap_id), None)
                cells.append(percent(st.failure_rate) if st else "–")
            out.append(f"| {cap_id} {_md_escape(name)} | " + " | ".join(cells) + " |")
        out.append("")
    for r in reports:
        out += [f"## {_md_escape(r.model)}", "", f"Model identity: `{r.identity}`", "",
                "| Capability | Name | Cases | Failures | Failure rate | Expansions | Seed passed, expansion failed | Truncated |",
                "|---|---|---:|---:|---:|---:|---:|---:|"]
        for c in [*r.capabilities, r.total]:
            cid = "**TOTAL**" if c is r.total else c.id
            name = "" if c is r.total else _md_escape(c.name)
            out.append(f"| {cid} | {name} | {c.cases} | {c.failures} | {percent(c.failure_rate)} | "
                       f"{c.expansion_cases} | {c.seed_passed_expansion_failed} | {c.truncated} |")
        out.append("")
        if r.failing:
            binary = r.neutral_band is not None
            if binary:
                low, high = (band_limit(x) for x in r.neutral_band)
                out += [f"{_md_escape(r.model)} is a binary model: its label is read from p(positive), "
                        f"below {low} negative, {low}–{high} (the neutral band, `--neutral-band`) neutral, above {high} positive.", ""]
            out += ["### Failing cases (first {} per capability)".format(MD_FAILING_PER_CAPABILITY), "",
                    "| Case | Text | Expected | Predicted | " + ("p(pos) | Rule |" if binary else "p(neg / neu / pos) |"),
                    "|---|---|---|---|---|" + ("---|" if binary else "")]
            for o in first_failing(r, MD_FAILING_PER_CAPABILITY):
                p = o.probs
                why = f"<br>{_md_escape(o.explanation['summary'])}" if o.explanation else ""
                if binary:
                    p_pos, rule = band_rule(r, o)
                    probs = f"{p_pos:.3f} | {rule}"
                else:
                    probs = f"{p['negative']:.3f} / {p['neutral']:.3f} / {p['positive']:.3f}"
                out.append(f"| {o.case_id} | {_md_escape(shown_text(o))}{why} | {_md_escape(shown_expected(o))} | {shown_predicted(o)} | {probs} |")
            out.append("")
    return "\n".join(out)


def write_report(path: str | Path, reports: Sequence[ModelReport]) -> None:
    """Write the report in the format given by the suffix of ``path`` (.json, .md or .html)."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".json":
        write_json_report(path, reports)
    elif suffix == ".md":
        write_text(path, render_markdown(reports))
    elif suffix in (".html", ".htm"):
        write_text(path, render_html(reports))
    else:
        raise S2LCTError(f"report file {path}: unknown format {suffix or '(no suffix)'}; use .json, .md or .html")


def check_report_path(path: str | Path | None) -> None:
    """Fail early (before any inference) on an unsupported report suffix."""
    if path is not None and Path(path).suffix.lower() not in (*REPORT_SUFFIXES, ".htm"):
        raise S2LCTError(f"report file {path}: unknown format {Path(path).suffix or '(no suffix)'}; use .json, .md or .html")
