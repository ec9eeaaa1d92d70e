"""Batched predictions with an on-disk cache keyed by model identity + text.

One SQLite file per model identity under ``<cache_dir>/predictions/``, one row per distinct text.
Floats are stored as doubles, so a cached prediction equals the computed one exactly. Concurrent
processes (pytest-xdist workers) share the cache: the process that finds texts missing takes an
exclusive lock on the model's lock file, re-reads the cache, predicts what is still missing and
stores it, so the work is done once and the others read the result.
"""

from __future__ import annotations

from typing import Any

import contextlib
import os
import re
import sqlite3
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from s2lct.atomic import short_hash
from s2lct.models.base import Prediction, SentimentModel

_CHUNK = 500


@dataclass
class PredictStats:
    """What a :func:`predict_texts` call did."""

    texts: int = 0
    cached: int = 0
    computed: int = 0
    truncated: int = 0


def cache_file(cache_dir: str | os.PathLike[str], identity: str, name: str = "model") -> Path:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", name)[:40] or "model"
    return Path(cache_dir) / "predictions" / f"{safe}-{short_hash(identity, length=20)}.sqlite"


@contextlib.contextmanager
def _file_lock(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    fh = open(path, "a+b")
    try:
        try:
            import fcntl
        except ImportError:  # pragma: no cover - non-POSIX: no cross-process lock, still correct
            yield
            return
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    finally:
        fh.close()


class PredictionCache:
    """Cached predictions of one model identity."""

    def __init__(self, cache_dir: str | os.PathLike[str], identity: str, name: str = "model") -> None:
        self.identity = identity
        self.path = cache_file(cache_dir, identity, name)
        self.lock_path = self.path.with_suffix(".lock")
        self.path.parent.mkdir(parents=True, exist_ok=True)

    def _connect(self) -> sqlite3.Connection:
        con = sqlite3.connect(self.path, timeout=120)
        con.execute(
            "CREATE TABLE IF NOT EXISTS predictions (text TEXT PRIMARY KEY, label TEXT NOT NULL, "
            "neg REAL NOT NULL, neu REAL NOT NULL, pos REAL NOT NULL, truncated INTEGER NOT NULL) WITHOUT ROWID"
        )
        con.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
        con.execute("INSERT OR IGNORE INTO meta VALUES ('identity', ?)", (self.identity,))
        con.commit()
        return con

    def get_many(self, texts: Iterable[str]) -> dict[str, Prediction]:
        wanted = list(dict.fromkeys(texts))
        found: dict[str, Prediction] = {}
        if not self.path.exists() or not wanted:
            return found
        try:
            con = self._connect()
        except sqlite3.DatabaseError:
            return found  # unreadable cache: recompute (put_many recreates it)
        try:
            for start in range(0, len(wanted), _CHUNK):
                chunk = wanted[start : start + _CHUNK]
                q = f"SELECT text, label, neg, neu, pos, truncated FROM predictions WHERE text IN ({','.join('?' * len(chunk))})"
                for text, label, neg, neu, pos, trunc in con.execute(q, chunk):
                    found[text] = Prediction(label, {"negative": neg, "neutral": neu, "positive": pos}, bool(trunc))
        except sqlite3.DatabaseError:
            return {}
        finally:
            con.close()
        return found

    def put_many(self, preds: dict[str, Prediction]) -> None:
        if not preds:
            return
        try:
            con = self._connect()
        except sqlite3.DatabaseError:
            self.path.unlink(missing_ok=True)
            con = self._connect()
        try:
            with con:
                con.executemany(
                    "INSERT OR REPLACE INTO predictions VALUES (?, ?, ?, ?, ?, ?)",
                    [
                        (t, p.label, p.probs["negative"], p.probs["neutral"], p.probs["positive"], int(p.truncated))
                        for t, p in preds.items()
                    ],
                )
        finally:
            con.close()


class PredictBatch:
    """An engine worker (``s2lct.scale.engine``): a model loaded once, then one chunk of texts per call."""

    def __init__(self, name: str, **load: Any) -> None:
        from s2lct.models import load_model

        self.model = load_model(name, **load)
        self.batch_size = load.get("batch_size")

    def __call__(self, texts: list[str]) -> list[Prediction]:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # truncation is counted in the report instead
            return self.model.predict(texts, batch_size=self.batch_size)


def predict_texts(
    model: SentimentModel,
    texts: Sequence[str],
    *,
    cache_dir: str | os.PathLike[str] | None = None,
    use_cache: bool = True,
    batch_size: int | None = None,
    stats: PredictStats | None = None,
    progress: Any = None,
    description: str = "predicting",
    chunk: int = 256,
    engine: Any = None,
    make_worker: Any = None,
    groups: Sequence[Any] | None = None,
) -> dict[str, Prediction]:
    """Predictions for the distinct ``texts``: cached ones read, the rest computed in batches and stored.

    With ``use_cache=False`` nothing is read or written. ``cache_dir`` defaults to
    ``Settings().cache_dir``. Texts to compute go through the model ``chunk`` at a time, each chunk
    stored as soon as it is done (an interrupted run keeps them) and reported to ``progress`` (a
    ``ProgressFactory``: one bar titled ``description``). With an ``engine`` (``s2lct.scale``) and
    ``make_worker`` (a ``PredictBatch`` that loads the same model), the same chunks are predicted
    by the engine's workers; the cache is still written by this process alone. ``groups`` (one
    per text, e.g. its capability): no chunk mixes texts of two groups, so predicting several
    capabilities in one call batches them exactly as one call per capability would; each group
    then has its own bar, titled ``description`` and the group.
    """
    from s2lct.progress import no_progress

    def compute(todo: list[str], store: Any = None) -> dict[str, Prediction]:
        out: dict[str, Prediction] = {}
        parts: list[list[str]] = []
        for t in todo:
            if not parts or len(parts[-1]) >= chunk or group_of.get(t) != group_of.get(parts[-1][0]):
                parts.append([])
            parts[-1].append(t)
        left = Counter(group_of.get(t) for t in todo)  # one bar per group, shown from its first chunk to its last
        tasks: dict[Any, Any] = {}
        if engine is not None and make_worker is not None:
            results = engine.imap_batches("predict", make_worker, parts)
        else:
            results = ((i, model.predict(part, batch_size=batch_size)) for i, part in enumerate(parts))
        for i, predicted in results:
            new = dict(zip(parts[i], predicted, strict=True))
            if store is not None:
                store(new)
            out.update(new)
            group = group_of.get(parts[i][0])
            if group not in tasks:
                title = description if groups is None else f"{description} {group}"
                tasks[group] = (progress or no_progress)(title, left[group])
            tasks[group].advance(len(parts[i]))
            left[group] -= len(parts[i])
            if not left[group]:
                tasks[group].close()
        return out

    stats = stats if stats is not None else PredictStats()
    group_of: dict[str, Any] = {}
    if groups is not None:
        for t, g in zip(texts, groups, strict=True):
            group_of.setdefault(t, g)
    distinct = list(dict.fromkeys(texts))
    stats.texts = len(distinct)
    if not use_cache:
        preds = compute(distinct)
        stats.computed = len(distinct)
        stats.truncated = sum(p.truncated for p in preds.values())
        return preds
    if cache_dir is None:
        from s2lct.config import Settings

        cache_dir = Settings().cache_dir
    cache = PredictionCache(cache_dir, model.identity, model.name)
    found = cache.get_many(distinct)
    missing = [t for t in distinct if t not in found]
    if missing:
        with _file_lock(cache.lock_path):
            found.update(cache.get_many(missing))  # another process may have filled them meanwhile
            missing = [t for t in distinct if t not in found]
            if missing:
                found.update(compute(missing, cache.put_many))
    stats.computed = len(missing)
    stats.cached = len(distinct) - len(missing)
    stats.truncated = sum(p.truncated for p in found.values())
    return found
