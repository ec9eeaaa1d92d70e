"""Seed reviews: a committed file of a reader's verdicts on seed sentences, which a spec's
``sampling.seed_review`` applies (docs/specs.md, "Seed review").

Why a file of verdicts and not one more rule: the blind reads of the suite found that most of the
seeds a careful reader rejects carry no opinion at all ("He allows his cast members to make
creative contributions to the story.", labelled positive by SST) or lean on a sentence before them
("In other words, it's badder than bad."); neither the treebank's phrase labels nor a lexicon
separates them (AUC 0.60-0.61 on the reviewed seeds, docs/specs.md). The verdicts are data, read
once per file and checked against the corpus when a suite is built, so a review made on other data
is an error, not a silent miss.
"""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import get_args

from s2lct.errors import S2LCTError
from s2lct.spec.sampling import ReviewVerdict, SeedReview

VERDICTS: tuple[str, ...] = get_args(ReviewVerdict)
FIELDS = ("source", "split", "index", "text", "verdict")


@dataclass(frozen=True)
class ReviewRow:
    line: int
    text: str
    verdict: str
    note: str


@dataclass(frozen=True)
class ReviewFile:
    path: Path
    sha256: str
    rows: dict[str, ReviewRow]  # "source:split:index" → verdict

    def flagged(self, exclude: list[str] | tuple[str, ...]) -> dict[str, ReviewRow]:
        """The rows whose verdict is one of ``exclude``."""
        return {k: r for k, r in self.rows.items() if r.verdict in exclude}


def seed_key(source: str, split: str, index: int) -> str:
    return f"{source}:{split}:{index}"


@functools.lru_cache(maxsize=16)
def _read(path: Path, mtime_ns: int, size: int) -> ReviewFile:
    data = path.read_bytes()
    rows: dict[str, ReviewRow] = {}
    for n, raw in enumerate(data.decode("utf-8", errors="strict").splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{path}:{n}"
        try:
            row = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise S2LCTError(f"{where}: not JSON ({exc.msg}); each line is one verdict: {{source, split, index, text, verdict, note}}") from None
        if not isinstance(row, dict) or (missing := [f for f in FIELDS if f not in row]):
            raise S2LCTError(f"{where}: a verdict needs the keys {', '.join(FIELDS)} (and may have a note); missing {missing if isinstance(row, dict) else list(FIELDS)}")
        if row["verdict"] not in VERDICTS:
            raise S2LCTError(f"{where}: verdict {row['verdict']!r} is not one of {', '.join(VERDICTS)}")
        if not isinstance(row["index"], int) or isinstance(row["index"], bool):
            raise S2LCTError(f"{where}: index {row['index']!r} must be the sentence's line number in its split (an integer)")
        key = seed_key(str(row["source"]), str(row["split"]), row["index"])
        if key in rows:
            raise S2LCTError(f"{where}: {key} has a verdict already, on line {rows[key].line}; one verdict per seed")
        rows[key] = ReviewRow(n, str(row["text"]), row["verdict"], str(row.get("note", "")))
    return ReviewFile(path, hashlib.sha256(data).hexdigest(), rows)


def read_review(path: Path) -> ReviewFile:
    """The verdicts in ``path`` (cached while the file is unchanged); one-line error naming the
    line of a bad row."""
    try:
        st = path.stat()
    except FileNotFoundError:
        raise S2LCTError(f"{path}: seed review file not found; seed_review.file is relative to the spec file") from None
    try:
        return _read(path.resolve(), st.st_mtime_ns, st.st_size)
    except UnicodeDecodeError as exc:
        raise S2LCTError(f"{path}: not UTF-8 text ({exc.reason})") from None


def bind(review: SeedReview, spec_dir: Path) -> ReviewFile:
    """Read the review a spec names, relative to the spec's folder, and remember it on the spec."""
    found = read_review(Path(spec_dir) / review.file)
    review._loaded = found
    return found


def loaded(review: SeedReview) -> ReviewFile:
    """The file :func:`bind` read for this spec (specs loaded by ``s2lct.spec.loader`` are bound)."""
    if review._loaded is None:
        raise S2LCTError(f"seed_review.file {review.file!r} was never read: load the spec with s2lct.spec.loader.load_spec, which resolves it next to the spec file")
    return review._loaded
