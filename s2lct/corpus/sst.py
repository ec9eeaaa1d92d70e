"""Labelled seed sentences: the Stanford Sentiment Treebank and user tables (CSV/TSV/JSONL).

Every sentence keeps where it came from (source, split, 0-based line index) so a case can be
traced back and users can exclude training data. Labels are 3-way: SST root labels 0–1 →
negative, 2 → neutral, 3–4 → positive (METHOD.md §1.1).
"""

from __future__ import annotations

import csv
import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from s2lct.errors import MissingResourceError, S2LCTError
from s2lct.text import PTB_ESCAPES, detokenize, tokenize

SST_SPLITS: tuple[str, ...] = ("train", "dev", "test")
SST_HOW_TO_GET = (
    "download trainDevTestTrees_PTB.zip from the Stanford Sentiment Treebank page "
    "(nlp.stanford.edu/sentiment), unzip its trees/ folder to <data-root>/sst/trees, "
    "and set --data-root, S2LCT_DATA_ROOT or data_root = ... in s2lct.toml / [tool.s2lct]"
)

_LEAF = re.compile(r"\(\d ([^()\s]+)\)")
_ROOT = re.compile(r"^\s*\((\d) ")
_NODE = re.compile(r"\((\d) ")


@dataclass(frozen=True, slots=True)
class Sentence:
    """A labelled sentence: PTB tokens (un-escaped) and the detokenised text."""

    tokens: tuple[str, ...]
    text: str
    label: str
    split: str
    index: int
    source: str = "sst"
    fine_label: int | None = None
    # how many sub-phrases (every tree node but the root, single words included) carry each fine
    # label 0..4; None for corpora without phrase labels (user tables)
    phrase_labels: tuple[int, int, int, int, int] | None = None
    # the longest sub-phrase, in words, that carries each fine label 0..4 (0: none); None as above
    phrase_longest: tuple[int, int, int, int, int] | None = None
    # per fine label 0..4, where the earliest-ending sub-phrase with that label ends (its last word's
    # position + 1; 0: none): a phrase that ends before the predicate lies in the subject; None as above
    phrase_first_end: tuple[int, int, int, int, int] | None = None


def sst_label(fine: int) -> str:
    if fine <= 1:
        return "negative"
    if fine == 2:
        return "neutral"
    return "positive"


def unescape_token(tok: str) -> str:
    """PTB escapes → characters; a single opening quote ` stays so the detokeniser can pair it."""
    tok = PTB_ESCAPES.get(tok, tok)
    return tok.replace("\\/", "/").replace("\\*", "*")


def parse_sst_line(line: str) -> tuple[int, tuple[str, ...]]:
    """Root label and leaves of one SST tree line (regex: 20× faster than building nltk.Tree)."""
    m = _ROOT.match(line)
    if not m:
        raise ValueError("not an SST tree")
    leaves = tuple(unescape_token(t) for t in _LEAF.findall(line))
    if not leaves:
        raise ValueError("tree has no leaves")
    return int(m.group(1)), leaves


def phrase_label_counts(line: str) -> tuple[int, int, int, int, int]:
    """Sub-phrases per fine label (0..4) of one SST tree line, the root excluded."""
    counts = [0] * 5
    for label in _NODE.findall(line)[1:]:
        counts[int(label)] += 1
    return counts[0], counts[1], counts[2], counts[3], counts[4]


def phrase_label_longest(line: str) -> tuple[int, int, int, int, int]:
    """The longest sub-phrase (in leaves) per fine label (0..4) of one SST tree line, the root excluded:
    how much of the sentence an opposite opinion covers ("Witless but watchable": one word each side)."""
    longest = [0] * 5
    stack: list[list[int]] = []  # [label, leaves so far]
    depth_labels = re.finditer(r"\((\d) |\)|[^()\s]+", line)
    for m in depth_labels:
        tok = m.group(0)
        if tok.startswith("("):
            stack.append([int(m.group(1)), 0])
        elif tok == ")":
            label, n = stack.pop()
            if stack:  # not the root
                longest[label] = max(longest[label], n)
                stack[-1][1] += n
        elif stack:
            stack[-1][1] += 1
    return longest[0], longest[1], longest[2], longest[3], longest[4]


def phrase_label_first_end(line: str) -> tuple[int, int, int, int, int]:
    """Per fine label (0..4), the end (last leaf's position + 1) of the sub-phrase with that label
    that ends first, the root excluded; 0 where no sub-phrase has it. "(1 (1 (2 this) (1 dreck)) (1
    (2 is) (1 bad)))": label 1 ends first at 2 ("dreck"), inside the subject."""
    first = [0] * 5
    stack: list[list[int]] = []  # [label, start leaf]
    leaves = 0
    for m in re.finditer(r"\((\d) |\)|[^()\s]+", line):
        tok = m.group(0)
        if tok.startswith("("):
            stack.append([int(m.group(1)), leaves])
        elif tok == ")":
            label, _start = stack.pop()
            if stack and not first[label]:  # not the root; phrases close in order of their ends
                first[label] = leaves
        elif stack:
            leaves += 1
    return first[0], first[1], first[2], first[3], first[4]


def sst_files(data_root: Path) -> dict[str, Path]:
    folder = Path(data_root) / "sst" / "trees"
    files = {split: folder / f"{split}.txt" for split in SST_SPLITS}
    for path in files.values():
        if not path.is_file():
            raise MissingResourceError(path, SST_HOW_TO_GET)
    return files


def load_sst(data_root: Path, splits: Sequence[str] | None = None) -> list[Sentence]:
    """All SST sentences (of ``splits`` only, when given), train then dev then test, in file order."""
    out: list[Sentence] = []
    for split, path in sst_files(data_root).items():
        if splits is not None and split not in splits:
            continue
        with open(path, encoding="utf-8") as fh:
            for index, line in enumerate(fh):
                if not line.strip():
                    continue
                try:
                    fine, tokens = parse_sst_line(line)
                except ValueError as exc:
                    raise S2LCTError(f"{path}:{index + 1}: {exc}; expected a PTB tree like (3 (2 The) (3 film))") from None
                phrases = phrase_label_counts(line)
                out.append(Sentence(tokens, detokenize(tokens), sst_label(fine), split, index, "sst", fine, phrases,
                                    phrase_label_longest(line), phrase_label_first_end(line)))
    return out


_TABLE_LABELS = {
    "0": "negative", "1": "positive", "neg": "negative", "negative": "negative",
    "pos": "positive", "positive": "positive", "neu": "neutral", "neutral": "neutral",
}


def normalise_label(value: object, where: str, label_map: dict[str, str] | None = None) -> str:
    key = str(value).strip().lower()
    table = {**_TABLE_LABELS, **{k.lower(): v for k, v in (label_map or {}).items()}}
    if key not in table:
        raise S2LCTError(f"{where}: label {value!r} is not one of {sorted(table)}; pass a label map to translate it")
    return table[key]


def load_table(
    path: Path,
    text_column: str = "sentence",
    label_column: str = "label",
    label_map: dict[str, str] | None = None,
    split: str = "table",
) -> list[Sentence]:
    """Sentences from a CSV/TSV (header row) or JSONL file with a text and a label column."""
    path = Path(path)
    if not path.is_file():
        raise MissingResourceError(path, "pass an existing .csv, .tsv or .jsonl file")
    rows: Iterator[tuple[int, dict]]
    if path.suffix == ".jsonl":
        rows = _jsonl_rows(path)
    elif path.suffix in (".csv", ".tsv"):
        rows = _csv_rows(path, "\t" if path.suffix == ".tsv" else ",")
    else:
        raise S2LCTError(f"{path}: unsupported table type {path.suffix!r}; use .csv, .tsv or .jsonl")
    out = []
    for lineno, row in rows:
        where = f"{path}:{lineno}"
        if text_column not in row or label_column not in row:
            raise S2LCTError(f"{where}: needs columns {text_column!r} and {label_column!r}; found {sorted(row)}")
        tokens = tokenize(str(row[text_column]).strip())
        if not tokens:
            continue
        label = normalise_label(row[label_column], where, label_map)
        out.append(Sentence(tokens, detokenize(tokens), label, split, lineno - 1, path.name))
    return out


def _jsonl_rows(path: Path) -> Iterator[tuple[int, dict]]:
    with open(path, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if line.strip():
                try:
                    yield lineno, json.loads(line)
                except json.JSONDecodeError as exc:
                    raise S2LCTError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from None


def _csv_rows(path: Path, delimiter: str) -> Iterator[tuple[int, dict]]:
    with open(path, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh, delimiter=delimiter, quoting=csv.QUOTE_NONE if delimiter == "\t" else csv.QUOTE_MINIMAL)
        for row in reader:
            yield reader.line_num, row
