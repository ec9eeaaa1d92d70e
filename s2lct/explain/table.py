"""The ``s2lct explain`` summary as a terminal table that fits 80 columns (summary.json has it all)."""

from __future__ import annotations

from typing import Any

#: Short names of where rmax falls, as the terminal table shows them (summary.json has the full keys).
_CATEGORY_SHORT = {"template": "template", "transform": "transform", "expansion": "expansion", "outside": "outside",
                   "flat": "flat", "seed:negative": "seed-", "seed:neutral": "seed0", "seed:positive": "seed+"}

SUMMARY_LEGEND = (
    "rmax: the word most relevant to the wrong prediction. rmax in: share of failures whose rmax lies in "
    "the template text, a seed sentence (seed-/seed0/seed+: its label), a word the expansion inserted or "
    "the transform changed, outside every fragment, or nowhere (flat). hit: rmax lies in text labelled "
    "as the wrong prediction; rand: the hit rate of a random word. Full figures: summary.json."
)


def render_summary_table(summary: dict[str, Any]) -> Any:
    """Per capability and explainer, where rmax falls: shares in one wrapping column (largest first),
    so the table fits 80 columns however many places rmax falls in; a legend below."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"where rmax falls: {summary['model']} ({summary['failures_explained']} failures of {summary['cases']} cases)",
                  title_justify="left")
    table.add_column("cap", no_wrap=True)
    table.add_column("explainer", overflow="fold")
    table.add_column("n", justify="right", no_wrap=True)
    table.add_column("rmax in", overflow="fold", ratio=1)
    table.add_column("hit", justify="right", no_wrap=True)
    table.add_column("rand", justify="right", no_wrap=True)
    for cap, info in summary["capabilities"].items():
        for name, agg in info["explainers"].items():
            ranked = sorted(agg["shares"].items(), key=lambda kv: (-kv[1], kv[0]))
            shares = ", ".join(f"{_CATEGORY_SHORT.get(c, c)} {share:.0%}" for c, share in ranked)
            table.add_row(cap, name, str(agg["explained"]), shares, f"{agg['hit_rate']:.0%}", f"{agg['random_baseline']:.0%}")
    return Group(table, Text(SUMMARY_LEGEND, style="dim"))
