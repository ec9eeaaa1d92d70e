"""The report card as one self-contained HTML page (no external resources).

Every score cell carries ``data-explainer``, ``data-metric``, ``data-value``, ``data-low`` and
``data-high``; a small script draws each interval as an SVG bar against the random baseline (a
tick) once the page loads and sets ``data-card-ready="1"`` on ``<body>`` — the browser test reads
the bars back.
"""

from __future__ import annotations

import html
from typing import Any

_CSS = """
body{font-family:system-ui,sans-serif;margin:1.5em;color:#222}
table{border-collapse:collapse;margin:.6em 0 1.6em}
th,td{border-bottom:1px solid #ddd;padding:.25em .6em;text-align:right;font-variant-numeric:tabular-nums}
th:first-child,td:first-child{text-align:left}
tr.trusted td:first-child{font-weight:600}
.badge{font-size:.75em;padding:0 .4em;border-radius:.6em;background:#2a7;color:#fff;margin-left:.4em}
.na{color:#999}
.bar{display:block}
caption{text-align:left;font-weight:600;padding-bottom:.3em}
.note{color:#555;max-width:60em}
"""

_JS = """
document.addEventListener('DOMContentLoaded',function(){
  var ns='http://www.w3.org/2000/svg';
  document.querySelectorAll('td[data-value]').forEach(function(td){
    var v=parseFloat(td.dataset.value),lo=parseFloat(td.dataset.low),hi=parseFloat(td.dataset.high),r=parseFloat(td.dataset.random);
    var svg=document.createElementNS(ns,'svg');svg.setAttribute('width','120');svg.setAttribute('height','10');svg.setAttribute('class','bar');
    var band=document.createElementNS(ns,'rect');band.setAttribute('x',String(120*lo));band.setAttribute('width',String(Math.max(1,120*(hi-lo))));
    band.setAttribute('y','2');band.setAttribute('height','6');band.setAttribute('fill',td.dataset.trusted==='1'?'#2a7':'#9ab');
    band.setAttribute('data-interval',lo+','+hi);svg.appendChild(band);
    var dot=document.createElementNS(ns,'rect');dot.setAttribute('x',String(120*v-1));dot.setAttribute('width','2');dot.setAttribute('y','0');dot.setAttribute('height','10');dot.setAttribute('fill','#123');svg.appendChild(dot);
    if(!isNaN(r)){var t=document.createElementNS(ns,'rect');t.setAttribute('x',String(120*r-1));t.setAttribute('width','2');t.setAttribute('y','0');t.setAttribute('height','10');t.setAttribute('fill','#d33');t.setAttribute('data-random',String(r));svg.appendChild(t);}
    td.appendChild(svg);
  });
  document.body.setAttribute('data-card-ready','1');
});
"""


def _e(x: Any) -> str:
    return html.escape(str(x), quote=True)


PARADIGM_ORDER = ("hybrid", "agreement", "composite")  # the card's order (its JSON keys are sorted)


def _counts(counts: dict[str, Any]) -> str:
    """{"ptb": 20, "blimp": 20} → "ptb 20, blimp 20"."""
    return ", ".join(f"{_e(k)} {_e(v)}" for k, v in counts.items())


def _verdict(flag: bool | None) -> str:
    return {True: "beats random", False: "not above random"}.get(flag, "–")  # type: ignore[arg-type]


def _not_applicable(card: dict[str, Any]) -> dict[str, list[tuple[str | None, str]]]:
    """explainer → [(paradigm, reason)]: each paradigm's own reason (an explainer can apply to the
    classifier and not to the probe, or be left out of most items of one paradigm only); cards
    without per-paradigm reasons give the card-level one."""
    out: dict[str, list[tuple[str | None, str]]] = {}
    paradigms = card.get("paradigms", {})
    for par in sorted(paradigms, key=lambda k: (PARADIGM_ORDER.index(k) if k in PARADIGM_ORDER else len(PARADIGM_ORDER), k)):
        p = paradigms[par]
        for name, why in (p.get("not_applicable") or {}).items():
            out.setdefault(name, []).append((par, why))
    for name, why in (card.get("not_applicable") or {}).items():
        out.setdefault(name, [(None, why)])
    return out


def _cell(name: str, metric: str, s: dict[str, Any] | None, random: float | None, trusted: bool | None = None) -> str:
    if not s or s.get("value") is None:
        return '<td class="na">–</td>'
    lo, hi = s["ci"]
    rnd = "" if random is None else f' data-random="{random}"'
    return (f'<td data-explainer="{_e(name)}" data-metric="{_e(metric)}" data-value="{s["value"]}" data-low="{lo}" '
            f'data-high="{hi}"{rnd} data-trusted="{1 if trusted else 0}">{s["value"]:.2f} '
            f'<small>[{lo:.2f}, {hi:.2f}]</small> <small>n={s["n"]}</small></td>')


def render_card_html(card: dict[str, Any]) -> str:
    par = card["paradigms"]
    h, a, c = par.get("hybrid", {}), par.get("agreement", {}), par.get("composite", {})
    out = [f"<!doctype html><html><head><meta charset='utf-8'><title>trust card: {_e(card['model'])}</title>",
           f"<style>{_CSS}</style><script>{_JS}</script></head><body>",
           f"<h1>Explainer report card: {_e(card['model'])}</h1>",
           f"<p class='note'>identity <code>{_e(card['identity'])}</code>. {_e(card['rule'])}. "
           f"Intervals: {card['confidence']:.0%} percentile bootstrap over items ({card['bootstrap_resamples']} resamples); "
           f"the random baseline's interval is the range of a uniformly random pointer on the same items.</p>"]
    out.append("<table id='ranking'><caption>Ranking</caption><tr><th>explainer</th><th>rank</th><th>mean lift over random</th>"
               "<th>hybrid pointing game</th><th>agreement hit_target</th><th>suite pointing game</th></tr>")
    hr = h.get("baselines", {}).get("random", {}).get("value")
    ar = a.get("baselines", {}).get("random", {}).get("hit_target", {}).get("value") if a.get("status") == "ok" else None
    cr = c.get("baselines", {}).get("random", {}).get("value")
    for row in card["ranking"]:
        n = row["explainer"]
        badge = "<span class='badge'>beats random</span>" if row["trusted"] else ""
        out.append(f"<tr class='{'trusted' if row['trusted'] else ''}' data-rank-explainer='{_e(n)}' data-rank='{row['rank']}'>"
                   f"<td>{_e(n)}{badge}</td><td>{row['rank']}</td><td>{row['score']:+.3f}</td>"
                   + _cell(n, "hybrid.pointing_game", h.get("explainers", {}).get(n, {}).get("pointing_game"), hr, row["trusted"])
                   + _cell(n, "agreement.hit_target", a.get("explainers", {}).get(n, {}).get("hit_target") if a.get("status") == "ok" else None, ar, row["trusted"])
                   + _cell(n, "composite.pointing_game", c.get("explainers", {}).get(n, {}).get("pointing_game") if c.get("status") == "ok" else None, cr)
                   + "</tr>")
    out.append("</table>")
    if h.get("status") == "ok":
        rb = h["baselines"]["random"]
        out.append(f"<h2>Hybrid documents</h2><p class='note'>{h['scored']} of {h['documents']} documents scored "
                   f"({h['discarded']} discarded: predicted class no fragment's label), {h['fragments_per_document']} fragments each "
                   f"from {_e(h['source'])}, {h['mean_words']} words on average. Random baseline {rb['value']:.2f} "
                   f"[{rb['ci'][0]:.2f}, {rb['ci'][1]:.2f}].</p>")
    if a.get("status") == "ok":
        p = a["probe"]
        majority = f" (majority {p['majority_baseline']:.2f})" if p.get("majority_baseline") is not None else ""
        out.append(f"<h2>Morphosyntactic agreement</h2><p class='note'>{_e(a['model'])} ({_e(p.get('features', 'probe'))}): "
                   f"accuracy {p['heldout_accuracy']:.2f} on {p['heldout_prefixes']} held-out prefixes{majority}, "
                   f"{a['correct']} of {a['items']} evaluation prefixes right ({_counts(a['counts']['items'])}).</p>")
        metrics = ("hit_target", "hit_feat_correct", "hit_feat_wrong", "plausibility_expected", "plausibility_alternative")
        out.append("<table id='agreement'><tr><th>explainer</th>" + "".join(f"<th>{m}</th>" for m in metrics) + "</tr>")
        rows = [(n, v) for n, v in a["explainers"].items()] + [(f"baseline:{b}", v) for b, v in a["baselines"].items()]
        for n, v in rows:
            out.append(f"<tr><td>{_e(n)}</td>" + "".join(_cell(n, f"agreement.{m}", v.get(m), a["baselines"]["random"][m]["value"]) for m in metrics) + "</tr>")
        out.append("</table>")
    else:
        out.append(f"<h2>Morphosyntactic agreement</h2><p class='note'>{_e(a.get('reason', 'not run'))}</p>")
    if c.get("status") == "ok":
        d = card.get("disagreement", {})
        out.append(f"<h2>Suite failures as hybrid documents</h2><p class='note'>{c['failures_scored']} failing cases of {c['cases']} "
                   f"({_counts(c['per_capability'])}); Spearman correlation with the hybrid-document ranking: {d.get('spearman')}.</p>")
        if d.get("explainers"):
            out.append("<table id='disagreement'><tr><th>explainer</th><th>hybrid</th><th>suite</th><th>intervals apart</th>"
                       "<th>verdict hybrid / suite</th></tr>")
            for r in d["explainers"]:
                out.append(f"<tr><td>{_e(r['explainer'])}</td><td>{r['hybrid']:.2f}</td><td>{r['suite']:.2f}</td>"
                           f"<td>{'yes' if r['intervals_apart'] else 'no'}</td><td>{_verdict(r['hybrid_beats_random'])} / {_verdict(r['suite_beats_random'])}</td></tr>")
            out.append("</table>")
    f = par.get("faithfulness", {})
    if f.get("status") == "ok":
        mod = f.get("model", {})
        student = (f"; the student {_e(mod.get('student'))} predicts the model's class on {mod['agreement']:.0%} of them"
                   if mod.get("agreement") is not None else f"; model consistency: {_e(mod.get('reason', 'not run'))}")
        out.append(f"<h2>Faithfulness (Ding &amp; Koehn §3.2)</h2><p class='note'>{f['texts']} {_e(f['source'])}: input consistency is "
                   f"the Pearson correlation of the relevances before and after swapping one word for another of the same tag, "
                   f"number and polarity; model consistency the correlation of the model's and its distilled student's relevances"
                   f"{student}. 1: unchanged, 0: unrelated.</p>")
        out.append("<table id='faithfulness'><tr><th>explainer</th><th>input consistency</th><th>model consistency</th></tr>")
        for n, v in sorted(f.get("explainers", {}).items()):
            out.append(f"<tr><td>{_e(n)}</td>" + _cell(n, "faithfulness.input_consistency", v.get("input_consistency", {}).get("input_consistency"), None)
                       + _cell(n, "faithfulness.model_consistency", v.get("model_consistency", {}).get("model_consistency"), None) + "</tr>")
        out.append("</table>")
    reasons = _not_applicable(card)
    if reasons:
        out.append("<h2>Not applicable</h2><ul>" + "".join(
            f"<li><b>{_e(name)}</b><ul>" + "".join(f"<li>{_e(par) + ': ' if par else ''}{_e(why)}</li>" for par, why in by_paradigm) + "</ul></li>"
            for name, by_paradigm in reasons.items()) + "</ul>")
    out.append("</body></html>\n")
    return "".join(out)
