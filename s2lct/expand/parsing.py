"""Constituency parsing of pre-tokenised seeds, with a disk cache.

Parsers are pluggable through a ``catalogue`` registry (like spaCy's registries): the registered
name is the implementation, the model is configuration (``Settings.parser``: a benepar model name
such as ``benepar_en3`` or a local model directory). ``benepar`` is the only implementation.

Trees are ``nltk.Tree`` with PTB labels and *no* ``TOP`` root: benepar wraps every parse in
``TOP`` and the reference grammar (NLTK treebank) has no such node, so ``TOP`` is stripped when it
has a single child (a multi-child ``TOP`` is kept; its productions simply match nothing).
Leaves are the given tokens unchanged (PTB-escaped, as SST stores them: ``-LRB-``, `````` ``).

Parsing is the slowest step and seeds recur across capabilities and runs, so parses are cached in
sqlite (``<cache_dir>/parses.sqlite3``) keyed by (parser identity, tokens). A sentence the parser
cannot handle (too long, empty, an exception) is recorded as a failure in the cache and skipped.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

import catalogue
from nltk import Tree

from s2lct.atomic import sha256_file
from s2lct.errors import MissingResourceError
from s2lct.quiet_libraries import quiet_benepar

parsers = catalogue.create("s2lct", "parsers", entry_points=True)

Tokens = tuple[str, ...]


def install_benepar_shim() -> None:
    """benepar 0.2.0 calls ``tokenizer.build_inputs_with_special_tokens``, which transformers 5
    removed from ``BertTokenizer``; restore BERT's ``[CLS] a [SEP] (b [SEP])``. Idempotent; this
    is the only place the shim lives."""
    from transformers.models.bert.tokenization_bert import BertTokenizer

    if not hasattr(BertTokenizer, "build_inputs_with_special_tokens"):
        BertTokenizer.build_inputs_with_special_tokens = lambda self, a, b=None: (  # type: ignore[attr-defined]
            [self.cls_token_id] + list(a) + [self.sep_token_id] + ([] if b is None else list(b) + [self.sep_token_id])
        )


class ConstituencyParser(Protocol):
    """What the expansion engine needs from a parser implementation."""

    identity: str

    def parse_batch(self, sentences: Sequence[Tokens]) -> list[Tree]:
        """Parse a batch; may raise (the caller then retries sentence by sentence)."""
        ...


def strip_top(tree: Tree) -> Tree:
    if tree.label() in ("TOP", "ROOT", "") and len(tree) == 1 and isinstance(tree[0], Tree):
        return tree[0]
    return tree


class BeneparParser:
    """benepar 0.2.0 through its NLTK API (``benepar.Parser.parse_sents``)."""

    def __init__(self, model: str, batch_size: int = 64) -> None:
        install_benepar_shim()
        quiet_benepar()
        import benepar

        path = Path(model).expanduser()
        if path.is_dir():
            model = str(path.resolve())  # transformers treats a missing relative path as a hub id
            weights = path / "benepar_model.bin"
            digest = sha256_file(weights)[:16] if weights.is_file() else "dir"
            self.identity = f"benepar:{path.name}:{digest}"
        else:
            self.identity = f"benepar:{model}"
        try:
            self._parser = benepar.Parser(model, batch_size=batch_size)
        except (LookupError, OSError, ValueError) as exc:
            raise MissingResourceError(
                f"benepar model {model!r}",
                "set --parser, S2LCT_PARSER or parser = ... in s2lct.toml / [tool.s2lct] to a model directory, or download it with "
                f"`python -m benepar.download {model}` ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})",
            ) from None
        self.batch_size = batch_size

    def parse_batch(self, sentences: Sequence[Tokens]) -> list[Tree]:
        import benepar

        inputs = [benepar.InputSentence(escaped_words=list(s)) for s in sentences]
        return [strip_top(t) for t in self._parser.parse_sents(inputs)]


@parsers.register("benepar")
def make_benepar(model: str, batch_size: int = 64) -> ConstituencyParser:
    return BeneparParser(model, batch_size=batch_size)


@dataclass
class ParseCache:
    """sqlite cache of parses: (parser identity, tokens) → tree string or failure message."""

    path: Path
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=120)  # Ray workers share it
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS parses (parser TEXT, tokens TEXT, tree TEXT, error TEXT, PRIMARY KEY (parser, tokens))"
        )
        self._db.commit()

    @staticmethod
    def key(tokens: Tokens) -> str:
        return json.dumps(list(tokens), ensure_ascii=False)

    def get_many(self, parser: str, sentences: Iterable[Tokens]) -> dict[Tokens, tuple[str | None, str | None]]:
        out: dict[Tokens, tuple[str | None, str | None]] = {}
        with self._lock:
            cur = self._db.cursor()
            for s in sentences:
                row = cur.execute("SELECT tree, error FROM parses WHERE parser=? AND tokens=?", (parser, self.key(s))).fetchone()
                if row is not None:
                    out[s] = (row[0], row[1])
        return out

    def put_many(self, parser: str, rows: Iterable[tuple[Tokens, str | None, str | None]]) -> None:
        with self._lock, self._db:
            self._db.executemany(
                "INSERT OR REPLACE INTO parses VALUES (?, ?, ?, ?)", [(parser, self.key(s), t, e) for s, t, e in rows]
            )

    def close(self) -> None:
        self._db.close()


def tree_to_json(tree: Tree | str) -> list | str:
    """Nested ``[label, child, ...]`` lists: unlike the bracketed string, survives leaves like ``(``."""
    if isinstance(tree, str):
        return tree
    return [tree.label(), *(tree_to_json(c) for c in tree)]


def tree_from_json(obj: list | str) -> Tree | str:
    if isinstance(obj, str):
        return obj
    return Tree(obj[0], [tree_from_json(c) for c in obj[1:]])


def tree_to_str(tree: Tree) -> str:
    return json.dumps(tree_to_json(tree), ensure_ascii=False, separators=(",", ":"))


def tree_from_str(text: str) -> Tree:
    tree = tree_from_json(json.loads(text))
    assert isinstance(tree, Tree)
    return tree


class Parser:
    """A registered parser implementation behind the parse cache.

    ``parse(sentences)`` returns one ``Tree`` or ``None`` (failed) per sentence, in order;
    ``failures`` maps each failed sentence to its error message.
    """

    def __init__(
        self,
        model: str | None = None,
        *,
        implementation: str = "benepar",
        cache_dir: str | Path | None = None,
        backend: ConstituencyParser | None = None,
        batch_size: int = 64,
        max_tokens: int = 300,
    ) -> None:
        from s2lct.config import get_settings

        settings = get_settings()
        self._model = model or settings.parser
        self._implementation = implementation
        self._backend = backend
        self.batch_size = batch_size
        self.max_tokens = max_tokens
        self.cache = ParseCache(Path(cache_dir or settings.cache_dir) / "parses.sqlite3")
        self.failures: dict[Tokens, str] = {}
        self.stats = {"parsed": 0, "cache_hits": 0, "failed": 0}

    @property
    def backend(self) -> ConstituencyParser:
        if self._backend is None:
            try:
                factory = parsers.get(self._implementation)
            except catalogue.RegistryError:
                raise MissingResourceError(
                    f"parser implementation {self._implementation!r}", f"registered: {', '.join(sorted(parsers.get_all()))}"
                ) from None
            self._backend = factory(self._model, batch_size=self.batch_size)
        return self._backend

    @property
    def identity(self) -> str:
        return self.backend.identity

    def parse(self, sentences: Sequence[Sequence[str]]) -> list[Tree | None]:
        sents = [tuple(s) for s in sentences]
        ident = self.identity
        unique = list(dict.fromkeys(sents))
        cached = self.cache.get_many(ident, unique)
        self.stats["cache_hits"] += len(cached)
        todo = [s for s in unique if s not in cached]
        # Sort by length: benepar pads each batch to its longest sentence.
        todo.sort(key=len)
        for i in range(0, len(todo), self.batch_size):
            batch = todo[i : i + self.batch_size]
            rows = self._parse_rows(batch)
            self.cache.put_many(ident, rows)
            for s, t, e in rows:
                cached[s] = (t, e)
            self.stats["parsed"] += len(batch)
        out: list[Tree | None] = []
        for s in sents:
            tree, err = cached[s]
            if tree is None:
                self.failures[s] = err or "parse failed"
                out.append(None)
            else:
                out.append(tree_from_str(tree))
        self.stats["failed"] = len(self.failures)
        return out

    def _parse_rows(self, batch: list[Tokens]) -> list[tuple[Tokens, str | None, str | None]]:
        ok = [s for s in batch if 0 < len(s) <= self.max_tokens]
        rows: list[tuple[Tokens, str | None, str | None]] = [
            (s, None, "empty sentence" if not s else f"longer than {self.max_tokens} tokens") for s in batch if s not in ok
        ]
        if not ok:
            return rows
        try:
            trees = self.backend.parse_batch(ok)
            if len(trees) != len(ok):
                raise RuntimeError(f"parser returned {len(trees)} trees for {len(ok)} sentences")
            rows += [(s, tree_to_str(t), None) for s, t in zip(ok, trees)]
        except Exception:  # one bad sentence must not sink the batch: retry one by one
            for s in ok:
                try:
                    (t,) = self.backend.parse_batch([s])
                    rows.append((s, tree_to_str(t), None))
                except Exception as exc:  # noqa: BLE001 - recorded, never fatal
                    rows.append((s, None, f"{type(exc).__name__}: {str(exc)[:200]}"))
        return rows

