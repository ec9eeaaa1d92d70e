"""The Ray engine on a local Ray cluster (``ray.init(num_cpus=2)``): the same suite as the local
engine byte for byte, a worker killed mid-run retried without losing or duplicating anything, and
a restarted driver resuming from the expansion store."""

from __future__ import annotations

import csv
import json
import shutil
import sqlite3
import sys

import pytest

from s2lct.config import get_settings
from s2lct.pipeline import generate
from s2lct.scale.cluster import RayOptions, connect
from s2lct.scale.engine import LocalEngine
from s2lct.scale.ray_engine import RayEngine


@pytest.fixture(scope="module")
def ray_cluster(selector_weights):
    """One local cluster for the module, started after the selector exists (its path is among
    the settings the workers receive)."""
    ray = connect(RayOptions(num_workers=2))
    from ray import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])  # workers cannot import a test module
    yield ray
    ray.shutdown()


class _Double:
    def __call__(self, batch):
        return [2 * x for x in batch]


def test_a_killed_worker_is_retried_and_the_results_are_unchanged(ray_cluster, tmp_path):
    marker = tmp_path / "killed"
    engine = RayEngine(RayOptions(num_workers=2, fault_after=3, fault_marker=str(marker), fault_stage="double"))
    batches = [[i, i + 1] for i in range(0, 16, 2)]
    assert engine.map_batches("double", _Double, batches) == [[2 * x for x in b] for b in batches]
    assert marker.exists()  # the hook did kill the worker that took batch 3


@pytest.fixture(scope="module")
def small_corpus(tmp_path_factory, shared_dir, repo_dir):
    """SST-2 dev as three shards (JSONL, CSV, Parquet) and three specs without phrase rules
    (user corpora have no phrase labels): enough distinct seeds for two expansion chunks."""
    root = tmp_path_factory.mktemp("scale")
    rows = [line.rstrip("\n").rsplit("\t", 1) for line in (shared_dir / "data" / "sst2_glue" / "dev.tsv").read_text(encoding="utf-8").splitlines()[1:]]
    corpus = root / "corpus"
    corpus.mkdir()
    (corpus / "a.jsonl").write_text("".join(json.dumps({"sentence": t.strip(), "label": int(label)}) + "\n" for t, label in rows[:300]), encoding="utf-8")
    with open(corpus / "b.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["sentence", "label"])
        w.writerows([t.strip(), label] for t, label in rows[300:600])
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"sentence": [t.strip() for t, _ in rows[600:]], "label": [int(label) for _, label in rows[600:]]}), corpus / "c.parquet")
    specs = root / "specs"
    specs.mkdir()
    shutil.copy(repo_dir / "specs" / "LC12.yaml", specs / "LC12.yaml")
    shutil.copy(repo_dir / "specs" / "seed_review.jsonl", specs / "seed_review.jsonl")  # its sampling.seed_review
    for cap in ("LC2", "LC9"):
        text = (repo_dir / "specs" / "paper" / f"{cap}.yaml").read_text(encoding="utf-8")
        (specs / f"P{cap}.yaml").write_text(text.replace(f"id: {cap}\n", f"id: P{cap}\n"), encoding="utf-8")
    return corpus, specs


def _generate(tmp, corpus, specs, engine, monkeypatch):
    cache = tmp / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(cache))  # an empty expansion store per run
    monkeypatch.setenv("S2LCT_CORPUS", str(corpus))
    report = generate(specs, tmp / "suite", get_settings(), seed=0, max_cases=40, engine=engine)
    return {p.name: p.read_bytes() for p in sorted((tmp / "suite").iterdir())}, report, cache


def test_ray_writes_the_local_suite_byte_for_byte_through_a_worker_fault(ray_cluster, small_corpus, tmp_path, monkeypatch):
    corpus, specs = small_corpus
    local, local_report, _ = _generate(tmp_path / "local", corpus, specs, LocalEngine(), monkeypatch)
    marker = tmp_path / "killed"
    engine = RayEngine(RayOptions(num_workers=2, fault_after=1, fault_marker=str(marker)))
    distributed, report, cache = _generate(tmp_path / "ray", corpus, specs, engine, monkeypatch)
    assert marker.exists()  # expansion chunk 1's worker died once and Ray ran the chunk again
    assert sum(report.manifest["capabilities"][c]["expansion_cases"] for c in report.manifest["capabilities"]) > 0
    assert set(distributed) == set(local) and "manifest.json" in local
    for name in local:
        assert distributed[name] == local[name], name
    seeds = json.loads(local["manifest.json"])["capabilities"]
    assert sum(v["seeds"] for v in seeds.values()) > 64  # at least two chunks went to the workers

    # a driver that died after committing only some chunks: the same command redoes just the rest
    db = sqlite3.connect(cache / "expansions.sqlite3")
    stored = db.execute("SELECT COUNT(*) FROM seeds").fetchone()[0]
    lost = db.execute("SELECT seed FROM seeds ORDER BY seed LIMIT 64").fetchall()
    with db:
        db.executemany("DELETE FROM seeds WHERE seed=?", lost)
    db.close()
    resumed, again, _ = _generate(tmp_path / "ray", corpus, specs, RayEngine(RayOptions(num_workers=2)), monkeypatch)
    assert again.expansion_stats["computed"] == len(lost) < again.expansion_stats["seeds"] == local_report.expansion_stats["computed"]
    assert resumed == local
    db = sqlite3.connect(cache / "expansions.sqlite3")
    assert db.execute("SELECT COUNT(*) FROM seeds").fetchone()[0] == stored
    db.close()


def test_run_on_ray_reports_what_the_local_run_reports(ray_cluster, repo_dir):
    """``s2lct run --engine ray``: the model is loaded by the actors, the chunks are the local
    run's, and the report is the same (no prediction cache on either side)."""
    from s2lct.run.runner import run_suite

    kwargs = {"suite": repo_dir / "generated", "only": ["LC1", "LC4", "LC12"], "use_cache": False}
    local = run_suite(["vader"], **kwargs)
    distributed = run_suite(["vader"], engine=RayEngine(RayOptions(num_workers=2)), **kwargs)
    assert [r.to_json() for r in distributed] == [r.to_json() for r in local]
    assert local[0].total.cases > 400 and local[0].total.failures > 0


class _Refuses:
    def __call__(self, batch):
        from s2lct.errors import MissingResourceError

        raise MissingResourceError("fluency selector model /nowhere/selector.json", "build it with `python benchmarks/train_selector.py`")


def test_a_worker_error_reaches_the_user_as_its_own_one_line_message(ray_cluster):
    from s2lct.errors import S2LCTError

    with pytest.raises(S2LCTError) as info:
        RayEngine(RayOptions(num_workers=1)).map_batches("refuse", _Refuses, [[1]])
    assert "missing fluency selector model /nowhere/selector.json" in str(info.value)
    assert "\n" not in str(info.value)
