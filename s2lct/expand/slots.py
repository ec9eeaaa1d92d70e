"""Slot kinds and the per-seed budget spent by kind (issue 22, deliverable 3; ``slots: kinds``).

The paper's step 4 keeps the k most probable reference productions. Measured on deletion pairs
(``benchmarks/bench_deletion.py``) that budget goes mostly to determiner, noun-compound, name and
conjunction slots, the same position is masked several times under related tags (RB/RBR/RBS,
JJ/NN/NNP), and a pre-verbal adverb, which the treebank puts in an ADVP, is never reached by
word-level insertions at all. This policy:

- also inserts the phrases ADVP (filled by one adverb) and PP (a preposition and one word,
  "at home", "for me") where the reference grammar has them, so phrase-level differences get slots;
- masks each position once (the most probable production wins; the PoS check then accepts any
  tag of the mask's family: RB/RBR/RBS, JJ/JJR/JJS, NN/NNS);
- classifies every masked sentence by kind and keeps at most ``budget[kind]`` of each kind,
  most probable first; kinds with no budget (names, nouns, determiners, conjunctions) are never
  masked: they add a referent or a property the seed did not state.

The policy's store-key description (``config_description``) and its fluency checks
(``default_filter``) live here too; measured figures: docs/expansion.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, replace
from typing import Any

from nltk import Tree

from s2lct.expand.grammar import WORD_TAGS
from s2lct.expand.masking import MASK, MaskedSentence, MaskGenerator

#: every kind a masked sentence can be; the budget may name only these
SLOT_KINDS = ("adverb", "adjective", "complementiser", "pp", "determiner", "noun", "name", "conjunction", "other")
#: masked sentences per kind and seed; kinds left out get none
#: (PP slots are off by default: 0 of 45 two-word PP fills of the offline masked LM were fluent in
#: tests/data/expansions_kinds.jsonl; adverbs 80 of 248, adjectives 9 of 47)
DEFAULT_BUDGET: Mapping[str, int] = {"adverb": 10, "complementiser": 1, "adjective": 3}
#: phrase symbols the policy inserts, and the mask symbols that fill them
PHRASES: Mapping[str, tuple[str, ...]] = {"ADVP": ("RB",), "PP": ("IN", "NN")}
#: tags the PoS check accepts for a mask symbol (its family, names excluded)
FAMILIES: Mapping[str, frozenset[str]] = {
    **{t: frozenset({"RB", "RBR", "RBS"}) for t in ("RB", "RBR", "RBS")},
    **{t: frozenset({"JJ", "JJR", "JJS"}) for t in ("JJ", "JJR", "JJS")},
    **{t: frozenset({"NN", "NNS"}) for t in ("NN", "NNS")},
}


def accepts(symbol: str, tag: str) -> bool:
    """Whether the tagger's ``tag`` for a fill satisfies a mask of ``symbol`` (its family)."""
    return tag == symbol or tag in FAMILIES.get(symbol, ())


def validate_budget(budget: Mapping[str, int], where: str = "budget") -> dict[str, int]:
    """The budget as a dict, or an ``S2LCTError`` naming the bad key and what is valid."""
    from s2lct.errors import S2LCTError

    out = {}
    for kind, n in budget.items():
        if kind not in SLOT_KINDS:
            raise S2LCTError(f"{where}: unknown slot kind {kind!r}; valid: {', '.join(SLOT_KINDS)}")
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise S2LCTError(f"{where}.{kind}: {n!r} is not a whole number >= 0")
        out[kind] = n
    return out


def slot_kind(ms: MaskedSentence) -> str:
    """The kind of one masked sentence (from its mask symbols and the production's left side)."""
    return kind_of(ms.lhs, ms.mask_symbols)


def kind_of(lhs: str, syms: tuple[str, ...]) -> str:
    """The slot kind of masks ``syms`` inserted under a production of ``lhs`` (a stored
    candidate: ``lhs`` from its production, ``syms`` from its masks)."""
    if len(syms) == 2 and syms[0] == "IN" and syms[1] in FAMILIES["NN"]:
        return "pp"
    if len(syms) != 1:
        return "other"
    sym = syms[0]
    if sym in ("RB", "RBR", "RBS"):
        return "adverb"
    if sym in ("JJ", "JJR", "JJS") and lhs in ("NP", "ADJP"):
        return "adjective"
    if sym == "IN" and lhs == "SBAR":
        return "complementiser"
    if sym in ("NNP", "NNPS"):
        return "name"
    if sym in ("NN", "NNS"):
        return "noun"
    if sym in ("DT", "PDT", "WDT", "PRP$"):
        return "determiner"
    if sym == "CC":
        return "conjunction"
    return "other"


def _before_clitic(ms: MaskedSentence) -> bool:
    """A mask right before a clitic ("it [really] 's", "does [so] n't"): no word fits there."""
    nxt = ms.mask_positions[-1] + 1
    return nxt < len(ms.tokens) and (ms.tokens[nxt].startswith("'") and ms.tokens[nxt] not in ("'", "''") or ms.tokens[nxt].lower() == "n't")


def _widen(ms: MaskedSentence) -> MaskedSentence:
    """Phrase masks (ADVP, PP) replaced by the masks of the words that fill them."""
    if not any(s in PHRASES for s in ms.mask_symbols):
        return ms
    tokens: list[str] = []
    positions: list[int] = []
    symbols: list[str] = []
    masks = dict(zip(ms.mask_positions, ms.mask_symbols))
    for i, tok in enumerate(ms.tokens):
        if i in masks:
            for sym in PHRASES.get(masks[i], (masks[i],)):
                positions.append(len(tokens))
                symbols.append(sym)
                tokens.append(MASK)
        else:
            tokens.append(tok)
    return replace(ms, tokens=tuple(tokens), mask_positions=tuple(positions), mask_symbols=tuple(symbols))


class SlotPolicy:
    """Masked sentences for one seed tree, budgeted by kind (build once per grammar)."""

    def __init__(self, grammar, budget: Mapping[str, int] | None = None) -> None:  # noqa: ANN001 - a ReferenceGrammar
        self.budget = validate_budget(DEFAULT_BUDGET if budget is None else budget)
        self.masker = MaskGenerator(grammar, WORD_TAGS | frozenset(PHRASES), max_extra=1)  # every budgeted kind inserts one symbol

    def description(self) -> dict:
        return {"policy": "kinds", "budget": dict(sorted(self.budget.items())), "phrases": {k: list(v) for k, v in PHRASES.items()}}

    def masked_sentences(self, tree: Tree, seed: int = 0, uncapped: bool = False) -> list[MaskedSentence]:
        """One masked sentence per masked position set (most probable production first), widened,
        kept while its kind has budget left (``uncapped``: every kind's, one per position and kind)."""
        ranked = [_widen(ms) for ms in self.masker.masked_sentences(tree, None, seed)]
        seen: set[tuple[tuple[int, ...], str]] = set()
        used: dict[str, int] = {}
        out = []
        for ms in ranked:  # by production probability; the masker drew ties with (seed, sentence)
            kind = slot_kind(ms)
            key = (ms.mask_positions, kind if uncapped else "")  # uncapped: every kind's own slots
            if key in seen or _before_clitic(ms):
                continue
            if not uncapped and used.get(kind, 0) >= self.budget.get(kind, 0):
                continue
            seen.add(key)
            used[kind] = used.get(kind, 0) + 1
            out.append(ms)
        return out


def config_description(config: Any) -> dict[str, Any]:
    """The knobs that enter the store key; the slot policy only when not the paper's (older keys stay valid)."""
    d = {k: v for k, v in asdict(config).items() if k != "chunk_size"}
    if d["slots"] == "paper":
        del d["slots"], d["budget"], d["intensifier_fills"]
    else:
        d["budget"] = dict(sorted((dict(config.budget) if config.budget is not None else DEFAULT_BUDGET).items()))
        d["phrases"] = {k: list(v) for k, v in PHRASES.items()}
    return d


#: the fluency checks of the slot-kind policy: the cheap word rules, then the trained selector.
#: Measured on tests/data/expansions_kinds.jsonl (``calibrate_fluency.py checks --slots kinds``):
#: ``pll`` rejected 35 fluent candidates and caught no non-fluent one that another check missed,
#: ``reparse`` 3 and none; ``insertions`` (every kind allowed) rejected 76 fluent against 87 caught
#: alone, and the selector replaces it (cross-fitted AUC 0.81 against the masked-LM score's 0.72).
#: ``attested`` (a class-based trigram seen in SST) came from a blind read of the regenerated suite.
KINDS_CHECKS: tuple[str, ...] = ("first_word", "names", "function_words", "stacking", "attested", "selector")


def default_filter(slots: str) -> Any:
    """The default fluency checks of a slot policy."""
    from s2lct.expand.checks import FluencyFilter, make_check

    if slots != "kinds":
        return FluencyFilter()
    return FluencyFilter([make_check(n) for n in KINDS_CHECKS])
