"""The HTML report: one self-contained page (no network, works offline as a single file).

Everything is rendered here, not by scripts, so the page reads the same without JavaScript: a bar
chart of failure rates (a CSS grid with one row per capability and the models' bars side by side,
every label in its own cell so that labels cannot overlap at any width), each model's table, and its
failing cases grouped per capability in collapsible sections. The page's one small script adds a
box that filters the failing cases by text and updates the counts. For a binary model the page says
how its p(positive) becomes three labels (the neutral band), and each failing case shows that rule
instead of a p(neutral) that is always 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import resources
from string import Template

from s2lct.run.outcomes import (
    CapabilityStats,
    CaseOutcome,
    ModelReport,
    all_capabilities,
    band_limit,
    band_rule,
    first_failing,
    percent,
    shown_expected,
    shown_predicted,
    shown_text,
)

HTML_FAILING_PER_CAPABILITY = 50
COLORS = ("#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7")


def render_html(reports: Sequence[ModelReport]) -> str:
    """The whole page for one or more models."""
    suite = next((r.suite for r in reports if r.suite), None)
    on_suite = f" on the suite <code>{escape(suite)}</code>" if suite else ""
    body = [
        "<h1>s2lct results</h1>",
        f"<p>{escape(', '.join(r.model for r in reports))}{on_suite}. "
        "A case fails when the predicted label is not among its expected labels.</p>",
        *(_band_note(r) for r in reports if r.neutral_band is not None),
        _chart(reports),
        _filter_box() if any(r.failing for r in reports) else "",
        *(_model_section(r) for r in reports),
    ]
    template = Template(resources.files("s2lct").joinpath("templates/report.html").read_text(encoding="utf-8"))
    return template.substitute(body="\n".join(part for part in body if part))


def _band_note(r: ModelReport) -> str:
    """Why a binary model's cases show p(positive) and a rule: it has no neutral class of its own."""
    assert r.neutral_band is not None
    low, high = (band_limit(x) for x in r.neutral_band)
    return (f'<p class="note binary-note" data-model="{escape(r.model)}"><strong>{escape(r.model)} is a binary model</strong>: '
            "it gives only p(negative) and p(positive). s2lct reads it as three labels from p(positive): "
            f"below {low} → negative; from {low} to {high}, the <em>neutral band</em> → neutral; above {high} → positive. "
            "Its failing cases therefore show p(positive) and this rule instead of a p(neutral), which is always 0. "
            "Change the band with <code>--neutral-band LOW,HIGH</code> "
            "(pytest: <code>--s2lct-neutral-band LOW,HIGH</code>).</p>")


# --------------------------------------------------------------------------------------- chart
def _chart(reports: Sequence[ModelReport]) -> str:
    """Failure rate per capability: a label cell and a cell of bars (one per model, value beside it) per row."""
    legend = "".join(f'<span><span class="swatch" style="background:{COLORS[i % len(COLORS)]}"></span>{escape(r.model)}</span>'
                     for i, r in enumerate(reports))
    by_model = [{c.id: c for c in r.capabilities} for r in reports]
    rows = []
    for cap_id, name in all_capabilities(reports):
        bars = []
        for i, (r, caps) in enumerate(zip(reports, by_model, strict=True)):
            st = caps.get(cap_id)
            if st is None:
                continue
            data = f'data-model="{escape(r.model)}" data-capability="{escape(cap_id)}"'
            title = f"{r.model} {cap_id}: {st.failures} of {st.cases} cases fail"
            bars.append(f'<div class="bar-row" title="{escape(title)}"><div class="track"><div class="bar" {data} '
                        f'data-rate="{st.failure_rate:.6f}" style="width:{100 * st.failure_rate:.2f}%;'
                        f'background:{COLORS[i % len(COLORS)]}"></div></div>'
                        f'<span class="bar-label" {data}>{percent(st.failure_rate)}</span></div>')
        rows.append(f'<div class="cap-label" data-capability="{escape(cap_id)}"><span class="cap-id">{escape(cap_id)}</span>'
                    f'<span class="cap-name">{escape(name) if name != cap_id else ""}</span></div>'
                    f'<div class="bars">{"".join(bars)}</div>')
    return ("<h2>Failure rate per capability</h2>\n"
            "<p>Bar length is the share of the capability's cases that fail (the full track is 100%, gridlines every 25%).</p>\n"
            f'<div class="legend">{legend}</div>\n<div class="chart" id="failure-chart">\n' + "\n".join(rows) + "\n</div>")


# --------------------------------------------------------------------------------------- tables
def _filter_box() -> str:
    """Hidden until the script runs: without JavaScript there is nothing to filter with, and every row shows."""
    return ('<div class="filter" hidden><label>Filter failing cases by text: '
            '<input type="search" id="case-filter" placeholder="e.g. not" autocomplete="off"></label> '
            '<span id="filter-count" aria-live="polite"></span></div>')


def _model_section(r: ModelReport) -> str:
    parts = [f'<section class="model" data-model="{escape(r.model)}">',
             f"<h2>{escape(r.model)}</h2>\n<p>Model identity: <code>{escape(r.identity)}</code></p>",
             _summary_table(r)]
    if r.failing:
        parts.append(f"<h3>Failing cases: {r.total.failures} of {r.total.cases}</h3>\n"
                     f"<p>Grouped per capability: open one to see its first {HTML_FAILING_PER_CAPABILITY} "
                     "failing cases (the JSON report lists them all).</p>")
        shown = first_failing(r, HTML_FAILING_PER_CAPABILITY)
        for c in r.capabilities:
            cases = [o for o in shown if o.capability == c.id]
            if cases:
                parts.append(_capability_section(r, c, cases))
    parts.append("</section>")
    return "\n".join(parts)


def _summary_table(r: ModelReport) -> str:
    rows = []
    for c in [*r.capabilities, r.total]:
        cid = "TOTAL" if c is r.total else c.id
        rows.append(f'<tr data-model="{escape(r.model)}" data-capability="{escape(cid)}"><td>{escape(cid)}</td>'
                    f"<td>{'' if c is r.total else escape(c.name)}</td><td class=num>{c.cases}</td>"
                    f"<td class=num>{c.failures}</td><td class=num>{percent(c.failure_rate)}</td>"
                    f"<td class=num>{c.expansion_cases}</td><td class=num>{c.seed_passed_expansion_failed}</td>"
                    f"<td class=num>{c.truncated}</td></tr>")
    return ('<div class="scroll"><table class="summary"><thead><tr><th>Capability</th><th>Name</th><th>Cases</th>'
            "<th>Failures</th><th>Failure rate</th><th>Expansions</th><th>Seed passed, expansion failed</th>"
            "<th>Truncated</th></tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table></div>")


def _capability_section(r: ModelReport, c: CapabilityStats, cases: Sequence[CaseOutcome]) -> str:
    """One capability's failing cases under a summary line of its id, name and counts (the script closes it)."""
    more = f", first {len(cases)} shown" if len(cases) < c.failures else ""
    head = ("<tr><th>Case</th><th>Text</th><th>Expected</th><th>Predicted</th>"
            + ("<th>p(positive)</th><th>Decision rule</th>" if r.neutral_band else
               "<th>p(negative)</th><th>p(neutral)</th><th>p(positive)</th>") + "</tr>")
    return (f'<details open class="cap-failing" data-model="{escape(r.model)}" data-capability="{escape(c.id)}" '
            f'data-failing="{c.failures}" data-cases="{c.cases}">\n'
            f'<summary><span class="cap-id">{escape(c.id)}</span> {escape(c.name) if c.name != c.id else ""} '
            f'<span class="counts">— {c.failures} of {c.cases} cases fail{more}</span> '
            '<span class="match-count" hidden></span></summary>\n'
            f'<div class="scroll"><table class="failing"><thead>{head}</thead><tbody>\n'
            + "\n".join(_case_row(r, o) for o in cases) + "\n</tbody></table></div>\n</details>")


def _case_row(r: ModelReport, o: CaseOutcome) -> str:
    why = f'<br><small class="explanation">{escape(o.explanation["summary"])}</small>' if o.explanation else ""
    return (f'<tr class="failing-case" data-model="{escape(r.model)}" data-case="{escape(o.case_id)}">'
            f'<td>{escape(o.case_id)}</td><td class="text"><span class="case-text">{escape(shown_text(o))}</span>{why}</td>'
            f"<td>{escape(shown_expected(o))}</td><td>{escape(shown_predicted(o))}</td>{_prob_cells(r, o)}</tr>")


def _prob_cells(r: ModelReport, o: CaseOutcome) -> str:
    """3-class models: the three probabilities. Binary: p(positive) and where it falls against the band."""
    p = o.probs
    if r.neutral_band is None:
        return "".join(f"<td class=num>{p[label]:.3f}</td>" for label in ("negative", "neutral", "positive"))
    p_pos, rule = band_rule(r, o)
    return f'<td class=num>{p_pos:.3f}</td><td class="rule">{escape(rule)}</td>'
