"""Ranking the explainers of a card, the disagreements between paradigms, and the one-line verdict
``s2lct explain`` prints.

Ranking: by the mean lift over the random baseline of the headline metrics the explainer was
scored on — the hybrid-document pointing game and, when the agreement paradigm ran, hit_target
(Poerner's Table 2 columns). ``trusted``: the lower end of the 95 % interval lies at least
:data:`~s2lct.trust.explaining.MARGIN` above the random baseline on every headline metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

HEADLINE = (("hybrid", "pointing_game"), ("agreement", "hit_target"))


def rank(card: dict[str, Any]) -> list[dict[str, Any]]:
    """Explainers by mean lift over random on the headline metrics (see the module docstring)."""
    rows = []
    names = set()
    for par, _m in HEADLINE:
        p = card["paradigms"].get(par, {})
        names.update(p.get("explainers", {}))
    for name in names:
        lifts, trusted, scores = [], True, {}
        for par, metric in HEADLINE:
            p = card["paradigms"].get(par, {})
            if p.get("status") != "ok":
                continue
            e = p["explainers"].get(name)
            rnd = p["baselines"]["random"] if par == "hybrid" else p["baselines"]["random"][metric]
            if e is None:
                trusted = False
                continue
            s = e[metric]
            if s["value"] is None or rnd["value"] is None:
                continue
            lifts.append(s["value"] - rnd["value"])
            trusted = trusted and bool(e.get("beats_random"))
            scores[f"{par}.{metric}"] = s
        if lifts:
            rows.append({"explainer": name, "score": round(float(np.mean(lifts)), 4), "trusted": trusted, "headline": scores})
    rows.sort(key=lambda r: (-r["score"], r["explainer"]))
    for k, r in enumerate(rows, 1):
        r["rank"] = k
    return rows


def disagreements(card: dict[str, Any]) -> dict[str, Any]:
    """Where the suite-level pointing game and the hybrid-document one disagree."""
    from .composite import spearman

    h, c = card["paradigms"].get("hybrid", {}), card["paradigms"].get("composite", {})
    if h.get("status") != "ok" or c.get("status") != "ok":
        return {"status": "not_compared"}
    common = [n for n in h["explainers"] if n in c["explainers"]]
    hs = [h["explainers"][n]["pointing_game"] for n in common]
    cs = [c["explainers"][n]["pointing_game"] for n in common]
    rows = []
    for n, a, b in zip(common, hs, cs, strict=True):
        apart = a["ci"][0] > b["ci"][1] or b["ci"][0] > a["ci"][1]
        verdict_a, verdict_b = h["explainers"][n]["beats_random"], c["explainers"][n]["beats_random"]
        if apart or verdict_a != verdict_b:
            rows.append({"explainer": n, "hybrid": a["value"], "suite": b["value"], "intervals_apart": apart,
                         "hybrid_beats_random": verdict_a, "suite_beats_random": verdict_b})
    return {"status": "ok", "spearman": spearman([x["value"] for x in hs], [x["value"] for x in cs]),
            "random": {"hybrid": h["baselines"]["random"]["value"], "suite": c["baselines"]["random"]["value"]},
            "explainers": rows}


def best_explainer(card: dict[str, Any], applicable: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The best-ranked explainer of a card (among ``applicable`` names when given)."""
    for row in card.get("ranking", []):
        if applicable is None or row["explainer"] in applicable:
            return row
    return None


def trust_line(card: dict[str, Any], explainer: str) -> str | None:
    """"ig, pointing game 0.86 ± 0.03 on this model (random 0.52)" — None when the card lacks it."""
    h = card.get("paradigms", {}).get("hybrid", {})
    e = h.get("explainers", {}).get(explainer) if h.get("status") == "ok" else None
    if e is None:
        return None
    s = e["pointing_game"]
    half = (s["ci"][1] - s["ci"][0]) / 2
    rank_row = next((r for r in card.get("ranking", []) if r["explainer"] == explainer), None)
    tail = f", rank {rank_row['rank']}/{len(card['ranking'])}" + ("" if rank_row["trusted"] else ", not trusted") if rank_row else ""
    return (f"{explainer}, pointing game {s['value']:.2f} ± {half:.2f} on this model "
            f"(random {h['baselines']['random']['value']:.2f}{tail})")
