"""Reference grammar: production counts of the NLTK Penn Treebank sample (METHOD §1.3 step 2).

Trees are cleaned the way benepar's training data was (``-NONE-`` elements and constituents left
empty removed, function tags and indices stripped: ``NP-SBJ-1`` → ``NP``), so seed parses and
reference productions share one label set. Only non-lexical productions (``L → symbols``) are kept.
Counting 3,914 trees takes a few seconds, so the grammar is cached as JSON under
``<cache_dir>/grammar-<hash of the treebank file>.json``.
"""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from nltk import Tree

from s2lct.atomic import sha256_file, short_hash, write_json
from s2lct.errors import MissingResourceError

GRAMMAR_VERSION = "1"

#: Word-level PTB PoS tags a mask may carry: the 45-tag set minus punctuation, ``$``/``#`` and
#: ``-NONE-`` (a masked LM cannot sensibly fill those, and the method expands with words).
WORD_TAGS: frozenset[str] = frozenset(
    "CC CD DT EX FW IN JJ JJR JJS LS MD NN NNS NNP NNPS PDT POS PRP PRP$ RB RBR RBS RP SYM TO UH "
    "VB VBD VBG VBN VBP VBZ WDT WP WP$ WRB".split()
)

_FUNC_TAG = re.compile(r"[-=]")

Rhs = tuple[str, ...]


def clean_label(label: str) -> str:
    """``NP-SBJ-1`` → ``NP``, ``PP-LOC=2`` → ``PP``; labels starting with ``-`` (``-LRB-``) kept."""
    if not label or label.startswith("-"):
        return label
    return _FUNC_TAG.split(label, 1)[0] or label


def clean_tree(tree: Tree) -> Tree | None:
    """Remove ``-NONE-`` preterminals and constituents left empty; strip function tags."""
    if tree.label() == "-NONE-":
        return None
    children: list[Tree | str] = []
    for child in tree:
        if isinstance(child, Tree):
            c = clean_tree(child)
            if c is not None:
                children.append(c)
        else:
            children.append(child)
    if not children:
        return None
    return Tree(clean_label(tree.label()), children)


def productions(tree: Tree) -> Iterator[tuple[str, Rhs]]:
    """Non-lexical productions (lhs, rhs labels) of a tree, pre-order."""
    for node in tree.subtrees():
        if all(isinstance(c, Tree) for c in node):
            yield node.label(), tuple(c.label() for c in node)


def format_production(lhs: str, rhs: Rhs) -> str:
    return f"{lhs} -> {' '.join(rhs)}"


@dataclass(frozen=True)
class ReferenceGrammar:
    """Production counts per left-hand side; ``rules[lhs]`` is sorted by count (desc), then rhs."""

    counts: dict[str, dict[Rhs, int]]
    source_hash: str

    @property
    def identity(self) -> str:
        return f"ptb-sample:{self.source_hash[:16]}:v{GRAMMAR_VERSION}"

    def total(self, lhs: str) -> int:
        return sum(self.counts.get(lhs, {}).values())

    def probability(self, lhs: str, rhs: Rhs) -> float:
        total = self.total(lhs)
        return self.counts.get(lhs, {}).get(tuple(rhs), 0) / total if total else 0.0

    def rules(self, lhs: str) -> list[tuple[Rhs, float]]:
        c = self.counts.get(lhs, {})
        total = sum(c.values())
        return [(rhs, n / total) for rhs, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))]

    def __len__(self) -> int:
        return sum(len(v) for v in self.counts.values())

    @classmethod
    def from_trees(cls, trees: Iterable[Tree], source_hash: str = "") -> ReferenceGrammar:
        counts: dict[str, Counter[Rhs]] = defaultdict(Counter)
        for tree in trees:
            cleaned = clean_tree(tree)
            if cleaned is None:
                continue
            for lhs, rhs in productions(cleaned):
                counts[lhs][rhs] += 1
        return cls({lhs: dict(c) for lhs, c in counts.items()}, source_hash)

    def to_json(self) -> dict:
        return {
            "version": GRAMMAR_VERSION,
            "source_hash": self.source_hash,
            "productions": sorted([lhs, list(rhs), n] for lhs, c in self.counts.items() for rhs, n in c.items()),
        }

    @classmethod
    def from_json(cls, d: dict) -> ReferenceGrammar:
        counts: dict[str, dict[Rhs, int]] = defaultdict(dict)
        for lhs, rhs, n in d["productions"]:
            counts[lhs][tuple(rhs)] = n
        return cls(dict(counts), d["source_hash"])


def _treebank_file() -> Path:
    import nltk

    for name in ("corpora/treebank.zip", "corpora/treebank"):
        try:
            return Path(str(nltk.data.find(name)).removesuffix("/"))
        except LookupError:
            continue
    raise MissingResourceError(
        "NLTK corpus 'treebank'", "run `python -m nltk.downloader treebank` or set S2LCT_NLTK_DATA (or NLTK_DATA) or nltk_data = ... in s2lct.toml / [tool.s2lct]"
    )


def _source_hash(path: Path) -> str:
    if path.is_file():
        return sha256_file(path)
    files = sorted(p for p in path.rglob("*") if p.is_file())
    return short_hash(*(f"{p.relative_to(path)}:{sha256_file(p)}" for p in files), length=64)


def load_reference_grammar(cache_dir: str | Path | None = None) -> ReferenceGrammar:
    """The reference grammar of the configured NLTK treebank, from cache when the file is unchanged."""
    from s2lct.config import configure_nltk, get_settings

    settings = get_settings()
    configure_nltk(settings)
    source = _treebank_file()
    digest = _source_hash(source)
    cache = Path(cache_dir or settings.cache_dir) / f"grammar-{digest[:16]}-v{GRAMMAR_VERSION}.json"
    if cache.is_file():
        try:
            with open(cache, encoding="utf-8") as fh:
                return ReferenceGrammar.from_json(json.load(fh))
        except (json.JSONDecodeError, KeyError, TypeError):
            pass  # corrupt cache: rebuild below
    from nltk.corpus import treebank

    grammar = ReferenceGrammar.from_trees(treebank.parsed_sents(), digest)
    write_json(cache, grammar.to_json())
    return grammar
