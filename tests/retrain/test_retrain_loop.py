"""End to end on a tiny BERT: retraining fixes a learnable capability, and the accounting is exact."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import case, write_suite
from typer.testing import CliRunner

from s2lct.cli import app
from s2lct.models import load_model
from s2lct.retrain import retrain
from s2lct.retrain.train import Example, TrainConfig, fine_tune
from s2lct.suite import load_suite

FAST = dict(method="finetune", lr=5e-3, epochs=8, batch_size=8)  # the tiny model needs a few passes to learn good/bad


@pytest.fixture(scope="module")
def run(tiny_model, tiny_suite, tmp_path_factory):
    root = tmp_path_factory.mktemp("run")
    result = retrain(str(tiny_model), "LCA", out=root / "out", suite=tiny_suite, cache_dir=root / "cache", seed=1, **FAST)
    return root, result


def _verdicts(model_dir: Path, cases) -> dict[str, bool]:
    """Judged straight from the model, without the prediction cache or the accounting code."""
    model = load_model(str(model_dir))
    preds = model.predict([c.text for c in cases])
    return {c.id: p.label in c.expected for c, p in zip(cases, preds, strict=True)}


def test_retraining_fixes_the_learnable_capability_and_accounts_exactly(run, tiny_model, tiny_suite):
    root, result = run
    rows = {r["capability"]: r for r in result["accounting"]["capabilities"]}
    assert rows["LCA"]["scope"] == "test" and rows["LCB"]["scope"] == "all"
    assert rows["LCA"]["fail_to_pass"] > 0

    split = json.loads((root / "out" / "split.json").read_text())["assignment"]
    cases = load_suite(tiny_suite)
    scope = {"LCA": [c for c in cases if c.capability == "LCA" and split[c.id] == "test"],
             "LCB": [c for c in cases if c.capability == "LCB"]}
    for cap, cs in scope.items():
        before = _verdicts(tiny_model, cs)
        after = _verdicts(Path(result["model_dir"]), cs)
        row = rows[cap]
        assert row["cases"] == len(cs)
        assert (row["pass_before"], row["pass_after"]) == (sum(before.values()), sum(after.values()))
        assert row["fail_to_pass"] == sum(not before[i] and after[i] for i in before)
        assert row["pass_to_fail"] == sum(before[i] and not after[i] for i in before)
        # the totals add up
        assert row["fail_before"] + row["pass_before"] == row["cases"] == row["fail_after"] + row["pass_after"]
        assert row["pass_after"] - row["pass_before"] == row["fail_to_pass"] - row["pass_to_fail"]
    sst2 = result["accounting"]["sst2_dev"]
    assert sst2["n"] == 872 and 0 <= sst2["accuracy_before"] <= 1 and 0 <= sst2["accuracy_after"] <= 1
    md = (root / "out" / "accounting.md").read_text()
    assert "| LCA | test |" in md and "#Pass→Fail" in md and "SST-2 dev accuracy" in md


def test_the_saved_model_runs_like_any_other(run, tiny_suite):
    root, result = run
    out = CliRunner().invoke(app, ["run", "--model", result["model_dir"], "--suite", str(tiny_suite)])
    assert out.exit_code in (0, 1), out.output  # 1: some cases fail, which is a result, not an error
    assert "LCA" in out.output


def test_same_seed_same_output(run, tiny_model, tiny_suite, tmp_path):
    root, _ = run
    retrain(str(tiny_model), "LCA", out=tmp_path / "again", suite=tiny_suite, cache_dir=root / "cache", seed=1, **FAST)
    for name in ("split.json", "accounting.json"):
        a = (root / "out" / name).read_text().replace(str(root / "out"), "OUT")
        b = (tmp_path / "again" / name).read_text().replace(str(tmp_path / "again"), "OUT")
        assert a == b, name
    assert (root / "out" / "model" / "model.safetensors").read_bytes() == (tmp_path / "again" / "model" / "model.safetensors").read_bytes()


class Kill(Exception):
    pass


def test_resume_after_a_kill_gives_the_same_weights(tiny_model, tmp_path):
    from transformers import TrainerCallback

    cases = [c for c in load_suite_cases() if c.capability == "LCA"]
    train = [Example(c.text, (0.0, 0.0, 1.0) if "positive" in c.expected else (1.0, 0.0, 0.0)) for c in cases[:48]]
    val = [Example(c.text, (0.0, 0.0, 1.0) if "positive" in c.expected else (1.0, 0.0, 0.0)) for c in cases[48:]]
    cfg = TrainConfig(lr=3e-3, epochs=2, batch_size=8, seed=7)  # 12 steps, a checkpoint every 2

    class KillAfter(TrainerCallback):
        def on_step_end(self, args, state, control, **kw):
            if state.global_step == 7:
                raise Kill  # dies before step 7 is checkpointed: resumes from checkpoint-6

    whole = fine_tune(str(tiny_model), ["negative", "positive"], (1 / 3, 2 / 3), train, val, tmp_path / "a", tmp_path / "a" / "model", cfg)
    with pytest.raises(Kill):
        fine_tune(str(tiny_model), ["negative", "positive"], (1 / 3, 2 / 3), train, val, tmp_path / "b", tmp_path / "b" / "model", cfg,
                  callbacks=[KillAfter()])
    assert not (tmp_path / "b" / "model").exists()  # no partial model folder
    resumed = fine_tune(str(tiny_model), ["negative", "positive"], (1 / 3, 2 / 3), train, val, tmp_path / "b", tmp_path / "b" / "model", cfg)
    assert resumed["resumed_from"] == "checkpoint-6"
    assert resumed["steps"] == whole["steps"] == 12
    assert resumed["best_checkpoint"] == whole["best_checkpoint"]
    import torch
    from safetensors.torch import load_file

    a = load_file(tmp_path / "a" / "model" / "model.safetensors")
    b = load_file(tmp_path / "b" / "model" / "model.safetensors")
    assert a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def load_suite_cases():
    from conftest import tiny_cases

    return tiny_cases()


def test_rounds_draw_a_learning_curve_and_stop_when_validation_stops_improving(tiny_model, tiny_suite, tmp_path):
    result = retrain(str(tiny_model), "LCA", out=tmp_path / "loop", suite=tiny_suite, cache_dir=tmp_path / "cache",
                     rounds=3, method="finetune", lr=3e-3, epochs=2, batch_size=8, seed=2)
    curve = result["curve"]
    assert [p["round"] for p in curve] == list(range(len(curve))) and len(curve) >= 2
    assert all(0 <= v <= 1 for p in curve for v in p["failure_rate"].values())
    best = result["final_round"]
    if result["stopped_early"]:
        assert curve[-1]["validation_failure_rate"] >= curve[best]["validation_failure_rate"]
    rates = [p["validation_failure_rate"] for p in curve[1 : best + 1]]
    assert rates == sorted(rates, reverse=True) and len(set(rates)) == len(rates)  # strictly falling up to the result
    final = {r["capability"]: r for r in result["accounting"]["capabilities"]}
    assert final["LCA"]["fail_after"] / final["LCA"]["cases"] == pytest.approx(curve[best]["failure_rate"]["LCA"])
    for ext in ("png", "svg"):
        assert (tmp_path / "loop" / f"learning_curve.{ext}").stat().st_size > 1000


def test_matrix_retrains_each_capability_and_draws_the_heat_map(tiny_model, tiny_suite, tmp_path):
    result = retrain(str(tiny_model), None, matrix=True, out=tmp_path / "m", suite=tiny_suite, cache_dir=tmp_path / "cache", **FAST)
    m = result["matrix"]
    assert m["retrained"] == ["LCA", "LCB"] and m["evaluated"] == ["LCA", "LCB", "SST-2 dev"]
    for i, cap in enumerate(m["retrained"]):
        rows = {r["capability"]: r for r in result["rows"][cap]["accounting"]["capabilities"]}
        assert rows[cap]["scope"] == "test"
        for j, ev in enumerate(m["evaluated"][:-1]):
            assert m["pass_rate_change_pp"][i][j] == pytest.approx(100 * rows[ev]["pass_rate_change"])
    assert (tmp_path / "m" / "matrix_heatmap.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "m" / "matrix_heatmap.svg").read_text().lstrip().startswith("<?xml")
    assert "| LCA |" in (tmp_path / "m" / "matrix.md").read_text()


def _cli(*args: str):
    return CliRunner().invoke(app, ["retrain", *args])


def test_lexicon_models_are_refused_naming_the_models_that_can(tiny_suite, tmp_path):
    res = _cli("--model", "vader", "--capability", "LCA", "--suite", str(tiny_suite), "--out", str(tmp_path / "o"))
    assert res.exit_code == 2
    assert "cannot be fine-tuned" in res.output and "minilm-sst2" in res.output and "Traceback" not in res.output
    assert not (tmp_path / "o").exists()


def test_too_few_seeds_gives_the_count_and_the_minimum(tiny_model, tmp_path):
    suite = write_suite(tmp_path / "s", [case(f"LCA-{i}", "LCA", f"the noun{i % 4} was good", ["positive"], f"the noun{i % 4} was good")
                                         for i in range(12)])
    res = _cli("--model", str(tiny_model), "--capability", "LCA", "--suite", str(suite), "--out", str(tmp_path / "o"))
    assert res.exit_code == 2
    assert "LCA has 4 seed sentence group(s)" in res.output and "at least 10" in res.output


def test_an_out_folder_with_a_different_run_is_refused_unless_resume_or_overwrite(run, tiny_model, tiny_suite):
    root, _ = run
    out = root / "out"
    before = (out / "run.json").read_text()
    args = ["--model", str(tiny_model), "--capability", "LCA", "--suite", str(tiny_suite), "--out", str(out),
            "--cache-dir", str(root / "cache"), "--method", "finetune", "--lr", "5e-3", "--epochs", "8", "--batch-size", "8", "-q"]
    res = _cli(*args, "--seed", "2")
    assert res.exit_code == 2 and "already holds a different retrain run (differs in: seed)" in res.output
    assert (out / "run.json").read_text() == before
    res = _cli(*args, "--seed", "2", "--resume")  # continues the recorded run (seed 1), all done: nothing retrained
    assert res.exit_code == 0, res.output
    assert (out / "run.json").read_text() == before
    rows = [[cell.strip() for cell in line.split("│")[1:3]] for line in res.output.splitlines()]
    assert ["LCA", "test"] in rows, res.output  # the accounting row of the retrained capability


def test_the_matrix_skips_a_capability_too_small_to_split_and_goes_on(tiny_model, tmp_path):
    from conftest import tiny_cases

    few = [case(f"LCC-{i}", "LCC", f"the noun{i % 3} was fine", ["positive"], f"the noun{i % 3} was fine") for i in range(6)]
    suite = write_suite(tmp_path / "s", tiny_cases() + few)
    result = retrain(str(tiny_model), "LCA,LCC", matrix=True, out=tmp_path / "m", suite=suite, cache_dir=tmp_path / "cache", **FAST)
    m = result["matrix"]
    assert m["retrained"] == ["LCA"] and "LCC has 3 seed sentence group(s)" in m["skipped"]["LCC"]
    assert "LCC: not retrained" in (tmp_path / "m" / "matrix.md").read_text()
