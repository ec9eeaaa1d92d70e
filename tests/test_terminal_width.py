"""Every command's terminal table reads at 80 columns: no line longer, and nothing cut away.

The data comes from the real aggregation functions (build_report, aggregate, bootstrap + rank,
account + matrix_table) on realistic sizes: twelve capabilities with long names, four-digit counts,
every column a command can show, the longest explainer names.
"""

from __future__ import annotations

import re
from io import StringIO

from rich.cells import cell_len
from rich.console import Console

from s2lct.expand.diversity import diversity_table
from s2lct.explain.localise import aggregate
from s2lct.explain.table import render_summary_table
from s2lct.retrain.accounting import Evaluation, account
from s2lct.retrain.matrix import matrix_table
from s2lct.retrain.terminal import accounting_table, curve_table, matrix_tables
from s2lct.run.report import CaseOutcome, build_report, tables_text
from s2lct.trust import metrics as M
from s2lct.trust.ranking import rank
from s2lct.trust.command import ranking_table

CAPS = [f"LC{i}" for i in range(1, 13)]
NAMES = {c: f"Capability {c}: a name as long as the real ones, e.g. negated positive with neutral content" for c in CAPS}
WIDTH = 80


def render(renderable) -> str:
    buf = StringIO()
    Console(file=buf, width=WIDTH, color_system=None, highlight=False).print(renderable)
    return buf.getvalue()


def assert_fits(text: str) -> None:
    long = [line for line in text.splitlines() if cell_len(line) > WIDTH]
    assert not long, "\n".join(long)


def words(text: str) -> str:
    """The text as one line of words, table borders and wrapping removed."""
    return " ".join(re.sub(r"[│┃┏┓┗┛┡┩└┘┌┐├┤┼╇╈╋━─┳┻┴┬]", " ", text).split())


# ------------------------------------------------------------------------------------------ run
def _outcomes(model_seed: int) -> list[CaseOutcome]:
    out = []
    for k, cap in enumerate(CAPS):
        n = 1000 + 7 * k
        for i in range(n):
            passed = (i * (k + 3 + model_seed)) % 10 >= 4
            seed = f"{cap}-{i - 1:04d}" if i % 50 == 1 else None
            out.append(CaseOutcome(f"{cap}-{i:04d}", cap, "text", ("positive",), "positive" if passed else "negative",
                                   {"negative": 0.2, "neutral": 0.1, "positive": 0.7}, passed, truncated=i % 97 == 0,
                                   seed_case=seed, seed_passed=True if seed else None))
    return out


def test_run_tables_of_three_models_fit_80_columns():
    models = ["vader", "textblob", "/work/shared/models/minilm-sst2"]
    reports = [build_report(m, m, _outcomes(j), NAMES) for j, m in enumerate(models)]
    text = tables_text(reports, width=WIDTH)
    assert_fits(text)
    flat = words(text)
    for r in reports:
        for c in [*r.capabilities, r.total]:
            assert f"{100 * c.failure_rate:.1f}% ({c.failures})" in flat.replace("( ", "("), (r.model, c.id)
        assert str(r.total.truncated) in flat
    assert all(cap in flat for cap in CAPS) and "minilm-sst2" in flat


# -------------------------------------------------------------------------------------- explain
CATEGORIES = ["template", "transform", "expansion", "outside", "flat", "seed:negative", "seed:neutral", "seed:positive"]
EXPLAINERS = ["limsse_ms_p", "occlusion7", "grad_dot_p"]


def test_explain_summary_fits_80_columns_with_every_share():
    records = []
    for cap in CAPS:
        for e, name in enumerate(EXPLAINERS):
            for i in range(40):
                cat = CATEGORIES[(i + e) % len(CATEGORIES)] if i < 36 else "transform"
                records.append({"status": "ok", "capability": cap, "explainer": name, "localisation": {
                    "category": cat, "word": None if cat == "flat" else "not", "hit": i % 3 == 0, "random_baseline": 0.25}})
    loc = aggregate(records)
    summary = {"model": "minilm-sst2", "failures_explained": 480, "cases": 7267,
               "capabilities": {cap: {"name": NAMES[cap], "failures_explained": 40, "explainers": loc[cap]} for cap in CAPS}}
    text = render(render_summary_table(summary))
    assert_fits(text)
    flat = words(text)
    for cap in CAPS:
        for name, agg in loc[cap].items():
            row = flat[flat.index(f"{cap} {name}"):]
            for share in agg["shares"].values():
                assert f"{share:.0%}" in row[:200], (cap, name)
    for short in ("template", "transform", "expansion", "outside", "flat", "seed-", "seed0", "seed+"):
        assert short in flat


# ---------------------------------------------------------------------------------------- trust
def test_trust_card_fits_80_columns_with_every_score():
    scores = lambda k: M.bootstrap([float((i * k) % 3 != 0) for i in range(60)]).to_json()  # noqa: E731
    metrics = ("hit_target", "hit_feat", "plausibility_expected", "plausibility_alternative")
    names = ["limsse_ms_p", "occlusion1", "grad_l2_s", "integrated_gradients_long"]
    par = {
        "hybrid": {"status": "ok", "baselines": {"random": scores(2)},
                   "explainers": {n: {"pointing_game": scores(k + 4), "beats_random": k == 0} for k, n in enumerate(names)}},
        "agreement": {"status": "ok", "model": "minilm-sst2+number-probe",
                      "baselines": {b: {m: scores(j + 2) for m in metrics} for j, b in enumerate(("random", "last", "last_noun"))},
                      "explainers": {n: {m: scores(k + j + 4) for j, m in enumerate(metrics)} | {"beats_random": True}
                                     for k, n in enumerate(names)}},
        "composite": {"status": "ok", "baselines": {"random": scores(5)},
                      "explainers": {n: {"pointing_game": scores(k + 7)} for k, n in enumerate(names)}},
    }
    card = {"model": "/work/shared/models/minilm-sst2", "margin": 0.05, "confidence": 0.95, "paradigms": par}
    card["ranking"] = rank(card)
    text = render(ranking_table(card))
    assert_fits(text)
    flat = words(text).replace("± ", "±")

    def shown(s):
        return f"{s['value']:.2f}±{(s['ci'][1] - s['ci'][0]) / 2:.2f}"

    for row in card["ranking"]:
        n = row["explainer"]
        assert f"{row['score']:+.3f}" in flat and shown(par["hybrid"]["explainers"][n]["pointing_game"]) in flat
        assert shown(par["composite"]["explainers"][n]["pointing_game"]) in flat
        assert all(shown(par["agreement"]["explainers"][n][m]) in flat for m in metrics), n
    assert all(shown(par["agreement"]["baselines"]["last_noun"][m]) in flat for m in metrics)
    assert "integrated_gradients_long" in flat.replace(" ", "") and "random" in flat


# -------------------------------------------------------------------------------------- retrain
def _evaluation(model: str, shift: int) -> Evaluation:
    passed = {f"{cap}-{i:04d}": (i + shift * k) % 5 > 1 for k, cap in enumerate(CAPS) for i in range(1013)}
    return Evaluation(model, model, passed, 0.8911 + shift / 100, 872)


def test_retrain_tables_fit_80_columns():
    scopes = {cap: [f"{cap}-{i:04d}" for i in range(1013)] for cap in CAPS}
    kinds = {cap: "test" if cap == "LC4" else "sample≤1000" for cap in CAPS}
    acc = account(_evaluation("minilm-sst2", 0), _evaluation("runs/minilm-sst2-LC4/model", 1), scopes, names=NAMES, scope_names=kinds)
    text = render(accounting_table(acc))
    assert_fits(text)
    flat = words(text)
    for r in acc["capabilities"]:
        assert f"{r['capability']} {r['scope']} {r['cases']} {r['fail_to_pass']} {r['pass_to_fail']}" in flat
        assert f"{100 * r['pass_rate_change']:+.1f}" in flat

    rows = {r: {"accounting": account(_evaluation("m", 0), _evaluation("m2", k + 1), scopes)} for k, r in enumerate(CAPS)}
    m = matrix_table(rows, CAPS)
    text = render(matrix_tables(m))
    assert_fits(text)
    flat = words(text)
    for col in m["evaluated"]:
        assert col in flat
    for r, vals in zip(m["retrained"], m["pass_rate_change_pp"]):
        assert all(f"{v:+.1f}" in flat for v in vals), r

    curve = [{"round": k, "failure_rate": {cap: 0.1 * ((k + j) % 7) for j, cap in enumerate(CAPS)},
              "validation_failure_rate": 0.5 - k / 10, "sst2_accuracy": None if k == 3 else 0.89} for k in range(4)]
    text = render(curve_table(curve))
    assert_fits(text)
    assert all(cap in text for cap in CAPS) and "SST-2" in text


# ------------------------------------------------------------------------------------ diversity
def test_diversity_table_fits_80_columns():
    def col(bleu: float, prods: int) -> dict:
        return {"cases": 1013, "self_bleu": bleu, "self_bleu_ci": [bleu - 0.021, bleu + 0.021], "self_bleu_sample": 200,
                "productions": prods, "productions_sample": 1013, "productions_at_sample": prods - 100}

    report = {cap: {"seeds": col(0.512, 1200 + k), "seeds+expansions": col(0.498, 1400 + k)} for k, cap in enumerate(CAPS)}
    text = render(diversity_table(report, "diversity of /work/wt-term/generated"))
    assert_fits(text)
    flat = words(text)
    for k, cap in enumerate(CAPS):
        assert f"{cap} 200 0.512±.021 0.498±.021 {1200 + k} {1400 + k} 1013 {1100 + k} {1300 + k}" in flat
