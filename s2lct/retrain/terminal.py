"""What ``s2lct retrain`` prints on a terminal: its tables within 80 columns.

The Markdown files (accounting.md, matrix.md) keep every column; the JSON files every number.
Here the accounting shows the rates and the case flows (the #Fail/#Pass counts follow from them),
the learning curve has one column per round, and a wide matrix is stacked in column groups.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .accounting import _pct

#: Matrix columns per stacked table: 7 cells of "-100.0" and the row label fit 80 columns.
MATRIX_COLUMNS = 7

ACCOUNTING_LEGEND = (
    "scope: test = the held-out test split of a capability retrained on, all = every case, "
    "sample≤N = at most N sampled cases. "
    "F→P / P→F: cases that failed before and pass after / passed and now fail. pass %: passing "
    "cases before and after; Δ pp: the change in percentage points. Every count: accounting.md, "
    "accounting.json."
)


def _table(title: str, columns: Sequence[str], first_left: int = 1) -> Any:
    from rich.table import Table

    t = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        t.add_column(col, justify="left" if i < first_left else "right", overflow="fold")
    return t


def accounting_table(acc: Mapping[str, Any]) -> Any:
    """Per evaluated capability: cases, fixed and broken cases, pass rate before/after; SST-2 dev below."""
    from rich.console import Group
    from rich.text import Text

    t = _table(f"retraining {acc['before']['model']}: before → after",
               ("LC", "scope", "cases", "F→P", "P→F", "pass %\nbefore", "pass %\nafter", "Δ pp"), first_left=2)
    for r in acc["capabilities"]:
        t.add_row(r["capability"], r["scope"], str(r["cases"]), str(r["fail_to_pass"]), str(r["pass_to_fail"]),
                  _pct(r["pass_rate_before"]), _pct(r["pass_rate_after"]), _pct(r["pass_rate_change"], True))
    parts: list[Any] = [t]
    for r in acc["capabilities"]:
        if r.get("too_small"):
            parts.append(Text(f"{r['capability']}: a held-out test split of {r['cases']} cases (under 50) is too small to judge "
                              "whether the fix worked; generate more cases for it.", style="yellow"))
    s = acc["sst2_dev"]
    if s["accuracy_before"] is not None:
        parts.append(Text(f"SST-2 dev accuracy (n={s['n']}): {_pct(s['accuracy_before'])}% before, "
                          f"{_pct(s['accuracy_after'])}% after ({_pct(s['accuracy_change'], True)} pp)."))
    parts.append(Text(ACCOUNTING_LEGEND, style="dim"))
    return Group(*parts)


PARTITION_NAMES = {"iid": "i.i.d. (seen templates, unseen seeds)", "unseen_template": "unseen templates",
                   "unseen_function": "unseen capabilities (same group)", "other": "other capabilities"}


def partition_table(partitions: Mapping[str, Mapping[str, Any]], sst2: Mapping[str, Any]) -> Any:
    """The BeLUGA partitions: failure rate before/after and the flows, then SST-2 dev accuracy."""
    from rich.console import Group
    from rich.text import Text

    t = _table("by partition (--protocol beluga)", ("partition", "cases", "fail %\nbefore", "fail %\nafter", "F→P", "P→F"))
    for name, row in partitions.items():
        t.add_row(PARTITION_NAMES.get(name, name) + (" (too small)" if row["too_small"] and row["cases"] else ""), str(row["cases"]),
                  _pct(row["failure_rate_before"]), _pct(row["failure_rate_after"]), str(row["fail_to_pass"]), str(row["pass_to_fail"]))
    parts: list[Any] = [t]
    if sst2.get("accuracy_before") is not None:
        parts.append(Text(f"SST-2 dev accuracy: {_pct(sst2['accuracy_before'])}% → {_pct(sst2['accuracy_after'])}%"))
    return Group(*parts)


def curve_table(curve: Sequence[Mapping[str, Any]]) -> Any:
    """The learning curve with one column per round (rounds are few, capabilities may be many)."""
    t = _table("failure % per round (0: before retraining)", ("", *(str(p["round"]) for p in curve)))
    t.add_row("validation", *(_pct(p["validation_failure_rate"]) for p in curve))
    for cap in curve[0]["failure_rate"]:
        t.add_row(cap, *(_pct(p["failure_rate"][cap]) for p in curve), end_section=cap == next(reversed(curve[0]["failure_rate"])))
    t.add_row("SST-2 dev acc %", *(_pct(p["sst2_accuracy"]) for p in curve))
    return t


def matrix_tables(m: Mapping[str, Any]) -> Any:
    """Pass-rate change (pp) per retrained row and evaluated column, stacked in groups of columns."""
    from rich.console import Group
    from rich.text import Text

    notes = [Text(f"{cap}: not retrained ({why})", style="yellow") for cap, why in (m.get("skipped") or {}).items()]
    if "evaluated" not in m:
        return Group(*notes)
    cols = m["evaluated"]
    parts: list[Any] = [Text("Pass-rate change (percentage points) after retraining on the row's capability, evaluated "
                             "on the column's (diagonal: the row's held-out test split; SST-2 dev: accuracy change). "
                             "All figures: matrix.json.")]
    for start in range(0, len(cols), MATRIX_COLUMNS):
        group = cols[start : start + MATRIX_COLUMNS]
        t = _table("", ("retrain", *group))
        for r, vals in zip(m["retrained"], m["pass_rate_change_pp"]):
            cells = vals[start : start + MATRIX_COLUMNS]
            t.add_row(r, *("-" if v is None else (f"[bold]{v:+.1f}[/]" if c == r else f"{v:+.1f}") for c, v in zip(group, cells)))
        parts.append(t)
    return Group(*parts, *notes)
