"""The number probe on the frozen minilm-sst2 encoder, the card end to end (`s2lct trust`), bad
input, the `s2lct explain` default from the card, and the card page read back in chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
from html.parser import HTMLParser

import pytest
import torch
from typer.testing import CliRunner

from s2lct.cli import app
from s2lct.explain.adapters import ModelHandle, prepare_model
from s2lct.explain.registry import get_explainer
from s2lct.models import load_model
from s2lct.trust.agreement import AgreementItem
from s2lct.trust.ranking import trust_line
from s2lct.trust.html import render_card_html
from s2lct.trust.probe import predict_numbers, train_probe

torch.set_num_threads(1)
NOUNS = ["dog", "author", "pilot", "farmer", "teacher", "cousin", "senator", "doctor", "painter", "dancer", "driver",
         "student", "baker", "singer", "lawyer", "nurse", "guard", "chef", "clerk", "judge"]
MIDDLE = ["near the", "behind the", "with the"]


def items(nouns, offset):
    out = []
    for k, n in enumerate(nouns):
        for m, plural in ((m, p) for m in range(len(MIDDLE)) for p in (False, True)):
            other = NOUNS[(k + m + offset) % len(NOUNS)] + ("" if plural else "s")  # attractor of the other number
            toks = ("the", n + ("s" if plural else ""), *MIDDLE[m].split(), other)
            out.append(AgreementItem(f"h{k}{m}{plural}", "hand", toks, ("DT", "NNS" if plural else "NN", "IN", "DT", "NN" if plural else "NNS"),
                                     1, "v", "Pl" if plural else "Sg"))
    return out


@pytest.fixture(scope="module")
def minilm():
    return load_model("minilm-sst2")


def test_probe_on_frozen_encoder_is_above_chance_and_explainable(minilm):
    handle = prepare_model(minilm)
    before = {k: v.clone() for k, v in handle.torch.model.state_dict().items() if "embeddings" in k}
    train, heldout = items(NOUNS[:14], 3), items(NOUNS[14:], 5)
    probe, report = train_probe(handle.torch, train, heldout)
    assert report.heldout_accuracy > 0.7 > report.majority_baseline  # balanced: chance is 0.5
    assert all(torch.equal(v, handle.torch.model.state_dict()[k]) for k, v in before.items())  # encoder frozen
    pred = predict_numbers(probe, heldout)
    assert sum(p == it.verb_number for p, it in zip(pred, heldout)) / len(heldout) == pytest.approx(report.heldout_accuracy)
    ph = ModelHandle(probe.name, "probe", None, probe)
    exp = get_explainer("occlusion1").explain(ph, heldout[0].text, pred[0])
    assert exp.words == heldout[0].tokens  # the appended verb slot is no word


def run(args):
    return CliRunner().invoke(app, args, catch_exceptions=False)


def test_trust_end_to_end_on_minilm_and_explain_defaults_to_the_best(tmp_path, repo_dir, monkeypatch):
    """Both commands are given the cache folder by --cache-dir (the environment names an empty one)."""
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "elsewhere"))
    cache = ["--cache-dir", str(tmp_path / "cache")]
    out = tmp_path / "card"
    args = ["trust", *cache, "--model", "minilm-sst2", "--out", str(out), "--explainers", "occlusion1,grad_dot_s",
            "--documents", "6", "--fragments", "2", "--agreement-items", "4", "--probe-items", "600", "--suite", str(repo_dir / "generated"),
            "--suite-cases", "2", "--faithfulness-texts", "0", "--threads", "1", "-q"]
    res = run(args)
    assert res.exit_code == 0, res.output
    card = json.loads((out / "card.json").read_text())
    assert (out / "card.html").is_file()
    h, a, c = (card["paradigms"][k] for k in ("hybrid", "agreement", "composite"))
    assert h["status"] == a["status"] == c["status"] == "ok"
    assert h["scored"] + h["discarded"] == h["documents"] == 6
    assert set(h["explainers"]) == {"occlusion1", "grad_dot_s"}
    for e in h["explainers"].values():
        lo, hi = e["pointing_game"]["ci"]
        assert lo <= e["pointing_game"]["value"] <= hi
    assert a["probe"]["train_prefixes"] == 600 and a["probe"]["heldout_accuracy"] >= a["probe"]["majority_baseline"] + card["margin"]
    assert set(a["baselines"]) == {"random", "last", "last_noun"}
    assert [r["rank"] for r in card["ranking"]] == [1, 2]
    assert card["ranking"][0]["score"] >= card["ranking"][1]["score"]
    assert "margin" in card and card["margin"] > 0
    # cached per model identity: the same command again is served from the cache
    again = run(args[:-1] + ["-q"])
    assert again.exit_code == 0 and json.loads((out / "card.json").read_text())["ranking"] == card["ranking"]
    # s2lct explain: no explainer given → the card's best-ranked one, its score beside each explanation
    best = card["ranking"][0]["explainer"]
    res = run(["explain", *cache, "--model", "minilm-sst2", "--out", str(tmp_path / "exp"), "--suite", str(repo_dir / "generated"),
               "--only", "LC4", "--max-failures-per-capability", "1", "--threads", "1", "-q"])
    assert res.exit_code == 0, res.output
    line = trust_line(card, best)
    assert line.startswith(f"{best}, pointing game ") and "on this model" in line
    assert f"[{line}, class" in res.output  # beside the explained failure
    summary = json.loads((tmp_path / "exp" / "summary.json").read_text())
    assert list(summary["explainers"]) == [best]


def test_lexicon_model_skips_agreement_with_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    res = CliRunner().invoke(app, ["trust", "--model", "vader", "--out", str(tmp_path / "v"), "--explainers", "occlusion1",
                                   "--documents", "20", "--suite-cases", "0", "--faithfulness-texts", "0", "-q"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    skipped = [ln for ln in res.output.splitlines() if "agreement paradigm skipped" in ln]
    assert skipped and "'vader'" in skipped[0] and "no representation to probe" in skipped[0]
    card = json.loads((tmp_path / "v" / "card.json").read_text())
    assert card["paradigms"]["agreement"]["status"] == "skipped"
    assert card["paradigms"]["hybrid"]["explainers"]["occlusion1"]["pointing_game"]["n"] == card["paradigms"]["hybrid"]["scored"]


def test_faithfulness_on_the_card_without_a_student_says_why(tmp_path, monkeypatch):
    """vader: input consistency is scored on swapped SST sentences; model consistency has no student
    to compare with, and the card says so instead of failing."""
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    res = CliRunner().invoke(app, ["trust", "--model", "vader", "--out", str(tmp_path / "v"), "--explainers", "occlusion1",
                                   "--documents", "20", "--suite-cases", "0", "--faithfulness-texts", "6", "-q"], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    f = json.loads((tmp_path / "v" / "card.json").read_text())["paradigms"]["faithfulness"]
    assert f["status"] == "ok" and f["texts"] == 6
    score = f["explainers"]["occlusion1"]["input_consistency"]["input_consistency"]
    assert score["n"] >= 1 and -1 <= score["value"] <= 1
    assert f["model"]["status"] == "skipped" and "no student" in f["model"]["reason"] and "'vader'" in f["model"]["reason"]
    for pair in f["input"]["pairs"]:  # one word swapped, every other kept
        a, b = pair["text"].split(), pair["swapped"].split()
        assert len(a) == len(b) and sum(x != y for x, y in zip(a, b)) == 1


def test_too_few_documents_is_one_line_with_the_count(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    res = CliRunner().invoke(app, ["trust", "--model", "vader", "--out", str(tmp_path / "v"), "--explainers", "occlusion1",
                                   "--documents", "2", "--suite-cases", "0", "--faithfulness-texts", "0", "-q"])
    assert res.exit_code == 2
    assert "of 2 documents are left after discarding" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "v" / "card.json").exists()


class _Cells(HTMLParser):
    def __init__(self):
        super().__init__()
        self.cells, self.intervals, self.randoms = [], [], []

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "td" and "data-value" in a:
            self.cells.append(a)
        if tag == "rect" and "data-interval" in a:
            self.intervals.append(a["data-interval"])
        if tag == "rect" and "data-random" in a:
            self.randoms.append(float(a["data-random"]))


def test_card_page_renders_in_headless_chromium(tmp_path):
    s = lambda v, lo, hi, n=50: {"value": v, "n": n, "ci": [lo, hi]}  # noqa: E731
    card = {"model": "m", "identity": "id", "rule": "rule", "confidence": 0.95, "bootstrap_resamples": 2000, "margin": 0.05,
            "paradigms": {"hybrid": {"status": "ok", "scored": 50, "documents": 52, "discarded": 2, "fragments_per_document": 3,
                                     "source": "SST", "mean_words": 50, "baselines": {"random": s(0.5, 0.4, 0.6)},
                                     "explainers": {"ig": {"pointing_game": s(0.9, 0.8, 0.97)}, "lime": {"pointing_game": s(0.55, 0.4, 0.7)}}},
                          "agreement": {"status": "skipped", "reason": "agreement paradigm skipped: no encoder"},
                          "composite": {"status": "skipped"}},
            "ranking": [{"explainer": "ig", "rank": 1, "score": 0.4, "trusted": True}, {"explainer": "lime", "rank": 2, "score": 0.05, "trusted": False}],
            "not_applicable": {"lrp": "no rule"}}
    page = tmp_path / "card.html"
    page.write_text(render_card_html(card))
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if exe is None:
        pytest.fail("chromium not found: apt-get install -y chromium")
    proc = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                           "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", f"--user-data-dir={tmp_path / 'p'}",
                           "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert 'data-card-ready="1"' in proc.stdout
    dom = _Cells()
    dom.feed(proc.stdout)
    assert [(c["data-explainer"], float(c["data-value"])) for c in dom.cells] == [("ig", 0.9), ("lime", 0.55)]
    assert dom.intervals == ["0.8,0.97", "0.4,0.7"]  # one interval bar per score, drawn by the page's script
    assert dom.randoms == [0.5, 0.5]
    assert "beats random" in proc.stdout.split("lime")[0] and "no encoder" in proc.stdout


def card_with_planted_explainer(tmp_path, repo_dir, monkeypatch, name, complete, documents):
    """A small card with occlusion1 and a planted explainer that is occlusion1 on the calls for which
    ``complete(call number)`` holds and fails completeness on the others."""
    import dataclasses

    import catalogue

    from s2lct.explain.base import CaseNotApplicable, Explainer, explainers

    calls = {"n": 0}

    class Planted(Explainer):
        family = "perturbation"

        def explain(self, handle, text, target):
            calls["n"] += 1
            if not complete(calls["n"]):
                raise CaseNotApplicable("completeness fails on this input")
            return dataclasses.replace(get_explainer("occlusion1").explain(handle, text, target), explainer=self.name)

    Planted.name = name
    explainers.register(name, func=Planted)
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    try:
        res = run(["trust", "--model", "minilm-sst2", "--out", str(tmp_path / "card"), "--explainers", f"occlusion1,{name}",
                   "--documents", str(documents), "--fragments", "2", "--agreement-items", "6", "--probe-items", "600",
                   "--suite", str(repo_dir / "generated"), "--suite-cases", "2", "--faithfulness-texts", "0", "--threads", "1", "-q"])
    finally:
        catalogue._remove(("s2lct", "explainers", name))
    assert res.exit_code == 0, res.output
    return json.loads((tmp_path / "card" / "card.json").read_text())


def test_items_an_explainer_fails_completeness_on_are_left_out_of_its_scores(tmp_path, repo_dir, monkeypatch):
    """Every other item fails completeness: the card scores the rest (the agreement summary used to
    index every item and crashed), and the explainer stays applicable."""
    name = "test_every_other"
    card = card_with_planted_explainer(tmp_path, repo_dir, monkeypatch, name, lambda n: n % 2 == 1, documents=6)
    assert name not in card["not_applicable"]
    h, a = card["paradigms"]["hybrid"], card["paradigms"]["agreement"]
    full, half = h["explainers"]["occlusion1"]["pointing_game"]["n"], h["explainers"][name]["pointing_game"]["n"]
    assert 0 < half < full
    assert a["explainers"][name]["hit_feat"]["n"] < a["explainers"]["occlusion1"]["hit_feat"]["n"]


def test_an_explainer_left_out_of_most_items_is_not_scored_nor_ranked(tmp_path, repo_dir, monkeypatch):
    """DeepLIFT on minilm-sst2's probe held completeness on 2 of 100 prefixes and was ranked on
    those 2; an explainer left out of more than half of a paradigm's items is now not scored there,
    with the count in its reason, and an explainer scored nowhere is not ranked."""
    name = "test_rarely_complete"
    card = card_with_planted_explainer(tmp_path, repo_dir, monkeypatch, name, lambda n: n % 4 == 1, documents=8)  # items 1, 5, 9, ...
    h = card["paradigms"]["hybrid"]
    assert name not in h["explainers"] and "occlusion1" in h["explainers"]
    reason = h["not_applicable"][name]
    assert f"left out of 6 of {h['scored']} hybrid items" in reason and "completeness fails" in reason
    assert name not in card["paradigms"]["agreement"]["explainers"]
    assert [r["explainer"] for r in card["ranking"]] == ["occlusion1"]


def test_card_page_gives_each_paradigms_reason_and_reads_as_text_not_python():
    """The agreement paradigm's own reason for leaving an explainer out reaches the page (the
    card-level merge keeps one paradigm's reason); counts and verdicts read as words."""
    s = lambda v, lo, hi, n=50: {"value": v, "n": n, "ci": [lo, hi]}  # noqa: E731
    metrics = ("hit_target", "hit_feat", "hit_feat_correct", "hit_feat_wrong", "plausibility_expected", "plausibility_alternative")
    card = {"model": "m", "identity": "id", "rule": "rule", "confidence": 0.95, "bootstrap_resamples": 2000, "margin": 0.05,
            "paradigms": {
                "hybrid": {"status": "ok", "scored": 50, "documents": 50, "discarded": 0, "fragments_per_document": 3, "source": "SST",
                           "mean_words": 50, "baselines": {"random": s(0.5, 0.4, 0.6)}, "explainers": {"ig": {"pointing_game": s(0.9, 0.8, 0.97)}},
                           "not_applicable": {"deeplift": "completeness fails (convergence delta -3.3)"}},
                "agreement": {"status": "ok", "model": "m+probe", "items": 40, "correct": 30, "counts": {"items": {"ptb": 20, "blimp": 20}},
                              "probe": {"heldout_accuracy": 0.7, "heldout_prefixes": 100, "majority_baseline": 0.6},
                              "baselines": {"random": {m: s(0.2, 0.1, 0.3) for m in metrics}},
                              "explainers": {"ig": {m: s(0.4, 0.3, 0.5) for m in metrics}},
                              "not_applicable": {"deeplift": "left out of 98 of 100 agreement items"}},
                "composite": {"status": "ok", "cases": 400, "failures_scored": 40, "per_capability": {"LC1": 30, "LC2": 10},
                              "baselines": {"random": s(0.4, 0.3, 0.5)}, "explainers": {"ig": {"pointing_game": s(0.6, 0.5, 0.7)}}}},
            "disagreement": {"status": "ok", "spearman": 0.5, "explainers": [
                {"explainer": "ig", "hybrid": 0.9, "suite": 0.6, "intervals_apart": True, "hybrid_beats_random": True, "suite_beats_random": False}]},
            "ranking": [{"explainer": "ig", "rank": 1, "score": 0.3, "trusted": True}],
            "not_applicable": {"deeplift": "completeness fails (convergence delta -3.3)"}}
    page = render_card_html(card)
    item = page.split("<h2>Not applicable</h2>")[1]
    hybrid, agreement = "hybrid: completeness fails (convergence delta -3.3)", "agreement: left out of 98 of 100 agreement items"
    assert hybrid in item and agreement in item and item.index(hybrid) < item.index(agreement)  # in the card's order, not the JSON's
    assert "(ptb 20, blimp 20)" in page and "(LC1 30, LC2 10)" in page
    assert "beats random / not above random" in page
    assert "{&#x27;" not in page and "{'" not in page and ">True" not in page
