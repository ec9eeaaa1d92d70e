"""Build a labelled corpus larger than SST from ../shared/data, as JSONL shards, for scale-out tests.

Sources (all in ../shared/data, see its SOURCES.md):
  * SST-2 train (GLUE): 67,349 labelled phrases and sentences, lower-cased PTB tokens;
  * the UCI sentiment-labelled sentences: 3,000 Amazon, IMDb and Yelp review sentences;
  * NLTK movie_reviews: 2,000 labelled reviews split into their ~65,000 sentences, each with its
    review's label (a sentence of a positive review need not be positive: these labels are noisy,
    which is fine for throughput and not for a suite you would trust).

Rows are ``{"sentence", "label", "origin"}``, label ``positive``/``negative``; duplicates (after
lower-casing) are dropped, sentences under 3 words too. The order is fixed (sources in the order
above, rows in file order) and rows are dealt to ``--shards`` files round-robin, so the same
command always writes the same bytes.

    python benchmarks/build_large_corpus.py --out /tmp/large-corpus [--shards 16] [--shared ../shared]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from s2lct.atomic import write_text  # noqa: E402
from s2lct.text import detokenize  # noqa: E402

LABELS = {"0": "negative", "1": "positive", "neg": "negative", "pos": "positive"}


def sst2_rows(data: Path) -> Iterator[tuple[str, str]]:
    with open(data / "sst2_glue" / "train.tsv", encoding="utf-8") as fh:
        next(fh)
        for line in fh:
            text, label = line.rstrip("\n").rsplit("\t", 1)
            yield detokenize(text.split()), LABELS[label.strip()]


def uci_rows(data: Path) -> Iterator[tuple[str, str]]:
    folder = data / "reviews" / "sentiment_labelled_sentences"
    for name in ("amazon_cells_labelled.txt", "imdb_labelled.txt", "yelp_labelled.txt"):
        with open(folder / name, encoding="utf-8") as fh:
            for line in fh:
                if "\t" in line:
                    text, label = line.rstrip("\n").rsplit("\t", 1)
                    if label.strip() in LABELS:
                        yield text.strip(), LABELS[label.strip()]


def movie_review_rows(data: Path) -> Iterator[tuple[str, str]]:
    import nltk

    nltk.data.path.insert(0, str(data / "nltk_data"))
    from nltk.corpus import movie_reviews

    for category in ("neg", "pos"):
        for fileid in sorted(movie_reviews.fileids(category)):
            for sent in movie_reviews.sents(fileid):
                yield detokenize(sent), LABELS[category]


def build(data: Path, out: Path, shards: int) -> dict[str, int]:
    seen: set[str] = set()
    parts: list[list[str]] = [[] for _ in range(shards)]
    counts: dict[str, int] = {}
    n = 0
    for origin, rows in (("sst2_train", sst2_rows(data)), ("uci", uci_rows(data)), ("movie_reviews", movie_review_rows(data))):
        for text, label in rows:
            key = " ".join(text.lower().split())
            if key in seen or sum(any(c.isalnum() for c in w) for w in text.split()) < 3:
                continue
            seen.add(key)
            parts[n % shards].append(json.dumps({"sentence": text, "label": label, "origin": origin}, ensure_ascii=False))
            counts[origin] = counts.get(origin, 0) + 1
            n += 1
    out.mkdir(parents=True, exist_ok=True)
    for i, lines in enumerate(parts):
        write_text(out / f"part-{i:05d}.jsonl", "\n".join(lines) + "\n")
    return {**counts, "total": n}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--shards", type=int, default=16)
    ap.add_argument("--shared", type=Path, default=Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")))
    args = ap.parse_args()
    if args.shards < 1:
        sys.exit(f"error: --shards {args.shards}: give 1 or more")
    counts = build(args.shared / "data", args.out, args.shards)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
