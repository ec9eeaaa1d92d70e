"""The slot-kind policy (issue 22): phrase slots, one mask per position, budget by kind, no names."""

from __future__ import annotations

import pytest
from nltk import Tree

from s2lct.errors import S2LCTError
from s2lct.expand.expander import ExpansionConfig
from s2lct.expand.grammar import ReferenceGrammar
from s2lct.expand.slots import SlotPolicy, accepts, slot_kind, validate_budget

# "The film works ." can grow an adverb before the verb (as an ADVP or a bare RB: one position),
# a name or a determiner in the NP, an adjective before the noun
TOY = ReferenceGrammar(
    {
        "S": {("NP", "VP", "."): 10, ("NP", "ADVP", "VP", "."): 4},
        "VP": {("VBZ",): 5, ("RB", "VBZ"): 2, ("VBZ", "PP"): 3},
        "NP": {("DT", "NN"): 8, ("DT", "JJ", "NN"): 4, ("DT", "NNP", "NN"): 6, ("PDT", "DT", "NN"): 5},
        "ADVP": {("RB",): 1},
    },
    "toy-kinds",
)
TREE = Tree.fromstring("(S (NP (DT The) (NN film)) (VP (VBZ works)) (. .))")


def test_budget_by_kind_and_no_names():
    ms = SlotPolicy(TOY, {"adverb": 5, "adjective": 5}).masked_sentences(TREE)
    kinds = [slot_kind(m) for m in ms]
    assert set(kinds) == {"adverb", "adjective"}  # name and determiner slots get no budget
    assert [m.masked_text for m in ms if slot_kind(m) == "adjective"] == ["The [MASK:JJ] film works ."]
    # the ADVP phrase and the bare RB mask the same position: kept once, the more probable production
    adverbs = [m for m in ms if slot_kind(m) == "adverb"]
    assert [m.mask_positions for m in adverbs] == [(2,)] and adverbs[0].mask_symbols == ("RB",)
    assert adverbs[0].production == "S -> NP ADVP VP ."
    # a PP phrase is two masks, preposition and noun; only with budget
    assert not any(m.mask_symbols == ("IN", "NN") for m in ms)
    pp = [m for m in SlotPolicy(TOY, {"pp": 1}).masked_sentences(TREE)]
    assert [m.masked_text for m in pp] == ["The film works [MASK:IN] [MASK:NN] ."]
    assert SlotPolicy(TOY, {"adverb": 0, "adjective": 1}).masked_sentences(TREE)[0].mask_symbols == ("JJ",)
    every = SlotPolicy(TOY, {}).masked_sentences(TREE, uncapped=True)
    assert {"name", "determiner", "adverb", "adjective", "pp"} <= {slot_kind(m) for m in every}


def test_no_slot_before_a_clitic():
    tree = Tree.fromstring("(S (NP (PRP It)) (VP (VBZ 's) (ADJP (JJ fine))) (. .))")
    grammar = ReferenceGrammar({"S": {("NP", "VP", "."): 3, ("NP", "ADVP", "VP", "."): 2}, "ADVP": {("RB",): 1}}, "toy-clitic")
    assert SlotPolicy(grammar, {"adverb": 3}).masked_sentences(tree) == []  # not "It [really] 's fine"


def test_family_tags_accepted_names_not():
    assert accepts("RB", "RBR") and accepts("JJ", "JJS") and accepts("NN", "NNS")
    assert not accepts("NN", "NNP") and not accepts("RB", "JJ") and accepts("IN", "IN")


@pytest.mark.parametrize(
    ("budget", "message"),
    [({"adverbs": 2}, "unknown slot kind 'adverbs'"), ({"adverb": -1}, "budget.adverb: -1 is not a whole number"),
     ({"adverb": 1.5}, "budget.adverb: 1.5")],
)
def test_impossible_budget_is_one_line_naming_the_key(budget, message):
    with pytest.raises(S2LCTError) as err:
        validate_budget(budget)
    assert message in str(err.value) and "\n" not in str(err.value)
    with pytest.raises(S2LCTError):
        ExpansionConfig(slots="kinds", budget=tuple(budget.items()))


def test_unknown_slot_policy():
    with pytest.raises(S2LCTError, match="unknown policy 'words'; valid: paper, kinds"):
        ExpansionConfig(slots="words")


def test_paper_config_keeps_its_store_key():
    """The paper's engine is described exactly as before issue 22: committed suites stay valid."""
    from s2lct.expand.slots import config_description as _config_description

    assert _config_description(ExpansionConfig()) == {"max_masked": 10, "top_n": 10, "seed": 0}
    kinds = _config_description(ExpansionConfig(slots="kinds"))
    assert kinds["slots"] == "kinds" and kinds["budget"]["adverb"] > 0 and "pp" not in kinds["budget"]


def test_slot_kind_engine_end_to_end(tmp_path, selector_weights):
    """Real parser, grammar, masked LM, tagger: the kinds engine fills adverb/adjective/"that"
    slots only, records the tagged family member, and runs the word rules, stacking and the selector."""
    import _engine_models as models

    from s2lct.expand.expander import SeedExpander
    from s2lct.expand.slots import kind_of

    seeds = [tuple("The actors are fantastic .".split()), tuple("I think the plot drags .".split())]
    ex = SeedExpander(ExpansionConfig(slots="kinds"), parser=models.parser(), grammar=models.grammar(), mlm=models.mlm(),
                      tagger=models.tagger(), polarity=models.polarity(), store=tmp_path / "s.sqlite3")
    res = ex.expand_results(seeds)
    cands = [c for r in res.values() for c in (*r.candidates, *r.rejected)]
    assert cands
    for c in cands:
        kind = kind_of(c.production.split(" -> ")[0], tuple(m.symbol for m in c.masks))
        assert kind in ("adverb", "adjective", "complementiser"), c
        assert not any(m.symbol in ("NNP", "NNPS") for m in c.masks)
        assert set(c.checks) >= {"pos", "neutral", "first_word"}
    assert any("selector" in c.checks for c in cands)
    # an intensifier gets past neutrality under this policy ("are [very] fantastic" or the like)
    from s2lct.expand.boosters import intensifiers

    assert any(m.word.lower() in intensifiers() for c in cands for m in c.masks)
