from __future__ import annotations

from s2lct.corpus.annotate import annotate, count_words
from s2lct.corpus.polarity import get_polarity
from s2lct.corpus.sst import Sentence
from s2lct.corpus.tagging import get_tagger
from s2lct.generate.search import matches
from s2lct.spec import SearchRule
from s2lct.text import detokenize


def annotated(text: str, label: str):
    tokens = tuple(text.split())
    tags = get_tagger().tag([tokens])[0]
    return annotate(Sentence(tokens, detokenize(tokens), label, "test", 0), tags, get_polarity())


def test_word_count_ignores_punctuation():
    assert count_words(["Or", "both", "."]) == 2
    assert count_words(["It", "'s", "n't", "--", "1\\/2"]) == 4


def test_word_classes_from_tags_and_sentiwordnet():
    s = annotated("The movie has a good ending and a terrible score .", "neutral")
    assert {"positive adj", "negative adj", "neutral noun"} <= s.word_classes


def test_lc1_style_rule():
    rule = SearchRule.model_validate(
        {"label": "neutral", "length": {"max": 9}, "include": ["neutral adj", "neutral noun"],
         "exclude": ["positive adj", "negative adj", "positive noun", "negative noun"]}
    )
    assert matches(rule, annotated("A daytime soaper about a Yiddish theater clan .", "neutral"))
    assert not matches(rule, annotated("A daytime soaper about a Yiddish theater clan .", "positive"))  # label
    assert not matches(rule, annotated("A good soaper about a Yiddish theater clan .", "neutral"))  # positive adj
    assert not matches(rule, annotated("A daytime soaper about a Yiddish theater clan and its many old friends .", "neutral"))  # length
    assert not matches(rule, annotated("It is about a theater clan .", "neutral"))  # no neutral adj


def test_start_end_contains_and_words():
    s = annotated("These are bad ideas .", "negative")
    assert matches(SearchRule(start=r"(This|That|These|Those) (is|are)\b"), s)
    assert not matches(SearchRule(start=r"(This|That) (is|are)\b"), s)
    assert matches(SearchRule(end=r"ideas\."), s)
    assert matches(SearchRule(contains="bad"), s)
    assert matches(SearchRule(include_words=["IDEAS"]), s)
    assert not matches(SearchRule(exclude_words=["bad"]), s)
    assert matches(SearchRule(label=["negative", "neutral"], length={"min": 4, "max": 4}), s)


def test_exclude_pattern_refuses_a_seed_where_it_matches_anywhere():
    """LC8's "no proper noun": a half that names its film's people is about a film the other half is not."""
    rule = SearchRule.model_validate({"exclude_pattern": [{"TAG": {"IN": ["NNP", "NNPS"]}}]})
    assert matches(rule, annotated("The film is a charming , funny ride .", "positive"))
    assert not matches(rule, annotated("Like the Tuck family themselves , this movie just goes on and on .", "negative"))
    both = SearchRule.model_validate({"token_pattern": [{"LOWER": "film"}], "exclude_pattern": [{"LOWER": "dull"}]})
    assert matches(both, annotated("The film is fun .", "positive"))
    assert not matches(both, annotated("The film is dull .", "negative"))
    assert not matches(both, annotated("The movie is fun .", "positive"))
