"""``s2lct trust``: compute (or read the cached) report card, write JSON + HTML, print the ranking;
and the verdict line ``s2lct explain`` and the test reports print beside each explanation."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from ..atomic import write_json, write_text
from ..errors import S2LCTError
from .card import CardOptions, build_card, load_cached_card
from .ranking import best_explainer, trust_line

CARD_JSON = "card.json"
CARD_HTML = "card.html"


_AGREEMENT = ("hit_target", "hit_feat", "plausibility_expected", "plausibility_alternative")

RANKING_LEGEND = (
    "lift: mean gain over random on the headline metrics (hybrid PG and, when the agreement "
    "paradigm ran, hit target). PG: pointing game, share of hybrid documents (hybrid) or failing "
    "suite cases (suite) whose most relevant word lies in a fragment labelled as the prediction. "
    "±: half the 95% interval. trusted: the interval's lower end is at least the margin above random "
    "on every headline metric. The full card: card.json."
)
AGREEMENT_LEGEND = (
    "hit target: the most relevant word is the subject (right number predicted); hit feat: it is a "
    "noun of the predicted number; plaus. exp/alt: cue nouns outweigh attractors when the number is right / "
    "attractors outweigh cues when it is wrong. random, last, last_noun: baselines."
)


def _score(s: dict[str, Any] | None) -> str:
    """``value±half the interval``, or a dash where the metric does not apply."""
    if not s or s.get("value") is None:
        return "–"
    return f"{s['value']:.2f}±{(s['ci'][1] - s['ci'][0]) / 2:.2f}"


def ranking_table(card: dict[str, Any]) -> Any:
    """The card on a terminal, stacked so each part fits 80 columns: the ranking (with the pointing
    games) and, when that paradigm ran, the agreement metrics; a legend under each."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    par = card["paradigms"]
    a = par.get("agreement", {})
    agreement_ok = a.get("status") == "ok"
    hybrid, suite = par["hybrid"], par.get("composite", {})
    t = Table(title=f"explainer report card: {card['model']} (trusted: ≥ {card['margin']:.2f} above random at "
                    f"{card['confidence']:.0%})", title_justify="left")
    for col in ("rank", "explainer", "lift", "hybrid\nPG", "suite\nPG", "trusted"):
        t.add_column(col, justify="left" if col == "explainer" else "right", overflow="fold")
    for row in card["ranking"]:
        n = row["explainer"]
        t.add_row(str(row["rank"]), n, f"{row['score']:+.3f}", _score(hybrid.get("explainers", {}).get(n, {}).get("pointing_game")),
                  _score(suite.get("explainers", {}).get(n, {}).get("pointing_game")), "yes" if row["trusted"] else "no",
                  end_section=row is card["ranking"][-1])
    t.add_row("", "random", "", _score(hybrid["baselines"]["random"]), _score(suite.get("baselines", {}).get("random")), "")
    parts: list[Any] = [t, Text(RANKING_LEGEND, style="dim")]
    if agreement_ok:
        g = Table(title=f"agreement on the number probe: {a['model']}", title_justify="left")
        for col in ("explainer", "hit\ntarget", "hit\nfeat", "plaus.\nexp", "plaus.\nalt"):
            g.add_column(col, justify="left" if col == "explainer" else "right", overflow="fold")
        for row in card["ranking"]:
            e = a.get("explainers", {}).get(row["explainer"], {})
            g.add_row(row["explainer"], *(_score(e.get(m)) for m in _AGREEMENT), end_section=row is card["ranking"][-1])
        for b in ("random", "last", "last_noun"):
            g.add_row(b, *(_score(a["baselines"][b][m]) for m in _AGREEMENT))
        parts += [g, Text(AGREEMENT_LEGEND, style="dim")]
    f = par.get("faithfulness", {})
    if f.get("status") == "ok" and f.get("explainers"):
        mod = f.get("model", {})
        ft = Table(title=f"faithfulness (Ding & Koehn §3.2) on {f['texts']} SST sentences", title_justify="left")
        for col in ("explainer", "input\nconsistency", "model\nconsistency"):
            ft.add_column(col, justify="left" if col == "explainer" else "right", overflow="fold")
        for n, e in sorted(f["explainers"].items()):
            ft.add_row(n, _score(e.get("input_consistency", {}).get("input_consistency")),
                       _score(e.get("model_consistency", {}).get("model_consistency")))
        legend = ("input consistency: Pearson of the relevances before/after swapping one word for another of the same tag; "
                  "model consistency: Pearson of the model's and its distilled student's relevances")
        if mod.get("agreement") is not None:
            legend += f" (the student {mod.get('student')} predicts the model's class on {mod['agreement']:.0%} of these texts)"
        parts += [ft, Text(legend + ".", style="dim")]
    return Group(*parts)


def trust_command(model: str, out: Path, opts: CardOptions, *, models_dir: Path | None, data_root: Path | None,
                  cache_dir: Path | None, use_cache: bool, quiet: bool, threads: int | None, workers: int | None = None,
                  force_progress: bool = False) -> int:
    """The body of ``s2lct trust``; returns the exit code (user errors: one line, code 2)."""
    from s2lct.explain.command import command_consoles
    from s2lct.progress import progress_for

    from .html import render_card_html

    console, err = command_consoles(threads)
    t0 = time.perf_counter()
    try:
        with progress_for(quiet, force_progress) as progress:
            card = build_card(model, opts, cache_dir=cache_dir, data_root=data_root, models_dir=models_dir, use_cache=use_cache,
                              progress=progress, log=progress.log, workers=workers)
    except S2LCTError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    write_json(out / CARD_JSON, card)
    write_text(out / CARD_HTML, render_card_html(card))
    console.print(ranking_table(card))
    a = card["paradigms"]["agreement"]
    if a.get("status") == "ok":
        p = a["probe"]
        majority = f" (majority {p['majority_baseline']:.2f})" if p.get("majority_baseline") is not None else ""
        what = "number probe on" if "probe" in a["model"] else "number model"
        console.print(f"{what} {a['model']}: held-out accuracy {p['heldout_accuracy']:.2f}{majority}; "
                      f"{a['correct']}/{a['items']} evaluation prefixes right", markup=False)
    else:
        console.print(a.get("reason", "agreement paradigm not run"), markup=False)
    d = card.get("disagreement", {})
    if d.get("status") == "ok":
        console.print(f"suite failures vs hybrid documents: Spearman {d['spearman']}; disagree on "
                      f"{', '.join(r['explainer'] for r in d['explainers']) or 'none'}", markup=False)
    for name, reason in card.get("not_applicable", {}).items():
        err.print(f"{name}: not applicable: {reason}", markup=False)
    err.print(f"wrote {out / CARD_JSON}, {out / CARD_HTML} ({time.perf_counter() - t0:.1f} s)", markup=False)
    return 0


def default_explainer_for(identity: str, applicable: list[str], cache_dir: str | Path | None = None) -> tuple[str | None, dict[str, Any] | None]:
    """(best-ranked applicable explainer, card) when a card exists for this model identity."""
    from ..config import get_settings

    card = load_cached_card(get_settings(cache_dir=cache_dir).cache_dir, identity)
    if card is None:
        return None, None
    best = best_explainer(card, applicable)
    return (best["explainer"] if best else None), card


def verdict(card: dict[str, Any] | None, explainer: str) -> str | None:
    """The trust line of ``explainer`` from ``card`` (None without a card or a score)."""
    return trust_line(card, explainer) if card else None


def explain_defaults(model: str, explainers: str | None, *, models_dir: Path | None = None,
                     cache_dir: Path | None = None) -> tuple[str | None, dict[str, str], str | None]:
    """What ``s2lct explain`` uses when a card exists for the model's identity: (explainers — the
    best-ranked one when none were asked for —, trust line per explainer, a note for the user)."""
    from ..explain.registry import available
    from ..models import load_model

    try:
        identity = load_model(model, models_dir=models_dir).identity
    except S2LCTError:
        return explainers, {}, None  # explain reports the bad model itself
    best, card = default_explainer_for(identity, available(), cache_dir)
    if card is None:
        return explainers, {}, None
    chosen = explainers or best
    names = [n.strip() for n in (chosen or "").split(",") if n.strip()]
    lines = {n: line for n in names if (line := trust_line(card, n)) is not None}
    note = f"no explainer given: using {best}, the best-ranked on this model's trust card" if explainers is None and best else None
    return chosen, lines, note
