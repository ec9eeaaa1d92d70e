"""The trust card's worker processes: the same card whichever number of workers computed it, the
completeness policy seen in item order, and a model that cannot be sent to a worker explained in
this process with one line."""

from __future__ import annotations

import json

import pytest

from s2lct.explain.adapters import ModelHandle
from s2lct.models import load_model
from s2lct.trust.card import CardOptions, build_card
from s2lct.trust.workers import auto_workers

TIMINGS = {"seconds", "items_per_second", "compute_seconds", "wall_seconds"}


def without_timings(o):
    if isinstance(o, dict):
        return {k: without_timings(v) for k, v in o.items() if k not in TIMINGS}
    if isinstance(o, list):
        return [without_timings(x) for x in o]
    return o


def test_card_from_two_workers_equals_the_card_from_this_process(tmp_path, repo_dir):
    """One torch thread per explanation on both sides, so the explanations are bitwise the same.
    DeepLIFT fails completeness on minilm-sst2: the workers compute it ahead, the parent gives it
    up after three failures in item order, as the serial path does."""
    import torch

    opts = CardOptions(explainers=["occlusion1", "grad_dot_s", "deeplift"], documents=6, fragments=2, agreement_items=4,
                       probe_items=600, suite=str(repo_dir / "generated"), composite_cases=2, faithfulness_texts=0)
    cards, logs = {}, {}
    before = torch.get_num_threads()
    try:
        for workers, threads in ((1, 1), (2, 2)):
            torch.set_num_threads(threads)
            logs[workers] = []
            cards[workers] = build_card("minilm-sst2", opts, cache_dir=tmp_path / f"cache{workers}", workers=workers,
                                        log=logs[workers].append)
    finally:
        torch.set_num_threads(before)
    assert any("2 worker processes, 1 torch thread(s) each" in m for m in logs[2])
    assert not any("worker" in m for m in logs[1])
    one, two = without_timings(cards[1]), without_timings(cards[2])
    assert json.dumps(one, sort_keys=True) == json.dumps(two, sort_keys=True)
    assert "deeplift" in cards[2]["not_applicable"] and "completeness" in cards[2]["not_applicable"]["deeplift"]
    assert {k: p["status"] for k, p in cards[2]["paradigms"].items()} == {
        "hybrid": "ok", "agreement": "ok", "composite": "ok", "faithfulness": "skipped"}
    assert cards[2]["paradigms"]["hybrid"]["explainers"]["occlusion1"]["pointing_game"]["n"] == cards[2]["paradigms"]["hybrid"]["scored"]


def test_a_model_that_cannot_be_sent_to_a_worker_is_explained_here(tmp_path):
    model = load_model("vader")
    model.on_predict = lambda texts: None  # a lambda: not picklable
    logs: list[str] = []
    card = build_card(model, CardOptions(explainers=["occlusion1"], documents=20, suite=None, faithfulness_texts=0), cache_dir=tmp_path,
                      workers=2, log=logs.append)
    said = [m for m in logs if "explained in this process" in m]
    assert said and "vader" in said[0] and "cannot be sent to a worker" in said[0]
    assert card["paradigms"]["hybrid"]["explainers"]["occlusion1"]["pointing_game"]["n"] == card["paradigms"]["hybrid"]["scored"]


class _CpuModel:
    device = "cpu"


class _CudaModel:
    device = "cuda:0"


@pytest.mark.parametrize(("torch_side", "threads", "expected"), [
    (_CpuModel(), 2, 2), (_CpuModel(), 1, 1), (_CpuModel(), 64, None), (None, 8, 1), (_CudaModel(), 8, 1),
])
def test_auto_workers_one_per_thread_for_torch_models_on_the_cpu(torch_side, threads, expected):
    import os

    from s2lct.trust.workers import MAX_AUTO_WORKERS

    handle = ModelHandle("m", "torch" if torch_side else "lexicon", None, torch_side)
    if expected is None:  # many threads: capped
        expected = min(MAX_AUTO_WORKERS, os.cpu_count() or 1)
    assert auto_workers(handle, threads) == min(expected, os.cpu_count() or 1)
