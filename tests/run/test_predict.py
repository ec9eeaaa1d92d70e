"""Batched prediction with the on-disk cache keyed by model identity + text."""

from __future__ import annotations

import multiprocessing as mp
from pathlib import Path

import pytest

from s2lct.models import CallableModel, load_model
from s2lct.run.predict import PredictionCache, PredictStats, cache_file, predict_texts


class Counting:
    """A callable model that records every batch it is asked to predict."""

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def __call__(self, texts):
        self.batches.append(list(texts))
        return [[0.1 + 0.01 * len(t), 0.9 - 0.01 * len(t)] for t in texts]


def test_predictions_are_batched_deduplicated_and_cached(tmp_path):
    fn = Counting()
    model = CallableModel("counting", fn, identity="py:counting@1", batch_size=2)
    texts = ["a", "bb", "a", "ccc", "dddd", "bb"]
    stats = PredictStats()
    first = predict_texts(model, texts, cache_dir=tmp_path, stats=stats)
    assert sorted(first) == ["a", "bb", "ccc", "dddd"]
    assert [len(b) for b in fn.batches] == [2, 2]  # 4 distinct texts in batches of 2
    assert (stats.texts, stats.computed, stats.cached) == (4, 4, 0)
    assert cache_file(tmp_path, model.identity, model.name).is_file()

    fn.batches.clear()
    stats = PredictStats()
    again = predict_texts(model, texts + ["new"], cache_dir=tmp_path, stats=stats)
    assert fn.batches == [["new"]]  # only the new text reaches the model
    assert (stats.computed, stats.cached) == (1, 4)
    for t in first:  # a cached prediction equals the computed one exactly
        assert again[t] == first[t] and again[t].probs == first[t].probs


def test_cache_is_keyed_by_identity(tmp_path):
    fn = Counting()
    predict_texts(CallableModel("m", fn, identity="py:m@1"), ["x"], cache_dir=tmp_path)
    predict_texts(CallableModel("m", fn, identity="py:m@2"), ["x"], cache_dir=tmp_path)
    assert fn.batches == [["x"], ["x"]]


def test_no_cache_neither_reads_nor_writes(tmp_path):
    fn = Counting()
    model = CallableModel("m", fn, identity="py:m@1")
    predict_texts(model, ["x"], cache_dir=tmp_path, use_cache=False)
    predict_texts(model, ["x"], cache_dir=tmp_path, use_cache=False)
    assert len(fn.batches) == 2
    assert not (tmp_path / "predictions").exists() or not any((tmp_path / "predictions").glob("*.sqlite"))


def test_corrupt_cache_file_is_recomputed(tmp_path):
    fn = Counting()
    model = CallableModel("m", fn, identity="py:m@1")
    path = cache_file(tmp_path, model.identity, model.name)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"this is not a database" * 100)
    preds = predict_texts(model, ["x", "y"], cache_dir=tmp_path)
    assert set(preds) == {"x", "y"} and len(fn.batches) == 1
    assert set(PredictionCache(tmp_path, model.identity, model.name).get_many(["x", "y"])) == {"x", "y"}


def test_unicode_and_special_texts_round_trip(tmp_path):
    model = load_model("vader")
    texts = ["café — naïve 😀", "it's \"quoted\"", "", "a\nb", "x" * 5000]
    first = predict_texts(model, texts, cache_dir=tmp_path)
    second = PredictionCache(tmp_path, model.identity, model.name).get_many(texts)
    assert second == first


def _worker(args):
    cache_dir, n = args
    fn = Counting()
    model = CallableModel("shared", fn, identity="py:shared@1")
    predict_texts(model, [f"text {i}" for i in range(n)], cache_dir=cache_dir)
    return sum(len(b) for b in fn.batches)


def test_concurrent_processes_predict_once(tmp_path):
    """Two processes (as xdist workers) asking for the same texts: the model runs for them once."""
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        counts = pool.map(_worker, [(str(tmp_path), 300), (str(tmp_path), 300)])
    assert sorted(counts) == [0, 300]


def test_default_cache_dir_comes_from_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "c"))
    model = CallableModel("m", Counting(), identity="py:m@1")
    predict_texts(model, ["x"])
    assert cache_file(Path(tmp_path / "c"), model.identity, model.name).is_file()


@pytest.mark.parametrize("batch_size", [1, 3, 64])
def test_hf_batching_keeps_input_order(tmp_path, batch_size):
    from _run_fixtures import minilm_model

    m = minilm_model()
    texts = ["This movie is good.", "Terrible.", "This movie is not good at all, I am sorry to say.", "Great!"]
    preds = predict_texts(m, texts, cache_dir=tmp_path, batch_size=batch_size)
    one_by_one = [m.predict([t])[0] for t in texts]
    for t, p in zip(texts, one_by_one):
        assert preds[t].label == p.label
        assert preds[t].probs["positive"] == pytest.approx(p.probs["positive"], abs=1e-5)
