"""Add syntax-based expansions to generated cases (METHOD.md §1.3 steps 6(c) and 7).

Every distinct seed sentence used by an expandable capability is expanded once by
``SeedExpander`` (parse → masks → fill-ins → PoS and neutrality checks → fluency checks,
resumable store); only candidates that passed every check come back. Then,
per capability, each candidate must still meet the search rules of its seed pool and survive the
slot's transform (e.g. it still has a copula to negate); the best ``max_per_seed`` survivors of a
seed case become new cases next to it, with the expansion recorded.
"""

from __future__ import annotations

import dataclasses

from collections.abc import Sequence
from typing import Any

from s2lct.corpus.annotate import AnnotatedSentence, annotate
from s2lct.corpus.polarity import get_polarity
from s2lct.corpus.shape import opening_dropped
from s2lct.corpus.sst import Sentence
from s2lct.corpus.tagging import get_tagger
from s2lct.expand.boosters import is_downtoner, is_intensifier, keeps_label
from s2lct.expand.expander import ExpansionCandidate, SeedExpander
from s2lct.expand.read_ranker import ReadRanker, read_score
from s2lct.expand.slots import kind_of
from s2lct.expand.tally import ExpansionTally, expansion_off
from s2lct.generate.cases import build_case
from s2lct.generate.search import matches_any
from s2lct.generate.transforms import TransformError, Variant, apply_ops
from s2lct.progress import ProgressFactory
from s2lct.spec import SeedSlot
from s2lct.suite import CapabilityResult
from s2lct.text import detokenize


#: no inserted word (or word sequence) may make more than this share of the suite's expansions
#: (issue 22: one frequent filler, "really", otherwise makes half of them)
MAX_WORD_SHARE = 0.15


def _expandable(results: Sequence[CapabilityResult]) -> list[CapabilityResult]:
    return [r for r in results if expansion_off(r.spec) is None]


def excluded_fills(spec: Any) -> frozenset[str]:
    """The fills a capability's frames cannot take (``expansion.exclude_fills``), lower-cased."""
    return frozenset(w.lower() for w in spec.expansion.exclude_fills)


def seeds_to_expand(results: Sequence[CapabilityResult]) -> list[tuple[str, ...]]:
    """Every distinct seed sentence the cases of these capabilities were built from, in first-use order."""
    seeds: dict[tuple[str, ...], None] = {}
    for r in _expandable(results):
        for _template, _options, bound in r.origins.values():
            for seed, _variant in bound.values():
                seeds.setdefault(seed.tokens, None)
    return list(seeds)


def expand_results(
    results: list[CapabilityResult], progress: ProgressFactory, expander: SeedExpander | None = None,
    word_share: float | None = MAX_WORD_SHARE, ranker: ReadRanker | bool | None = True,
) -> dict[str, Any]:
    """Append expanded cases to each result in place; return manifest information and, under
    ``"tallies"``, an ``ExpansionTally`` per capability (why it got the expansions it got).

    Under the slot-kind engine no inserted word makes more than ``word_share`` of the suite's
    expansions (``None``: no cap), and ``ranker`` (``True``: the head trained on the blind reads,
    over the expander's masked LM; ``None``: the fill probability alone) ranks and floors the
    accepted candidates."""
    todo = _expandable(results)
    seeds = seeds_to_expand(todo)
    expander = expander or pipeline_expander()
    task = progress("expanding seeds (seeds/s)", len(seeds))
    seed_results = expander.expand_results(seeds, on_progress=task.advance)
    task.close()
    spread = getattr(getattr(expander, "config", None), "slots", "paper") == "kinds"  # the paper's engine: best score only
    ranker = (ReadRanker(expander.mlm) if ranker is True else ranker or None) if spread else None
    if ranker is not None:  # ranked and floored by the head trained on the blind reads
        seed_results = ranker.mark(seed_results)
    candidates = {s: list(r.candidates) for s, r in seed_results.items()}
    annotated = _annotate_candidates(candidates)
    tallies = {r.spec.id: ExpansionTally(off=expansion_off(r.spec)) for r in results}
    uses: dict[str, int] = {}  # inserted word → expansions so far, over the suite (capabilities in order)
    for r in todo:
        tally = tallies[r.spec.id]
        tally.add_seeds(seed_results[s] for s in seeds_to_expand([r]))
        _add_expansions(r, candidates, annotated, tally, spread, uses)
        r.extra["expansion"] = {"max_per_seed": r.spec.expansion.max_per_seed, "word_rule": r.spec.expansion.word_rule,
                                **({"exclude_fills": sorted(excluded_fills(r.spec))} if r.spec.expansion.exclude_fills else {})}
    if spread and word_share is not None:
        _cap_suite(todo, tallies, word_share)
    for r in todo:
        _count_cases(r, seed_results, tallies[r.spec.id])
    stats = expander.stats
    return {
        "resources": expander.resources(),
        "checks": _checks_description(expander, ranker),
        "stats": {"seeds": stats.seeds, "computed": stats.computed, "parse_failed": stats.parse_failed, "accepted": stats.accepted},
        "tallies": tallies,
    }


#: intensifiers the masked LM ranks at each adverb slot before an adjective (``generate``'s engine)
INTENSIFIER_FILLS = 6


def pipeline_expander(engine: Any = None) -> SeedExpander:
    """The expander ``generate`` uses: the slot-kind policy (issue 22) with intensifier fills, or the
    paper's slots (METHOD §1.3 as written) when ``S2LCT_EXPANSION_SLOTS=paper``; ``engine``
    (``s2lct.scale.engine``) decides where its chunks are computed."""
    import os

    from s2lct.expand.expander import SLOT_POLICIES, ExpansionConfig

    slots = os.environ.get("S2LCT_EXPANSION_SLOTS", "kinds")
    if slots not in SLOT_POLICIES:
        from s2lct.errors import S2LCTError

        raise S2LCTError(f"S2LCT_EXPANSION_SLOTS: unknown slot policy {slots!r}; valid: {', '.join(SLOT_POLICIES)}")
    config = ExpansionConfig(slots=slots, intensifier_fills=INTENSIFIER_FILLS if slots == "kinds" else 0)
    return engine.expander(config) if engine is not None else SeedExpander(config)


def _checks_description(expander: SeedExpander, ranker: ReadRanker | None = None) -> dict[str, Any]:
    """What the manifest records of the validation: the fixed checks, the fluency checks with
    their versions and thresholds, and the read ranker (slot-kind engine)."""
    fluency = getattr(expander, "fluency", None)
    out = {"fixed": ["pos", "neutral", "search"], "fluency": fluency.description() if fluency is not None else None}
    return {**out, "ranker": ranker.description()} if ranker is not None else out


def repeats_neighbour(c: ExpansionCandidate) -> bool:
    """A fill equal to the word before or after it ("ever ever", "then then") is the masked LM's
    commonest degenerate answer; it passes the PoS and neutrality checks but is not realistic (G1)."""
    toks = [t.lower() for t in c.tokens]
    for m in c.masks:
        p = m.position
        if (p > 0 and toks[p - 1] == toks[p]) or (p + 1 < len(toks) and toks[p + 1] == toks[p]):
            return True
    return False


def so_after_comma(c: ExpansionCandidate) -> bool:
    """An inserted "so" right after a comma reads as the connective ("therefore"), not as the
    degree word it was offered as: "His characters are engaging, [so] intimate and ...", "in a
    word, [so] brilliant" (read 24). The PoS check cannot tell: both are RB."""
    return any(m.word.lower() == "so" and m.position > 0 and c.tokens[m.position - 1] == "," for m in c.masks)


def _words(c: ExpansionCandidate) -> str:
    return " ".join(m.word.lower() for m in c.masks)


def _fill_after_negation(c: ExpansionCandidate, variant: Variant) -> bool:
    """An inserted word right after a negation the transform made ("This is [probably] a mess" →
    "This isn't probably a mess"): the adverb then reads as negated, or not at all. Intensifiers
    too: "isn't [extremely] bad" implies it is somewhat bad, so the negated case's label would be
    in dispute (only some, "not very", "not really", read as a plain negation)."""
    fills = {m.word.lower() for m in c.masks}
    toks = [t.lower() for t in variant.tokens]
    return any(t in fills and toks[i - 1] in ("not", "n't") for i, t in enumerate(toks) if i)


def _slot_softens(ops: Sequence[Any]) -> bool:
    """Whether a slot's ops insert a downtoner (LC12's "somewhat", "rather", "fairly"): a degree word
    filled anywhere in that seed pulls against it ("is [rather] sappy and [particularly] amateurish",
    seen reading LC12's softened-in-a-list cases), whatever the case's expected labels."""
    from s2lct.expand.checks.degree_words import DOWNTONERS
    from s2lct.spec.templates import Insert

    # VADER's decrementers lack "rather" and "fairly"; the reading rules' list has them
    return any(isinstance(op, Insert) and any(is_downtoner(w, op.tag) or w.lower() in DOWNTONERS for w in op.insert) for op in ops)


def _fill_by_template_degree(c: ExpansionCandidate, seed_tokens: Sequence[str], variant: Variant) -> bool:
    """An adverb fill within two words of a degree word the template itself inserted (LC12: "It
    [really] is truly amusing", "The story [really] is very bogus", "A comedy that [sometimes] is
    somewhat warm", blind reads): the template grades that predicate, and a second adverb there
    doubles or hedges it."""
    from difflib import SequenceMatcher

    from s2lct.expand.boosters import ADVERB_TAGS, is_downtoner
    from s2lct.expand.checks.degree_words import DEGREE_EMPHASIS, is_degree_word

    fills = [m for m in c.masks if m.symbol in ADVERB_TAGS]
    if not fills:
        return False
    toks = [t.lower() for t in variant.tokens]
    ops = SequenceMatcher(None, [t.lower() for t in seed_tokens], toks, autojunk=False).get_opcodes()
    inserted = [j for tag, _i1, _i2, j1, j2 in ops if tag == "insert" for j in range(j1, j2)]
    degree = [j for j in inserted if is_degree_word(toks[j]) or toks[j] in DEGREE_EMPHASIS or is_downtoner(toks[j], "RB")]
    words = {m.word.lower() for m in fills}
    return any(toks[k] in words and k != j for j in degree for k in range(max(0, j - 2), min(len(toks), j + 3)))


def _annotate_candidates(candidates: dict[tuple[str, ...], list[ExpansionCandidate]]) -> dict[tuple[str, ...], tuple[tuple[str, ...], frozenset[str], frozenset[str], int]]:
    """Tags and word classes of every expanded sentence, tagged in one batch."""
    distinct = list(dict.fromkeys(c.tokens for cands in candidates.values() for c in cands))
    tags = get_tagger().tag(distinct) if distinct else []
    polarity = get_polarity()
    out = {}
    for tokens, tg in zip(distinct, tags, strict=True):
        a = annotate(Sentence(tokens, "", "neutral", "", 0), tg, polarity)
        out[tokens] = (a.tags, a.word_classes, a.words, a.n_words)
    polarity.save()
    return out


def _as_seed(original: AnnotatedSentence, tokens: tuple[str, ...], info: tuple[Any, ...]) -> AnnotatedSentence:
    """The expanded sentence with the original seed's label, provenance, phrase labels and shape.

    The fill-ins are pure neutral words inserted under the seed's own productions, so the seed's
    phrase labels and clause shape stand for the expanded sentence's; positions (finite verbs, the
    predicate's start, phrase ends) move right by the words inserted before them.
    """
    s = original.sentence
    tags, classes, words, n_words = info
    where = _positions_in(original.tokens, tokens)

    def moved(end: int) -> int:  # an end (one past a word) follows its last word
        return where[end - 1] + 1 if end else 0

    syntax = original.syntax
    if syntax is not None:
        predicate = moved(syntax.predicate) if syntax.predicate is not None else None
        syntax = dataclasses.replace(syntax, finite=tuple(where[i] for i in syntax.finite), predicate=predicate)
    first_end = tuple(moved(e) for e in s.phrase_first_end) if s.phrase_first_end is not None else None
    sentence = Sentence(tokens, detokenize(tokens), s.label, s.split, s.index, s.source, s.fine_label, s.phrase_labels, s.phrase_longest, first_end)  # type: ignore[arg-type]
    return AnnotatedSentence(sentence, tags, classes, words, n_words, original.shape, original.first_keeps_capital, syntax)


def _positions_in(seed: Sequence[str], expanded: Sequence[str]) -> list[int]:
    """Where each token of ``seed`` sits in ``expanded`` (the seed with words inserted)."""
    out, j = [], 0
    for tok in seed:
        while expanded[j].lower() != tok.lower():
            j += 1
        out.append(j)
        j += 1
    return out


def _count_cases(r: CapabilityResult, seed_results: dict[tuple[str, ...], Any], tally: ExpansionTally) -> None:
    """Template cases with an expansion, and for each one without, why (``reasons.case_reason``)."""
    from s2lct.expand.reasons import case_reason, seed_reason

    expanded = {c.expansion["seed_case"] for c in r.cases if c.expansion is not None}
    reasons: dict[str, int] = {}
    for case in r.cases:
        if case.expansion is not None or case.id in expanded:
            continue
        _template, _options, bound = r.origins[case.id]
        why = case_reason(seed_reason(seed_results[seed.tokens]) for seed, _variant in bound.values() if seed.tokens in seed_results)
        reasons[why] = reasons.get(why, 0) + 1
    tally.expanded_cases = len(expanded)
    tally.none_reasons = dict(sorted(reasons.items()))


def _cap_suite(results: Sequence[CapabilityResult], tallies: dict[str, ExpansionTally], share: float) -> None:
    """``cap_word_share`` over every expansion of the suite (the target is the suite's: a capability
    with few distinct fills keeps them when the others bring variety); dropped ones are counted."""
    pairs = [(r, c) for r in results for c in r.cases if c.expansion is not None]
    kept = cap_word_share([c for _, c in pairs], share)
    dropped = {(r.spec.id, c.id) for (r, c), k in zip(pairs, kept) if k is None}
    for r in results:
        before = len(r.cases)
        r.cases = [c for c in r.cases if (r.spec.id, c.id) not in dropped]
        tally = tallies[r.spec.id]
        tally.word_cap += before - len(r.cases)
        tally.expansions = sum(c.expansion is not None for c in r.cases)


def cap_word_share(cases: list[Any], share: float) -> list[Any]:
    """``cases`` (expanded cases) with the fewest dropped, as ``None`` in place, so that no inserted
    word makes more than ``share`` of those kept. The dropped ones of a word are first those whose
    seed case keeps another expansion, then the lowest read score (``read_ranker``), then the
    lowest fill probability, then the latest id, so the result is
    the same whatever order the cases came in; a word may always keep one expansion."""
    words = [" ".join(m["word"].lower() for m in c.expansion["masks"]) for c in cases]
    kept = list(range(len(cases)))
    while kept:
        counts: dict[str, int] = {}
        for i in kept:
            counts[words[i]] = counts.get(words[i], 0) + 1
        top = max(sorted(counts), key=lambda w: counts[w])
        if counts[top] <= max(1, int(share * len(kept))):
            break
        per_case: dict[str, int] = {}
        for i in kept:
            per_case[cases[i].expansion["seed_case"]] = per_case.get(cases[i].expansion["seed_case"], 0) + 1
        worst = min(
            (i for i in kept if words[i] == top),
            key=lambda i: (per_case[cases[i].expansion["seed_case"]] == 1, read_score(cases[i].expansion.get("checks", {}), cases[i].expansion["score"]), cases[i].expansion["score"], [-ord(ch) for ch in cases[i].id]),
        )
        kept.remove(worst)
    keep = set(kept)
    return [c if i in keep else None for i, c in enumerate(cases)]


def _add_expansions(r: CapabilityResult, candidates, annotated, tally: ExpansionTally, spread: bool = False,
                    uses: dict[str, int] | None = None) -> None:
    """With ``spread``, a seed case's k expansions prefer the inserted words used least so far
    (``uses``, shared over the suite's capabilities; cases in id order), then the best score: one
    frequent filler ("really") then does not take every slot where another fluent word passed too."""
    spec, k = r.spec, r.spec.expansion.max_per_seed
    uses = {} if uses is None else uses
    kinds = None if r.spec.expansion.kinds is None else frozenset(r.spec.expansion.kinds)
    excluded = excluded_fills(r.spec)
    new_cases = []
    for case in list(r.cases):
        template, options, bound = r.origins[case.id]
        slots = {p.name: p for p in template.parts if isinstance(p, SeedSlot)}
        accepted: list[tuple[ExpansionCandidate, str, AnnotatedSentence, Variant]] = []
        for slot_name, (seed, variant) in bound.items():
            slot = slots[slot_name]
            rules = spec.seeds[slot.seed].any_of
            first = opening_dropped(seed.tokens) + 1  # the capital evidence is for the word a frame embeds first
            softens = _slot_softens(slot.ops)
            for c in candidates.get(seed.tokens, ()):  # order is irrelevant: `accepted` is sorted below
                if repeats_neighbour(c):
                    tally.repeats += 1
                    continue
                if so_after_comma(c):
                    tally.connective_so += 1
                    continue
                if not keeps_label([(m.word, m.symbol) for m in c.masks], seed.sentence.label, case.expected):
                    tally.capability_rules += 1  # an intensifier in a neutral seed, or in one the case denies
                    continue
                if softens and any(is_intensifier(m.word, m.symbol) or is_downtoner(m.word, m.symbol) for m in c.masks):
                    tally.capability_rules += 1  # a degree word where the template softens: "is [rather] sappy and [particularly] amateurish"
                    continue
                if excluded and any(m.word.lower() in excluded for m in c.masks):
                    tally.capability_rules += 1  # a word the capability's frames cannot take ("Do I think that it is [probably] ...?")
                    continue
                if kinds is not None and kind_of(c.production.split(" -> ")[0], tuple(m.symbol for m in c.masks)) not in kinds:
                    tally.capability_rules += 1  # a slot kind the spec does not allow
                    continue
                exp = _as_seed(seed, c.tokens, annotated[c.tokens])
                if not matches_any(rules, exp):  # check (c): the seed's search rules still hold
                    tally.search += 1
                    continue
                try:  # the slot's transform must still apply and give the same variant
                    keep = exp.first_keeps_capital if exp.tokens[:first] == seed.tokens[:first] else None
                    same = [v for v in apply_ops(exp.tokens, exp.tags, slot.ops, keep, exp.syntax.finite if exp.syntax else ()) if v.name == variant.name]
                except TransformError:
                    same = []
                if same and _fill_after_negation(c, same[0]):
                    tally.capability_rules += 1  # a fill right after the negation the transform made
                elif same and _fill_by_template_degree(c, exp.tokens, same[0]):
                    tally.capability_rules += 1  # an adverb fill next to the template's own degree word
                elif same:
                    accepted.append((c, slot_name, seed, same[0]))
                else:
                    tally.transform += 1
        accepted.sort(key=lambda t: (uses.get(_words(t[0]), 0) if spread else 0, -read_score(t[0].checks, t[0].score), -t[0].score, -t[0].production_probability, t[1], t[0].tokens))
        tally.beyond_k += max(0, len(accepted) - k)
        for c, slot_name, seed, variant in accepted[:k]:
            uses[_words(c)] = uses.get(_words(c), 0) + 1
            new_bound = dict(bound)
            new_bound[slot_name] = (seed, variant)
            record = c.expansion_record(detokenize, seed_case=case.id, seed_text=seed.text, slot=slot_name, checks={"search": True})
            new_cases.append(build_case(spec, template, options, new_bound, expansion=record))
    merged = {c.id: c for c in r.cases}
    for c in new_cases:
        merged.setdefault(c.id, c)
    r.cases = [merged[i] for i in sorted(merged)]
    tally.expansions = sum(c.expansion is not None for c in r.cases)
