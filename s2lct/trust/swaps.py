"""Swap pairs for the input-consistency test (Ding & Koehn 2021, §3.2): one content word of a text
replaced by another word of the same Penn Treebank tag, so the model's decision mechanism should
not change and neither should the explanation.

Ding & Koehn swap the cue and attractor nouns of template sentences ("The nun bought the son a
gift because" / "The woman bought the boy a gift because"). Sentiment texts have no templates, so
pairs are built here word by word:

1. **Position.** The text is tagged by the configured spaCy pipeline (``spacy_model``; the tagger
   of :mod:`s2lct.corpus.tagging`). A word is swappable when it is exactly one spaCy token (so the
   explainers' words, :func:`~s2lct.explain.words.split_words`, and spaCy's tokens agree there),
   purely alphabetic, tagged as a noun, adjective, verb or adverb form (``NN NNS JJ JJR JJS VB VBD
   VBG VBN VBP VBZ RB RBR RBS``: proper nouns, modals and auxiliaries excluded), not a spaCy stop
   word and not a negation ("not", "never", "no" ... change the meaning of what they scope over).
2. **Candidates** (``source="related"``, the default). The word's lemma (lemminflect) is looked up
   in WordNet under its part of speech; the candidates are the lemmas of its first three synsets
   (synonyms), of their hypernyms' other hyponyms (co-hyponyms: *nun* → *woman*, as in Ding &
   Koehn's pairs) and, for adjectives, of their similar-to clusters. Each is inflected to the
   word's exact tag with lemminflect (``NN``↔``NN``, ``NNS``↔``NNS``, ``VBZ``↔``VBZ``: the number
   is the tag's), and kept when the inflected form occurs at least ``min_count`` times in SST-2
   train (a fluency filter: rare and archaic WordNet lemmas go) and has the same SentiWordNet
   polarity under that tag (:mod:`s2lct.corpus.polarity`: positive stays positive, neutral stays
   neutral), so the sentiment, and the prediction, should stay. The ``max_candidates`` most
   frequent survive. ``source="vocabulary"`` draws instead from every SST-2 train word form that
   lemminflect can produce for the tag (same frequency and polarity filters): unrelated words,
   which changed minilm-sst2's prediction more often (measured in docs/faithfulness.md).
3. **Fluency.** The masked LM of the ``mlm`` setting (the one expansion fills in with) scores
   every candidate in context (:class:`MaskedWordScorer`: its word pieces, each masked in turn, in a
   window of ``FLUENCY_CONTEXT`` words on each side); a candidate more than ``fluency_margin`` nats
   (default 1) less likely than the original word is dropped. On 200 SST-2 dev sentences this took
   the replacements from a median of 3 nats below the original word to 0.2 above, and the share of
   pairs whose minilm-sst2 prediction changed from 5.1 % to 3.6 % (docs/faithfulness.md).
4. **Choice.** Positions and candidates are shuffled by a ``random.Random`` seeded with the seed and
   the text, so the same text and seed give the same pair on every machine.
5. **Check.** The swapped text is tagged again: the pair is kept only when the new word is one token
   with the original tag (and so its number), and, with ``strict`` (default), every other word keeps
   its tag too (a changed tag elsewhere means the sentence was read differently). An indefinite
   article before the word must still fit ("a movie" never becomes "a effort"). Only the one word
   changes: the words before and after it, and the spaces between them, are the original's.

Written by hand: no maintained library builds tag-preserving swaps (CheckList's perturbations change
names, locations and numbers; nlpaug and TextAttack substitute synonyms without a tag check).
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..explain.words import split_words

NOUN_TAGS = ("NN", "NNS")
ADJECTIVE_TAGS = ("JJ", "JJR", "JJS")
VERB_TAGS = ("VB", "VBD", "VBG", "VBN", "VBP", "VBZ")
ADVERB_TAGS = ("RB", "RBR", "RBS")
SWAP_TAGS = NOUN_TAGS + ADJECTIVE_TAGS + VERB_TAGS + ADVERB_TAGS
SOURCES = ("related", "vocabulary")
#: Words whose swap would change what the sentence says about its scope.
NEGATIONS = frozenset({"not", "n't", "never", "no", "none", "nothing", "nobody", "nowhere", "neither", "nor", "hardly",
                       "barely", "scarcely", "without", "cannot"})
_UPOS = {"N": "NOUN", "J": "ADJ", "V": "VERB", "R": "ADV"}
_WN_POS = {"N": "n", "J": "a", "V": "v", "R": "r"}
RELATED_SYNSETS = 3
#: Words on each side of a candidate that the masked LM sees.
FLUENCY_CONTEXT = 12


@dataclass(frozen=True, slots=True)
class SwapPair:
    """A text and its copy with word ``position`` (index into :func:`split_words`) replaced."""

    text: str
    swapped: str
    position: int
    original: str
    replacement: str
    tag: str
    polarity: str = "neutral"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class SwapOptions:
    """How pairs are built (see the module docstring)."""

    seed: int = 0
    per_text: int = 1  # pairs per text, at distinct positions
    tags: tuple[str, ...] = SWAP_TAGS
    source: str = "related"
    min_count: int = 3  # occurrences of the replacement in SST-2 train
    max_candidates: int = 20  # the most frequent candidates of a word are kept
    tries: int = 4  # candidates re-tagged per position before the next position is tried
    strict: bool = True  # every other word must keep its tag too
    min_words: int = 4  # shorter texts get no pair (a correlation over 2-3 values says little)
    #: fluency filter: a candidate is kept when the masked LM (``mlm`` setting) scores it in context
    #: at most this many nats below the original word (log-probability summed over its word pieces,
    #: each masked in turn); None: no filter
    fluency_margin: float | None = 1.0

    def __post_init__(self) -> None:
        self.tags = tuple(self.tags)
        if self.source not in SOURCES:
            raise ValueError(f"swap source {self.source!r}: one of {', '.join(SOURCES)}")
        bad = [t for t in self.tags if t not in SWAP_TAGS]
        if bad:
            raise ValueError(f"swap tags {bad}: only {' '.join(SWAP_TAGS)} are swapped")

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "tags": list(self.tags)}


@dataclass
class SwapResult:
    pairs: list[SwapPair]
    options: SwapOptions
    texts: int = 0
    #: why texts got no pair: too_short, no_position (no swappable word), no_candidate (no word with a
    #: candidate), fluency (no candidate passed the masked-LM filter), retag (every candidate tried
    #: changed a tag or did not fit its article)
    reasons: Counter[str] = field(default_factory=Counter)

    def to_json(self) -> dict[str, Any]:
        return {"options": self.options.to_json(), "texts": self.texts, "pairs": len(self.pairs),
                "texts_without_pair": dict(sorted(self.reasons.items()))}


# ------------------------------------------------------------------------------------ vocabulary
@functools.cache
def sst2_counts(path: str) -> Counter[str]:
    """Lower-cased word counts of an SST-2 file (the frequency filter of the candidates)."""
    from ..corpus.sst2 import load_sst2

    return Counter(w.lower() for text, _label in load_sst2(path) for w in text.split())


def default_counts(data_root: str | Path | None = None) -> Counter[str]:
    from ..config import get_settings

    root = Path(data_root) if data_root is not None else get_settings().data_root
    return sst2_counts(str(Path(root) / "sst2_glue" / "train.tsv"))


def inflect(lemma: str, tag: str) -> str | None:
    """``lemma`` inflected to PTB ``tag`` (lemminflect; base tags fall back to the lemma)."""
    from lemminflect import getInflection

    forms = getInflection(lemma, tag=tag)
    if forms:
        return forms[0]
    return lemma if tag in ("NN", "JJ", "VB", "VBP", "RB") else None


def lemma_of(word: str, tag: str) -> str:
    from lemminflect import getLemma

    found = getLemma(word.lower(), upos=_UPOS[tag[0]])
    return found[0] if found else word.lower()


@functools.cache
def _related_lemmas(lemma: str, wn_pos: str) -> tuple[str, ...]:
    """Synonyms, co-hyponyms and (adjectives) similar-to lemmas of ``lemma``'s first synsets."""
    from nltk.corpus import wordnet as wn

    found: set[str] = set()
    pos = [wn_pos, "s"] if wn_pos == "a" else [wn_pos]
    synsets = [s for s in wn.synsets(lemma) if s.pos() in pos][:RELATED_SYNSETS]
    for s in synsets:
        found.update(x.name() for x in s.lemmas())
        for h in s.hypernyms():
            for c in h.hyponyms():
                found.update(x.name() for x in c.lemmas())
        for head in s.similar_tos():  # a satellite's head, and the head's other satellites
            found.update(x.name() for x in head.lemmas())
            for sib in head.similar_tos():
                found.update(x.name() for x in sib.lemmas())
    return tuple(sorted(w.lower() for w in found if w.isalpha() and w.lower() != lemma))


def vocabulary_by_tag(counts: Counter[str], min_count: int) -> dict[str, tuple[str, ...]]:
    """Every SST-2 word form seen ``min_count`` times that lemminflect produces for a tag
    (``source="vocabulary"``)."""
    from lemminflect import getAllLemmas

    out: dict[str, set[str]] = {t: set() for t in SWAP_TAGS}
    for word, n in counts.items():
        if n < min_count or not word.isalpha() or len(word) < 2:
            continue
        for upos, lemmas in getAllLemmas(word).items():
            for tag in SWAP_TAGS:
                if _UPOS[tag[0]] == upos and any(inflect(lem, tag) == word for lem in lemmas):
                    out[tag].add(word)
    return {t: tuple(sorted(ws)) for t, ws in out.items()}


class MaskedWordScorer:
    """Log-probability of a word in its context under a masked LM: the sum over the word's pieces of
    log p(piece | the text with that piece masked) (the word's share of the pseudo-log-likelihood,
    Salazar et al. 2020). The model is the configured ``mlm`` (the one expansion fills in with)."""

    def __init__(self, model: str | None = None, batch_size: int = 32, max_length: int = 128) -> None:
        from ..config import get_settings

        self.name = model or get_settings().mlm
        self.batch_size, self.max_length = batch_size, max_length
        self._tok: Any = None
        self._model: Any = None

    def _load(self) -> None:
        if self._model is None:
            from transformers import AutoModelForMaskedLM, AutoTokenizer

            from ..quiet_libraries import quiet_transformers

            quiet_transformers()
            self._tok = AutoTokenizer.from_pretrained(self.name)
            self._model = AutoModelForMaskedLM.from_pretrained(self.name).eval()

    def scores(self, items: Sequence[tuple[str, tuple[int, int]]]) -> list[float]:
        """For each (text, character span of a word), the word's log-probability in context."""
        import torch

        self._load()
        tok = self._tok
        seqs: list[list[int]] = []
        owners: list[tuple[int, int, int]] = []  # (item, masked position, true id)
        for k, (text, (s, e)) in enumerate(items):
            enc = tok(text, return_offsets_mapping=True, truncation=True, max_length=self.max_length)
            ids = list(enc["input_ids"])
            for j, (a, b) in enumerate(enc["offset_mapping"]):
                if b > a and a >= s and b <= e:
                    masked = list(ids)
                    masked[j] = tok.mask_token_id
                    seqs.append(masked)
                    owners.append((k, j, ids[j]))
        out = [0.0] * len(items)
        pad = tok.pad_token_id or 0
        with torch.inference_mode():
            for start in range(0, len(seqs), self.batch_size):
                batch = seqs[start : start + self.batch_size]
                n = max(len(x) for x in batch)
                ids = torch.full((len(batch), n), pad, dtype=torch.long)
                mask = torch.zeros((len(batch), n), dtype=torch.long)
                for r, x in enumerate(batch):
                    ids[r, : len(x)] = torch.tensor(x)
                    mask[r, : len(x)] = 1
                rows = owners[start : start + len(batch)]
                at = torch.tensor([j for _k, j, _t in rows])
                m = self._model
                if hasattr(m, "bert") and hasattr(m, "cls"):  # BERT: the LM head only at the masked positions
                    hidden = m.bert(input_ids=ids, attention_mask=mask).last_hidden_state
                    logits = m.cls(hidden[torch.arange(len(batch)), at])
                else:
                    logits = m(input_ids=ids, attention_mask=mask).logits[torch.arange(len(batch)), at]
                logp = logits.float().log_softmax(-1)
                for r, (k, _j, true) in enumerate(rows):
                    out[k] += float(logp[r, true])
        return out


class SwapBuilder:
    """Builds :class:`SwapPair` s (the module docstring says how). The spaCy pipeline, SentiWordNet
    and the SST-2 counts are loaded once per builder."""

    def __init__(self, options: SwapOptions | None = None, *, counts: Counter[str] | None = None, nlp: Any = None,
                 polarity: Any = None, data_root: str | Path | None = None, fluency: MaskedWordScorer | None = None) -> None:
        from ..config import configure_nltk, get_settings

        self.options = options or SwapOptions()
        configure_nltk(get_settings())
        if nlp is None:
            from ..corpus.tagging import get_tagger

            nlp = get_tagger().nlp
        if polarity is None:
            from ..corpus.polarity import get_polarity

            polarity = get_polarity()
        self.nlp, self.polarity = nlp, polarity
        self.counts = counts if counts is not None else default_counts(data_root)
        self._vocabulary: dict[str, tuple[str, ...]] | None = None
        self.fluency = fluency if fluency is not None or self.options.fluency_margin is None else MaskedWordScorer()
        self._candidates: dict[tuple[str, str], tuple[str, ...]] = {}

    # -------------------------------------------------------------------------------- candidates
    def candidates(self, word: str, tag: str) -> tuple[str, ...]:
        """Replacement forms for ``word`` under ``tag``: same tag, frequent, same polarity; most
        frequent first (ties alphabetical), at most ``max_candidates``."""
        key = (word.lower(), tag)
        if key not in self._candidates:
            self._candidates[key] = self._compute_candidates(*key)
        return self._candidates[key]

    def _compute_candidates(self, word: str, tag: str) -> tuple[str, ...]:
        o = self.options
        if o.source == "related":
            forms = {inflect(lem, tag) for lem in _related_lemmas(lemma_of(word, tag), _WN_POS[tag[0]])}
        else:
            if self._vocabulary is None:
                self._vocabulary = vocabulary_by_tag(self.counts, o.min_count)
            forms = set(self._vocabulary[tag])
        own = self.polarity.polarity(word, tag)
        keep = [f for f in forms if f and f.isalpha() and f != word and self.counts[f] >= o.min_count
                and f not in NEGATIONS and lemma_of(f, tag) != lemma_of(word, tag)]
        keep.sort(key=lambda f: (-self.counts[f], f))
        out: list[str] = []
        for f in keep:  # polarity last: the costliest filter, on the most frequent first
            if self.polarity.polarity(f, tag) == own:
                out.append(f)
                if len(out) >= o.max_candidates:
                    break
        return tuple(out)

    # ------------------------------------------------------------------------------------ pairs
    def positions(self, text: str, doc: Any = None) -> list[tuple[int, str]]:
        """(word index, tag) of every swappable word of ``text``."""
        words = split_words(text)
        doc = doc if doc is not None else self.nlp(text)
        by_span = {(t.idx, t.idx + len(t.text)): t for t in doc}
        out = []
        for i, (span, w) in enumerate(zip(words.spans, words.words, strict=True)):
            tok = by_span.get(span)
            if tok is None or tok.tag_ not in self.options.tags or tok.pos_ in ("AUX", "PROPN"):
                continue
            if not w.isalpha() or len(w) < 2 or tok.is_stop or w.lower() in NEGATIONS:
                continue
            out.append((i, tok.tag_))
        return out

    def pairs_for(self, text: str) -> tuple[list[SwapPair], str | None]:
        """Up to ``per_text`` pairs of one text, and why there is none (else None)."""
        o = self.options
        words = split_words(text)
        if len(words) < o.min_words:
            return [], "too_short"
        doc = self.nlp(text)
        tags = _word_tags(words, doc)
        positions = self.positions(text, doc)
        if not positions:
            return [], "no_position"
        rng = random.Random(f"{o.seed}\x1f{text}")
        rng.shuffle(positions)
        pairs: list[SwapPair] = []
        any_candidate = any_fluent = False
        for i, tag in positions:
            word = words.words[i]
            cands = list(self.candidates(word, tag))
            if not cands:
                continue
            any_candidate = True
            cands = self._fluent(words, i, cands)
            any_fluent = any_fluent or bool(cands)
            rng.shuffle(cands)
            for cand in cands[: o.tries]:
                pair = self._try(words, tags, i, tag, word, cand)
                if pair is not None:
                    pairs.append(pair)
                    break
            if len(pairs) >= o.per_text:
                break
        if pairs:
            return pairs, None
        return [], ("retag" if any_fluent else "fluency" if any_candidate else "no_candidate")

    def _fluent(self, words: Any, i: int, cands: list[str]) -> list[str]:
        """The candidates the masked LM finds at most ``fluency_margin`` nats less likely than the
        original word at position ``i`` (all of them without a filter)."""
        if self.fluency is None or not cands:
            return cands
        from ..perturb.base import match_case

        s, e = words.spans[i]
        lo = words.spans[max(0, i - FLUENCY_CONTEXT)][0]  # the words around it: farther ones hardly matter, and cost
        hi = words.spans[min(len(words) - 1, i + FLUENCY_CONTEXT)][1]
        before, after = words.text[lo:s], words.text[e:hi]
        items = [(before + words.words[i] + after, (s - lo, e - lo))]
        for c in cands:
            new = match_case(words.words[i], c)
            items.append((before + new + after, (s - lo, s - lo + len(new))))
        own, *theirs = self.fluency.scores(items)
        margin = float(self.options.fluency_margin or 0.0)
        return [c for c, sc in zip(cands, theirs, strict=True) if sc >= own - margin]

    def _try(self, words: Any, tags: list[str | None], i: int, tag: str, word: str, cand: str) -> SwapPair | None:
        from ..perturb.base import article_for, match_case

        if i > 0 and words.words[i - 1].lower() in ("a", "an") and words.words[i - 1].lower() != article_for(cand):
            return None
        new = match_case(word, cand)
        s, e = words.spans[i]
        swapped = words.text[:s] + new + words.text[e:]
        new_words = split_words(swapped)
        if len(new_words) != len(words) or new_words.words[i] != new:
            return None
        new_tags = _word_tags(new_words, self.nlp(swapped))
        if new_tags[i] != tag:
            return None
        if self.options.strict and any(a != b for k, (a, b) in enumerate(zip(tags, new_tags, strict=True)) if k != i):
            return None
        return SwapPair(words.text, swapped, i, word, new, tag, self.polarity.polarity(word, tag))

    def build(self, texts: Iterable[str]) -> SwapResult:
        result = SwapResult([], self.options)
        for text in texts:
            result.texts += 1
            pairs, why = self.pairs_for(text)
            result.pairs.extend(pairs)
            if why is not None:
                result.reasons[why] += 1
        save = getattr(self.polarity, "save", None)
        if callable(save):
            save()
        return result


def _word_tags(words: Any, doc: Any) -> list[str | None]:
    """The spaCy tag of every word that is exactly one token (None for the others)."""
    by_span = {(t.idx, t.idx + len(t.text)): t.tag_ for t in doc}
    return [by_span.get(span) for span in words.spans]


def build_swap_pairs(texts: Sequence[str], options: SwapOptions | None = None, *, data_root: str | Path | None = None) -> SwapResult:
    """Swap pairs of ``texts`` (see the module docstring): ``result.pairs`` and why texts got none."""
    return SwapBuilder(options, data_root=data_root).build(texts)
