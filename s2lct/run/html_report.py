"""The HTML report: one self-contained page (no network) with the results of one or more models.

The data is embedded as JSON and a small inline script draws the bar chart of failure rates (models
side by side) as SVG; the failing cases are plain HTML tables.
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence

from s2lct.run.report import ModelReport, _all_capabilities, _pct, first_failing

HTML_FAILING_PER_CAPABILITY = 50


_HTML_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>s2lct results</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }}
td.num {{ text-align: right; }}
#chart svg text {{ font-size: 12px; }}
.legend span {{ display: inline-block; margin-right: 1.5em; }}
.swatch {{ display: inline-block; width: 0.9em; height: 0.9em; margin-right: 0.3em; vertical-align: middle; }}
</style>
</head>
<body>
<h1>s2lct results</h1>
<p>Failure rate per capability (a case fails when the predicted label is not among its expected labels).</p>
<div id="legend" class="legend"></div>
<div id="chart"></div>
<noscript><p>The chart needs JavaScript; the tables below hold the same numbers.</p></noscript>
{tables}
<script type="application/json" id="s2lct-data">{data}</script>
<script>
(function () {{
  var data = JSON.parse(document.getElementById("s2lct-data").textContent);
  var models = data.models;
  var caps = data.capabilities;
  var colors = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#ff9da7"];
  var NS = "http://www.w3.org/2000/svg";
  var barW = 22, gap = 18, left = 50, top = 20, plotH = 240, bottom = 60;
  var groupW = models.length * barW + gap;
  var width = left + caps.length * groupW + 20, height = top + plotH + bottom;
  function el(name, attrs, text) {{
    var e = document.createElementNS(NS, name);
    for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }}
  var svg = el("svg", {{width: width, height: height, id: "failure-chart", role: "img",
                        "aria-label": "Failure rate per capability"}});
  for (var t = 0; t <= 100; t += 25) {{
    var y = top + plotH - plotH * t / 100;
    svg.appendChild(el("line", {{x1: left - 4, x2: width - 10, y1: y, y2: y, stroke: "#ddd"}}));
    svg.appendChild(el("text", {{x: left - 8, y: y + 4, "text-anchor": "end"}}, t + "%"));
  }}
  caps.forEach(function (cap, ci) {{
    var x0 = left + ci * groupW + gap / 2;
    models.forEach(function (m, mi) {{
      var st = m.rates[cap.id];
      if (!st) return;
      var rate = st.failure_rate, h = plotH * rate, x = x0 + mi * barW;
      var rect = el("rect", {{"class": "bar", x: x, y: top + plotH - h, width: barW - 3, height: h,
                             fill: colors[mi % colors.length], "data-model": m.model, "data-capability": cap.id,
                             "data-rate": rate, "data-cases": st.cases, "data-failures": st.failures}});
      rect.appendChild(el("title", {{}}, m.model + " " + cap.id + ": " + st.failures + "/" + st.cases));
      svg.appendChild(rect);
      svg.appendChild(el("text", {{"class": "bar-label", x: x + (barW - 3) / 2, y: top + plotH - h - 4,
                                  "text-anchor": "middle", "data-model": m.model, "data-capability": cap.id,
                                  "font-size": "9"}}, (100 * rate).toFixed(1) + "%"));
    }});
    svg.appendChild(el("text", {{"class": "cap-label", x: x0 + models.length * barW / 2, y: top + plotH + 16,
                                "text-anchor": "middle"}}, cap.id));
  }});
  document.getElementById("chart").appendChild(svg);
  var legend = document.getElementById("legend");
  models.forEach(function (m, mi) {{
    var s = document.createElement("span");
    var sw = document.createElement("span");
    sw.className = "swatch"; sw.style.background = colors[mi % colors.length];
    s.appendChild(sw); s.appendChild(document.createTextNode(m.model));
    legend.appendChild(s);
  }});
  document.body.setAttribute("data-chart-ready", "1");
}})();
</script>
</body>
</html>
"""


def render_html(reports: Sequence[ModelReport]) -> str:
    caps = _all_capabilities(reports)
    data = {
        "capabilities": [{"id": k, "name": n} for k, n in caps],
        "models": [
            {"model": r.model, "rates": {c.id: {"failure_rate": c.failure_rate, "cases": c.cases, "failures": c.failures}
                                       for c in r.capabilities}}
            for r in reports
        ],
    }
    blob = json.dumps(data, ensure_ascii=False).replace("</", "<\\/")
    esc = html.escape
    parts: list[str] = []
    for r in reports:
        parts.append(f'<h2>{esc(r.model)}</h2>\n<p>Model identity: <code>{esc(r.identity)}</code></p>')
        parts.append('<table class="summary"><thead><tr><th>Capability</th><th>Name</th><th>Cases</th><th>Failures</th>'
                     "<th>Failure rate</th><th>Expansions</th><th>Seed passed, expansion failed</th><th>Truncated</th></tr></thead><tbody>")
        for c in [*r.capabilities, r.total]:
            cid = "TOTAL" if c is r.total else c.id
            parts.append(f'<tr data-model="{esc(r.model)}" data-capability="{esc(cid)}"><td>{esc(cid)}</td>'
                         f"<td>{'' if c is r.total else esc(c.name)}</td><td class=num>{c.cases}</td>"
                         f"<td class=num>{c.failures}</td><td class=num>{_pct(c.failure_rate)}</td>"
                         f"<td class=num>{c.expansion_cases}</td><td class=num>{c.seed_passed_expansion_failed}</td>"
                         f"<td class=num>{c.truncated}</td></tr>")
        parts.append("</tbody></table>")
        if r.failing:
            parts.append(f"<h3>Failing cases ({len(r.failing)}; at most {HTML_FAILING_PER_CAPABILITY} per capability shown)</h3>")
            parts.append('<table class="failing"><thead><tr><th>Case</th><th>Text</th><th>Expected</th><th>Predicted</th>'
                         "<th>p(negative)</th><th>p(neutral)</th><th>p(positive)</th></tr></thead><tbody>")
            for o in first_failing(r, HTML_FAILING_PER_CAPABILITY):
                p = o.probs
                parts.append(f'<tr class="failing-case" data-model="{esc(r.model)}" data-case="{esc(o.case_id)}">'
                             f"<td>{esc(o.case_id)}</td><td>{esc(o.text)}"
                             + (f'<br><small class="explanation">{esc(o.explanation["summary"])}</small>' if o.explanation else "")
                             + f"</td><td>{esc(', '.join(o.expected))}</td>"
                             f"<td>{esc(o.predicted)}</td><td class=num>{p['negative']:.3f}</td>"
                             f"<td class=num>{p['neutral']:.3f}</td><td class=num>{p['positive']:.3f}</td></tr>")
            parts.append("</tbody></table>")
    return _HTML_TEMPLATE.format(tables="\n".join(parts), data=blob)
