"""Word tokens with character spans, in SST-2's tokenization, and the vocabulary of a task model.

SST-2 (GLUE) is lower-cased and splits clitics ("it 's", "does n't") and punctuation, so the task
models read text the same way: a token is a clitic ('s, 're, n't, ...), a run of word characters
with inner hyphens, or one other character. Spans let explainers map tokens back to
the words of :func:`s2lct.explain.words.split_words`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from s2lct.atomic import write_json

PAD, UNK = "<pad>", "<unk>"
TOKEN_RE = re.compile(r"\w+(?=n['’]t\b)|n['’]t\b|['’](?:s|re|ve|d|ll|m)\b|\w+(?:-\w+)*|[^\w\s]", re.IGNORECASE)
#: Recorded in a model folder: a folder trained with another tokenizer is refused, not misread.
TOKENIZER_VERSION = 1


def tokenize(text: str) -> list[tuple[str, int, int]]:
    """(lower-cased token, start, end) of every token of ``text``."""
    return [(m.group(0).lower().replace("’", "'"), m.start(), m.end()) for m in TOKEN_RE.finditer(text)]


@dataclass(frozen=True)
class Vocabulary:
    """Token ↔ id; id 0 is padding (a zero embedding), id 1 stands for unknown and occluded words."""

    tokens: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", {t: i for i, t in enumerate(self.tokens)})

    @property
    def pad_id(self) -> int:
        return 0

    @property
    def unk_id(self) -> int:
        return 1

    def __len__(self) -> int:
        return len(self.tokens)

    def id(self, token: str) -> int:
        return self._index.get(token, 1)  # type: ignore[attr-defined]

    @classmethod
    def build(cls, texts: Iterable[str], min_count: int = 1) -> Vocabulary:
        """Tokens of ``texts`` seen at least ``min_count`` times, most frequent first (ties: alphabetical)."""
        counts = Counter(tok for text in texts for tok, _s, _e in tokenize(text))
        kept = sorted((t for t, c in counts.items() if c >= min_count), key=lambda t: (-counts[t], t))
        return cls((PAD, UNK, *kept))

    def save(self, path: Path) -> None:
        write_json(path, list(self.tokens))

    @classmethod
    def load(cls, path: Path) -> Vocabulary:
        return cls(tuple(json.loads(path.read_text(encoding="utf-8"))))
