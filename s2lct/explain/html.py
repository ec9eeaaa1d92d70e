"""The HTML page of ``s2lct explain``: failures with words shaded by relevance, fragment boundaries
visible, and the per-capability localisation chart. Self-contained (no network): the words carry
their relevance in ``data-r`` and a small inline script shades them (red: evidence for the explained,
wrong class; blue: against it; opacity |r| / max |r| of that explanation) and draws the chart as
SVG (stacked bars: share of failures whose rmax falls in each region).
"""

from __future__ import annotations

import html
import json
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from ..suite import natural_key

if TYPE_CHECKING:
    from .command import ExplainResult

MAX_CASES_PER_CAPABILITY = 50
CATEGORY_COLOURS = {
    "template": "#7f7f7f", "transform": "#9467bd", "seed:negative": "#d62728", "seed:neutral": "#bcbd22",
    "seed:positive": "#2ca02c", "expansion": "#ff7f0e", "flat": "#dddddd", "outside": "#444444",
}

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>s2lct explanations: {model}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; max-width: 70em; }}
.case {{ margin: 1.2em 0; padding: 0.6em; border: 1px solid #ddd; }}
.text {{ line-height: 2.1; }}
.frag {{ border: 1px solid #999; border-radius: 3px; padding: 2px 1px; margin: 0 1px; }}
.frag-template {{ border-style: dashed; }}
.frag-seed {{ border-style: solid; }}
.frag-label {{ font-size: 0.7em; color: #555; vertical-align: super; margin-right: 2px; }}
.w.rmax {{ outline: 2px solid #000; }}
.w.expansion {{ text-decoration: underline dotted; }}
.meta {{ color: #555; font-size: 0.9em; }}
.legend span {{ display: inline-block; margin-right: 1.2em; }}
.swatch {{ display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }}
</style>
</head>
<body>
<h1>Explanations of failures: {model}</h1>
<p class="meta">{intro}</p>
<h2>Where the blame falls</h2>
<div id="legend" class="legend"></div>
<div id="chart"></div>
{cases}
<script type="application/json" id="s2lct-explain-data">{data}</script>
<script>
(function () {{
  var data = JSON.parse(document.getElementById("s2lct-explain-data").textContent);
  document.querySelectorAll(".explanation").forEach(function (box) {{
    var words = box.querySelectorAll(".w"), max = 0;
    words.forEach(function (w) {{ max = Math.max(max, Math.abs(parseFloat(w.dataset.r))); }});
    words.forEach(function (w) {{
      var r = parseFloat(w.dataset.r), a = max > 0 ? Math.abs(r) / max : 0;
      var rgb = r >= 0 ? "220, 40, 30" : "30, 90, 200";
      w.style.backgroundColor = "rgba(" + rgb + ", " + a.toFixed(3) + ")";
      w.title = "relevance " + r;
    }});
  }});
  var ns = "http://www.w3.org/2000/svg", rows = data.chart, cats = data.categories;
  var barW = 420, rowH = 22, left = 170, h = rows.length * rowH + 10;
  var svg = document.createElementNS(ns, "svg");
  svg.setAttribute("width", left + barW + 60); svg.setAttribute("height", h);
  rows.forEach(function (row, i) {{
    var x = left, y = i * rowH + 4;
    var t = document.createElementNS(ns, "text");
    t.setAttribute("x", 0); t.setAttribute("y", y + 14); t.textContent = row.capability + " · " + row.explainer + " (" + row.n + ")";
    svg.appendChild(t);
    cats.forEach(function (c) {{
      var share = row.shares[c] || 0;
      if (share <= 0) return;
      var rect = document.createElementNS(ns, "rect");
      rect.setAttribute("x", x); rect.setAttribute("y", y); rect.setAttribute("width", share * barW); rect.setAttribute("height", rowH - 6);
      rect.setAttribute("fill", data.colours[c] || "#000"); rect.setAttribute("class", "bar");
      rect.setAttribute("data-capability", row.capability); rect.setAttribute("data-explainer", row.explainer);
      rect.setAttribute("data-category", c); rect.setAttribute("data-share", share);
      var tip = document.createElementNS(ns, "title"); tip.textContent = c + ": " + (share * 100).toFixed(1) + "%";
      rect.appendChild(tip); svg.appendChild(rect); x += share * barW;
    }});
  }});
  document.getElementById("chart").appendChild(svg);
  var legend = document.getElementById("legend");
  cats.forEach(function (c) {{
    var s = document.createElement("span");
    s.innerHTML = '<span class="swatch" style="background:' + data.colours[c] + '"></span>' + c;
    legend.appendChild(s);
  }});
  document.body.setAttribute("data-ready", "1");
}})();
</script>
</body>
</html>
"""


def _text_html(rec: dict[str, Any]) -> str:
    """The case text: fragments as bordered spans, words as spans carrying their relevance."""
    text = rec["text"]
    frags = sorted(rec.get("fragments") or [], key=lambda f: f["start"])
    rmax = rec["localisation"]["rmax"]
    out: list[str] = []
    pos = 0
    words = rec["words"]
    wi = 0
    for f in frags + [{"start": len(text) + 1, "end": len(text) + 1, "kind": None}]:
        # words before the fragment
        while wi < len(words) and words[wi]["start"] < f["start"]:
            w = words[wi]
            out.append(html.escape(text[pos : w["start"]]) + _word(w, wi, rmax))
            pos = w["end"]
            wi += 1
        if f["kind"] is None:
            break
        label = f["label"] or "template"
        out.append(html.escape(text[pos : f["start"]]))
        out.append(f'<span class="frag frag-{html.escape(f["kind"])}" data-label="{html.escape(label)}" '
                   f'data-start="{f["start"]}" data-end="{f["end"]}"><span class="frag-label">{html.escape(label)}</span>')
        pos = f["start"]
        while wi < len(words) and words[wi]["start"] < f["end"]:
            w = words[wi]
            out.append(html.escape(text[pos : w["start"]]) + _word(w, wi, rmax))
            pos = w["end"]
            wi += 1
        out.append("</span>")
    out.append(html.escape(text[pos:]))
    return "".join(out)


def _word(w: dict[str, Any], i: int, rmax: int | None) -> str:
    cls = "w" + (" rmax" if i == rmax else "") + (" expansion" if w["origin"] == "expansion" else "")
    return (f'<span class="{cls}" data-i="{i}" data-r="{w["relevance"]!r}" data-origin="{html.escape(w["origin"])}">'
            f'{html.escape(w["word"])}</span>')


def _evidence(items: list[dict[str, Any]]) -> str:
    return ", ".join(f"<q>{html.escape(e['text'])}</q> ({html.escape(str(e['origin']))}, {e['relevance']:+.3f})" for e in items) or "none"


def render_explanations_html(result: ExplainResult) -> str:
    summary = result.summary
    by_case: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in result.records:
        by_case[r["case_id"]].append(r)
    shown: dict[str, int] = defaultdict(int)
    blocks: list[str] = []
    last_cap = None
    for cid, recs in by_case.items():
        cap = recs[0]["capability"]
        if shown[cap] >= MAX_CASES_PER_CAPABILITY:
            continue
        shown[cap] += 1
        if cap != last_cap:
            name = summary["capabilities"].get(cap, {}).get("name", cap)
            blocks.append(f"<h2>{html.escape(cap)}: {html.escape(name)}</h2>")
            for agg in summary["capabilities"].get(cap, {}).get("explainers", {}).values():
                blocks.append(f'<p class="meta">{html.escape(agg["sentence"])}</p>')
            last_cap = cap
        r0 = recs[0]
        parts = [f'<div class="case" data-case="{html.escape(cid)}"><div class="meta">{html.escape(cid)}: expected '
                 f'{html.escape("/".join(r0["expected"]))}, predicted <b>{html.escape(r0["predicted"])}</b></div>']
        for r in recs:
            if r["status"] != "ok":
                parts.append(f'<p class="meta">{html.escape(r["explainer"])}: not applicable ({html.escape(str(r.get("reason")))})</p>')
                continue
            loc = r["localisation"]
            where = "flat explanation" if loc["word"] is None else f"rmax <q>{html.escape(loc['word'])}</q> in {html.escape(loc['category'])}" + (" (hit)" if loc["hit"] else "")
            parts.append(
                f'<div class="explanation" data-explainer="{html.escape(r["explainer"])}" data-case="{html.escape(cid)}">'
                f'<div class="meta">{html.escape(r["explainer"])} · class {html.escape(r["explained_class"])} · {where}</div>'
                f'<div class="text">{_text_html(r)}</div>'
                f'<div class="meta">evidence: {_evidence(r["evidence"])}; against: {_evidence(r["counter_evidence"])}</div></div>'
            )
        parts.append("</div>")
        blocks.append("".join(parts))
    chart = [{"capability": cap, "explainer": name, "n": agg["explained"], "shares": agg["shares"]}
             for cap, info in sorted(summary["capabilities"].items(), key=lambda kv: natural_key(kv[0]))
             for name, agg in info["explainers"].items()]
    used = sorted({c for row in chart for c in row["shares"]}, key=lambda c: list(CATEGORY_COLOURS).index(c) if c in CATEGORY_COLOURS else 99)
    data = {"chart": chart, "categories": used, "colours": CATEGORY_COLOURS}
    intro = (f"{summary['failures_explained']} failing case(s) of {summary['cases']} explained. "
             "Red: evidence for the (wrong) predicted class; blue: against it. Solid boxes: seed sentences "
             "(with their label), dashed: template text; dotted underline: words the expansion inserted; "
             "outlined: rmax.")
    if summary.get("message"):
        intro = f"{summary['message']} ({summary['cases']} cases)."
    payload = json.dumps(data, sort_keys=True).replace("</", "<\\/")
    return _PAGE.format(model=html.escape(summary["model"]), intro=html.escape(intro), cases="\n".join(blocks), data=payload)
