"""Has real text put this word between neighbours like these? (issue 22, a blind read of the
slot-kind engine's suite: "must [probably] have been", "might [probably] want", "there 's [so]
lots of", "is [very] weighed down").

A class-based trigram check: the inserted word, the word before it (itself when it is a function
word — a modal, a form of "be", "have" or "do", a determiner, a preposition —, else its tag
family) and the tag of the word after it (in full: "very" takes JJ, not JJR or VBN) must occur
together in the reference corpus,
every SST sentence tagged by the configured spaCy pipeline. The masked LM's top fills include
words that fit the slot's grammar but not its neighbours (a degree word before a participle, an
epistemic adverb after an epistemic modal); the corpus has no "must probably" and no "very
weighed". On the 700 annotated slot-kind candidates (docs/expansion.md) it rejects 147 non-fluent
and 61 fluent ones; the blind reads of the regenerated suite, on words the selector had not been
shown, are why it stays. A fill of several words (a PP) is not checked.

The counts are built once per corpus and tagger (20 s on 2 cores) into the cache folder.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

#: tags whose words stand for themselves in the trigram (closed classes)
FUNCTION_TAGS = frozenset({"MD", "TO", "DT", "IN", "CC", "PRP", "PRP$", "WDT", "WP", "EX", "POS", "RP"})
#: auxiliaries, kept as words whatever their tag
AUXILIARIES = frozenset({"is", "are", "was", "were", "be", "been", "being", "am", "'s", "'re", "'m", "has", "have", "had", "do", "does", "did"})
START, END = "<s>", "</s>"


def before_class(word: str, tag: str) -> str:
    """What the word before a fill counts as: itself for a function word or an auxiliary, else its tag family."""
    return word.lower() if tag in FUNCTION_TAGS or word.lower() in AUXILIARIES else tag[:2]


def count_trigrams(sentences: Sequence[Sequence[str]], tags: Sequence[Sequence[str]]) -> Counter[tuple[str, str, str]]:
    """(class of the word before, word, tag of the word after) over tagged sentences."""
    counts: Counter[tuple[str, str, str]] = Counter()
    for toks, tg in zip(sentences, tags, strict=True):
        for i, tok in enumerate(toks):
            prev = before_class(toks[i - 1], tg[i - 1]) if i else START
            nxt = tg[i + 1] if i + 1 < len(toks) else END
            counts[(prev, tok.lower(), nxt)] += 1
    return counts


@functools.cache
def reference_counts(cache_dir: str, data_root: str, tagger_identity: str) -> Counter[tuple[str, str, str]]:
    """The SST trigram counts for this corpus and tagger, from the cache folder or built there."""
    from s2lct.atomic import short_hash, write_text

    path = Path(cache_dir) / "attested" / f"{short_hash(data_root, tagger_identity, Attested.version, length=16)}.json"
    if path.is_file():
        return Counter({tuple(k.split("\t")): v for k, v in json.loads(path.read_text(encoding="utf-8")).items()})
    from s2lct.corpus.sst import load_sst
    from s2lct.corpus.tagging import get_tagger

    sentences = [s.tokens for s in load_sst(Path(data_root))]
    counts = count_trigrams(sentences, get_tagger().tag(sentences))
    path.parent.mkdir(parents=True, exist_ok=True)
    write_text(path, json.dumps({"\t".join(k): v for k, v in sorted(counts.items())}))
    return counts


class Attested:
    name = "attested"
    version = "2"  # 2: the next word's full tag

    def __init__(self, min_count: int = 1) -> None:
        self.min_count = min_count

    def settings(self) -> dict[str, Any]:
        return {"min_count": self.min_count, "corpus": "sst"}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        if not items:
            return []
        from s2lct.config import get_settings
        from s2lct.corpus.tagging import get_tagger

        settings = get_settings()
        counts = reference_counts(str(settings.cache_dir), str(settings.data_root), get_tagger().identity)
        out = []
        for it in items:
            if len(it.positions) != 1:
                out.append(CheckResult(True, 1.0))
                continue
            p = it.positions[0]
            prev = before_class(it.tokens[p - 1], it.tag(p - 1)) if p else START
            nxt = it.tag(p + 1) if p + 1 < len(it.tokens) else END
            n = counts.get((prev, it.tokens[p].lower(), nxt), 0)
            out.append(CheckResult(n >= self.min_count, float(n), None if n >= self.min_count else "unattested"))
        return out


@fluency_checks.register("attested")
def make_attested(**settings: Any) -> Attested:
    return Attested(**settings)
