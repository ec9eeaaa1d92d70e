from __future__ import annotations

import json

import pytest

from s2lct.corpus.polarity import (
    SentiWordNetPolarity,
    classify,
    get_polarity,
    swn_score,
    wordnet_pos,
)


@pytest.mark.parametrize(
    "word,tag,expected",
    [
        ("good", "JJ", "positive"),
        ("great", "JJ", "positive"),
        ("happy", "JJ", "positive"),
        ("bad", "JJ", "negative"),
        ("terrible", "JJ", "negative"),
        ("boring", "JJ", "negative"),
        ("hate", "VB", "negative"),
        ("love", "VBP", "positive"),
        ("movie", "NN", "neutral"),
        ("table", "NN", "neutral"),
        # the brief's running example: plural nouns resolved through WordNet's morphy
        ("ways", "NNS", "neutral"),
        ("things", "NNS", "neutral"),
        # no WordNet PoS → neutral (no SentiWordNet evidence)
        ("both", "DT", "neutral"),
        ("the", "DT", "neutral"),
    ],
)
def test_known_words(word, tag, expected):
    assert get_polarity().polarity(word, tag) == expected


def test_score_formula_is_rank_weighted_power():
    senses = [(0.5, 0.0), (0.0, 0.25), (0.125, 0.0)]
    assert swn_score(senses) == pytest.approx(0.5 + 0.25**2 / 2 + 0.125**3 / 3)


def test_classify_cases():
    assert classify([]) == "neutral"
    assert classify([(0.0, 0.0)] * 5) == "neutral"
    assert classify([(0.0, 0.5)]) == "negative"
    assert classify([(0.25, 0.0)]) == "positive"
    # first-sense cancellation gives score 0 while not objective → mixed
    assert classify([(0.25, 0.25)]) == "mixed"
    # a small score on the 11th sense is below the zero tolerance → still neutral
    assert classify([(0.0, 0.0)] * 10 + [(0.125, 0.0)]) == "neutral"
    # but a real score on the 2nd sense is not
    assert classify([(0.0, 0.0), (0.0, 0.375)]) != "neutral"


def test_wordnet_pos_mapping():
    assert [wordnet_pos(t) for t in ("JJ", "JJR", "NNS", "NNP", "VBD", "RBR", "DT", "IN", ".")] == ["a", "a", "n", "n", "v", "r", None, None, None]


def test_lookups_persist_to_disk_cache(tmp_path):
    first = SentiWordNetPolarity(cache_dir=tmp_path)
    assert first.polarity("dreadful", "JJ") == "negative"
    first.save()
    files = list((tmp_path / "polarity").glob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["dreadful/a"] == "negative"
    second = SentiWordNetPolarity(cache_dir=tmp_path)
    assert second._table["dreadful/a"] == "negative"
    assert second._swn is None  # answered from the cache without loading SentiWordNet
    assert second.polarity("dreadful", "JJ") == "negative" and second._swn is None
