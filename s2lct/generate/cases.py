"""Seeds and template cases: search a capability's seed pools and apply its templates.

Every random choice (sampling seeds and cases, choosing partner seeds) ranks candidates by a
SHA-256 of ``--seed``, the capability and the candidate's identity (its corpus position, template,
frame options, variant), not by their place in a list. So the same inputs and seed give the same
cases regardless of ``PYTHONHASHSEED``, and a rule that narrows a pool (or a seed review that
leaves seeds out) removes exactly the cases on the seeds it removes: every other case keeps its
rank and stays, and the freed places go to the next cases in rank, not to a reshuffled draw.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from s2lct.corpus.annotate import AnnotatedSentence
from s2lct.generate.search import fit_failures, search_pools_counted
from s2lct.generate.transforms import (
    Piece,
    TransformError,
    Variant,
    apply_ops,
    join_pieces,
    variant_text,
)
from s2lct.errors import S2LCTError
from s2lct.spec import CapabilitySpec, SeedLabel, SeedSlot, Template
from s2lct.spec.review import loaded, seed_key
from s2lct.suite import CapabilityResult, Case, case_id, seed_ref


def _options(part: Any) -> list[str]:
    return [part] if isinstance(part, str) else list(part)


@dataclass(frozen=True, slots=True)
class _SeedVariants:
    seed: AnnotatedSentence
    variants: tuple[Variant, ...]


def _pool_variants(pool: Sequence[AnnotatedSentence], slot: SeedSlot) -> tuple[list[_SeedVariants], int, int]:
    """The pool's seeds that fit the slot's frame (``accepts``), with their variants; and how many
    did not fit, and how many the operations could not transform."""
    out, unfit, skipped = [], 0, 0
    for s in pool:
        if slot.accepts is not None and fit_failures(slot.accepts, s):
            unfit += 1
            continue
        try:
            finite = s.syntax.finite if s.syntax is not None else ()
            out.append(_SeedVariants(s, tuple(apply_ops(s.tokens, s.tags, slot.ops, s.first_keeps_capital, finite))))
        except TransformError:
            skipped += 1
    return out, unfit, skipped


def _slot_key(slot: SeedSlot) -> tuple[str, str, str, str]:
    return (slot.seed, slot.name, repr(slot.ops), repr(slot.accepts))


#: a partner seed is drawn from the primary seed's block, about this many seeds of the partner pool:
#: drawn from the whole pool, pairs join every seed of LC8 into one group through shared cases and
#: no split by seed sentence can hold one out (issue 24); within blocks, LC8 falls into 16 groups.
#: Four, not six: LC8's smaller pools (163 seed sentences) fell into eight blocks, too few groups for
#: the retrain split once a template is held out
PARTNER_BLOCK_SEEDS = 4


def _block(seed: AnnotatedSentence, blocks: int) -> int:
    digest = hashlib.sha256(f"{seed.sentence.split}:{seed.sentence.index}".encode()).hexdigest()
    return int(digest[:12], 16) % blocks


def _partner_blocks(spec: CapabilitySpec, variants: dict[tuple[str, str, str, str], list[_SeedVariants]]) -> int:
    """How many blocks the capability's seeds fall into: its smallest partner pool over
    ``PARTNER_BLOCK_SEEDS``, rounded down to a power of two, so that a rule that narrows a pool by
    a few seeds leaves the blocks (and so every other case's partner) as they were."""
    sizes = [len(variants[_slot_key(slot)]) for t in spec.templates for slot in t.drawn()[1:]]
    return 1 << (max(1, min(sizes, default=0) // PARTNER_BLOCK_SEEDS).bit_length() - 1)


def _by_block(pool: list[_SeedVariants], blocks: int) -> dict[int, list[_SeedVariants]]:
    """The pool's seeds grouped by block (hashed once per pool, not once per case)."""
    out: dict[int, list[_SeedVariants]] = {}
    for sv in pool:
        out.setdefault(_block(sv.seed, blocks), []).append(sv)
    return out


def rank(*parts: object) -> int:
    """A candidate's place in a draw: the SHA-256 of what identifies it (``--seed``, capability,
    the candidate itself), so its place does not depend on which other candidates there are."""
    return int(hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:16], 16)


def sample_pools(spec: CapabilitySpec, pools: dict[str, list[AnnotatedSentence]], seed: int) -> dict[str, list[AnnotatedSentence]]:
    out = {}
    for name, found in pools.items():
        limit = spec.seeds[name].max_seeds
        if limit is not None and len(found) > limit:
            keep = sorted(sorted(range(len(found)), key=lambda i: rank(seed, spec.id, "pool", name, _key_of(found[i])))[:limit])
            found = [found[i] for i in keep]
        out[name] = found
    return out


def _key_of(seed: AnnotatedSentence) -> str:
    return seed_key(seed.sentence.source, seed.sentence.split, seed.sentence.index)


def reviewed_out(spec: CapabilitySpec, pools: dict[str, list[AnnotatedSentence]]) -> frozenset[str]:
    """Keys of the pools' seeds that the spec's seed review leaves out; a verdict whose text is
    not the corpus sentence at its key is an error (the review was made on other data)."""
    review = spec.sampling.seed_review
    if review is None:
        return frozenset()
    found = loaded(review)
    rows = found.flagged(review.exclude)
    out = set()
    for pool in pools.values():
        for s in pool:
            key = _key_of(s)
            row = found.rows.get(key)
            if row is not None and row.text != s.text:
                raise S2LCTError(
                    f"{found.path}:{row.line}: the verdict on {key} is for {row.text!r}, but the corpus has {s.text!r} there; "
                    "the review was made on other data: review the seed again or remove the line"
                )
            if key in rows:
                out.add(key)
    return frozenset(out)


def names_something(seed: AnnotatedSentence) -> bool:
    """Whether the seed names anyone or anything: a capitalised word inside it other than "I", or a
    first word the corpus writes capitalised inside sentences (``first_keeps_capital``)."""
    if seed.first_keeps_capital or (seed.first_keeps_capital is None and seed.tags[:1] in (("NNP",), ("NNPS",))):
        return True
    return any(t[:1].isupper() and t != "I" and not t.startswith("I'") for t in seed.tokens[1:])


def _partner(
    by_block: dict[int, list[_SeedVariants]],
    block: int,
    blocks: int,
    case: tuple[object, ...],
    allowed: Callable[[_SeedVariants], bool] | None = None,
) -> _SeedVariants | None:
    """The partner of the case identified by ``case``: of the seeds in ``block`` (``by_block`` holds
    only those the review keeps; when ``block`` has none that ``allowed`` admits, the next block that
    has one), the one ranked first for this case. Ranked, not drawn by position: a seed leaving the
    block changes only the cases it was the partner of (rendezvous hashing)."""
    for step in range(blocks):
        kept = by_block.get((block + step) % blocks)
        if kept and allowed is not None:
            kept = [sv for sv in kept if allowed(sv)]
        if kept:
            return min(kept, key=lambda sv: rank(*case, _key_of(sv.seed)))
    return None


def build_case(
    spec: CapabilitySpec,
    template: Template,
    option_choice: Sequence[str],
    bound: dict[str, tuple[AnnotatedSentence, Variant]],
    texts: dict[str, str] | None = None,
    expansion: dict[str, Any] | None = None,
) -> Case:
    """Assemble one case from chosen literal options and bound seed variants (slot → seed, variant)."""
    pieces, opts = [], iter(option_choice)
    for part in template.parts:
        if isinstance(part, SeedSlot):
            seed, variant = bound[part.name]
            text = texts[part.name] if texts and part.name in texts else variant_text(variant)
            pieces.append(Piece(text, "seed", seed.label, part.name))
        else:
            pieces.append(Piece(next(opts), "template"))
    text, fragments = join_pieces(pieces)
    if isinstance(template.expected, SeedLabel):
        expected: tuple[str, ...] = (bound[template.expected.seed_label][0].label,)
    else:
        expected = tuple(sorted(set(template.expected)))
    seeds = tuple(seed_ref(name, s) for name, (s, _) in bound.items())
    transform = "+".join(v.name for _, v in bound.values() if v.name != "none") or "none"
    key = [template.id, transform, text, *(f"{r.slot}:{r.source}:{r.split}:{r.index}" for r in seeds)]
    if expansion is not None:
        key.append(expansion.get("seed_case", ""))
    return Case(case_id(spec.id, *key), spec.id, text, expected, template.id, transform, seeds, fragments, expansion)


def spread_sample(
    keys: list[tuple[int, int, int, int]],
    limit: int,
    identity: Callable[[tuple[int, int, int, int]], int],
) -> list[tuple[int, int, int, int]]:
    """``limit`` of the (template, primary seed, combination, variant) keys, sorted, drawn so that
    every primary seed is used once before any is used twice (issue 23: with fewer seeds than
    cases, a plain sample repeats some seeds three or four times in frames that differ by a word,
    and the suite reads as near-duplicates). The draw order is ``identity`` (a ``rank``), so a key
    that is not there (its seed left the pool) moves no other key of another seed."""
    order = sorted(keys, key=identity)
    seen: dict[tuple[int, int], int] = {}
    ranked = []
    for pos, key in enumerate(order):
        primary = (key[0], key[1])
        ranked.append((seen.get(primary, 0), pos, key))
        seen[primary] = seen.get(primary, 0) + 1
    return sorted(key for _, _, key in sorted(ranked)[:limit])


#: ``max_cases`` for :func:`build_capability` that keeps every candidate case (``None`` means the
#: spec's own limit): INV/DIR capabilities sample after perturbing, among the cases it applies to
NO_SAMPLING = 2**62


def build_capability(spec: CapabilitySpec, corpus: Sequence[AnnotatedSentence], seed: int, max_cases: int | None = None) -> CapabilityResult:
    """Search seeds and apply the templates; sample at most ``max_cases`` cases (spec value if None)."""
    found, removed = search_pools_counted(spec, corpus)
    pools = sample_pools(spec, found, seed)
    limit = max_cases if max_cases is not None else spec.sampling.max_cases
    # keyed by the operations too: two templates may use the same pool and slot name with different ops
    variants: dict[tuple[str, str, str], list[_SeedVariants]] = {}
    skipped = 0
    unfit: dict[str, int] = {}  # template/slot → seeds of the pool its frame does not accept
    keys: list[tuple[int, int, int, int]] = []  # (template, primary seed, option combo, variant)
    combos: list[list[tuple[str, ...]]] = []
    for t_index, template in enumerate(spec.templates):
        for slot in template.slots():
            if _slot_key(slot) not in variants:
                variants[_slot_key(slot)], n_unfit, n_skip = _pool_variants(pools[slot.seed], slot)
                skipped += n_skip if slot is template.drawn()[0] else 0
                if slot.accepts is not None:
                    unfit[f"{template.id}/{slot.name}"] = n_unfit
        literal = [_options(p) for p in template.parts if not isinstance(p, SeedSlot)]
        combos.append(list(itertools.product(*literal)))
        primary = template.drawn()[0]
        for i, sv in enumerate(variants[_slot_key(primary)]):
            for c in range(len(combos[-1])):
                for v in range(len(sv.variants)):
                    keys.append((t_index, i, c, v))
    flagged = reviewed_out(spec, pools)
    primaries = [variants[_slot_key(t.drawn()[0])] for t in spec.templates]
    keys = [k for k in keys if _key_of(primaries[k[0]][k[1]].seed) not in flagged]
    candidates = len(keys)

    def identity(key: tuple[int, int, int, int]) -> int:
        t_index, i, c, v = key
        sv = primaries[t_index][i]
        return rank(seed, spec.id, "cases", spec.templates[t_index].id, _key_of(sv.seed), c, sv.variants[v].name)

    if limit is not None and candidates > limit:
        keys = spread_sample(keys, limit, identity)
    cases: dict[str, Case] = {}
    origins = {}
    blocks = _partner_blocks(spec, variants)
    pool_blocks: dict[tuple[str, str, str, str], dict[int, list[_SeedVariants]]] = {}
    for t_index, i, c, v in keys:
        template = spec.templates[t_index]
        slots = template.drawn()
        primary = variants[_slot_key(slots[0])][i]
        bound = {slots[0].name: (primary.seed, primary.variants[v])}
        named = template.names_in_one_slot and names_something(primary.seed)
        for other in slots[1:]:
            pool = variants[_slot_key(other)]
            if not pool:
                break
            # keyed by the case, not only its primary seed: a seed used twice gets two partners, not two
            # near-identical cases that differ only in the frame
            case_key = (seed, spec.id, template.id, other.name, _key_of(primary.seed), c, primary.variants[v].name)
            if _slot_key(other) not in pool_blocks:  # the review's flags applied once per pool, not per case
                pool_blocks[_slot_key(other)] = _by_block([sv for sv in pool if _key_of(sv.seed) not in flagged], blocks)
            allowed = (lambda sv: not names_something(sv.seed)) if named else None
            partner = _partner(pool_blocks[_slot_key(other)], _block(primary.seed, blocks), blocks, case_key, allowed)
            if partner is None:
                break
            named = named or (template.names_in_one_slot and names_something(partner.seed))
            bound[other.name] = (partner.seed, min(partner.variants, key=lambda pv: rank(*case_key, _key_of(partner.seed), pv.name)))
        else:
            bound = {s.name: bound[s.name] for s in template.slots()}  # in the template's order, as the text reads
            case = build_case(spec, template, combos[t_index][c], bound)
            if case.id not in cases:
                cases[case.id] = case
                origins[case.id] = (template, combos[t_index][c], bound)
    ordered = [cases[k] for k in sorted(cases)]
    extra: dict[str, Any] = {"seeds_removed_by_rule": removed} if removed else {}
    if spec.sampling.seed_review is not None:
        extra["seeds_removed_by_review"] = len(flagged)  # reviewed_out keeps only the pools' seeds
    if unfit:
        extra["seeds_unfit_by_slot"] = unfit
    return CapabilityResult(spec, ordered, pools, candidates, skipped, extra=extra, origins=origins)
