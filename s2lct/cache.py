"""A small on-disk JSON cache for one-off work (tagging the corpus, detokenising it).

Entries are keyed by a hash of everything that determines them (input file hashes, tool
identity), written atomically, and a corrupt entry is recomputed rather than trusted.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from s2lct.atomic import short_hash, write_text

T = TypeVar("T")


def cached_json(cache_dir: Path, namespace: str, key_parts: list[str], compute: Callable[[], T]) -> tuple[T, bool]:
    """Return ``(value, was_cached)``; ``value`` must be JSON-serialisable."""
    path = Path(cache_dir) / namespace / f"{short_hash(*key_parts, length=20)}.json"
    if path.is_file():
        try:
            with open(path, encoding="utf-8") as fh:
                return json.load(fh), True
        except (OSError, json.JSONDecodeError):
            pass
    value = compute()
    write_text(path, json.dumps(value, ensure_ascii=False))
    return value, False


def cache_path(cache_dir: Path, namespace: str, *key_parts: str, suffix: str = ".json") -> Path:
    return Path(cache_dir) / namespace / f"{short_hash(*key_parts, length=20)}{suffix}"


def load_json_or(path: Path, default: Any) -> Any:
    try:
        with open(path, encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, json.JSONDecodeError):
        return default
