"""A small on-disk JSON cache for one-off work (tagging the corpus, detokenising it).

Entries are keyed by a hash of everything that determines them: input file hashes, the engine
version, the settings, the versions of the libraries that compute them and a fingerprint of the
package's own source files that shape the value (``code_fingerprint``), so an entry written by older
code is never read by newer code. Entries are written atomically; a corrupt one is recomputed.
"""

from __future__ import annotations

import functools
import importlib.metadata
import importlib.util
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from s2lct.atomic import sha256_file, short_hash, write_text
from s2lct.constants import GENERATION_VERSION

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


@functools.cache
def code_fingerprint(*modules: str) -> str:
    """Hash of the engine version and the source of the named modules (e.g. ``"s2lct.text"``).

    A cache entry keyed by this is recomputed whenever any code that shapes it changes, not only
    when someone remembers to bump a version string.
    """
    parts = [f"generation={GENERATION_VERSION}"]
    for name in sorted(modules):
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise ValueError(f"code_fingerprint: no source file for module {name!r}")
        parts.append(f"{name}={sha256_file(spec.origin)}")
    return short_hash(*parts, length=20)


@functools.cache
def library_version(distribution: str) -> str:
    """Installed version of a library whose behaviour shapes a cached value ("?" if unknown)."""
    try:
        return f"{distribution}=={importlib.metadata.version(distribution)}"
    except importlib.metadata.PackageNotFoundError:
        return f"{distribution}==?"
