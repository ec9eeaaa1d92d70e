"""Retraining methods (issue 24): balanced batches, L2-SP, LoRA, joint selection, the method presets."""

from __future__ import annotations

import pytest
from conftest import case, tiny_cases, write_suite
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from s2lct.cli import app
from s2lct.models import load_model
from s2lct.retrain.methods import BASE, METHODS, methods_for, resolve
from s2lct.retrain.selection import TOLERANCE, WEIGHT, joint_score
from s2lct.retrain.train import Example, TrainConfig, fine_tune
from s2lct.retrain.training_set import (
    MAX_BATCH_IMBALANCE,
    NEGATIVE,
    POSITIVE,
    TaskPools,
    batch_imbalance,
    direction,
    load_general,
    training_examples,
)

EXPECTED = [["positive"], ["negative"], ["neutral"], ["neutral", "positive"], ["negative", "neutral"], ["negative", "positive"]]
POOLS = TaskPools(general=[], positive=[f"a fine sentence number {i}" for i in range(400)],
                  negative=[f"a poor sentence number {i}" for i in range(400)])


@settings(max_examples=60, deadline=None)
@given(labels=st.lists(st.sampled_from(range(len(EXPECTED))), min_size=1, max_size=120),
       batch_size=st.integers(1, 33), mix=st.sampled_from([0.0, 0.5, 1.0]), key=st.text(max_size=5))
def test_balanced_batches_pull_both_ways_within_the_bound(labels, batch_size, mix, key):
    cases = [case(f"C-{i}", "LCX", f"case {i}", EXPECTED[j], f"case {i}") for i, j in enumerate(labels)]
    examples, made = training_examples(cases, POOLS, mix=mix, balance=True, key=key)
    assert max(batch_imbalance(examples, batch_size)) <= MAX_BATCH_IMBALANCE
    # every case once; one opposite partner per case that pulls one way; mixed sentences in +/- pairs
    assert sorted(e.text for e in examples if e.source == "case") == sorted(c.text for c in cases)
    one_sided = sum(direction(e.allowed) != 0 for e in examples if e.source == "case")
    assert made["task_partners"] == one_sided
    sst2 = [e for e in examples if e.source == "task"]
    assert len(sst2) == made["task_partners"] + made["task_mixed"]
    assert sum(direction(e.allowed) for e in examples) == 0


def test_without_balance_a_one_sided_capability_pulls_one_way():
    cases = [case(f"C-{i}", "LCX", f"not bad {i}", ["neutral", "positive"], f"bad {i}") for i in range(64)]
    plain, _ = training_examples(cases, POOLS)
    balanced, _ = training_examples(cases, POOLS, balance=True)
    assert batch_imbalance(plain, 16) == [16] * 4  # the global shift the issue measured
    assert max(batch_imbalance(balanced, 16)) <= MAX_BATCH_IMBALANCE
    assert {e.allowed for e in balanced if e.source == "task"} == {NEGATIVE}


def test_general_sentences_are_unseen_by_training_and_accounting(shared_dir):
    from s2lct.corpus.sst import load_sst

    general = load_general(shared_dir / "data")
    assert len(general) == 1000 and {e.allowed for e in general} == {POSITIVE, NEGATIVE}
    assert {e.source for e in general} == {"general"}
    sst = load_sst(shared_dir / "data", ["train"])
    pools = TaskPools.build([(s.text, s.label) for s in sst], general)
    texts = {e.text.lower() for e in general}
    assert not texts & {t.lower() for t in pools.positive + pools.negative}
    assert not texts & {s.text.lower() for s in load_sst(shared_dir / "data", ["dev"])}  # SST-2 dev is SST's dev split
    # task sentences are written like the seeds (cased, detokenised), not like GLUE's lower-cased tokens
    assert all(len(t.split()) >= 5 for t in pools.positive + pools.negative)
    assert sum(t[0].isupper() for t in pools.positive) > 0.9 * len(pools.positive)
    assert not any(" 's " in t or " n't " in t for t in pools.negative)
    held = set(pools.positive[:10])
    assert not held & set(pools.without(held).positive) and len(pools.without(held).positive) == len(pools.positive) - 10


def test_joint_selection_without_the_general_sentences_names_the_file(tmp_path):
    with pytest.raises(Exception, match="sst/trees"):
        load_general(tmp_path)


def test_joint_score_is_free_within_the_tolerance_and_costly_beyond():
    assert joint_score(0.7, 0.89 - TOLERANCE, 0.89) == pytest.approx(0.7)
    assert joint_score(0.7, 0.95, 0.89) == pytest.approx(0.7)
    assert joint_score(0.7, 0.89 - TOLERANCE - 0.01, 0.89) == pytest.approx(0.7 - WEIGHT * 0.01)


def test_method_presets_and_explicit_options():
    from dataclasses import fields

    from s2lct.retrain.options import RetrainOptions

    defaults = {f.name: f.default for f in fields(RetrainOptions)}
    assert dict(BASE) == {k: defaults[k] for k in BASE}  # one set of defaults, whichever way a run is started
    assert resolve("finetune", {}) == dict(BASE)
    assert resolve("lora", {"lr": 1e-4})["lr"] == 1e-4 and resolve("lora", {})["lora_rank"] > 0
    assert resolve("lora", {"lr": None})["lr"] == METHODS["lora"].settings["lr"]
    with pytest.raises(ValueError, match=r"unknown method 'lorra' \(did you mean 'lora'\?\)"):
        resolve("lorra", {})
    assert "lora" not in methods_for(lora=False) and "balanced" in methods_for(lora=False)


def _train(tiny_model, tmp_path, name, **config):
    cases = tiny_cases()
    train = [Example(c.text, POSITIVE if "positive" in c.expected else NEGATIVE) for c in cases if c.capability == "LCA"][:48]
    val = [Example(c.text, POSITIVE if "positive" in c.expected else NEGATIVE) for c in cases if c.capability == "LCA"][48:]
    cfg = TrainConfig(lr=5e-3, epochs=2, batch_size=8, seed=3, **config)
    info = fine_tune(str(tiny_model), ["negative", "positive"], (1 / 3, 2 / 3), train, val, tmp_path / name,
                     tmp_path / name / "model", cfg)
    return info, tmp_path / name / "model"


def _weights(folder):
    from safetensors.torch import load_file

    return load_file(folder / "model.safetensors")


def _start_weights(tiny_model):
    from transformers import AutoModelForSequenceClassification

    return {k: v for k, v in AutoModelForSequenceClassification.from_pretrained(str(tiny_model)).state_dict().items()}


def test_l2sp_zero_is_plain_fine_tuning_and_a_huge_penalty_keeps_the_start(tiny_model, tmp_path):
    import torch

    _, plain = _train(tiny_model, tmp_path, "plain")
    _, zero = _train(tiny_model, tmp_path, "zero", l2sp=0.0)
    _, huge = _train(tiny_model, tmp_path, "huge", l2sp=1e9)
    a, b, h = _weights(plain), _weights(zero), _weights(huge)
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)
    start = _start_weights(tiny_model)
    assert all(torch.equal(h[k], start[k]) for k in h if k in start)
    assert any(not torch.equal(a[k], start[k]) for k in a if k in start)  # plain training did move them


def test_lora_trains_merges_and_the_saved_folder_runs(tiny_model, tmp_path):
    import torch

    info, folder = _train(tiny_model, tmp_path, "lora", lora_rank=4)
    w = _weights(folder)
    assert not any("lora" in k for k in w)  # merged into plain weights
    start = _start_weights(tiny_model)
    assert any(not torch.equal(w[k], start[k]) for k in w if k in start)
    model = load_model(str(folder))
    assert len(model.predict(["the noun1 was good"])) == 1
    suite = write_suite(tmp_path / "suite", tiny_cases())
    res = CliRunner().invoke(app, ["run", "--model", str(folder), "--suite", str(suite)])
    assert res.exit_code in (0, 1) and "LCA" in res.output, res.output


def test_joint_selection_scores_the_start_and_every_checkpoint(tiny_model, tmp_path):
    cases = [c for c in tiny_cases() if c.capability == "LCA"]
    general = [Example(f"the noun{i} was {'good' if i % 2 else 'bad'}", POSITIVE if i % 2 else NEGATIVE, "general") for i in range(40)]
    train = [Example(c.text, POSITIVE if "positive" in c.expected else NEGATIVE) for c in cases[:48]]
    val = [Example(c.text, POSITIVE if "positive" in c.expected else NEGATIVE) for c in cases[48:]]
    cfg = TrainConfig(lr=5e-3, epochs=2, batch_size=8, seed=3, select="joint", patience=2)
    info = fine_tune(str(tiny_model), ["negative", "positive"], (1 / 3, 2 / 3), train, val, tmp_path / "j", tmp_path / "j" / "model",
                     cfg, general=general)
    assert info["start"]["general_accuracy"] is not None and info["general_examples"] == 40
    for e in info["evaluations"]:
        assert e["joint"] == pytest.approx(joint_score(e["validation_pass_rate"], e["general_accuracy"], info["start"]["general_accuracy"]))
    best = max([info["start"]["joint"], *(e["joint"] for e in info["evaluations"])])
    kept = info["start"]["joint"] if info["kept_start"] else next(e["joint"] for e in info["evaluations"]
                                                                 if info["best_checkpoint"] == f"checkpoint-{e['step']}")
    assert kept == pytest.approx(best)


def test_lora_on_a_lexicon_names_what_applies(tmp_path):
    suite = write_suite(tmp_path / "s", tiny_cases())
    res = CliRunner().invoke(app, ["retrain", "--model", "vader", "--method", "lora", "-c", "LCA", "--suite", str(suite),
                                   "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "no retrain method applies" in res.output and "Traceback" not in res.output
    assert len([ln for ln in res.output.splitlines() if ln.strip()]) == 1
    assert not (tmp_path / "o").exists()


def test_an_unknown_method_is_one_line_with_the_known_ones(tiny_model, tmp_path):
    suite = write_suite(tmp_path / "s", tiny_cases())
    res = CliRunner().invoke(app, ["retrain", "--model", str(tiny_model), "--method", "l2-sp", "-c", "LCA", "--suite", str(suite),
                                   "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "unknown method 'l2-sp'" in res.output and "mix-joint" in res.output


def test_every_method_is_documented_with_when_to_use_it(repo_dir):
    doc = (repo_dir / "docs" / "retraining.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in doc.splitlines() if line.startswith("| `")}
    for name, method in METHODS.items():
        row = next((line for key, line in rows.items() if key.startswith(f"`{name}`")), None)
        assert row is not None, f"docs/retraining.md has no row for method {name}"
        assert method.when and method.summary
