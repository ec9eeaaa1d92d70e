"""Per-capability use of expansions: check (c), transform re-application, best-k, case records."""

from __future__ import annotations

import pytest

from s2lct.config import get_settings
from s2lct.corpus.annotate import load_annotated_corpus
from s2lct.expand.expander import ExpansionCandidate, ExpansionStats, MaskFill, SeedResult
from s2lct.expand.suite_expansion import expand_results, repeats_neighbour, so_after_comma
from s2lct.generate.cases import build_capability
from s2lct.spec import load_specs


@pytest.fixture(scope="module")
def corpus():
    return load_annotated_corpus(get_settings())[0]


@pytest.fixture(scope="module")
def specs(repo_dir):
    return {s.id: s for s in load_specs([repo_dir / "specs"])}


def insert(seed: tuple[str, ...], pos: int, word: str, symbol: str, score: float) -> ExpansionCandidate:
    tokens = seed[:pos] + (word,) + seed[pos:]
    return ExpansionCandidate(seed, tokens, (MaskFill(pos, symbol, word, score),), f"X -> {symbol}", 0.1, score, {"pos": True, "neutral": True})


class FakeExpander:
    """Stands in for SeedExpander: fixed candidates per seed (``make`` may return a whole SeedResult)."""

    def __init__(self, make):
        self.make = make
        self.stats = ExpansionStats()
        self.asked: list[tuple[str, ...]] = []

    def expand_results(self, seeds, on_progress=None):
        self.asked = list(seeds)
        self.stats.seeds = len(seeds)
        if on_progress:
            on_progress(len(seeds))
        made = {s: self.make(s) for s in seeds}
        return {s: r if isinstance(r, SeedResult) else SeedResult("ok", tuple(r), None, 1, len(r)) for s, r in made.items()}

    def resources(self):
        return {"parser": "fake", "mlm": "fake"}


def no_progress(description, total):
    from s2lct.progress import ProgressTask

    return ProgressTask()


def test_lc4_keeps_best_k_that_still_meet_the_rules(corpus, specs):
    spec = specs["LC4"].model_copy(update={"expansion": specs["LC4"].expansion.model_copy(update={"max_per_seed": 2})})
    result = build_capability(spec, corpus, seed=0)
    before = {c.id: c for c in result.cases}

    def make(seed):
        last = len(seed) - 1
        return sorted(
            [
                insert(seed, last, "indeed", "RB", 0.9),  # valid, best
                insert(seed, 1, "now", "RB", 0.8),  # breaks "^(This|...) (is|are)" → rejected by (c)
                insert(seed, last, seed[last - 1], "NN", 0.7),  # repeats its neighbour → rejected
                insert(seed, last, "here", "RB", 0.5),  # valid, second
                insert(seed, last, "there", "RB", 0.1),  # valid, but beyond k=2
            ],
            key=lambda c: -c.score,
        )

    fake = FakeExpander(make)
    info = expand_results([result], no_progress, expander=fake)
    assert info["resources"] == {"parser": "fake", "mlm": "fake"}
    # each distinct seed sentence is expanded once, though it backs two cases (is not / isn't)
    assert len(fake.asked) == len(set(fake.asked)) == len({c.seeds[0].index for c in before.values()})
    expanded = [c for c in result.cases if c.expansion is not None]
    assert len(expanded) == 2 * len(before)
    by_seed_case: dict[str, list] = {}
    for c in expanded:
        by_seed_case.setdefault(c.expansion["seed_case"], []).append(c)
    assert set(by_seed_case) == set(before)
    for seed_case_id, exps in by_seed_case.items():
        seed_case = before[seed_case_id]
        assert [c.expansion["masks"][0]["word"] for c in exps] in (["indeed", "here"], ["here", "indeed"])
        for c in exps:
            assert c.expected == seed_case.expected and c.transform == seed_case.transform
            assert c.seeds == seed_case.seeds  # provenance stays the real sentence
            assert c.expansion["checks"] == {"pos": True, "neutral": True, "search": True}
            assert c.expansion["seed_text"] == seed_case.seeds[0].text
            assert all(c.text[f.start : f.end] == f.text for f in c.fragments)
            assert ("is not" in c.text) == ("is not" in seed_case.text)  # the same negation variant
    assert [c.id for c in result.cases] == sorted(c.id for c in result.cases)
    # the tally follows each candidate: per seed case one repeat, one search-rule drop, one beyond k=2
    tally = info["tallies"]["LC4"]
    n = len(before)
    assert (tally.repeats, tally.search, tally.transform, tally.beyond_k, tally.expansions) == (n, n, 0, n, 2 * n)
    assert tally.seeds == len(fake.asked) and tally.fills == 5 * len(fake.asked) and tally.reason() is None


def test_a_capability_without_expansions_says_which_checks_dropped_what(corpus, specs):
    result = build_capability(specs["LC4"], corpus, seed=0)
    pll_fail = {"pos": True, "neutral": True, "first_word": {"pass": True, "score": 0}, "pll": {"pass": False, "score": -9.0}}

    def make(seed):  # 4 fills: 2 fail PoS/neutrality, 1 the pll check, 1 repeats its neighbour
        last = len(seed) - 1
        rejected = ExpansionCandidate(seed, seed[:last] + ("so",) + seed[last:], (MaskFill(last, "RB", "so", 0.5),), "X -> RB", 0.1, 0.5, pll_fail)
        return SeedResult("ok", (insert(seed, last, seed[last - 1], "NN", 0.7),), None, 2, 4, (rejected,))

    fake = FakeExpander(make)
    info = expand_results([result], no_progress, expander=fake)
    seeds, cases = len(fake.asked), len(result.cases)
    assert not any(c.expansion for c in result.cases)
    assert info["tallies"]["LC4"].reason() == (
        f"all {4 * seeds} fills of {seeds} seeds rejected: PoS/neutral {2 * seeds}, pll {seeds}, repeated word {cases}")


def test_no_expansion_reasons_when_nothing_could_be_filled(corpus, specs):
    lc4, lc5 = specs["LC4"], specs["LC5"]
    off = lc5.model_copy(update={"expansion": lc5.expansion.model_copy(update={"enabled": False})})
    results = [build_capability(lc4, corpus, seed=0), build_capability(off, corpus, seed=0)]
    fake = FakeExpander(lambda seed: SeedResult("ok", (), None, 0, 0))  # the grammar allows no further word
    tallies = expand_results(results, no_progress, expander=fake)["tallies"]
    assert len(fake.asked) == len({c.seeds[0].index for c in results[0].cases})  # LC5's seeds are not expanded
    assert tallies["LC4"].reason() == f"no seed had a grammar difference (no place for one more word in {len(fake.asked)} seeds)"
    assert tallies["LC5"].reason() == "off: expansion.enabled: false in the spec"
    parse_failed = FakeExpander(lambda seed: SeedResult("parse_failed", (), "too long"))
    results = [build_capability(lc4, corpus, seed=0)]
    assert expand_results(results, no_progress, expander=parse_failed)["tallies"]["LC4"].reason().startswith("no seed parsed")


def test_lc1_rejects_a_fill_that_adds_a_sentiment_adjective(corpus, specs):
    result = build_capability(specs["LC1"], corpus, seed=0)
    n = len(result.cases)

    determiners = {"a", "an", "the"}
    with_det = 0

    def make(seed):
        nonlocal with_det
        out = [insert(seed, len(seed) - 1, "here", "RB", 0.2)]
        for i, tok in enumerate(seed):
            if tok.lower() in determiners:  # "a great ..." : a positive adjective, banned by LC1
                out.insert(0, insert(seed, i + 1, "great", "JJ", 0.9))
                with_det += 1
                break
        return out

    expand_results([result], no_progress, expander=FakeExpander(make))
    words = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
    assert with_det > 0 and "great" not in words and words.count("here") > 0
    assert len(result.cases) > n


def test_repeats_neighbour():
    seed = ("It", "was", "ever", "so", ".")
    assert repeats_neighbour(insert(seed, 3, "ever", "RB", 0.1))
    assert not repeats_neighbour(insert(seed, 3, "never", "RB", 0.1))


def test_so_after_a_comma_reads_as_the_connective():
    # read 24: "His characters are engaging, [so] intimate and ..."
    seed = tuple("His characters are engaging , intimate and funny .".split())
    assert so_after_comma(insert(seed, 5, "so", "RB", 0.1))
    assert not so_after_comma(insert(seed, 5, "truly", "RB", 0.1))  # another degree word reads as one
    assert not so_after_comma(insert(seed, 3, "so", "RB", 0.1))  # "are [so] engaging"


def test_a_seed_expands_the_same_whatever_else_is_in_the_run(tmp_path):
    """Committed suites are built from a store another run may have filled; so a seed's candidates
    (scores included, to the last digit) must not depend on the seeds batched with it."""
    from s2lct.expand.expander import ExpansionConfig, SeedExpander

    # the first seeds get expansions past the fluency checks ("The movie is without [any] intent .")
    seeds = [tuple(s.split()) for s in ("The movie is without intent .", "You know you 're in trouble .", "The cast is strong but the plot drags .",
                                        "A quiet film about two brothers .", "It works .")]
    alone = SeedExpander(store=tmp_path / "a.sqlite3").expand(seeds[:2])
    mixed = SeedExpander(ExpansionConfig(chunk_size=3), store=tmp_path / "b.sqlite3").expand(seeds[2:] + seeds[:2][::-1])
    for s in seeds[:2]:
        assert [c.to_json() for c in alone[s]] == [c.to_json() for c in mixed[s]]
    assert any(alone[s] for s in seeds[:2])


def test_an_intensifier_is_refused_in_neutral_seeds_and_kept_in_polar_ones(corpus, specs):
    """Issue 22: VADER's booster words keep a polar seed's label, never go into a neutral seed."""

    def make(seed):
        adj = next((i for i, t in enumerate(seed) if t.lower() not in ("a", "an", "the") and i > 0), 1)
        return [insert(seed, adj, "extremely", "RB", 0.9), insert(seed, len(seed) - 1, "here", "RB", 0.2)]

    words = {}
    for cap in ("LC1", "LC2"):  # LC1: neutral seeds; LC2: positive or negative seeds
        result = build_capability(specs[cap], corpus, seed=0)
        expand_results([result], no_progress, expander=FakeExpander(make))
        words[cap] = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
        labels = {s.label for c in result.cases for s in c.seeds}
        assert labels <= ({"neutral"} if cap == "LC1" else {"positive", "negative"}), cap
    assert "here" in words["LC1"] and "extremely" not in words["LC1"]
    assert "extremely" in words["LC2"]


def test_booster_list_is_vaders_intensifiers():
    from s2lct.expand.boosters import intensifiers, is_intensifier, keeps_label

    assert {"very", "really", "quite", "extremely"} <= intensifiers()
    assert not {"hardly", "barely", "not", "never"} & intensifiers()  # near-negations flip a polar label
    assert is_intensifier("Very", "RB") and not is_intensifier("very", "JJ")
    assert keeps_label([("very", "RB")], "positive") and keeps_label([("very", "RB")], "negative")
    assert not keeps_label([("again", "RB"), ("very", "RB")], "neutral") and keeps_label([("again", "RB")], "neutral")


def test_spec_kinds_keep_only_those_slot_kinds(corpus, specs):
    """``expansion.kinds`` restricts a capability's expansions to those slot kinds (issue 22)."""
    spec = specs["LC2"].model_copy(update={"expansion": specs["LC2"].expansion.model_copy(update={"kinds": ["adverb"]})})

    def make(seed):
        return [ExpansionCandidate(seed, seed[:1] + ("quite",) + seed[1:], (MaskFill(1, "RB", "quite", 0.5),), "S -> ADVP NP VP", 0.1, 0.5,
                                   {"pos": True, "neutral": True}),
                ExpansionCandidate(seed, seed[:1] + ("other",) + seed[1:], (MaskFill(1, "JJ", "other", 0.9),), "NP -> DT JJ NN", 0.1, 0.9,
                                   {"pos": True, "neutral": True})]

    result = build_capability(spec, corpus, seed=0)
    expand_results([result], no_progress, expander=FakeExpander(make))
    words = {c.expansion["masks"][0]["word"] for c in result.cases if c.expansion}
    assert words == {"quite"}


def test_spec_slot_kinds_are_the_engines_and_a_wrong_one_is_one_line(tmp_path, repo_dir):
    import typing

    from s2lct.errors import SpecError
    from s2lct.expand.slots import SLOT_KINDS
    from s2lct.spec.expansion_section import SlotKind

    assert typing.get_args(SlotKind) == SLOT_KINDS
    text = (repo_dir / "specs" / "LC1.yaml").read_text(encoding="utf-8").replace("\nexpansion:\n", "\nexpansion:\n  kinds: [adverbs]\n")
    (tmp_path / "LC1.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(SpecError) as err:
        load_specs([tmp_path])
    msg = str(err.value)
    assert "LC1.yaml" in msg and "expansion.kinds" in msg and "'adverb'" in msg and len(msg.strip().splitlines()) == 1


def test_no_fill_right_after_the_negation_a_transform_makes(corpus, specs):
    """LC4 negates the copula: "This is [probably] a mess" would read "This isn't probably a mess"."""
    result = build_capability(specs["LC4"], corpus, seed=0)

    def make(seed):
        cop = next(i for i, t in enumerate(seed) if t in ("is", "are"))
        return [insert(seed, cop + 1, "probably", "RB", 0.9), insert(seed, len(seed) - 1, "here", "RB", 0.1)]

    expand_results([result], no_progress, expander=FakeExpander(make))
    words = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
    assert "here" in words and "probably" not in words


def test_a_capability_refuses_the_fills_its_frames_cannot_take(corpus, specs):
    """``expansion.exclude_fills`` (a hedge under "Do I think that ...?"): compared lower-cased,
    counted as a capability rule, other fills of the same seed still kept."""
    spec = specs["LC2"].model_copy(update={"expansion": specs["LC2"].expansion.model_copy(update={"exclude_fills": ["Probably"]})})

    def make(seed):
        last = len(seed) - 1
        return [insert(seed, last, "probably", "RB", 0.9), insert(seed, last, "indeed", "RB", 0.5)]

    result = build_capability(spec, corpus, seed=0)
    info = expand_results([result], no_progress, expander=FakeExpander(make), word_share=None)
    words = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
    assert words and set(words) == {"indeed"}
    assert info["tallies"]["LC2"].capability_rules >= len(words)
    assert result.extra["expansion"]["exclude_fills"] == ["probably"]


def test_every_template_case_is_expanded_or_has_one_reason(corpus, specs):
    """The per-capability accounting ``s2lct generate`` prints: template cases with an expansion
    plus those without, by reason, add up to the template cases; a seed with no slot, one whose
    fills were all rejected and one whose candidate the capability refused each get their reason."""
    def make(seed):
        last = len(seed) - 1
        if len(seed) % 3 == 0:
            return SeedResult("ok", (), None, 0, 0)  # no grammar difference
        if len(seed) % 3 == 1:
            c = insert(seed, last, "here", "RB", 0.2)
            rejected = ExpansionCandidate(c.seed, c.tokens, c.masks, c.production, c.production_probability, c.score,
                                          {"pos": True, "neutral": True, "selector": {"pass": False, "score": 0.1}})
            return SeedResult("ok", (), None, 1, 1, (rejected,))
        return [insert(seed, last, "indeed", "RB", 0.5)]

    spec = specs["LC2"].model_copy(update={"expansion": specs["LC2"].expansion.model_copy(update={"exclude_fills": ["indeed"]})})
    tallies = {}
    for refuse in (False, True):
        result = build_capability(spec if refuse else specs["LC2"], corpus, seed=0)
        tally = expand_results([result], no_progress, expander=FakeExpander(make), word_share=None)["tallies"]["LC2"]
        template = [c for c in result.cases if c.expansion is None]
        assert tally.expanded_cases + sum(tally.none_reasons.values()) == len(template)
        assert tally.none_reasons.get("no_slot") and tally.none_reasons.get("rejected:selector")
        assert tally.top_reasons(1) in {f"{k} {v}" for k, v in tally.none_reasons.items()}
        tallies[refuse] = tally
    kept, refused = tallies[False], tallies[True]
    assert kept.expanded_cases > 0 and refused.expanded_cases == 0
    assert refused.none_reasons["capability_refused"] == kept.none_reasons.get("capability_refused", 0) + kept.expanded_cases


def test_slot_kind_engine_spreads_the_inserted_words(corpus, specs):
    """Under the slot-kind engine a seed case takes the least-used of its fluent fills first."""
    from types import SimpleNamespace

    spec = specs["LC2"].model_copy(update={"expansion": specs["LC2"].expansion.model_copy(update={"max_per_seed": 1})})

    def make(seed):
        last = len(seed) - 1
        return [insert(seed, last, "really", "RB", 0.9), insert(seed, last, "indeed", "RB", 0.5)]

    words = {}
    for slots in ("paper", "kinds"):
        result = build_capability(spec, corpus, seed=0)
        fake = FakeExpander(make)
        fake.config = SimpleNamespace(slots=slots)
        expand_results([result], no_progress, expander=fake, word_share=None, ranker=None)
        words[slots] = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
    n = len(words["kinds"])
    assert n == len(words["paper"]) and n > 10
    assert words["paper"].count("really") > 0.8 * n  # the paper's engine: best score only
    assert words["kinds"].count("really") <= n / 2 + 1 and words["kinds"].count("indeed") >= n / 2 - 1


def test_slot_kind_engine_caps_any_one_word_over_the_suite(corpus, specs):
    """With the cap on (the default), no inserted word passes its share of the suite's expansions;
    what the cap dropped is counted per capability, and the paper's engine is not capped."""
    from types import SimpleNamespace

    words = ["really", "indeed", "quite", "so", "very", "also", "probably", "surely", "truly"]

    def make(seed):
        last = len(seed) - 1
        k = len(seed) % 3  # three of the nine words per seed: some words far commoner than others
        return [insert(seed, last, w, "RB", 0.9 - 0.1 * j) for j, w in enumerate(words[k : k + 3] if k else words[:1] + words[6:8])]

    result = build_capability(specs["LC2"], corpus, seed=0)
    fake = FakeExpander(make)
    fake.config = SimpleNamespace(slots="kinds")
    uncapped = build_capability(specs["LC2"], corpus, seed=0)
    expand_results([uncapped], no_progress, expander=fake, word_share=None, ranker=None)
    info = expand_results([result], no_progress, expander=fake, ranker=None)
    got = [c.expansion["masks"][0]["word"] for c in result.cases if c.expansion]
    before = sum(c.expansion is not None for c in uncapped.cases)
    assert got and max(got.count(w) for w in set(got)) <= max(1, int(0.15 * len(got)))
    assert info["tallies"]["LC2"].word_cap == before - len(got) > 0
    assert info["tallies"]["LC2"].expansions == len(got)


def test_an_expanded_seed_keeps_its_subject_and_phrases_where_they_moved():
    """Words inserted before the predicate move its start and the phrase ends with it, so a frame's
    ``sentiment_in_predicate`` judges the expanded sentence as it judged the seed (issue 23)."""
    from s2lct.corpus.annotate import annotate
    from s2lct.corpus.polarity import get_polarity
    from s2lct.corpus.shape import SeedSyntax
    from s2lct.corpus.sst import Sentence, parse_sst_line, phrase_label_counts, phrase_label_first_end, phrase_label_longest
    from s2lct.expand.suite_expansion import _as_seed
    from s2lct.generate.search import sentiment_a_denial_leaves
    from s2lct.text import detokenize

    tree = "(1 (2 (2 the) (2 story)) (1 (2 is) (1 dull)))"  # "dull" (label 1) ends at 4, the predicate starts at 2
    fine, tokens = parse_sst_line(tree)
    sentence = Sentence(tokens, detokenize(tokens), "negative", "t", 0, "sst", fine, phrase_label_counts(tree), phrase_label_longest(tree), phrase_label_first_end(tree))
    seed = annotate(sentence, ["DT", "NN", "VBZ", "JJ"], get_polarity(), "clause", None, SeedSyntax("clause", "present", 1, (2,), "story", 2))
    expanded = ("the", "whole", "story", "is", "very", "dull")
    exp = _as_seed(seed, expanded, (("DT", "JJ", "NN", "VBZ", "RB", "JJ"), seed.word_classes, seed.words, 6))
    assert exp.syntax.finite == (3,) and exp.syntax.predicate == 3
    assert exp.sentence.phrase_first_end[1] == 6  # "dull" moved from 4 to 6
    assert sentiment_a_denial_leaves(seed) == [] and sentiment_a_denial_leaves(exp) == []


def test_slot_kind_engine_ranks_by_the_read_ranker_and_floors_below_it(corpus, specs):
    """A seed case takes the candidate the read ranker scores higher, though the masked LM gave it
    the lower fill probability; a word below the ranker's floor reaches no case and is counted as
    rejected by it; the manifest names the ranker."""
    from types import SimpleNamespace

    from test_read_ranker import RuleRanker

    spec = specs["LC2"].model_copy(update={"expansion": specs["LC2"].expansion.model_copy(update={"max_per_seed": 1})})

    def make(seed):  # the same word twice (so the least-used-word rule ties), and one more
        last = len(seed) - 1
        return [insert(seed, last, "really", "RB", 0.9), insert(seed, 1, "really", "RB", 0.5), insert(seed, last, "surely", "RB", 0.7)]

    def run(ranker):
        result = build_capability(spec, corpus, seed=0)
        fake = FakeExpander(make)
        fake.config = SimpleNamespace(slots="kinds")
        info = expand_results([result], no_progress, expander=fake, word_share=None, ranker=ranker)
        return [c.expansion for c in result.cases if c.expansion], info

    def score(c):
        return {"surely": 0.05}.get(c.masks[0].word, 0.8 if c.masks[0].position == 1 else 0.3)

    ranked, info = run(RuleRanker(score, floor=0.1))
    plain, _ = run(None)
    at_one = [sum(e["masks"][0]["position"] == 1 for e in exps) for exps in (ranked, plain)]
    assert len(ranked) > 10 and all(e["masks"][0]["word"] == "really" for e in ranked)  # "surely" fell below the floor
    assert at_one[0] > 0.8 * len(ranked) and at_one[1] < 0.2 * len(plain)
    assert all(e["checks"]["reader"]["pass"] for e in ranked)
    tally = info["tallies"]["LC2"]
    assert tally.fluency.get("reader", 0) == tally.seeds  # each seed's "surely", first rejected by the floor
    assert info["checks"]["ranker"]["name"] == "reader" and info["checks"]["ranker"]["floor"] == 0.1
