"""Engines without a cluster: the local engine, the engine options' errors, sharded corpora, and the
prediction chunks that make a run's batches the same under every engine."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.corpus.shards import ReadShard, find_shards, rows_to_sentences
from s2lct.errors import S2LCTError
from s2lct.models.base import Prediction
from s2lct.run.predict import predict_texts
from s2lct.scale.cluster import RayOptions, import_ray
from s2lct.scale.engine import LocalEngine, get_engine


class _Double:
    def __call__(self, batch):
        return [2 * x for x in batch]


def test_local_engine_maps_batches_in_order_and_reports_progress():
    seen = []

    class Task:
        def advance(self, n=1):
            seen.append(n)

    out = LocalEngine().map_batches("double", _Double, [[1, 2], [3], [4, 5, 6]], Task())
    assert out == [[2, 4], [6], [8, 10, 12]]
    assert seen == [2, 1, 3]


def test_unknown_engine_names_the_valid_ones():
    with pytest.raises(S2LCTError, match=r"--engine: unknown engine 'dask'; valid: local, ray"):
        get_engine("dask")


def test_ray_options_on_the_local_engine_are_an_error():
    with pytest.raises(S2LCTError, match=r"--address, --num-workers: only apply with --engine ray"):
        get_engine("local", address="auto", num_workers=2)


@pytest.mark.parametrize("field, value, needle", [
    ("num_workers", 0, "--num-workers: 0"), ("threads_per_worker", 0, "--threads-per-worker: 0"), ("address", "nowhere", "--address: 'nowhere'"),
])
def test_bad_ray_options_name_the_flag(field, value, needle):
    with pytest.raises(S2LCTError, match=needle):
        RayOptions(**{field: value})


def test_engine_ray_without_ray_names_the_extra():
    """A process where ``import ray`` fails (as without the extra): one line naming it, exit 2."""
    code = (
        "import sys; sys.modules['ray'] = None\n"
        "from s2lct.cli import main\n"
        "main(['generate', '--engine', 'ray', '--out', sys.argv[1], '--no-expand'])\n"
    )
    res = subprocess.run([sys.executable, "-c", code, "/nonexistent/out"], capture_output=True, text=True)
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "pip install 's2lct[ray]'" in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_import_ray_error_is_one_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(S2LCTError) as info:
        import_ray()
    assert "s2lct[ray]" in str(info.value) and "\n" not in str(info.value)


# --- sharded corpora -------------------------------------------------------------------------

ROWS = [("A fine, quiet film .", "1"), ("The plot is thin .", "0"), ("It never ends .", "0"), ("Warm and funny .", "1"), ("Dull .", "0")]


def _write_shards(folder):
    folder.mkdir()
    with open(folder / "b.csv", "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["sentence", "label"])
        w.writerows(ROWS[2:4])
    (folder / "a.jsonl").write_text("".join(json.dumps({"sentence": t, "label": int(label)}) + "\n" for t, label in ROWS[:2]), encoding="utf-8")
    import pyarrow as pa
    import pyarrow.parquet as pq

    sub = folder / "more"
    sub.mkdir()
    pq.write_table(pa.table({"sentence": [ROWS[4][0]], "label": [int(ROWS[4][1])]}), sub / "c.parquet")
    (folder / "notes.txt").write_text("not a table\n")


def _read(root, shards):
    reader = ReadShard(str(root))
    return rows_to_sentences([row for p in shards for row in reader(str(p))])


def test_a_folder_of_shards_reads_every_table_in_path_order(tmp_path):
    _write_shards(tmp_path / "corpus")
    root, shards = find_shards(tmp_path / "corpus")
    assert [p.name for p in shards] == ["a.jsonl", "b.csv", "c.parquet"]
    sentences = _read(root, shards)
    assert sentences[0].text == "A fine, quiet film." and sentences[4].text == "Dull."
    assert [s.label for s in sentences] == ["positive", "negative", "negative", "positive", "negative"]
    assert [s.source for s in sentences] == ["a.jsonl", "a.jsonl", "b.csv", "b.csv", "more/c.parquet"]
    assert [s.tokens[0] for s in sentences] == [r[0].split()[0] for r in ROWS]


def test_a_glob_and_a_file_read_the_same_rows_as_the_folder(tmp_path):
    _write_shards(tmp_path / "corpus")
    root, shards = find_shards(str(tmp_path / "corpus" / "**" / "*.parquet"))
    assert [p.name for p in shards] == ["c.parquet"]
    file_root, one = find_shards(tmp_path / "corpus" / "b.csv")
    assert [s.text for s in _read(file_root, one)] == [s.text for s in _read(*find_shards(tmp_path / "corpus"))][2:4]


@pytest.mark.parametrize("make, needle", [
    (lambda p: p / "missing", "missing corpus"),
    (lambda p: (p / "empty").mkdir() or p / "empty", "holds no .csv"),
    (lambda p: (p / "x.txt").write_text("hi") and p / "x.txt", "is not a table"),
])
def test_a_corpus_that_is_not_tables_is_a_one_line_error(tmp_path, make, needle):
    with pytest.raises(S2LCTError, match=needle):
        find_shards(make(tmp_path))


def test_a_shard_without_the_columns_names_the_file_and_columns(tmp_path):
    (tmp_path / "t.jsonl").write_text(json.dumps({"text": "Good .", "label": 1}) + "\n")
    with pytest.raises(S2LCTError, match=r"t.jsonl:1: needs columns 'sentence' and 'label'; found \['label', 'text'\]"):
        ReadShard(str(tmp_path))(str(tmp_path / "t.jsonl"))


# --- prediction chunks -----------------------------------------------------------------------


class _Recorder:
    name = "recorder"
    identity = "recorder:v1"

    def __init__(self):
        self.batches = []

    def predict(self, texts, batch_size=None):
        self.batches.append(list(texts))
        return [Prediction("neutral", {"negative": 0.2, "neutral": 0.6, "positive": 0.2}) for _ in texts]


@settings(max_examples=60, deadline=None)
@given(groups=st.lists(st.lists(st.integers(0, 30), max_size=12), min_size=1, max_size=5), chunk=st.integers(1, 5))
def test_one_call_with_groups_batches_as_one_call_per_group(groups, chunk):
    """``run`` predicts every capability in one call (so an engine loads the model once); its
    chunks must be those of one call per capability, texts already predicted left out."""
    grouped = _Recorder()
    texts = [f"t{x}" for g in groups for x in g]
    labels = [i for i, g in enumerate(groups) for _ in g]
    predict_texts(grouped, texts, use_cache=False, chunk=chunk, groups=labels)
    separate = _Recorder()
    done: set[str] = set()
    for g in groups:
        own = [t for t in (f"t{x}" for x in g) if t not in done]
        if own:
            predict_texts(separate, own, use_cache=False, chunk=chunk)
        done.update(own)
    assert grouped.batches == separate.batches


def test_the_corpus_columns_are_part_of_every_cache_key(tmp_path, monkeypatch):
    """Reading the same shards with another text column gives other sentences, and so other tags
    and shapes: none may come from the first reading's cache."""
    from s2lct.config import get_settings
    from s2lct.corpus.annotate import load_annotated_corpus

    rows = [{"short": "Good .", "long": "The acting is very good here .", "label": 1},
            {"short": "Bad .", "long": "It was a long and tedious evening .", "label": 0}]
    (tmp_path / "c.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.setenv("S2LCT_CACHE_DIR", str(tmp_path / "cache"))
    seen = []
    for column in ("short", "long"):
        corpus, provenance = load_annotated_corpus(get_settings(corpus=str(tmp_path / "c.jsonl"), corpus_text_column=column))
        assert [a.text for a in corpus] == [" ".join(r[column].split()[:-1]) + "." for r in rows]
        assert all(len(a.tags) == len(a.tokens) for a in corpus)
        assert all(a.syntax is not None and a.syntax.finite is not None for a in corpus)
        assert provenance["data"] == {"c.jsonl": provenance["data"]["c.jsonl"]}
        seen.append([a.tags for a in corpus])
    assert seen[0] != seen[1]
