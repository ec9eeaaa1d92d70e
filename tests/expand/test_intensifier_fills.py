"""Intensifier and downtoner fills at adverb slots before adjectives, and the suite-wide cap on any
one inserted word (issue 22, deliverables 3 and 4 and the "no word in more than 15%" target)."""

from __future__ import annotations

import random
from types import SimpleNamespace

import _engine_models as models
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.corpus import wordnet as wn

from s2lct.expand.boosters import downtoners, insertable_intensifiers, intensifiers, keeps_label
from s2lct.expand.expander import DOWNTONER_FILLS, ExpansionConfig, SeedExpander
from s2lct.expand.suite_expansion import MAX_WORD_SHARE, cap_word_share, pipeline_expander


def test_insertable_intensifiers_are_vader_boosters_that_are_plain_degree_adverbs():
    words = insertable_intensifiers()
    assert list(words) == sorted(words) and set(words) <= intensifiers()
    assert all(wn.synsets(w, pos="r") for w in words)
    assert {"very", "really", "extremely", "incredibly"} <= set(words)
    # comparative/superlative markers compare with nothing; colloquial and profane ones are out
    assert not {"more", "most", "fucking", "hella", "uber"} & set(words)
    assert not {"completely", "absolutely", "utterly", "totally"} & set(words)  # maximizers want a limit adjective
    # still refused in a neutral seed, kept in a polar one
    assert not keeps_label([("very", "RB")], "neutral") and keeps_label([("very", "RB")], "negative")


def _masked(position: int, symbol: str) -> SimpleNamespace:
    return SimpleNamespace(mask_positions=(position,), mask_symbols=(symbol,))


def test_only_adverb_masks_before_an_adjective_get_intensifier_fills():
    seed_tags = ("DT", "NN", "VBZ", "JJ", "CC", "PRP", "VBD", "PRP", ".")  # "The film is funny and I loved it ."
    own = [_masked(3, "RB"), _masked(6, "RB"), _masked(3, "JJ"), _masked(1, "RB")]
    kinds = SeedExpander(ExpansionConfig(slots="kinds", intensifier_fills=4), parser=object(), mlm=object())
    args = kinds._lexicon(own, seed_tags)
    assert args["lexicon_for"] == frozenset({0}) and args["lexicon_n"] == 4 and args["lexicon"] == insertable_intensifiers()
    assert args["more_lexicons"] == ((downtoners(), DOWNTONER_FILLS),)  # ranked on their own, not among the forty
    assert SeedExpander(ExpansionConfig(slots="kinds"), parser=object(), mlm=object())._lexicon(own, seed_tags) == {}
    assert SeedExpander(ExpansionConfig(intensifier_fills=4), parser=object(), mlm=object())._lexicon(own, seed_tags) == {}


def test_lexicon_fills_are_its_most_probable_words_with_full_vocabulary_probabilities():
    lm = models.mlm()
    sent = (("The", "film", "is", "[MASK]", "funny", "."), (3,))
    lexicon = ("very", "really", "extremely", "utterly", "thoroughly", "notaword")
    (plain,) = lm.fill([sent], top_n=3)
    (both,) = lm.fill([sent], top_n=3, lexicon=lexicon, lexicon_n=2, lexicon_for=frozenset({0}))
    (every,) = lm.fill([sent], top_n=len(lm.tokenizer))  # every whole word, with its probability
    prob = {f.words[0]: f.score for f in every}
    best_two = sorted((w for w in lexicon if w in prob), key=lambda w: -prob[w])[:2]
    assert {f.words[0] for f in both} == {f.words[0] for f in plain} | set(best_two)
    assert len(both) == len({f.words for f in both})  # no word twice
    assert [f.score for f in both] == sorted((f.score for f in both), reverse=True)
    for f in both:
        assert abs(f.score - prob[f.words[0]]) <= 1e-4 * prob[f.words[0]]
    # a sentence not named in lexicon_for is filled as before
    assert lm.fill([sent], top_n=3, lexicon=lexicon, lexicon_n=2, lexicon_for=frozenset()) == [plain]


def test_each_further_lexicon_adds_its_own_most_probable_words():
    lm = models.mlm()
    sent = (("The", "film", "is", "[MASK]", "funny", "."), (3,))
    boosters, softeners = ("very", "really", "extremely", "utterly"), ("slightly", "somewhat", "kinda")
    (every,) = lm.fill([sent], top_n=len(lm.tokenizer))
    prob = {f.words[0]: f.score for f in every}
    (plain,) = lm.fill([sent], top_n=3)
    (both,) = lm.fill([sent], top_n=3, lexicon=boosters, lexicon_n=1, lexicon_for=frozenset({0}), more_lexicons=((softeners, 2),))
    best = lambda words, n: sorted((w for w in words if w in prob), key=lambda w: -prob[w])[:n]  # noqa: E731
    assert {f.words[0] for f in both} == {f.words[0] for f in plain} | set(best(boosters, 1)) | set(best(softeners, 2))
    assert len(both) == len({f.words for f in both})


def test_downtoners_are_vader_decrementers_that_soften_and_never_negate():
    words = set(downtoners())
    assert {"slightly", "somewhat"} <= words
    assert not {"hardly", "barely", "scarcely", "scarce", "almost", "little", "less"} & words  # near-negations, "not much"


def test_downtoners_only_where_the_case_denies_a_polar_seed():
    """A softer opinion denied is a stronger denial ("Do I think that it is [somewhat] dull? No."); a
    softer opinion asserted drifts toward neutral, and a neutral seed has nothing to soften."""
    somewhat = [("somewhat", "RB")]
    assert keeps_label(somewhat, "negative", ("neutral", "positive")) and keeps_label(somewhat, "positive", ("negative", "neutral"))
    assert not keeps_label(somewhat, "positive", ("positive",))  # LC2, LC9: asserted
    assert not keeps_label(somewhat, "negative", ("positive",))  # LC3: overridden, not denied
    assert not keeps_label(somewhat, "neutral", ("neutral",)) and not keeps_label(somewhat, "neutral", ("neutral", "positive"))
    assert not keeps_label(somewhat, "positive")  # no case: not a denial


def test_generate_uses_the_slot_kind_engine_with_intensifier_fills(monkeypatch):
    monkeypatch.delenv("S2LCT_EXPANSION_SLOTS", raising=False)
    config = pipeline_expander().config
    assert config.slots == "kinds" and config.intensifier_fills > 0
    monkeypatch.setenv("S2LCT_EXPANSION_SLOTS", "paper")
    config = pipeline_expander().config
    assert config.slots == "paper" and config.intensifier_fills == 0


def _case(i: int, word: str, score: float, seed_case: int) -> SimpleNamespace:
    return SimpleNamespace(id=f"LC0-{i:04d}", expansion={"masks": [{"word": word}], "score": score, "seed_case": f"LC0-s{seed_case}"})


cases_strategy = st.lists(
    st.tuples(st.sampled_from(["really", "Really", "quite", "so", "very", "probably", "also", "that"]),
              st.integers(0, 5).map(lambda x: x / 5), st.integers(0, 12)),
    max_size=60,
)


@settings(max_examples=150, deadline=None)
@given(cases_strategy, st.sampled_from([MAX_WORD_SHARE, 0.3, 0.5]), st.randoms(use_true_random=False))
def test_word_cap_holds_is_order_free_and_keeps_the_case_expanded_where_it_can(rows, share, rnd):
    cases = [_case(i, w, sc, sd) for i, (w, sc, sd) in enumerate(rows)]
    kept = [c for c in cap_word_share(cases, share) if c is not None]
    counts: dict[str, int] = {}
    for c in kept:
        w = c.expansion["masks"][0]["word"].lower()
        counts[w] = counts.get(w, 0) + 1
    assert all(n <= max(1, int(share * len(kept))) for n in counts.values())
    assert set(counts) == {w.lower() for w, _, _ in rows}  # every word keeps at least one
    shuffled = list(cases)
    rnd.shuffle(shuffled)
    assert {c.id for c in cap_word_share(shuffled, share) if c is not None} == {c.id for c in kept}


def test_word_cap_drops_from_cases_that_keep_another_expansion_first():
    # "really" x4 (two on seed case 1), five other words once: 9 cases; at share 0.3 a word may keep 2
    rows = [("really", 0.9, 1), ("really", 0.8, 1), ("really", 0.7, 2), ("really", 0.6, 3)]
    rows += [(w, 0.5, 10 + k) for k, w in enumerate(["quite", "so", "very", "also", "that"])]
    cases = [_case(i, w, sc, sd) for i, (w, sc, sd) in enumerate(rows)]
    kept = [c for c in cap_word_share(cases, 0.3) if c is not None]
    really = sorted(c.expansion["score"] for c in kept if c.expansion["masks"][0]["word"] == "really")
    # 0.8 goes before the lower-scored 0.7 (case 1 keeps its 0.9), then the lowest, 0.6
    assert really == [0.7, 0.9] and len(kept) == 7


def test_word_cap_drops_the_lowest_read_score_first():
    """The read ranker's score (``checks["reader"]``) decides which of a word's expansions the cap
    drops, before the fill probability."""
    rows = [("really", 0.9, 0.2, 1), ("really", 0.5, 0.9, 2), ("really", 0.7, 0.6, 3)]
    rows += [(w, 0.5, 0.5, 10 + k) for k, w in enumerate(["quite", "so", "very", "also", "that"])]  # 8 cases: "really" may keep 2
    cases = [_case(i, w, fill, sd) for i, (w, fill, _, sd) in enumerate(rows)]
    for c, (_, _, read, _) in zip(cases, rows):
        c.expansion["checks"] = {"reader": {"pass": True, "score": read}}
    kept = [c for c in cap_word_share(cases, 0.3) if c is not None]
    assert sorted(c.expansion["checks"]["reader"]["score"] for c in kept if c.expansion["masks"][0]["word"] == "really") == [0.6, 0.9]


def test_random_cases_stay_deterministic():
    rng = random.Random(5)
    cases = [_case(i, rng.choice(["a", "b", "c"]), rng.random(), rng.randrange(9)) for i in range(40)]
    assert cap_word_share(cases, 0.4) == cap_word_share(list(cases), 0.4)


def test_intensifiers_not_where_the_case_denies_the_seed():
    """A denied opinion may not be strengthened: "Do I think that it is [extremely] good? No." may
    still mean good, while "not very good" and "not really good" are plain negations; an overridden
    one may ("I used to think it was [really] dull, but now I love it"); a neutral seed never takes
    one; other neutral words always may."""
    very, extremely, also = [("very", "RB")], [("extremely", "RB")], [("also", "RB")]
    assert keeps_label(extremely, "positive", ("positive",)) and keeps_label(extremely, "negative", ("negative",))
    assert not keeps_label(extremely, "positive", ("negative", "neutral"))  # LC10: the seed's opinion is denied
    assert not keeps_label(extremely, "negative", ("neutral", "positive"))  # LC4, LC6, LC11
    assert keeps_label(extremely, "negative", ("positive",))  # LC3: a past opinion, overridden
    assert not keeps_label(very, "neutral", ("neutral",)) and not keeps_label(extremely, "neutral", ("neutral",))
    # "not very good", "not really good" are plain negations: these go where the case denies the seed
    for word in ("very", "really", "particularly", "so"):
        assert keeps_label([(word, "RB")], "positive", ("negative", "neutral")), word
        assert keeps_label([(word, "RB")], "negative", ("neutral", "positive")), word
    assert not keeps_label([("very", "RB"), ("extremely", "RB")], "positive", ("negative", "neutral"))
    assert keeps_label(also, "positive", ("negative", "neutral")) and keeps_label(also, "neutral", ("neutral",))


def test_no_degree_word_where_the_case_softens_the_seed():
    """LC12's reducers grade the opinion themselves: a second degree word pulls against them ("The
    film [really] is somewhat insightful") or doubles them; its intensified cases keep one."""
    very, somewhat, also = [("very", "RB")], [("somewhat", "RB")], [("also", "RB")]
    assert not keeps_label(very, "positive", ("neutral", "positive")) and not keeps_label(very, "negative", ("negative", "neutral"))
    assert not keeps_label(somewhat, "positive", ("neutral", "positive"))
    assert keeps_label(very, "positive", ("positive",)) and keeps_label(also, "positive", ("neutral", "positive"))


def test_a_slot_that_softens_takes_no_degree_word_whatever_the_case_expects(repo_dir):
    """LC12's softened-in-a-list templates expect the seed's own label (the softening covers one
    adjective of several), so ``keeps_label`` lets a booster in; the slot's own downtoner must keep
    it out ("is [rather] sappy and [particularly] amateurish"), in the spec and in the suite."""
    from s2lct.expand.suite_expansion import _slot_softens
    from s2lct.spec import SeedSlot, load_spec

    from s2lct.spec.templates import Insert

    # "rather" alone softens too, though VADER's decrementers lack it
    assert _slot_softens([Insert(insert=["rather"], before=[{"TAG": "JJ"}])])
    assert not _slot_softens([Insert(insert=["very"], before=[{"TAG": "JJ"}])])
    spec = load_spec(repo_dir / "specs" / "LC12.yaml")
    softening = {t.id: any(_slot_softens(p.ops) for p in t.parts if isinstance(p, SeedSlot)) for t in spec.templates}
    assert softening == {"intensified_positive": False, "intensified_negative": False, "softened_positive": True,
                         "softened_negative": True, "softened_positive_in_a_list": True, "softened_negative_in_a_list": True}
    import json

    from s2lct.expand.boosters import is_downtoner, is_intensifier

    cases = [json.loads(line) for line in (repo_dir / "generated" / "LC12.jsonl").read_text(encoding="utf-8").splitlines()]
    softened = [c for c in cases if c["expansion"] and c["template"].startswith("softened")]
    assert softened, "LC12's softened cases have expansions to check"
    assert not [c["text"] for c in softened if any(is_intensifier(m["word"], m["symbol"]) or is_downtoner(m["word"], m["symbol"])
                                                   for m in c["expansion"]["masks"])]


def _variant_case(seed: str, fill: tuple[int, str], variant: str):
    from s2lct.expand.candidates import ExpansionCandidate, MaskFill
    from s2lct.generate.transforms import Variant

    toks = seed.split()
    pos, word = fill
    expanded = tuple(toks[:pos] + [word] + toks[pos:])
    cand = ExpansionCandidate(tuple(toks), expanded, (MaskFill(pos, "RB", word, 0.1),), "VP -> RB VBZ ADJP", 0.1, 0.1)
    return cand, expanded, Variant(tuple(variant.split()), tuple("X" for _ in variant.split()), "insert")


def test_no_degree_fill_next_to_the_templates_own_degree_word():
    """LC12's cases insert a degree word before the predicate adjective; an adverb fill beside it
    doubles or hedges it ("It [really] is truly amusing", "A comedy that [sometimes] is somewhat
    warm", blind reads); one on another predicate stays."""
    from s2lct.expand.suite_expansion import _fill_by_template_degree

    cand, exp, var = _variant_case("It is amusing .", (1, "really"), "It really is truly amusing .")
    assert _fill_by_template_degree(cand, exp, var)
    cand, exp, var = _variant_case("The story is bogus .", (2, "really"), "The story really is very bogus .")
    assert _fill_by_template_degree(cand, exp, var)
    cand, exp, var = _variant_case("The writing is clever and the cast is appealing .", (7, "really"),
                                   "The writing is very clever and the cast is really appealing .")
    assert not _fill_by_template_degree(cand, exp, var)  # another predicate
    cand, exp, var = _variant_case("A comedy that is warm .", (3, "sometimes"), "A comedy that sometimes is somewhat warm .")
    assert _fill_by_template_degree(cand, exp, var)  # an adverb that hedges the graded predicate
    cand, exp, var = _variant_case("It is amusing .", (1, "really"), "It really is amusing .")
    assert not _fill_by_template_degree(cand, exp, var)  # the template inserted nothing
