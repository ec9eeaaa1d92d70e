"""Hybrid documents (Poerner et al. §2.1): labelled sentences of different documents concatenated.

A word's gold label is the label of the sentence it comes from. The default pool is the SST test
and dev sentences labelled positive or negative (never training sentences, so a model trained on
SST train is not explained on text it memorised); any labelled table the corpus reader accepts
(CSV/TSV/JSONL with a text and a label column) can replace it.

Documents are drawn with a fixed seed: the pool is shuffled once, each sentence is used at most
once, and every document mixes at least two labels (a single-label document scores a hit wherever
rmax falls, so it cannot tell explainers apart; Poerner's yelp documents were mixed by chance, their
random baseline of .69 shows how often). Written by hand: no library builds hybrid documents.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..corpus.sst import Sentence, load_sst, load_table
from ..errors import S2LCTError
from ..explain.words import split_words
from ..suite import Fragment

DEFAULT_SPLITS = ("test", "dev")
DEFAULT_LABELS = ("negative", "positive")


@dataclass(frozen=True, slots=True)
class HybridDocument:
    """A text made of labelled fragments (character spans with their source sentence's label)."""

    id: str
    text: str
    fragments: tuple[Fragment, ...]

    def word_labels(self) -> list[str | None]:
        """Gold label of every word of ``text`` (as :func:`~s2lct.explain.words.split_words` finds them)."""
        return labels_of_words(self.text, self.fragments)

    @property
    def labels(self) -> set[str]:
        return {f.label for f in self.fragments if f.label is not None}

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "text": self.text,
                "fragments": [{"start": f.start, "end": f.end, "label": f.label, "slot": f.slot} for f in self.fragments]}


def labels_of_words(text: str, fragments: Sequence[Fragment]) -> list[str | None]:
    out: list[str | None] = []
    for s, _e in split_words(text).spans:
        frag = next((f for f in fragments if f.start <= s < f.end), None)
        out.append(frag.label if frag is not None else None)
    return out


def load_pool(table: str | Path | None = None, *, data_root: str | Path | None = None,
              splits: Sequence[str] = DEFAULT_SPLITS, labels: Sequence[str] = DEFAULT_LABELS,
              text_column: str = "sentence", label_column: str = "label") -> list[Sentence]:
    """Labelled sentences for hybrid documents: a table when given, else SST ``splits``; only ``labels``."""
    if table is not None:
        pool = load_table(Path(table), text_column=text_column, label_column=label_column)
        where = str(table)
    else:
        if data_root is None:
            from ..config import get_settings

            data_root = get_settings().data_root
        pool = load_sst(Path(data_root), splits)
        where = f"SST {'+'.join(splits)}"
    pool = [s for s in pool if s.label in labels]
    found = sorted({s.label for s in pool})
    if len(found) < 2:
        raise S2LCTError(f"{where}: hybrid documents need sentences of at least two labels among {', '.join(labels)}; found {found or 'none'}")
    return pool


def build_documents(pool: Sequence[Sentence], n_documents: int, fragments_per_document: int = 3,
                    seed: int = 0) -> list[HybridDocument]:
    """``n_documents`` documents of ``fragments_per_document`` sentences each, mixing ≥ 2 labels."""
    if fragments_per_document < 2:
        raise S2LCTError(f"fragments per document must be at least 2 (got {fragments_per_document}): one fragment is no hybrid")
    rng = random.Random(f"s2lct-hybrid:{seed}")
    order = list(range(len(pool)))
    rng.shuffle(order)
    by_label: dict[str, list[int]] = {}
    for i in order:
        by_label.setdefault(pool[i].label, []).append(i)
    used: set[int] = set()
    docs: list[HybridDocument] = []
    cursor = 0

    def take_other(label: str) -> int | None:
        for lab, queue in by_label.items():
            if lab == label:
                continue
            while queue:
                j = queue.pop()
                if j not in used:
                    return j
        return None

    while len(docs) < n_documents:
        chosen: list[int] = []
        while len(chosen) < fragments_per_document and cursor < len(order):
            i = order[cursor]
            cursor += 1
            if i not in used:
                chosen.append(i)
                used.add(i)
        if len(chosen) < fragments_per_document:
            break
        if len({pool[i].label for i in chosen}) == 1:
            j = take_other(pool[chosen[0]].label)
            if j is None:
                break
            used.add(j)
            chosen[rng.randrange(len(chosen))] = j
        docs.append(compose(f"H{len(docs) + 1:04d}", [pool[i] for i in chosen]))
    if not docs:
        raise S2LCTError(f"the pool of {len(pool)} labelled sentences is too small for one document of {fragments_per_document} fragments")
    return docs


def compose(doc_id: str, sentences: Sequence[Sentence]) -> HybridDocument:
    """Join sentences with single spaces; each becomes a fragment with its own label."""
    parts: list[str] = []
    frags: list[Fragment] = []
    pos = 0
    for k, s in enumerate(sentences):
        if parts:
            pos += 1
        frags.append(Fragment(pos, pos + len(s.text), s.text, "seed", s.label, f"s{k + 1}"))
        parts.append(s.text)
        pos += len(s.text)
    return HybridDocument(doc_id, " ".join(parts), tuple(frags))
