"""A user's labelled corpus as seed sentences: one table or many shards (CSV, TSV, JSONL, Parquet).

``--corpus`` takes a file, a folder (every table in it, recursively) or a glob. Shards are read in
sorted path order and rows in file order, one shard per engine batch, so the corpus, and the
suite built from it, is the same whichever engine or how many workers read it. A sentence's
``source`` is its shard's path relative to the corpus root, ``split`` is ``corpus`` and ``index``
its row, so a case traces back to one row of one file.

User corpora have no phrase labels: spec rules that need them (``phrases``) say so and name the
rule (``s2lct.generate.search``).
"""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file
from s2lct.corpus.sst import Sentence, load_table
from s2lct.errors import MissingResourceError, S2LCTError

TABLE_SUFFIXES = (".csv", ".tsv", ".jsonl", ".parquet")
CORPUS_SPLIT = "corpus"


def find_shards(corpus: str | Path) -> tuple[Path, list[Path]]:
    """(root, shards) for a file, a folder or a glob; a one-line error when nothing is there."""
    text = str(corpus)
    path = Path(text).expanduser()
    is_glob = any(ch in text for ch in "*?[")
    if is_glob:
        shards = sorted(Path(p) for p in glob.glob(text, recursive=True) if Path(p).suffix in TABLE_SUFFIXES and Path(p).is_file())
    elif path.is_dir():
        shards = sorted(p for p in path.rglob("*") if p.suffix in TABLE_SUFFIXES and p.is_file())
    elif path.is_file():
        if path.suffix not in TABLE_SUFFIXES:
            raise S2LCTError(f"--corpus: {path} is not a table; use {', '.join(TABLE_SUFFIXES)} files, a folder of them or a glob")
        return path.parent, [path]
    else:
        raise MissingResourceError(f"corpus {text}", f"give an existing file, folder or glob of {', '.join(TABLE_SUFFIXES)} tables")
    if not shards:
        raise S2LCTError(f"--corpus: {text} holds no {', '.join(TABLE_SUFFIXES)} table")
    return (Path(os.path.commonpath([str(p.parent) for p in shards])) if is_glob else path), shards


def shard_hashes(root: Path, shards: list[Path]) -> dict[str, str]:
    """The corpus's part of the manifest's ``data``: each shard's SHA-256 by its relative path."""
    return {_relative(p, root): sha256_file(p) for p in shards}


def _relative(path: Path, root: Path) -> str:
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


class ReadShard:
    """An engine worker (``s2lct.scale.engine``): one shard → its sentences as JSON-able rows."""

    def __init__(self, root: str, text_column: str = "sentence", label_column: str = "label") -> None:
        self.root = Path(root)
        self.text_column = text_column
        self.label_column = label_column

    def __call__(self, shard: str) -> list[list[Any]]:
        path = Path(shard)
        source = _relative(path, self.root)
        if path.suffix == ".parquet":
            sentences = _parquet_sentences(path, self.text_column, self.label_column)
        else:
            sentences = load_table(path, self.text_column, self.label_column, split=CORPUS_SPLIT)
        return [[list(s.tokens), s.text, s.label, s.index, source] for s in sentences]


def _parquet_sentences(path: Path, text_column: str, label_column: str) -> list[Sentence]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise S2LCTError(f"{path}: reading Parquet needs pyarrow; install it with pip install 's2lct[ray]' (or pyarrow)") from None
    from s2lct.corpus.sst import normalise_label
    from s2lct.text import detokenize, tokenize

    table = pq.read_table(path)
    if text_column not in table.column_names or label_column not in table.column_names:
        raise S2LCTError(f"{path}: needs columns {text_column!r} and {label_column!r}; found {sorted(table.column_names)}")
    out = []
    for row, (text, label) in enumerate(zip(table.column(text_column).to_pylist(), table.column(label_column).to_pylist()), 1):
        tokens = tokenize(str(text or "").strip())
        if tokens:
            out.append(Sentence(tokens, detokenize(tokens), normalise_label(label, f"{path}:row {row}"), CORPUS_SPLIT, row - 1, path.name))
    return out


def rows_to_sentences(rows: list[list[Any]]) -> list[Sentence]:
    return [Sentence(tuple(tokens), text, label, CORPUS_SPLIT, index, source) for tokens, text, label, index, source in rows]
