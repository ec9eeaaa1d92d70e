"""The expansion store: per-seed results in sqlite, durable per committed chunk (see ``expander``).

Keyed by the seed tokens and the hash of the whole expansion configuration, so results cached
under other settings never leak; one transaction per chunk, ``synchronous=FULL``, so a killed run
restarted skips finished seeds and ends with the same store as an uninterrupted run.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from s2lct.atomic import dumps_json
from s2lct.expand.candidates import ExpansionCandidate, SeedResult, _rank_key

Tokens = tuple[str, ...]


class ExpansionStore:
    """sqlite store of per-seed results, durable per committed chunk."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, timeout=120)  # another process committing: wait, do not fail
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        with self._db:
            self._db.execute("CREATE TABLE IF NOT EXISTS configs (config TEXT PRIMARY KEY, description TEXT)")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS seeds (config TEXT, seed TEXT, status TEXT, error TEXT, masked INTEGER,"
                " fills INTEGER, candidates TEXT, PRIMARY KEY (config, seed))"
            )

    @staticmethod
    def _key(seed: Tokens) -> str:
        return json.dumps(list(seed), ensure_ascii=False)

    def register(self, config: str, description: Mapping[str, Any]) -> None:
        with self._db:
            self._db.execute("INSERT OR IGNORE INTO configs VALUES (?, ?)", (config, dumps_json(description)))

    def finished(self, config: str) -> set[Tokens]:
        rows = self._db.execute("SELECT seed FROM seeds WHERE config=?", (config,))
        return {tuple(json.loads(r[0])) for r in rows}

    def get_many(self, config: str, seeds: Iterable[Tokens]) -> dict[Tokens, SeedResult]:
        """Stored ``SeedResult``s of these seeds (those not stored are left out)."""
        out: dict[Tokens, SeedResult] = {}
        cur = self._db.cursor()
        for s in seeds:
            row = cur.execute(
                "SELECT status, error, masked, fills, candidates FROM seeds WHERE config=? AND seed=?", (config, self._key(s))
            ).fetchone()
            if row is not None:
                cands = [ExpansionCandidate.from_json(d) for d in json.loads(row[4])]
                ok = tuple(c for c in cands if c.accepted)
                out[s] = SeedResult(row[0], ok, row[1], row[2], row[3], tuple(c for c in cands if not c.accepted))
        return out

    def put_many(self, config: str, results: Mapping[Tokens, SeedResult]) -> None:
        """All results of one chunk in one transaction: a chunk is either stored or not."""

        rows = [
            (config, self._key(s), r.status, r.error, r.masked, r.fills,
             dumps_json([c.to_json() for c in sorted((*r.candidates, *r.rejected), key=_rank_key)]))
            for s, r in results.items()
        ]
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO seeds VALUES (?, ?, ?, ?, ?, ?, ?)", rows)

    def dump(self, config: str) -> list[tuple[str, str, str | None, int, int, str]]:
        """Every stored row of a configuration, sorted (for comparing runs)."""
        return list(
            self._db.execute(
                "SELECT seed, status, error, masked, fills, candidates FROM seeds WHERE config=? ORDER BY seed", (config,)
            )
        )

    def close(self) -> None:
        self._db.close()
