"""Syntax-based expansion of seed sentences (METHOD §1.3; paper §4.2), resumable.

``SeedExpander`` composes the pieces the way TextAttack composes an attack: a transformation
(parse → Algorithm 1 masks → masked-LM fills) and constraints (step 6 (a) the spaCy tag of each
filled word in the filled sentence equals its mask symbol, (b) each filled word is pure neutral in
SentiWordNet). Then the fluency checks (``s2lct.expand.checks``: first word, names, function
words, masked-LM pseudo-log-likelihood, re-parse) score every survivor of (a)+(b), per seed.
Check (c), the capability's search rule, is per capability and is the caller's: the store keeps
*every* candidate that passed (a)+(b), with its check scores; ``SeedResult.candidates`` are those
that also passed every fluency check (``rejected`` the others), and ``best()`` filters and keeps
the top k for one capability.

Each distinct seed is expanded once per configuration. Results go to an ``ExpansionStore``
(sqlite, one transaction per chunk of seeds, ``synchronous=FULL``), keyed by the seed tokens and a
hash of the whole configuration (models, grammar, k, top-n, random seed, fluency checks with their
versions and thresholds), so a killed run restarted
skips finished seeds and ends with the same store as an uninterrupted run. Seeds are processed in
a canonical order (sorted) and fixed chunks, so batch compositions, and thus results, are the same.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from s2lct.atomic import dumps_json, short_hash
from s2lct.expand.candidates import ExpansionCandidate, MaskFill, SeedResult, _rank_key, best
from s2lct.expand.checks import CheckItem, FluencyFilter
from s2lct.expand.fillin import fill_in, place_fills, round_prob
from s2lct.expand.slots import config_description as _config_description
from s2lct.expand.slots import default_filter
from s2lct.expand.store import ExpansionStore

__all__ = ["ExpansionCandidate", "ExpansionConfig", "ExpansionStats", "ExpansionStore", "MaskFill", "SeedExpander", "SeedResult", "best"]

ENGINE_VERSION = "7"  # 2: masked-LM batches per seed; 3: fills cased as written English; 4: ...after the PoS check; 5: fluency checks; 6: insertions v6 (third and fourth blind draws); 7: downtoner fills
#: downtoners (``boosters.downtoners``) the masked LM ranks at each adverb slot before an adjective,
#: beside the intensifiers; they pass only into cases that deny the seed (``boosters.keeps_label``)
DOWNTONER_FILLS = 2
Tokens = tuple[str, ...]
SLOT_POLICIES = ("paper", "kinds")


@dataclass(frozen=True)
class ExpansionConfig:
    """Knobs of the expansion; all of them enter the store key."""

    max_masked: int | None = 10  # k: masked sentences kept per seed (step 4)
    top_n: int = 10  # fills asked from the masked LM per masked sentence (step 5)
    seed: int = 0  # random seed for tie-breaking among equally probable productions
    chunk_size: int = 64  # seeds per durable commit
    slots: str = "paper"  # "paper": k most probable productions; "kinds": budget by slot kind (s2lct.expand.slots)
    budget: tuple[tuple[str, int], ...] | None = None  # slots="kinds": masked sentences per kind (None: slots.DEFAULT_BUDGET)
    intensifier_fills: int = 0  # slots="kinds": intensifiers the masked LM ranks at an adverb slot before an adjective

    def __post_init__(self) -> None:
        from s2lct.errors import S2LCTError

        if self.slots not in SLOT_POLICIES:
            raise S2LCTError(f"expansion slots: unknown policy {self.slots!r}; valid: {', '.join(SLOT_POLICIES)}")
        if self.budget is not None:
            from s2lct.expand.slots import validate_budget

            validate_budget(dict(self.budget), "expansion budget")


# ---------------------------------------------------------------------------------------------
# the expander


class _Tagger(Protocol):
    identity: str

    def tag(self, sentences: Sequence[Sequence[str]], batch_size: int = 256) -> list[list[str]]: ...


class _Polarity(Protocol):
    def is_pure_neutral(self, word: str, ptb_tag: str) -> bool: ...


@dataclass
class ExpansionStats:
    seeds: int = 0  # distinct seeds asked for
    computed: int = 0  # expanded in this call (not found in the store)
    parse_failed: int = 0
    masked: int = 0
    fills: int = 0
    neutral: int = 0  # fills passing (b)
    tagged: int = 0  # distinct expanded seeds passing (a) and (b)
    accepted: int = 0  # ... and every fluency check
    rejected_by: dict[str, int] = field(default_factory=dict)  # fluency check → candidates it rejected (first failure)
    seconds: dict[str, float] = field(
        default_factory=lambda: {"parse": 0.0, "mask": 0.0, "fill": 0.0, "validate": 0.0, "fluency": 0.0, "store": 0.0}
    )
    computed_seeds: list[Tokens] = field(default_factory=list)

    def add(self, other: ExpansionStats) -> None:
        """Count another worker's chunk (``s2lct.scale``) in these totals; ``seeds``, ``computed``
        and ``computed_seeds`` stay this process's (it plans and commits)."""
        for name in ("parse_failed", "masked", "fills", "neutral", "tagged", "accepted"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for check, n in other.rejected_by.items():
            self.rejected_by[check] = self.rejected_by.get(check, 0) + n
        for stage, secs in other.seconds.items():
            self.seconds[stage] = self.seconds.get(stage, 0.0) + secs


class SeedExpander:
    """Parser + reference grammar + masked LM + tagger + polarity; every part is injectable
    (tests pass stubs) and loaded lazily from ``Settings`` otherwise."""

    def __init__(
        self,
        config: ExpansionConfig | None = None,
        *,
        parser: Any = None,
        grammar: Any = None,
        mlm: Any = None,
        tagger: _Tagger | None = None,
        polarity: _Polarity | None = None,
        store: ExpansionStore | str | Path | None = None,
        fluency: FluencyFilter | None = None,
    ) -> None:
        self.config = config or ExpansionConfig()
        self.fluency = fluency if fluency is not None else default_filter(self.config.slots)
        self._parser, self._grammar, self._mlm, self._tagger, self._polarity = parser, grammar, mlm, tagger, polarity
        self._store_arg = store
        self._store: ExpansionStore | None = None
        self._masker = None
        self._policy = None
        self._neutral: dict[tuple[str, str], bool] = {}
        self.stats = ExpansionStats()

    # lazily built parts ---------------------------------------------------------------------
    @property
    def parser(self) -> Any:
        if self._parser is None:
            from s2lct.expand.parsing import Parser

            self._parser = Parser()
        return self._parser

    @property
    def grammar(self) -> Any:
        if self._grammar is None:
            from s2lct.expand.grammar import load_reference_grammar

            self._grammar = load_reference_grammar()
        return self._grammar

    @property
    def mlm(self) -> Any:
        if self._mlm is None:
            from s2lct.expand.fillin import MaskedLM

            self._mlm = MaskedLM()
        return self._mlm

    @property
    def tagger(self) -> _Tagger:
        if self._tagger is None:
            from s2lct.corpus.tagging import get_tagger

            self._tagger = get_tagger()
        return self._tagger

    @property
    def polarity(self) -> _Polarity:
        if self._polarity is None:
            from s2lct.corpus.polarity import get_polarity

            self._polarity = get_polarity()
        return self._polarity

    @property
    def masker(self) -> Any:
        if self._masker is None:
            from s2lct.expand.masking import MaskGenerator

            self._masker = MaskGenerator(self.grammar)
        return self._masker

    @property
    def store(self) -> ExpansionStore:
        if self._store is None:
            if isinstance(self._store_arg, ExpansionStore):
                self._store = self._store_arg
            else:
                from s2lct.config import get_settings

                self._store = ExpansionStore(self._store_arg or Path(get_settings().cache_dir) / "expansions.sqlite3")
        return self._store

    def description(self) -> dict[str, Any]:
        """Everything that determines the results (hashed into the store key)."""
        return {
            "engine": ENGINE_VERSION,
            "config": _config_description(self.config),
            "parser": self.parser.identity,
            "grammar": self.grammar.identity,
            "mlm": self.mlm.identity,
            "tagger": self.tagger.identity,
            "polarity": getattr(self.polarity, "identity", type(self.polarity).__name__),
            "fluency": self.fluency.description(),
        }

    @property
    def config_hash(self) -> str:
        return short_hash(dumps_json(self.description()), length=16)

    def resources(self) -> dict[str, str]:
        """Identities for the suite manifest's ``resources``."""
        d = self.description()
        return {"parser": d["parser"], "grammar": d["grammar"], "mlm": d["mlm"], "expansion_config": self.config_hash}

    # the work ---------------------------------------------------------------------------------
    def expand(
        self, seeds: Sequence[Sequence[str]], *, on_progress: Callable[[int], None] | None = None
    ) -> dict[Tokens, list[ExpansionCandidate]]:
        """Candidates that passed (a)+(b) for every distinct seed, best first (see ``best``).

        Finished seeds come from the store; the rest are computed in chunks, each committed
        before ``on_progress(n_seeds_in_chunk)`` is called."""
        results = self.expand_results(seeds, on_progress=on_progress)
        return {s: list(r.candidates) for s, r in results.items()}

    def expand_results(
        self, seeds: Sequence[Sequence[str]], *, on_progress: Callable[[int], None] | None = None
    ) -> dict[Tokens, SeedResult]:
        distinct = list(dict.fromkeys(tuple(s) for s in seeds))
        todo_chunks = self.pending_chunks(distinct)
        n_done = len(distinct) - sum(len(c) for c in todo_chunks)
        if on_progress is not None and n_done:
            on_progress(n_done)
        for chunk in todo_chunks:
            self.commit(chunk, self.expand_chunk(chunk))
            if on_progress is not None:
                on_progress(len(chunk))
        return self.stored(distinct)

    def pending_chunks(self, distinct: Sequence[Tokens]) -> list[list[Tokens]]:
        """The chunks still to compute: every seed in canonical (sorted) order cut into fixed
        chunks, finished seeds left out. Chunks depend on the seeds alone, never on who computes
        them (``s2lct.scale`` hands the same chunks to Ray workers)."""
        config = self.config_hash
        store = self.store
        store.register(config, self.description())
        done = store.finished(config)
        self.stats.seeds = len(distinct)
        canonical = sorted(set(distinct))
        size = max(1, self.config.chunk_size)
        chunks = [[s for s in canonical[i : i + size] if s not in done] for i in range(0, len(canonical), size)]
        return [c for c in chunks if c]

    def commit(self, chunk: Sequence[Tokens], results: dict[Tokens, SeedResult]) -> None:
        """Store one computed chunk in one transaction (the store's only writer is this process)."""
        t = time.perf_counter()
        self.store.put_many(self.config_hash, results)
        save = getattr(self.polarity, "save", None)
        if save is not None:
            save()
        self.stats.seconds["store"] += time.perf_counter() - t
        self.stats.computed += len(chunk)
        self.stats.computed_seeds.extend(chunk)

    def stored(self, distinct: Sequence[Tokens]) -> dict[Tokens, SeedResult]:
        stored = self.store.get_many(self.config_hash, distinct)
        return {s: stored[s] for s in distinct}

    @property
    def policy(self) -> Any:
        """The slot-kind policy (``slots="kinds"``), built on the reference grammar."""
        if self._policy is None:
            from s2lct.expand.slots import SlotPolicy

            self._policy = SlotPolicy(self.grammar, dict(self.config.budget) if self.config.budget is not None else None)
        return self._policy

    def masked(self, tree: Any, *, uncapped: bool = False) -> list[Any]:
        """Steps 3+4 for one seed tree under the configured slot policy (``uncapped``: every slot)."""
        if self.config.slots == "kinds":
            return self.policy.masked_sentences(tree, self.config.seed, uncapped)
        k = None if uncapped else self.config.max_masked
        return self.masker.masked_sentences(tree, k, self.config.seed)

    def _tag_ok(self, symbol: str, tag: str) -> bool:
        """Check (a): the paper's exact tag, or under ``slots="kinds"`` any tag of the mask's family."""
        if self.config.slots == "kinds":
            from s2lct.expand.slots import accepts

            return accepts(symbol, tag)
        return tag == symbol

    def _fill_ok(self, word: str, symbol: str) -> bool:
        """Check (b): pure neutral; under ``slots="kinds"`` an intensifier or a downtoner too (kept
        out of neutral seeds, a downtoner out of every case but a denial: ``boosters.keeps_label``)."""
        if self._is_neutral(word, symbol):
            return True
        if self.config.slots == "kinds":
            from s2lct.expand.boosters import is_downtoner, is_intensifier

            return is_intensifier(word, symbol) or is_downtoner(word, symbol)
        return False

    def _is_neutral(self, word: str, symbol: str) -> bool:
        key = (word, symbol)
        hit = self._neutral.get(key)
        if hit is None:
            hit = self._neutral[key] = bool(self.polarity.is_pure_neutral(word, symbol))
        return hit

    def expand_chunk(self, chunk: list[Tokens]) -> dict[Tokens, SeedResult]:
        """Parse, mask, fill and check one chunk of seeds; nothing is stored (see ``commit``)."""
        st = self.stats
        t0 = time.perf_counter()
        trees = self.parser.parse(chunk)
        failures = getattr(self.parser, "failures", {})
        t1 = time.perf_counter()
        masked_by_seed = {}
        seed_tags: dict[Tokens, tuple[str, ...]] = {}
        for s, tree in zip(chunk, trees):
            if tree is not None:
                masked_by_seed[s] = self.masked(tree)
                seed_tags[s] = tuple(tag for _, tag in tree.pos())
        flat = [(s, ms) for s, lst in masked_by_seed.items() for ms in lst]
        t2 = time.perf_counter()
        # One masked-LM batch per seed: padding and batch composition then depend on that seed
        # alone, so its fills (down to float rounding) are the same whichever seeds run with it,
        # and a suite regenerated from an empty cache is byte-identical to one built from a store
        # filled by another run (e.g. the all-SST benchmark).
        fills = []
        for s, own in masked_by_seed.items():
            if own:
                fills.extend(self.mlm.fill([(ms.tokens, ms.mask_positions) for ms in own], top_n=self.config.top_n, **self._lexicon(own, seed_tags[s])))
        t3 = time.perf_counter()
        # (b) first: a dictionary look-up that spares most spaCy runs
        pending: list[tuple[Tokens, Any, Any, Tokens]] = []
        n_fills = {s: 0 for s in chunk}
        for (s, ms), fl in zip(flat, fills):
            n_fills[s] += len(fl)
            st.fills += len(fl)
            for f in fl:
                if all(self._fill_ok(w, sym) for w, sym in zip(f.words, ms.mask_symbols)):
                    pending.append((s, ms, f, fill_in(ms.tokens, ms.mask_positions, f.words)))
        st.neutral += len(pending)
        tags = self.tagger.tag([p[3] for p in pending]) if pending else []
        accepted: dict[Tokens, dict[Tokens, ExpansionCandidate]] = {s: {} for s in chunk}
        for (s, ms, f, filled), tg in zip(pending, tags):
            if all(self._tag_ok(sym, tg[p]) for p, sym in zip(ms.mask_positions, ms.mask_symbols)):
                symbols = tuple(tg[p] for p in ms.mask_positions)  # the mask's symbol, or the family member tagged
                toks = place_fills(ms.tokens, ms.mask_positions, symbols, f.words, seed_tags[s])
                cand = ExpansionCandidate(
                    seed=s,
                    tokens=toks,
                    masks=tuple(MaskFill(p, sym, toks[p], sc) for p, sym, sc in zip(ms.mask_positions, symbols, f.probabilities)),
                    production=ms.production,
                    production_probability=round_prob(ms.probability),
                    score=f.score,
                    checks={"pos": True, "neutral": True},
                )
                old = accepted[s].get(toks)  # one expanded sentence reached twice: keep the better
                if old is None or _rank_key(cand) < _rank_key(old):
                    accepted[s][toks] = cand
        t4 = time.perf_counter()
        out: dict[Tokens, SeedResult] = {}
        for s, tree in zip(chunk, trees):
            cands = self._fluency(s, seed_tags.get(s, ()), sorted(accepted[s].values(), key=_rank_key))
            ok = tuple(c for c in cands if c.accepted)
            st.tagged += len(cands)
            st.accepted += len(ok)
            if tree is None:
                st.parse_failed += 1
                out[s] = SeedResult("parse_failed", (), failures.get(s, "parse failed"))
            else:
                st.masked += len(masked_by_seed[s])
                out[s] = SeedResult("ok", ok, None, len(masked_by_seed[s]), n_fills[s], tuple(c for c in cands if not c.accepted))
        t5 = time.perf_counter()
        for name, dt in (("parse", t1 - t0), ("mask", t2 - t1), ("fill", t3 - t2), ("validate", t4 - t3), ("fluency", t5 - t4)):
            st.seconds[name] += dt
        return out

    def _lexicon(self, own: list[Any], seed_tags: tuple[str, ...]) -> dict[str, Any]:
        """``MaskedLM.fill``'s intensifier arguments for one seed's masked sentences: adverb masks
        right before an adjective of the seed ("is [really] funny", "a [deeply] moving film") also
        get the masked LM's ``intensifier_fills`` best intensifiers, and its best
        ``DOWNTONER_FILLS`` downtoners, ranked on their own (three words among forty would rarely
        make the intensifiers' top). Not before verbs: a blind read of 60 such fills found degree
        words a verb does not take ("[completely] knows how", "[quite] feels like") in most of them."""
        n = self.config.intensifier_fills if self.config.slots == "kinds" else 0
        if not n:
            return {}
        from s2lct.expand.boosters import ADVERB_TAGS, downtoners, insertable_intensifiers

        where = frozenset(
            i for i, ms in enumerate(own)
            if len(ms.mask_positions) == 1 and ms.mask_symbols[0] in ADVERB_TAGS and ms.mask_positions[0] < len(seed_tags)
            and seed_tags[ms.mask_positions[0]] == "JJ"
        )
        if not where:
            return {}
        return {"lexicon": insertable_intensifiers(), "lexicon_n": n, "lexicon_for": where,
                "more_lexicons": ((downtoners(), DOWNTONER_FILLS),)}

    def _fluency(self, seed: Tokens, seed_tags: tuple[str, ...], cands: list[ExpansionCandidate]) -> list[ExpansionCandidate]:
        """The fluency checks over one seed's candidates (one seed at a time: batches, and thus
        scores, never depend on the other seeds of the run); their records join ``checks``."""
        if not cands or not self.fluency.checks:
            return cands
        items = [
            CheckItem(seed, seed_tags, c.tokens, tuple(m.position for m in c.masks), tuple(m.symbol for m in c.masks), c.production, c.score)
            for c in cands
        ]
        records = self.fluency.run(items, self)
        out = []
        for c, rec in zip(cands, records, strict=True):
            out.append(replace(c, checks={**c.checks, **rec}))
            first_fail = next((name for name, r in rec.items() if not r["pass"]), None)
            if first_fail:
                self.stats.rejected_by[first_fail] = self.stats.rejected_by.get(first_fail, 0) + 1
        return out
