"""``--matrix``: retrain on each capability in turn (from the same base model), evaluate on all.

Cell (R, E) is the pass-rate change in percentage points on capability E after retraining on R —
on R's held-out test split when E = R, on all of E's cases otherwise — with an SST-2 dev column.
Rows are independent runs under ``matrix/<R>/``; the table and heat map are rewritten after each
row, so an interrupted matrix keeps its finished rows and resumes with the next.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..atomic import write_json, write_text
from ..suite import natural_key

SST2 = "SST-2 dev"


def matrix_table(rows: dict[str, dict[str, Any]], eval_caps: list[str]) -> dict[str, Any]:
    retrained = sorted(rows, key=natural_key)
    values, f2p, p2f = [], [], []
    for r in retrained:
        by_cap = {row["capability"]: row for row in rows[r]["accounting"]["capabilities"]}
        values.append([None if e not in by_cap or by_cap[e]["pass_rate_change"] is None else 100 * by_cap[e]["pass_rate_change"]
                       for e in eval_caps] + [None if rows[r]["accounting"]["sst2_dev"]["accuracy_change"] is None
                                             else 100 * rows[r]["accounting"]["sst2_dev"]["accuracy_change"]])
        f2p.append([by_cap[e]["fail_to_pass"] if e in by_cap else None for e in eval_caps])
        p2f.append([by_cap[e]["pass_to_fail"] if e in by_cap else None for e in eval_caps])
    return {"retrained": retrained, "evaluated": [*eval_caps, SST2], "pass_rate_change_pp": values,
            "fail_to_pass": f2p, "pass_to_fail": p2f}


def matrix_markdown(m: dict[str, Any]) -> str:
    cols = m["evaluated"]
    lines = ["Pass-rate change (percentage points) after retraining on the row's capability, evaluated on the column's "
             "(diagonal: the row's held-out test split; SST-2 dev: accuracy change).", "",
             "| retrain \\ eval | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 1)]
    for r, vals in zip(m["retrained"], m["pass_rate_change_pp"]):
        cells = ["-" if v is None else (f"**{v:+.1f}**" if c == r else f"{v:+.1f}") for c, v in zip(cols, vals)]
        lines.append(f"| {r} | " + " | ".join(cells) + " |")
    for cap, why in (m.get("skipped") or {}).items():
        lines.append(f"\n{cap}: not retrained ({why})")
    return "\n".join(lines) + "\n"


def run_matrix(ctx: Any, out: Path, run_rounds: Callable[..., dict[str, Any]]) -> dict[str, Any]:
    """One ``run_rounds`` (:mod:`s2lct.retrain.loop`) per capability of ``ctx.opts.capabilities``."""
    from .plots import heat_map

    from .split import SplitError

    eval_caps = sorted({c.capability for c in ctx.cases}, key=natural_key)
    rows: dict[str, dict[str, Any]] = {}
    skipped: dict[str, str] = {}
    m: dict[str, Any] = {}
    for i, cap in enumerate(ctx.opts.capabilities, 1):
        ctx.log(f"matrix row {i}/{len(ctx.opts.capabilities)}: retraining on {cap}")
        row_dir = out / "matrix" / cap
        row_dir.mkdir(parents=True, exist_ok=True)
        try:
            rows[cap] = run_rounds(ctx, row_dir, [cap], keep_models=False)
        except SplitError as exc:  # too few seed sentences to hold any out: a row of its own, not the end of the matrix
            skipped[cap] = str(exc)
            ctx.log(f"matrix row {cap} skipped: {exc}")
            continue
        m = {**matrix_table(rows, eval_caps), "skipped": skipped}
        write_json(out / "matrix.json", m)
        write_text(out / "matrix.md", matrix_markdown(m))
        heat_map(m["retrained"], m["evaluated"], m["pass_rate_change_pp"], out / "matrix_heatmap",
                 title=f"{ctx.opts.model}: pass-rate change (pp), retrain × evaluate")
    if skipped:
        m = {**(matrix_table(rows, eval_caps) if rows else {}), "skipped": skipped}
        write_json(out / "matrix.json", m)
        if rows:
            write_text(out / "matrix.md", matrix_markdown(m))
    return {"matrix": m, "rows": rows}
