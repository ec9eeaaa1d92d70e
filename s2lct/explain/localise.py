"""Where an explanation points in a test case: template text, a seed sentence (with its label), a
word the syntax-based expansion inserted, or a word the transform changed (``is`` → ``isn't``).

A case is a hybrid document (Poerner §2.1; METHOD.md §3): its fragments are character spans with
their own gold labels. On a failure, rmax — the word most relevant to the (wrong) predicted class —
is looked up: ``hit`` when it lies in a fragment whose label equals the explained class. Words the
expansion inserted (``case.expansion``: seed text vs expanded seed) and words the transform
introduced (the fragment vs its seed text) are found by a word-level diff (difflib), so they are
located even though the fragment was re-cased, cut at its final stop or negated.
"""

from __future__ import annotations

import difflib
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..suite import Case, Fragment, natural_key
from .base import Explanation
from .words import Words, split_words

REGIONS = ("template", "seed", "expansion", "transform")
TOP_M = 3
NGRAM = 3


@dataclass(frozen=True, slots=True)
class WordOrigin:
    """Where one word of a case comes from."""

    region: str  # one of REGIONS, or "outside" (no fragment covers it)
    label: str | None  # the label of the fragment holding the word (None: template text)
    slot: str | None
    fragment: int | None  # index into case.fragments

    @property
    def category(self) -> str:
        """Aggregation key: ``template``, ``seed:positive``, ``expansion``, ``transform``."""
        return f"seed:{self.label}" if self.region == "seed" else self.region

    def to_json(self) -> dict[str, Any]:
        return {"region": self.region, "label": self.label, "slot": self.slot, "fragment": self.fragment}


def _lower(words: Sequence[str]) -> list[str]:
    return [w.lower() for w in words]


def _new_in(after: Sequence[str], before: Sequence[str]) -> set[int]:
    """Indices of ``after`` words not matched to ``before`` words (inserted or replaced)."""
    sm = difflib.SequenceMatcher(None, _lower(before), _lower(after), autojunk=False)
    new: set[int] = set()
    for tag, _i1, _i2, j1, j2 in sm.get_opcodes():
        if tag in ("insert", "replace"):
            new.update(range(j1, j2))
    return new


def _map_words(src: Sequence[str], dst: Sequence[str]) -> dict[int, int]:
    """Matched word index in ``src`` → index in ``dst``."""
    sm = difflib.SequenceMatcher(None, _lower(src), _lower(dst), autojunk=False)
    out: dict[int, int] = {}
    for block in sm.get_matching_blocks():
        for d in range(block.size):
            out[block.a + d] = block.b + d
    return out


def _fragment_marks(case: Case, frag: Fragment) -> tuple[set[int], set[int]]:
    """(expansion words, transform words) of a seed fragment, as word indices of the fragment text."""
    fwords = split_words(frag.text).words
    seed = next((s for s in case.seeds if s.slot == frag.slot), None)
    exp = case.expansion if case.expansion and case.expansion.get("slot") == frag.slot else None
    if exp and exp.get("expanded_seed") and exp.get("seed_text"):
        expanded = split_words(exp["expanded_seed"]).words
        inserted = _new_in(expanded, split_words(exp["seed_text"]).words)
        to_frag = _map_words(expanded, fwords)
        expansion = {to_frag[i] for i in inserted if i in to_frag}
        transform = _new_in(fwords, expanded) - expansion
        return expansion, transform
    if seed is None:
        return set(), set()
    return set(), _new_in(fwords, split_words(seed.text).words)


def word_origins(case: Case, words: Words | None = None) -> list[WordOrigin]:
    """The origin of every word of ``case.text`` (words as :func:`split_words` finds them)."""
    words = words or split_words(case.text)
    marks: dict[int, tuple[dict[int, int], set[int], set[int]]] = {}
    for fi, frag in enumerate(case.fragments):
        if frag.kind == "seed":
            fw = split_words(frag.text)
            # fragment word index -> case char start
            starts = {frag.start + s: i for i, (s, _e) in enumerate(fw.spans)}
            expansion, transform = _fragment_marks(case, frag)
            marks[fi] = (starts, expansion, transform)
    out: list[WordOrigin] = []
    for s, _e in words.spans:
        fi = next((i for i, f in enumerate(case.fragments) if f.start <= s < f.end), None)
        if fi is None:
            out.append(WordOrigin("outside", None, None, None))
            continue
        frag = case.fragments[fi]
        if frag.kind != "seed":
            out.append(WordOrigin("template", frag.label, frag.slot, fi))
            continue
        starts, expansion, transform = marks[fi]
        wi = starts.get(s)
        region = "expansion" if wi in expansion else "transform" if wi in transform else "seed"
        out.append(WordOrigin(region, frag.label, frag.slot, fi))
    return out


def _ngrams(rel: Sequence[float], n: int) -> list[tuple[int, int, float]]:
    m = len(rel)
    if m == 0:
        return []
    n = min(n, m)
    return [(i, i + n, float(sum(rel[i : i + n]))) for i in range(m - n + 1)]


def _pick(cands: Iterable[tuple[int, int, float]], k: int, positive: bool) -> list[tuple[int, int, float]]:
    """Top k non-overlapping spans with relevance of the wanted sign."""
    chosen: list[tuple[int, int, float]] = []
    for a, b, r in sorted(cands, key=lambda c: (-c[2] if positive else c[2], c[0])):
        if (r > 0) != positive or r == 0:
            continue
        if any(a < y and x < b for x, y, _ in chosen):
            continue
        chosen.append((a, b, r))
        if len(chosen) == k:
            break
    return chosen


def evidence(exp: Explanation, origins: Sequence[WordOrigin], case_text: str, m: int = TOP_M) -> dict[str, Any]:
    """Top-m evidence / counter-evidence words and word n-grams for the explained class."""
    rel = exp.relevances

    def item(a: int, b: int, r: float) -> dict[str, Any]:
        text = case_text[exp.spans[a][0] : exp.spans[b - 1][1]]
        regions = sorted({origins[i].category for i in range(a, b)})
        return {"text": text, "start": a, "end": b, "relevance": round(r, 6), "origin": regions[0] if len(regions) == 1 else regions}

    singles = [(i, i + 1, float(r)) for i, r in enumerate(rel)]
    return {
        "evidence": [item(*c) for c in _pick(singles, m, True)],
        "counter_evidence": [item(*c) for c in _pick(singles, m, False)],
        "evidence_ngrams": [item(*c) for c in _pick(_ngrams(rel, NGRAM), m, True)],
        "counter_evidence_ngrams": [item(*c) for c in _pick(_ngrams(rel, NGRAM), m, False)],
    }


def localise(case: Case, exp: Explanation, origins: Sequence[WordOrigin] | None = None) -> dict[str, Any]:
    """Which fragment holds rmax, and whether its label equals the explained (wrong) class."""
    origins = origins if origins is not None else word_origins(case)
    labelled = [o for o in origins if o.label is not None]
    random_hit = sum(o.label == exp.target for o in origins) / len(origins) if origins else 0.0
    base: dict[str, Any] = {"random_baseline": round(random_hit, 6), "labelled_words": len(labelled)}
    r = exp.rmax
    if r is None:
        return {**base, "rmax": None, "word": None, "category": "flat", "region": None, "label": None,
                "slot": None, "fragment_text": None, "hit": False}
    o = origins[r]
    frag = case.fragments[o.fragment] if o.fragment is not None else None
    return {
        **base,
        "rmax": r,
        "word": exp.words[r],
        "category": o.category,
        "region": o.region,
        "label": o.label,
        "slot": o.slot,
        "fragment_text": frag.text if frag is not None else None,
        "hit": o.label is not None and o.label == exp.target,
    }


_PHRASES = {
    "template": "the template text",
    "expansion": "a word the expansion inserted",
    "transform": "a word the transform changed",
    "flat": "nothing (flat explanation)",
    "outside": "text outside every fragment",
}


def category_phrase(category: str) -> str:
    if category.startswith("seed:"):
        return f"the {category[5:]} seed sentence"
    return _PHRASES.get(category, category)


def aggregate(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Per capability, per explainer: where rmax falls, hit rate, random baseline, common rmax words."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for rec in records:
        if rec.get("status") == "ok":
            groups[(rec["capability"], rec["explainer"])].append(rec)
    out: dict[str, dict[str, Any]] = {}
    for (cap, name), recs in sorted(groups.items(), key=lambda kv: (natural_key(kv[0][0]), kv[0][1])):
        n = len(recs)
        cats = Counter(r["localisation"]["category"] for r in recs)
        words: dict[str, Counter[str]] = defaultdict(Counter)
        for r in recs:
            loc = r["localisation"]
            if loc["word"] is not None:
                words[loc["category"]][loc["word"].lower()] += 1
        shares = {c: round(k / n, 6) for c, k in sorted(cats.items(), key=lambda kv: (-kv[1], kv[0]))}
        parts = []
        for c, share in shares.items():
            top = ", ".join(f"'{w}'" for w, _ in words[c].most_common(2))
            parts.append(f"{share:.0%} at {category_phrase(c)}" + (f" ({top})" if top else ""))
        sentence = f"{cap} ({name}): {parts[0].replace(' at ', ' of failures point at ', 1)}" if parts else f"{cap} ({name}): no failures"
        if len(parts) > 1:
            sentence += ", " + ", ".join(parts[1:3])
        out.setdefault(cap, {})[name] = {
            "explained": n,
            "categories": dict(cats),
            "shares": shares,
            "hit_rate": round(sum(r["localisation"]["hit"] for r in recs) / n, 6),
            "random_baseline": round(sum(r["localisation"]["random_baseline"] for r in recs) / n, 6),
            "top_words": {c: dict(w.most_common(5)) for c, w in sorted(words.items())},
            "sentence": sentence,
        }
    return out
