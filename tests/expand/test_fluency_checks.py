"""Fluency checks on hand-picked good and bad expansions (issue 10's examples among them)."""

from __future__ import annotations

import _engine_models as models
import pytest
from nltk import Tree

from s2lct.expand.checks import CheckItem, FluencyFilter, make_check, passed
from s2lct.errors import S2LCTError
from s2lct.expand.checks.articles import wants_an
from s2lct.expand.checks.insertions import KINDS
from s2lct.expand.checks.reparse import production_level


def item(seed: str, seed_tags: str, fills: dict[int, tuple[str, str]], production: str = "X -> Y") -> CheckItem:
    """``fills``: position in the expanded seed → (word, symbol)."""
    toks = seed.split()
    out = list(toks)
    for p in sorted(fills):
        out.insert(p, fills[p][0])
    pos = tuple(sorted(fills))
    return CheckItem(tuple(toks), tuple(seed_tags.split()), tuple(out), pos, tuple(fills[p][1] for p in pos), production)


class NoModels:
    @property
    def parser(self):
        raise AssertionError("a rule check must not need the parser")

    @property
    def mlm(self):
        raise AssertionError("a rule check must not need the masked LM")


def run(name: str, *items: CheckItem, **settings):
    return [(r.passed, r.rule) for r in make_check(name, **settings).check(list(items), NoModels())]


MUSHY = ("the mushy finale is long .", "DT JJ NN VBZ JJ .")


def test_first_word_rejects_new_conjunction_or_sentence_adverb():
    bad = [item(*MUSHY, {0: (w, sym)}) for w, sym in (("And", "CC"), ("But", "CC"), ("So", "RB"), ("Still", "RB"), ("Plus", "CC"),
                                                      ("Sometimes", "RB"), ("Perhaps", "RB"))]  # a hedge over the whole opinion (read 43)
    assert run("first_word", *bad) == [(False, "opener")] * 7
    good = [
        item(*MUSHY, {0: ("Overlong", "JJ")}),  # not an opener
        item("And the finale is long .", "CC DT NN VBZ JJ .", {2: ("mushy", "JJ")}),  # the seed's own "And" is not new
        item(*MUSHY, {5: ("so", "RB")}),  # "so" mid-sentence
        item("the finale is long .", "DT NN VBZ JJ .", {3: ("sometimes", "RB")}),  # a frequency inside the clause
    ]
    assert run("first_word", *good) == [(True, None)] * 4


def test_names_rejects_invented_names_and_a_determiner_before_a_name():
    john = item("the film is long .", "DT NN VBZ JJ .", {2: ("John", "NNP")})
    ballistic = item("Ballistic : Ecks vs. Sever", "NNP : NNP CC NNP", {0: ("The", "DT")})
    assert run("names", john, ballistic) == [(False, "invented_name"), (False, "determiner_before_name")]
    ok = item("Ballistic is long .", "NNP VBZ JJ .", {2: ("very", "RB")})
    assert run("names", ok) == [(True, None)]


@pytest.mark.parametrize(
    "seed, tags, fills, rule",
    [
        ("an inferior level", "DT JJ NN", {1: ("few", "JJ")}, "article"),  # "an [few] inferior level"
        ("nothing more than a whim", "NN JJR IN DT NN", {1: ("anything", "NN")}, "pronoun_stack"),
        ("in its tone", "IN PRP$ NN", {1: ("of", "IN")}, "preposition_stack"),  # "in [of] its tone"
        ("worth the concentration", "JJ DT NN", {2: ("own", "JJ")}, "own"),  # "worth the [own] concentration"
        ("the story", "DT NN", {1: ("its", "PRP$")}, "determiner_stack"),
        ("it is ever so slight", "PRP VBZ RB RB JJ", {3: ("ever", "RB")}, "repeat"),
        ("a film", "DT NN", {1: ("entertaining", "JJ")}, "article"),
        # the blind read's "the courage of its convictions and [so] excellent performances" (issue 23)
        ("and excellent performances", "CC JJ NNS", {1: ("so", "RB")}, "predicative_degree"),
        # issue 23's later review: a list of modifiers before the noun
        ("it makes compelling , provocative and prescient viewing", "PRP VBZ JJ , JJ CC JJ NN", {2: ("so", "RB")}, "predicative_degree"),
        ("with terrible , pun-laden dialogue", "IN JJ , JJ NN", {1: ("so", "RB")}, "predicative_degree"),
        # issue 22's blind read of 150 suite expansions
        ("This one 's weaker than most .", "DT NN VBZ JJR IN JJS .", {3: ("extremely", "RB")}, "degree_comparative"),
        ("had never looked uglier", "VBD RB VBN JJR", {3: ("so", "RB")}, "degree_comparative"),
        ("it 's that good", "PRP VBZ RB JJ", {2: ("quite", "RB")}, "degree_comparative"),
        ("the actors are fantastic .", "DT NNS VBP JJ .", {3: ("very", "RB")}, "scalar_extreme"),
        ("it is priceless .", "PRP VBZ JJ .", {2: ("extremely", "RB")}, "scalar_extreme"),
        ("the name says it all .", "DT NN VBZ PRP DT .", {3: ("that", "IN")}, "complementiser_clause"),
        # the suite reviews: a degree adverb before a noun or a nominal quantifier
        ("it pokes fun at the exercise", "PRP VBZ NN IN DT NN", {2: ("quite", "RB")}, "degree_noun"),
        ("there was plenty to impress", "EX VBD NN TO VB", {2: ("very", "RB")}, "degree_noun"),
        ("much of the cast is stiff", "JJ IN DT NN VBZ JJ", {0: ("Quite", "RB")}, "degree_noun"),
        ("the movie turns out to be a tale", "DT NN VBZ RP TO VB DT NN", {5: ("probably", "RB")}, "hedge_infinitive"),
        ("the movie had lots of dancing", "DT NN VBD NNS IN NN", {3: ("so", "RB")}, "degree_noun"),
        ("Testud was icily brilliant", "NNP VBD RB JJ", {2: ("very", "RB")}, "degree_adverb"),
        ("the film is deceptively simple", "DT NN VBZ RB JJ", {3: ("very", "RB")}, "degree_adverb"),
        # the suite reviews: an adjective that restates its noun
        ("it is a film about grief", "PRP VBZ DT NN IN NN", {3: ("cinematic", "JJ")}, "pleonastic_adjective"),
        ("a movie that works", "DT NN WDT VBZ", {1: ("cinematic", "JJ")}, "pleonastic_adjective"),
        ("a comedy for adults", "DT NN IN NNS", {1: ("comic", "JJ")}, "pleonastic_adjective"),
        ("Schnitzler proves himself a deft stylist", "NNP VBZ PRP DT JJ NN", {2: ("that", "IN")}, "complementiser_clause"),
        ("the notion , even now , is dysfunctional", "DT NN , RB RB , VBZ JJ", {6: ("that", "IN")}, "complementiser_clause"),
        # a comparative the parser tagged JJ (the committed suite's LC2: "This one's [so] weaker than most.")
        ("This one 's weaker than most .", "DT NN VBZ JJ IN JJS .", {3: ("so", "RB")}, "degree_comparative"),
        # the suite reviews: a pure degree word before what it cannot grade
        ("the storylines feel like time fillers", "DT NNS VBP IN NN NNS", {3: ("so", "RB")}, "degree_target"),
        ("it pokes fun at the exercise", "PRP VBZ NN IN DT NN", {2: ("so", "RB")}, "degree_target"),
        ("it is weighed down by its cast", "PRP VBZ VBN RP IN PRP$ NN", {2: ("very", "RB")}, "degree_target"),
        ("a video movie photographed like a film", "DT NN NN VBN IN DT NN", {3: ("so", "RB")}, "degree_target"),
        ("it was hilariously , gloriously alive", "PRP VBD RB , RB JJ", {2: ("very", "RB")}, "scalar_extreme"),  # "hilarious" is extreme
        ("it was cleverly , gloriously alive", "PRP VBD RB , RB JJ", {2: ("very", "RB")}, "degree_adverb"),
        ("it 's kind of insulting", "PRP VBZ NN IN JJ", {4: ("very", "RB")}, "hedged_degree"),
        # version 14, from the blind reads: a place adverb cannot be graded; "ever" needs a licence;
        # "great" and "negligible" take no scalar booster
        ("while the story goes nowhere .", "IN DT NN VBZ RB .", {4: ("so", "RB")}, "degree_target"),
        ("kids five and up would be delighted", "NNS CD CC RB MD VB VBN", {5: ("ever", "RB")}, "unlicensed_ever"),
        ("Noyce has worked wonders", "NNP VBZ VBN NNS", {2: ("ever", "RB")}, "unlicensed_ever"),
        ("Enigma looks great", "NNP VBZ JJ", {2: ("very", "RB")}, "scalar_extreme"),
        ("a negligible work", "DT JJ NN", {1: ("hugely", "RB")}, "scalar_extreme"),
        ("Tosca was a real treat", "NNP VBD DT JJ NN", {3: ("quite", "RB")}, "article_quite"),
        # version 16: a degree word before "kind of", a scalar booster before an extreme adjective's adverb
        ("it 's kind of insulting", "PRP VBZ JJ IN JJ", {2: ("quite", "RB")}, "hedged_degree"),  # "kind" read as an adjective
        ("the piece works brilliantly", "DT NN VBZ RB", {3: ("very", "RB")}, "scalar_extreme"),
        # version 17 (read 15): a degree word before a correlative; an adjective restating a two-word noun or a compound's part
        ("watching them was both inspiring and pure joy", "VBG PRP VBD DT JJ CC JJ NN", {3: ("quite", "RB")}, "degree_target"),
        ("it has created a brilliant motion picture", "PRP VBZ VBN DT JJ NN NN", {5: ("cinematic", "JJ")}, "pleonastic_adjective"),
        ("this is pure , exciting moviemaking", "DT VBZ JJ , JJ NN", {5: ("cinematic", "JJ")}, "pleonastic_adjective"),
        # version 18 (note 43): the tagger's JJ on a verb's object that WordNet meets mostly as a noun
        ("it pokes fun at the exercise", "PRP VBZ JJ IN DT NN", {2: ("so", "RB")}, "degree_target"),
        ("they have fun with it", "PRP VBP JJ IN PRP", {2: ("very", "RB")}, "degree_target"),
        # version 19 (reads for note 44): a degree word on the object of "of"; "that" grading nothing
        ("it becomes gimmicky instead of compelling .", "PRP VBZ JJ RB IN JJ .", {5: ("so", "RB")}, "degree_target"),
        ("the notion , even now , is dysfunctional", "DT NN , RB RB , VBZ JJ", {6: ("that", "RB")}, "adverb_that"),
        # version 20 (read 31): a degree word inside "as ... as"; an adverb that repeats the one two words away
        ("a movie as hard to classify as it is hard to resist", "DT NN RB JJ TO VB IN PRP VBZ JJ TO VB", {9: ("very", "RB")}, "equative_degree"),
        ("it is as good as the first", "PRP VBZ RB JJ IN DT JJ", {3: ("very", "RB")}, "equative_degree"),
        ("Woody Allen has really found his groove", "NNP NNP VBZ RB VBN PRP$ NN", {2: ("really", "RB")}, "repeat"),
        # version 21 (read 32): any degree word on a mostly-noun object; a pure degree word on a focusing adverb
        ("it pokes fun at the exercise", "PRP VBZ JJ IN DT NN", {2: ("quite", "RB")}, "degree_target"),
        ("it pokes fun at the exercise", "PRP VBZ JJ IN DT NN", {2: ("really", "RB")}, "degree_target"),
        ("the film is strictly routine", "DT NN VBZ RB JJ", {3: ("so", "RB")}, "degree_target"),
        ("the film is merely competent", "DT NN VBZ RB JJ", {3: ("so", "RB")}, "degree_target"),
        # version 22 (read 34)
        ("Naipaul fans might be disappointed", "NNP NNS MD VB VBN", {2: ("probably", "RB")}, "hedge_modal"),
        ("it 's all about Anakin", "PRP VBZ DT IN NNP", {2: ("quite", "RB")}, "article_quite"),
        ("it 's slow -- very , very slow", "PRP VBZ JJ : RB , RB JJ", {2: ("very", "RB")}, "repeat"),
        ("it 's just rather leaden and dull", "PRP VBZ RB RB JJ CC JJ", {6: ("particularly", "RB")}, "hedged_degree"),
        ("the slapstick is labored , and the setpieces flat .", "DT NN VBZ JJ , CC DT NNS JJ .", {8: ("so", "RB")}, "degree_target"),
        # version 23 (read 35)
        ("it is such a debut that it 's hard to know what to praise", "PRP VBZ JJ DT NN IN PRP VBZ JJ TO VB WP TO VB", {8: ("so", "RB")}, "equative_degree"),
        ("it really is worth seeing", "PRP RB VBZ JJ VBG", {3: ("definitely", "RB")}, "synonym_stack"),
        # version 24 (read 36): "so ... that"; an adverb the seed has four words on; a degree word on a graded phrase
        ("so few movies explore religion that it 's disappointing", "RB JJ NNS VBP NN IN PRP VBZ JJ", {8: ("so", "RB")}, "equative_degree"),
        ("it is an odd but ultimately satisfying blend", "PRP VBZ DT JJ CC RB JJ NN", {2: ("ultimately", "RB")}, "repeat"),
        ("it is deadly dull", "PRP VBZ JJ JJ", {2: ("extremely", "RB")}, "stacked_degree"),
        ("it is extremely dull", "PRP VBZ RB JJ", {2: ("very", "RB")}, "stacked_degree"),
        # version 24 (read 37): an adjective the seed has ungraded before; a downtoner before a boosted conjunct
        ("a boring , sad man being boring and sad", "DT JJ , JJ NN VBG JJ CC JJ", {8: ("so", "RB")}, "repeat"),
        ("the characters are interesting and often very creatively constructed", "DT NNS VBP JJ CC RB RB RB VBN", {3: ("somewhat", "RB")}, "hedged_degree"),
        # (read 38): a scalar booster on an adjective with no degree; emphasis two words before another
        ("the inexorable passage of its characters", "DT JJ NN IN PRP$ NNS", {1: ("incredibly", "RB")}, "scalar_extreme"),
        ("this is a truly , truly bad movie", "DT VBZ DT RB , RB JJ NN", {2: ("really", "RB")}, "synonym_stack"),
        ("the movie barely makes sense", "DT NN RB VBZ NN", {4: ("much", "JJ")}, "hedged_degree"),
        # (read 40, both reads): "that" before a gerund clause; a degree word before "sure to"; "unknowable"
        ("it is hard to imagine Alan Arkin being better than he is", "PRP VBZ JJ TO VB NNP NNP VBG JJR IN PRP VBZ", {5: ("that", "IN")}, "complementiser_clause"),
        ("it is a tale that is sure to win hearts", "PRP VBZ DT NN WDT VBZ JJ TO VB NNS", {6: ("really", "RB")}, "degree_target"),
        ("the adage about women being unknowable", "DT NN IN NNS VBG JJ", {5: ("very", "RB")}, "scalar_extreme"),
        # version 25 (the band read of stop 48, both reads; read 41 for "soulless")
        ("the grayish quality of its lighting", "DT JJ NN IN PRP$ NN", {5: ("own", "JJ")}, "own"),
        ("the film 's tone and pacing are off", "DT NN POS NN CC NN VBP RB", {3: ("own", "JJ")}, "own"),
        ("it will put hairs on your chest", "PRP MD VB NNS IN PRP$ NN", {6: ("own", "JJ")}, "own"),
        ("it 's a masterpiece .", "PRP VBZ DT NN .", {4: ("here", "RB")}, "place_adverb"),
        ("this is an interesting movie , but", "DT VBZ DT JJ NN , CC", {5: ("here", "RB")}, "place_adverb"),
        ("this thing was just garbage", "DT NN VBD RB NN", {1: ("here", "RB")}, "place_adverb"),
        ("the jokes are flat , and the action looks fake", "DT NNS VBP JJ , CC DT NN VBZ JJ", {6: ("then", "RB")}, "sequence_then"),
        ("it 's drab", "PRP VBZ JJ", {2: ("especially", "RB")}, "especially"),
        ("a soulless jumble of cliches", "DT JJ NN IN NNS", {1: ("very", "RB")}, "scalar_extreme"),
        # (read 42): a quantifier after "a lot of"; "whether"; idioms
        ("busy flying a lot of metaphoric flags", "JJ VBG DT NN IN JJ NNS", {5: ("many", "JJ")}, "quantifier_stack"),
        ("it 's hard to believe these jokers are supposed to", "PRP VBZ JJ TO VB DT NNS VBP VBN TO", {5: ("whether", "IN")}, "question_complementiser"),
        ("it left a lot to be desired", "PRP VBD DT NN TO VB VBN", {5: ("really", "RB")}, "idiom"),
        ("a gangster movie with a fair amount of suspense", "DT NN NN IN DT JJ NN IN NN", {5: ("very", "RB")}, "idiom"),
        # (read 43): idioms; "wrong with"; adjectives with no scalar degree
        ("intelligent ( not to mention gently political )", "JJ -LRB- RB TO VB RB JJ -RRB-", {4: ("really", "RB")}, "idiom"),
        ("a character with whom to spend 110 minutes", "DT NN IN WP TO VB CD NNS", {5: ("really", "RB")}, "idiom"),
        ("a critique of what 's wrong with this aspect", "DT NN IN WP VBZ JJ IN DT NN", {5: ("quite", "RB")}, "degree_target"),
        ("a satire that 's unafraid to throw elbows", "DT NN WDT VBZ JJ TO VB NNS", {4: ("very", "RB")}, "scalar_extreme"),
        # (read 44): "here" after a predicate; idioms of "own"; "would-be"; a repeat six words away
        ("this is so bad", "DT VBZ RB JJ", {4: ("here", "RB")}, "place_adverb"),
        ("it sucked .", "PRP VBD .", {2: ("here", "RB")}, "place_adverb"),
        ("an actress who is out of her depth", "DT NN WP VBZ IN IN PRP$ NN", {7: ("own", "JJ")}, "own"),
        ("an overemphatic , would-be wacky farce", "DT JJ , JJ JJ NN", {4: ("very", "RB")}, "degree_target"),
        ("it was really unclear why this project was undertaken", "PRP VBD RB JJ WRB DT NN VBD VBN", {7: ("really", "RB")}, "repeat"),
        # version 26 (read 45, both reads): a frequency the seed states; a degree word on an adverb before a hyphenated compound
        ("a church that assembles a haunted house each year", "DT NN WDT VBZ DT JJ NN DT NN", {3: ("sometimes", "RB")}, "frequency_clash"),
        ("the show plays every night", "DT NN VBZ DT NN", {2: ("often", "RB")}, "frequency_clash"),
        ("Bogdanich is unashamedly pro-Serbian and makes little attempt", "NNP VBZ RB NNP CC VBZ JJ NN", {2: ("very", "RB")}, "degree_adverb"),
        # version 27 (read 46, both reads): verb idioms; a quantity the seed never gave; a hedge on a list; an outcome adverb in an infinitive
        ("a sentimental mess that never rings true", "DT JJ NN WDT RB VBZ JJ", {6: ("very", "RB")}, "idiom"),
        ("it gets old quickly", "PRP VBZ JJ RB", {2: ("very", "RB")}, "idiom"),
        ("its absurdities are tantamount to insulting", "PRP$ NNS VBP JJ TO VBG", {3: ("quite", "RB")}, "idiom"),
        ("the movie is full of fine performances", "DT NN VBZ JJ IN JJ NNS", {5: ("many", "JJ")}, "quantifier_stack"),
        ("these are lives worth watching", "DT VBP NNS JJ VBG", {2: ("many", "JJ")}, "quantifier_stack"),
        ("it is messy , uncouth and absurd", "PRP VBZ JJ , JJ CC JJ", {2: ("somewhat", "RB")}, "hedged_degree"),
        ("the vibe was druggy and self-indulgent", "DT NN VBD JJ CC JJ", {3: ("somewhat", "RB")}, "hedged_degree"),
        ("a director who understands how to create a mood", "DT NN WP VBZ WRB TO VB DT NN", {6: ("ultimately", "RB")}, "hedge_infinitive"),
        ("a filmmaking methodology that alienates", "DT NN NN WDT VBZ", {1: ("cinematic", "JJ")}, "pleonastic_adjective"),  # a compound WordNet lacks
        # version 28 (read 47, both reads): faults of position (checks/placement.py)
        ("the movie is a dud", "DT NN VBZ DT NN", {2: ("here", "RB")}, "place_adverb"),
        ("Impostor was a step down", "NNP VBD DT NN RB", {1: ("here", "RB")}, "place_adverb"),
        ("the overall vibe was druggy", "DT JJ NN VBD JJ", {3: ("there", "RB")}, "place_adverb"),
        ("it 's a pleasure to watch", "PRP VBZ DT NN TO VB", {5: ("really", "RB")}, "split_infinitive"),
        ("its need to reassure", "PRP$ NN TO VB", {3: ("really", "RB")}, "split_infinitive"),
        ("it 's hard to imagine", "PRP VBZ JJ TO VB", {4: ("really", "RB")}, "split_infinitive"),
        ("the cast was stiff or just plain bad", "DT NN VBD JJ CC RB RB JJ", {3: ("so", "RB")}, "degree_on_list"),
        ("it looks closely , insightfully at relationships", "PRP VBZ RB , RB IN NNS", {2: ("so", "RB")}, "degree_on_list"),
        ("LaBute continues to improve", "NNP VBZ TO VB", {1: ("eventually", "RB")}, "sequence_aspect"),
        ("a film that is gorgeously acted", "DT NN WDT VBZ RB VBN", {4: ("ultimately", "RB")}, "sequence_aspect"),
        ("a culture that allows Americans to finally revel", "DT NN WDT VBZ NNPS TO RB VB", {3: ("sometimes", "RB")}, "frequency_clash"),
        ("a marvel of production design", "DT NN IN NN NN", {4: ("cinematic", "JJ")}, "adjective_stack"),
        ("with a sterling ensemble cast", "IN DT JJ NN NN", {3: ("cinematic", "JJ")}, "adjective_stack"),
        ("a sheer unbridled delight", "DT JJ JJ NN", {3: ("cinematic", "JJ")}, "adjective_stack"),
        ("it was like a couple of films", "PRP VBD IN DT NN IN NNS", {2: ("quite", "RB")}, "degree_target"),
        ("he was forced to grapple with it", "PRP VBD VBN TO VB IN PRP", {2: ("so", "RB")}, "degree_target"),
        ("he is , in a word , brilliant", "PRP VBZ , IN DT NN , JJ", {7: ("really", "RB")}, "idiom"),
        ("it is good old-fashioned fun", "PRP VBZ JJ JJ NN", {2: ("quite", "RB")}, "idiom"),
        ("it 's depressing to see how far he has fallen", "PRP VBZ JJ TO VB WRB RB PRP VBZ VBN", {4: ("quite", "RB")}, "split_infinitive"),
        ("a script that takes few chances", "DT NN WDT VBZ JJ NNS", {4: ("quite", "RB")}, "article_quite"),
        ("the film boasts dry humor", "DT NN VBZ JJ NN", {3: ("quite", "RB")}, "article_quite"),
        ("his performance is this film 's reason for being", "PRP$ NN VBZ DT NN POS NN IN VBG", {3: ("as", "RB")}, "degree_target"),
        # (read 48, both reads): a frequency hedge on a description;
        # "cinematic" on a part of a film; "new" has no degree
        ("a swashbuckler that delivers its diversions in grand fashion", "DT NN WDT VBZ PRP$ NNS IN JJ NN", {3: ("sometimes", "RB")}, "frequency_hedge"),
        ("a film that cuts across the grain", "DT NN WDT VBZ IN DT NN", {3: ("sometimes", "RB")}, "frequency_hedge"),
        ("Mr. Audiard 's direction is fluid and quick", "NNP NNP POS NN VBZ JJ CC JJ", {3: ("cinematic", "JJ")}, "pleonastic_adjective"),
        ("it is full of memorable performances", "PRP VBZ JJ IN JJ NNS", {5: ("cinematic", "JJ")}, "pleonastic_adjective"),
        ("they brought new energy to the topic", "PRP VBD JJ NN TO DT NN", {2: ("very", "RB")}, "scalar_extreme"),
        # version 29 (read 49, both reads): a comparative with nothing to compare; a determiner's noun the tagger
        # calls a verb; "akin" has no degree; "toothless" is a lack, not a scale
        ("the sequences felt sanitised and stagey", "DT NNS VBD VBN CC JJ", {3: ("more", "RBR")}, "open_comparative"),
        ("the strain of its need to reassure", "DT NN IN PRP$ VB TO VB", {6: ("really", "RB")}, "split_infinitive"),
        ("the movie was akin to a digest", "DT NN VBD JJ TO DT NN", {3: ("very", "RB")}, "scalar_extreme"),
        ("the satire is toothless", "DT NN VBZ JJ", {3: ("extremely", "RB")}, "scalar_extreme"),
        ("this is one of Mr. Chabrol 's subtlest works", "DT VBZ CD IN NNP NNP POS JJS NNS", {7: ("own", "JJ")}, "own"),  # read 50
        # two words for one sense side by side
        ("it 's just very bad", "PRP VBZ RB RB JJ", {3: ("merely", "RB")}, "synonym_stack"),
        ("this movie is the proof", "DT NN VBZ DT NN", {2: ("film", "NN")}, "synonym_stack"),
    ],
)
def test_function_words_bad(seed, tags, fills, rule):
    assert run("function_words", item(seed, tags, fills)) == [(False, rule)]


@pytest.mark.parametrize(
    "seed, tags, fills",
    [
        ("a inferior level", "DT JJ NN", {1: ("few", "JJ")}),  # "a few inferior ..." agrees
        ("the story", "DT NN", {0: ("all", "DT")}),  # "all the story"
        ("because the rain", "IN DT NN", {1: ("of", "IN")}),  # complex preposition
        ("an film", "DT NN", {1: ("honest", "JJ")}),  # silent h
        ("a film", "DT NN", {1: ("unique", "JJ")}),  # "a unique" (you-)
        ("nothing more than a whim", "NN JJR IN DT NN", {5: ("passing", "JJ")}),
        ("it is excellent .", "PRP VBZ JJ .", {2: ("so", "RB")}),  # predicative: "is so excellent"
        ("and excellent performances", "CC JJ NNS", {1: ("really", "RB")}),
        ("few movies explore religion", "JJ NNS VBP NN", {0: ("so", "RB")}),  # a quantifier with its result ahead: not after a verb
        ("it seems genuine rather than pandering", "PRP VBZ JJ RB IN VBG", {2: ("more", "RBR")}),  # its "than" is there
        ("there was no energy", "EX VBD DT NN", {3: ("more", "JJR")}),
        ("he managed to marry the two", "PRP VBD TO VB DT CD", {3: ("really", "RB")}),  # a verb's infinitive keeps its emphasis
        # "so" with no result clause in sight passes (so_without_result, dropped at version 30): the annotated and
        # read sets' fluent "so" in a relative clause, before a "that", on "little"/"few" after a verb
        ("a somnolent show that is splendidly mummified", "DT JJ NN WDT VBZ RB VBN", {5: ("so", "RB")}),
        ("all they ask is to believe in something that is improbable .", "DT PRP VBP VBZ TO VB IN NN WDT VBZ JJ .", {10: ("so", "RB")}),
        ("it 's unfortunate that Wallace has such a passion", "PRP VBZ JJ IN NNP VBZ PDT DT NN", {2: ("so", "RB")}),
        ("demonstrating vividly that the beauty resides in the music", "VBG RB IN DT NN VBZ IN DT NN", {1: ("so", "RB")}),
        ("it is free of any gag that would force you to think", "PRP VBZ JJ IN DT NN WDT MD VB PRP TO VB", {2: ("so", "RB")}),
        ("a story that 's compelling and heartfelt", "DT NN WDT VBZ JJ CC JJ", {4: ("so", "RB")}),
        ("the story has little wit and no surprises", "DT NN VBZ JJ NN CC DT NNS", {3: ("so", "RB")}),
        # a comma or "and" before a new clause ends the adjective phrase (annotated fluent)
        ("It looks good , Sonny , but you missed", "PRP VBZ JJ , NNP , CC PRP VBD", {2: ("so", "RB")}),
        ("levels are low and character development a non-starter", "NNS VBP JJ CC NN NN DT NN", {2: ("so", "RB")}),
        ("it is better than most .", "PRP VBZ JJR IN JJS .", {2: ("far", "RB")}),  # a comparative takes "far", "much"
        ("it is weak .", "PRP VBZ JJ .", {2: ("extremely", "RB")}),  # the positive degree takes an intensifier
        ("it is perfect .", "PRP VBZ JJ .", {2: ("absolutely", "RB")}),  # an extreme adjective takes a maximizer
        ("it is brilliant .", "PRP VBZ JJ .", {2: ("so", "RB")}),
        ("it did not matter much .", "PRP VBD RB VB JJ .", {4: ("very", "RB")}),  # "very much"
        ("it is fun .", "PRP VBZ NN .", {2: ("so", "RB")}),  # colloquial "so fun": "so" is not a scalar booster
        ("it wants to be loved", "PRP VBZ TO VB VBN", {3: ("really", "RB")}),  # "to really be": the annotated sets call it fluent
        ("the movie turns out to be a tale", "DT NN VBZ RP TO VB DT NN", {2: ("probably", "RB")}),
        ("I think it works .", "PRP VBP PRP VBZ .", {2: ("that", "IN")}),  # "that" opens a finite clause
        ("a cinematic experience", "DT JJ NN", {1: ("rare", "JJ")}),
        ("the cast is very good", "DT NN VBZ RB JJ", {3: ("really", "RB")}),  # a degree word before a degree word
        ("the cast is uniformly good", "DT NN VBZ RB JJ", {3: ("so", "RB")}),  # "so" grades the phrase
        ("it had much dancing", "PRP VBD JJ NN", {2: ("so", "RB")}),  # "so much"
        ("the experience", "DT NN", {1: ("cinematic", "JJ")}),  # the noun is not what the adjective names
        ("a comedy", "DT NN", {1: ("romantic", "JJ")}),
        ("the drama", "DT NN", {1: ("emotional", "JJ")}),
        ("you know you 're in trouble", "PRP VBP PRP VBP IN NN", {2: ("that", "IN")}),
        ("fans may be disappointed", "NNS MD VB VBN", {3: ("so", "RB")}),  # a participle WordNet knows as an adjective
        ("it was fun", "PRP VBD NN", {2: ("so", "RB")}),  # a noun after a copula: colloquial "so fun"
        ("it was badly acted", "PRP VBD RB VBN", {2: ("so", "RB")}),
        ("there are many tired jokes", "EX VBP JJ JJ NNS", {2: ("so", "RB")}),
        ("it keeps the audience entertained", "PRP VBZ DT NN VBD", {4: ("incredibly", "RB")}),  # a participle tagged VBD
        ("the film is a good movie", "DT NN VBZ DT JJ NN", {4: ("very", "RB")}),
        ("it moves quickly , and the cast is fine", "PRP VBZ RB , CC DT NN VBZ JJ", {2: ("very", "RB")}),  # the adverb ends its phrase
        # version 14's near misses: gradable adverbs, licensed "ever", "great" with a maximizer or "so"
        ("it flails limply", "PRP VBZ RB", {2: ("so", "RB")}),
        ("it happens often", "PRP VBZ RB", {2: ("so", "RB")}),
        ("it ends early", "PRP VBZ RB", {2: ("too", "RB")}),
        ("the best film I 've seen", "DT JJS NN PRP VBP VBN", {4: ("ever", "RB")}),
        ("it is unlikely we 'll see a better thriller", "PRP VBZ JJ PRP MD VB DT JJR NN", {5: ("ever", "RB")}),
        ("why anybody picked it up", "WRB NN VBD PRP RP", {2: ("ever", "RB")}),
        ("if you wondered what happened", "IN PRP VBD WP VBD", {2: ("ever", "RB")}),
        ("did you see it ?", "VBD PRP VB PRP .", {2: ("ever", "RB")}),
        ("Enigma looks great", "NNP VBZ JJ", {2: ("so", "RB")}),
        ("Enigma looks great", "NNP VBZ JJ", {2: ("really", "RB")}),
        ("Tosca was a real treat", "NNP VBD DT JJ NN", {2: ("quite", "RB")}),  # "quite a real treat"
        ("the piece works brilliantly", "DT NN VBZ RB", {3: ("so", "RB")}),  # "so brilliantly"
        ("the piece works smoothly", "DT NN VBZ RB", {3: ("very", "RB")}),  # a gradable adverb
        ("it is a kind of film", "PRP VBZ DT NN IN NN", {3: ("new", "JJ")}),
        ("it was a good film", "PRP VBD DT JJ NN", {3: ("rather", "RB")}),  # "a rather good film" stays
        # version 18's other side: a mostly-noun word after a copula, an adjective after a verb
        ("it is fun for kids", "PRP VBZ JJ IN NNS", {2: ("so", "RB")}),
        ("it comes close to greatness", "PRP VBZ JJ TO NN", {2: ("very", "RB")}),
        ("it makes good use of its cast", "PRP VBZ JJ NN IN PRP$ NN", {2: ("very", "RB")}),
        # version 19's other side: an attributive adjective after "of"; "that" before what it grades
        ("a film of good quality", "DT NN IN JJ NN", {3: ("very", "RB")}),
        ("it is not good", "PRP VBZ RB JJ", {3: ("that", "RB")}),
        # version 20's other side: "as" that is no comparison; a degree word after a second member with no copula;
        # an adverb two words from another, a complementiser two words from a relative "that"
        ("it works as good satire", "PRP VBZ IN JJ NN", {3: ("very", "RB")}),
        ("it is as good as it gets , and it is funny", "PRP VBZ RB JJ IN PRP VBZ , CC PRP VBZ JJ", {11: ("very", "RB")}),
        ("Woody Allen has really found his groove", "NNP NNP VBZ RB VBN PRP$ NN", {2: ("finally", "RB")}),  # not "truly": two emphases (read 38)
        ("a comedy that shows Canadians can laugh", "DT NN WDT VBZ NNPS MD VB", {4: ("that", "IN")}),
        # version 21's other side: a degree word on a verb's adjective, a focusing word's manner use
        ("it comes close to greatness", "PRP VBZ JJ TO NN", {2: ("quite", "RB")}),
        ("the story is simply told", "DT NN VBZ RB VBN", {3: ("so", "RB")}),
        # version 22's other side: a hedge before a modal of necessity, "really all", a booster after an untoned conjunct
        ("fans will be disappointed", "NNS MD VB VBN", {1: ("probably", "RB")}),
        ("it 's all about Anakin", "PRP VBZ DT IN NNP", {2: ("really", "RB")}),
        ("it 's leaden and dull", "PRP VBZ JJ CC JJ", {4: ("particularly", "RB")}),
        ("the setpieces are flat .", "DT NNS VBP JJ .", {3: ("so", "RB")}),
        # version 23's other side: "such" with no result clause yet; an emphasis far from another
        ("it is such a debut , and it 's hard to watch", "PRP VBZ JJ DT NN , CC PRP VBZ JJ TO VB", {9: ("so", "RB")}),
        ("it is worth seeing", "PRP VBZ JJ VBG", {2: ("definitely", "RB")}),
        # version 24's other side: a purpose "so that"; the same adverb farther off; emphasis on a degree word, "so very"
        ("it is cut so that it 's clear", "PRP VBZ VBN RB IN PRP VBZ JJ", {7: ("very", "RB")}),
        ("ultimately it is , as they say , an odd and long film", "RB PRP VBZ , IN PRP VBP , DT JJ CC JJ NN", {11: ("ultimately", "RB")}),
        ("it is very good", "PRP VBZ RB JJ", {2: ("really", "RB")}),
        ("it is very good", "PRP VBZ RB JJ", {2: ("so", "RB")}),
        ("it felt painfully redundant", "PRP VBD RB JJ", {2: ("so", "RB")}),
        # a degree word on an adjective the seed has far before; a downtoner before an ungraded conjunct
        ("a sad man , as the story shows , is boring and sad", "DT JJ NN , IN DT NN VBZ , VBZ JJ CC JJ", {12: ("so", "RB")}),
        ("the characters are interesting and often creatively constructed", "DT NNS VBP JJ CC RB RB VBN", {3: ("somewhat", "RB")}),
        # "quite" on an adjective with no degree ("quite inevitable"); emphasis far from another
        ("the ending is inevitable", "DT NN VBZ JJ", {3: ("quite", "RB")}),
        ("this is a good and , truly , bad movie", "DT VBZ DT JJ CC , RB , JJ NN", {2: ("really", "RB")}),
        ("the movie does n't make sense", "DT NN VBZ RB VB NN", {5: ("much", "JJ")}),  # a plain negation licenses it
        # "that" before a finite clause whose subject is a gerund's object; a degree word on "sure" alone
        ("it is hard to imagine Alan Arkin is better", "PRP VBZ JJ TO VB NNP NNP VBZ JJR", {5: ("that", "IN")}),
        ("I am sure of it", "PRP VBP JJ IN PRP", {2: ("really", "RB")}),
        # a person's own; "here" after a subject noun or a verb; "there" as existential is not an adverb
        ("the concept is a hoot", "DT NN VBZ DT NN", {2: ("here", "RB")}),
        ("fans may be disappointed .", "NNS MD VB VBN .", {4: ("here", "RB")}),
        ("it is soulless", "PRP VBZ JJ", {2: ("utterly", "RB")}),  # an extreme adjective takes a maximizer
        # "here" after a subject noun, also a mass noun that opens its phrase; a quantifier not after
        # a quantity; "that" as the complementiser; a degree word on "fair" alone
        ("the all-French cast is marveilleux", "DT JJ NN VBZ JJ", {3: ("here", "RB")}),
        ("everything is off", "NN VBZ RB", {1: ("here", "RB")}),
        ("originality was sorely lacking", "NN VBD RB VBG", {1: ("here", "RB")}),
        ("it 's hard to believe these jokers are funny", "PRP VBZ JJ TO VB DT NNS VBP JJ", {5: ("that", "IN")}),
        ("the verdict is fair", "DT NN VBZ JJ", {3: ("very", "RB")}),
        ("I want to spend 110 minutes with him", "PRP VBP TO VB CD NNS IN PRP", {3: ("really", "RB")}),  # "to really spend"
        ("what 's wrong is the script", "WP VBZ JJ VBZ DT NN", {2: ("so", "RB")}),  # "so wrong" with no "with"
        # a frequency adverb where the seed states none ("each" of a thing, not of a time); a degree word on a
        # manner adverb before a verb, and on a hyphenated compound itself
        ("a church that assembles a haunted house for each visitor", "DT NN WDT VBZ DT JJ NN IN DT NN", {3: ("often", "RB")}),
        ("it plays like a sitcom", "PRP VBZ IN DT NN", {2: ("often", "RB")}),
        ("he is sloppily made up", "PRP VBZ RB VBN RP", {2: ("very", "RB")}),
        ("it is well-made", "PRP VBZ JJ", {2: ("very", "RB")}),
        # a degree word on "true" outside the idiom; "many" before its noun after a verb; a downtoner on one adjective;
        # an outcome adverb before the verb that takes the infinitive
        ("the dialogue is true to life", "DT NN VBZ JJ TO NN", {3: ("very", "RB")}),
        ("the vibe was druggy and the plot thin", "DT NN VBD JJ CC DT NN JJ", {3: ("somewhat", "RB")}),
        ("he manages to create a mood", "PRP VBZ TO VB DT NN", {1: ("ultimately", "RB")}),
        # version 28: "here" after a part of the film; an emphasis adverb after a verb's "to"; "so" on a list of adjectives;
        # an outcome adverb before an outcome; an adjective before a noun after another; a downtoner before a clause
        ("the performances are uniformly good", "DT NNS VBP RB JJ", {2: ("here", "RB")}),
        ("Spielberg has managed to marry science fiction with noir", "NNP VBZ VBN TO VB NN NN IN NN", {4: ("really", "RB")}),
        ("it is dark , brooding and slow", "PRP VBZ JJ , JJ CC JJ", {2: ("so", "RB")}),
        ("the script becomes lifeless", "DT NN VBZ JJ", {2: ("eventually", "RB")}),
        ("the jokes are puerile and the gags finally land", "DT NNS VBP JJ CC DT NNS RB VBP", {3: ("often", "RB")}),
        ("a slick , engrossing melodrama", "DT JJ , JJ NN", {4: ("cinematic", "JJ")}),
        ("it is a glorious spectacle", "PRP VBZ DT JJ NN", {4: ("cinematic", "JJ")}),
        ("it is melodramatic , its humor is ribald", "PRP VBZ JJ , PRP$ NN VBZ JJ", {2: ("somewhat", "RB")}),
        ("I like it", "PRP VBP PRP", {1: ("really", "RB")}),
        ("the humor is dry", "DT NN VBZ JJ", {3: ("quite", "RB")}),
        ("a talent who finds his inspiration", "DT NN WP VBZ PRP$ NN", {5: ("own", "JJ")}),
        ("worth their concentration", "JJ PRP$ NN", {2: ("own", "JJ")}),
        ("enough to overcome my resistance", "JJ TO VB PRP$ NN", {4: ("own", "JJ")}),
        ("it offers astute observations", "PRP VBZ JJ NNS", {2: ("many", "JJ")}),
        ("it 's just rather leaden and dull", "PRP VBZ RB RB JJ CC JJ", {6: ("sometimes", "RB")}),
        ("the movie has fine performances", "DT NN VBZ JJ NNS", {3: ("many", "JJ")}),
        # version 28 (read 48): "so" in a main clause; "cinematic" on what is not a part of a film
        ("it 's funny", "PRP VBZ JJ", {2: ("so", "RB")}),
        ("the film is impressive , and it is long", "DT NN VBZ JJ , CC PRP VBZ JJ", {3: ("so", "RB")}),
        ("it is a glorious spectacle", "PRP VBZ DT JJ NN", {4: ("cinematic", "JJ")}),
        ("it is a worthwhile tutorial", "PRP VBZ DT JJ NN", {4: ("cinematic", "JJ")}),
        ("the film is full of performances", "DT NN VBZ JJ IN NNS", {3: ("quite", "RB")}),
        ("it is funny as the first one", "PRP VBZ JJ IN DT JJ NN", {2: ("as", "RB")}),
    ],
)
def test_function_words_good(seed, tags, fills):
    assert run("function_words", item(seed, tags, fills)) == [(True, None)]


@pytest.mark.parametrize(
    "seed, tags, fills, rule",
    [
        ("the movie back .", "DT NN RB .", {2: ("seat", "NN")}, "noun"),
        ("revenge is sweet !", "NN VBZ JJ .", {3: ("and", "CC"), 4: ("fun", "JJ")}, "conjunction"),
        ("at conception by its mum", "IN NN IN PRP$ NN", {1: ("your", "PRP$")}, "possessive"),
        ("captured on film .", "VBN IN NN .", {2: ("a", "DT")}, "determiner"),
        ("pulling off stunts", "VBG RP NNS", {2: ("some", "DT")}, "determiner"),  # right half the time only
        ("message movie or an epic ?", "NN NN CC DT NN .", {0: ("Any", "DT")}, "npi"),
        ("a pack of dogs", "DT NN IN NNS", {3: ("two", "CD")}, "number"),
        ("the result is fresh .", "DT NN VBZ JJ .", {1: ("only", "JJ")}, "adjective"),
        ("The Widowmaker is great .", "DT NNP VBZ JJ .", {1: ("french", "JJ")}, "adjective"),
        ("an American tragedy .", "DT JJ NN .", {2: ("political", "JJ")}, "adjective"),
        ("the sense of imagery", "DT NN IN NN", {3: ("cultural", "JJ")}, "adjective"),
        ("the film is so tired .", "DT NN VBZ RB JJ .", {3: ("mostly", "RB")}, "adverb"),
        ("it should be sincere", "PRP MD VB JJ", {3: ("so", "RB")}, "intensifier"),
        ("it reveals itself slowly , artfully", "PRP VBZ PRP RB , RB", {3: ("so", "RB")}, "intensifier"),
        ("it 's not without style", "PRP VBZ RB IN NN", {4: ("any", "DT")}, "npi"),
        ("I do n't think they will prefer it", "PRP VBP RB VB PRP MD VB PRP", {6: ("probably", "RB")}, "adverb_position"),
        ("you can go home again .", "PRP MD VB NN RB .", {5: ("anyway", "RB")}, "adverb"),
        ("It rapidly develops", "PRP RB VBZ", {1: ("ultimately", "RB")}, "adverb"),
        ("it 's certainly a record", "PRP VBZ RB DT NN", {2: ("probably", "RB")}, "adverb_position"),
        ("coulda been better", "MD VB JJR", {2: ("so", "RB")}, "intensifier"),
        ("it might sound", "PRP MD VB", {2: ("probably", "RB")}, "adverb_position"),
        ("the one thing most will take", "DT CD NN JJS MD VB", {3: ("about", "IN")}, "preposition"),
        ("hard to imagine Alan being better", "JJ TO VB NNP VBG JJR", {3: ("that", "IN")}, "preposition"),
        # version 4: what version 3 let into the committed suite
        ("it was vile enough", "PRP VBD JJ RB", {2: ("so", "RB")}, "intensifier"),
        ("Wedding serves mostly to whet", "NNP VBZ RB TO VB", {2: ("so", "RB")}, "intensifier"),
        ("Nothing is sacred in this gut-buster .", "NN VBZ JJ IN DT NN .", {2: ("so", "RB")}, "negated"),
        ("the film never feels derivative .", "DT NN RB VBZ JJ .", {4: ("so", "RB")}, "negated"),
        ("Windtalkers is shapelessly gratifying", "NNP VBZ RB JJ", {2: ("so", "RB")}, "intensifier"),
        ("the hype is quieter", "DT NN VBZ JJ", {3: ("so", "RB")}, "intensifier"),
        ("the hype is quieter", "DT NN VBZ JJR", {3: ("so", "RB")}, "intensifier"),
        ("too complex to be rapidly absorbed", "RB JJ TO VB RB VBN", {4: ("so", "RB")}, "intensifier"),
        ("sentiments are certainly welcome", "NNS VBP RB JJ", {2: ("so", "RB")}, "intensifier"),
        ("dare I say it twice", "VB PRP VB PRP RB", {3: ("that", "IN")}, "complementiser"),
        ("any fan could want .", "DT NN MD VB .", {3: ("probably", "RB")}, "adverb_position"),
        ("the most amazing dosage fans could want", "DT RBS JJ NN NNS MD VB", {6: ("probably", "RB")}, "adverb_position"),
        # version 5: what version 4 accepted in the third blind draw and a reader rejects
        ("the answer is clear : Not easily", "DT NN VBZ JJ : RB RB", {3: ("so", "RB")}, "intensifier"),
        ("even the bull gets recycled .", "RB DT NN VBZ VBN .", {4: ("so", "RB")}, "intensifier"),
        ("a subject few are familiar with", "DT NN JJ VBP JJ IN", {4: ("so", "RB")}, "negated"),
        ("That sure is funny !", "DT RB VBZ JJ .", {3: ("so", "RB")}, "intensifier"),
        ("The script is high on squaddie banter", "DT NN VBZ JJ IN NN NN", {3: ("so", "RB")}, "intensifier"),
        ("I think his name was , uh ,", "PRP VBP PRP$ NN VBD , UH ,", {2: ("that", "IN")}, "complementiser"),
        ("more than anyone else could chew", "JJR IN NN RB MD VB", {5: ("probably", "RB")}, "adverb_position"),
        ("a subject you thought would leave you cold", "DT NN PRP VBD MD VB PRP JJ", {5: ("probably", "RB")}, "adverb_position"),
        ("they have turned Akasha into a monster", "PRP VBP VBN NNP IN DT NN", {2: ("previously", "RB")}, "adverb"),
        ("lets her characters be unruly , confusing", "VBZ PRP$ NNS VB RB , JJ", {4: ("so", "RB")}, "intensifier"),
        ("She 's all-powerful , a voice", "PRP VBZ JJ , DT NN", {2: ("so", "RB")}, "intensifier"),
        # fluent, but by word class indistinguishable from "is [so] shapelessly gratifying": refused for precision
        ("The cast is extraordinarily good .", "DT NN VBZ RB JJ .", {3: ("so", "RB")}, "intensifier"),
    ],
)
def test_insertions_bad(seed, tags, fills, rule):
    assert run("insertions", item(seed, tags, fills), allowed=KINDS) == [(False, rule)]


@pytest.mark.parametrize(
    "seed, tags, fills",
    [
        ("treads heavily into territory", "VBZ RB IN NN", {1: ("so", "RB")}),
        ("Jones and Snipes are enthralling", "NNP CC NNP VBP JJ", {4: ("so", "RB")}),
        ("Decent but dull .", "JJ CC JJ .", {2: ("sometimes", "RB")}),
        ("They should have found it", "PRP MD VB VBN PRP", {2: ("probably", "RB")}),
        ("A chiller resolutely without chills .", "DT NN RB IN NNS .", {4: ("any", "DT")}),
        ("a movie that proves you can run", "DT NN WDT VBZ PRP MD VB", {4: ("that", "IN")}),
        ("it always seemed static .", "PRP RB VBD JJ .", {3: ("so", "RB")}),
        ("The Master of Disguise is awful .", "DT NNP IN NNP VBZ JJ .", {5: ("so", "RB")}),
        ("the acting is bitter , the plot thin", "DT NN VBZ JJ , DT NN JJ", {3: ("so", "RB")}),  # not a comparative
        ("The Tuxedo miscalculates badly by forcing", "DT NNP VBZ RB IN VBG", {3: ("so", "RB")}),
        ("I do n't think I laughed once", "PRP VBP RB VB PRP VBD RB", {4: ("that", "IN")}),
        ("Allen shows he can outgag them", "NNP VBZ PRP MD VB PRP", {2: ("that", "IN")}),
        ("It 's unfortunate that Wallace has", "PRP VBZ JJ IN NNP VBZ", {2: ("so", "RB")}),
        ("the romance is puzzling , the jokes", "DT NN VBZ JJ , DT NNS", {3: ("so", "RB")}),
        ("the plot is predictable but fun", "DT NN VBZ JJ CC JJ", {3: ("so", "RB")}),
    ],
)
def test_insertions_good(seed, tags, fills):
    assert run("insertions", item(seed, tags, fills), allowed=KINDS) == [(True, None)]


def test_insertions_by_default_allow_only_the_kinds_that_held_in_both_blind_draws():
    intensifier = item("The Master of Disguise is awful .", "DT NNP IN NNP VBZ JJ .", {5: ("so", "RB")})
    adverb = item("They should have found it", "PRP MD VB VBN PRP", {2: ("probably", "RB")})
    that = item("Allen shows he can outgag them", "NNP VBZ PRP MD VB PRP", {2: ("that", "IN")})
    without_any = item("A chiller resolutely without chills .", "DT NN RB IN NNS .", {4: ("any", "DT")})
    assert run("insertions", intensifier, adverb, that, without_any) == [
        (False, "not_allowed"), (False, "not_allowed"), (True, None), (True, None)]
    assert run("insertions", intensifier, adverb, allowed=["intensifier"]) == [(True, None), (False, "not_allowed")]
    # a bad fill is refused by its own rule whatever is allowed
    assert run("insertions", item("the answer is clear : Not easily", "DT NN VBZ JJ : RB RB", {3: ("so", "RB")})) == [
        (False, "intensifier")]
    with pytest.raises(S2LCTError, match="unknown kind.*intensifer.*valid: complementiser, any, intensifier, adverb"):
        make_check("insertions", allowed=["intensifer"])


def test_wants_an():
    assert [wants_an(w) for w in ("apple", "hour", "user", "few", "FBI", "one", "1990s")] == [True, True, False, False, True, False, None]


def test_production_level_on_hand_built_trees():
    t = Tree.fromstring("(S (NP (DT the) (JJ mushy) (NN finale)) (VP (VBZ is) (ADJP (JJ long))) (. .))")
    assert production_level(t, 1, "JJ", "NP", ("DT", "JJ", "NN")) == 1.0
    assert production_level(t, 1, "JJ", "NP", ("DT", "JJ", "JJ", "NN")) == 0.67
    assert production_level(t, 4, "JJ", "NP", ("DT", "JJ", "NN")) == 0.33  # under ADJP, not NP
    assert production_level(t, 2, "JJ", "NP", ("DT", "JJ", "NN")) == 0.0  # an NN
    assert production_level(t, 99, "JJ", "NP", ("DT", "JJ", "NN")) == 0.0


class Models:
    parser = property(lambda self: models.parser())
    mlm = property(lambda self: models.mlm())


def test_reparse_real_parser_keeps_production():
    seed = ("the", "finale", "is", "long", ".")
    tags = "DT NN VBZ JJ ."
    good = item(" ".join(seed), tags, {1: ("mushy", "JJ")}, "NP -> DT JJ NN")
    bad = item(" ".join(seed), tags, {1: ("of", "JJ")}, "NP -> DT JJ NN")  # "the of finale": not an adjective
    res = make_check("reparse").check([good, bad], Models())
    assert res[0].passed and res[0].score == 1.0
    assert not res[1].passed


def annotated(*ids: int) -> list[CheckItem]:
    """Candidates of tests/data/expansions_annotated.jsonl by id."""
    import json
    from pathlib import Path

    rows = {r["id"]: r for r in map(json.loads, (Path(__file__).parents[1] / "data" / "expansions_annotated.jsonl").open(encoding="utf-8"))}
    return [
        CheckItem(tuple(r["seed"]), tuple(r["seed_tags"]), tuple(r["tokens"]), tuple(m["position"] for m in r["masks"]),
                  tuple(m["symbol"] for m in r["masks"]), r["production"])
        for r in (rows[i] for i in ids)
    ]


def test_pll_threshold_splits_what_the_rules_leave():
    # fluent: "comes at film with [some] bracing intelligence", "the thrills pop up [so] frequently";
    # not: "fosters moments of [some] spontaneous intimacy", "the thrills pop up frequently [quickly]"
    good = annotated(301, 69)
    bad = annotated(302, 258)
    res = make_check("pll").check(good + bad, Models())
    assert [r.passed for r in res] == [True, True, False, False], [r.score for r in res]
    assert min(r.score for r in res[:2]) > max(r.score for r in res[2:])
    # the same candidate scores the same whatever it is batched with
    assert make_check("pll").check(bad[:1], Models())[0].score == res[2].score


def test_filter_cascade_records_and_description():
    john = item("the film is long .", "DT NN VBZ JJ .", {2: ("John", "NNP")})
    opener = item(*MUSHY, {0: ("And", "CC")})
    rules = [make_check(n) for n in ("first_word", "names", "function_words")]
    recs = FluencyFilter(rules).run([john, opener], NoModels())
    assert recs[0] == {"first_word": {"pass": True, "score": 1.0}, "names": {"pass": False, "score": 0.0, "rule": "invented_name"}}
    assert list(recs[1]) == ["first_word"] and not passed(recs[1])  # cascade: later checks not run
    full = FluencyFilter(rules, cascade=False).run([opener], NoModels())[0]
    assert list(full) == ["first_word", "names", "function_words"] and not passed(full)
    d = FluencyFilter([make_check("pll", threshold=-0.5)]).description()
    assert FluencyFilter().description()["checks"][4]["settings"]["threshold"] == -0.1
    assert d["checks"] == [{"name": "pll", "version": "1", "settings": {"threshold": -0.5, "window": 2, "metric": "mean_delta"}}]
    assert [c["name"] for c in FluencyFilter().description()["checks"]] == [
        "first_word", "names", "function_words", "insertions", "pll", "reparse"]
    assert passed({"pos": True, "pll": {"pass": True, "score": 0.1}}) and not passed({"pos": True, "pll": {"pass": False, "score": -3.0}})


def test_unknown_check_is_a_clear_error():
    from s2lct.errors import S2LCTError

    with pytest.raises(S2LCTError, match="unknown fluency check 'nope'; registered: .*first_word"):
        make_check("nope")
