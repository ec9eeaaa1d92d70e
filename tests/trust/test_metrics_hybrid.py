"""Hybrid documents and pointing-game metrics on hand-built documents with known answers."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.corpus.sst import Sentence
from s2lct.errors import S2LCTError
from s2lct.explain.words import split_words
from s2lct.trust import metrics as M
from s2lct.trust.hybrid import build_documents, compose, load_pool


def sent(text: str, label: str, i: int = 0) -> Sentence:
    return Sentence(tuple(text.split()), text, label, "test", i)


def test_compose_fragments_cover_their_sentences_and_label_words():
    doc = compose("H1", [sent("A great film .", "positive"), sent("Dull and slow .", "negative")])
    assert doc.text == "A great film . Dull and slow ."
    assert [doc.text[f.start:f.end] for f in doc.fragments] == ["A great film .", "Dull and slow ."]
    assert doc.word_labels() == ["positive"] * 4 + ["negative"] * 4


def test_pointing_hit_on_hand_built_document():
    doc = compose("H1", [sent("A great film .", "positive"), sent("Dull and slow .", "negative")])
    labels = doc.word_labels()
    rel = [0.0] * 8
    rel[1] = 2.0  # "great"
    assert M.pointing_hit(rel, labels, "positive") is True
    assert M.pointing_hit(rel, labels, "negative") is False
    rel[6] = 3.0  # "slow" now holds rmax
    assert M.pointing_hit(rel, labels, "negative") is True
    assert M.pointing_hit([1.0] * 8, labels, "positive") is False  # flat: nothing pointed at
    assert M.pointing_random(labels, "positive") == pytest.approx(0.5)
    assert M.pointing_random(["positive", "negative", "negative", None], "negative") == pytest.approx(0.5)


def test_documents_mix_labels_use_each_sentence_once_and_are_seeded():
    pool = [sent(f"pos {i} .", "positive", i) for i in range(30)] + [sent(f"neg {i} .", "negative", i) for i in range(12)]
    docs = build_documents(pool, 10, 3, seed=1)
    assert len(docs) == 10
    assert all(len(d.labels) == 2 for d in docs)  # every document mixes labels
    assert all(d.text[f.start:f.end] == f.text for d in docs for f in d.fragments)
    texts = [f.text for d in docs for f in d.fragments]
    assert len(texts) == len(set(texts))
    assert [d.text for d in build_documents(pool, 10, 3, seed=1)] == [d.text for d in docs]
    assert [d.text for d in build_documents(pool, 10, 3, seed=2)] != [d.text for d in docs]


def test_one_fragment_is_no_hybrid():
    with pytest.raises(S2LCTError, match="at least 2"):
        build_documents([sent("a", "positive"), sent("b", "negative")], 1, 1)


def test_default_pool_is_sst_test_and_dev_polar_sentences(shared_dir):
    pool = load_pool(data_root=shared_dir / "data")
    assert {s.split for s in pool} == {"test", "dev"}
    assert {s.label for s in pool} == {"positive", "negative"}
    assert len(pool) == 1821 + 872  # the SST-2 sized test and dev sets


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from([0.0, 1.0]), min_size=1, max_size=60), st.integers(0, 5))
def test_bootstrap_interval_holds_the_mean(values, seed):
    s = M.bootstrap(values, seed=seed)
    assert s.low <= s.value + 1e-12 and s.value <= s.high + 1e-12
    assert 0.0 <= s.low <= s.high <= 1.0
    if len(set(values)) == 1:
        assert s.low == s.high == values[0]


def test_planted_random_explainer_scores_within_the_random_baseline_interval(shared_dir):
    """An explainer pointing at a uniformly random word is indistinguishable from the baseline."""
    pool = load_pool(data_root=shared_dir / "data")
    docs = build_documents(pool, 300, 3, seed=0)
    labels = [d.word_labels() for d in docs]
    predicted = [d.fragments[0].label for d in docs]
    baseline = M.random_pointer([M.pointing_random(lab, p) for lab, p in zip(labels, predicted)], seed=0)
    assert baseline.high - baseline.low < 0.15  # the interval is informative at this size
    inside = 0
    for run in range(40):  # 40 planted random explainers: about 95 % of their scores fall inside
        rng = random.Random(run)
        score = np.mean([M.pointing_hit([rng.random() for _ in lab], lab, p) for lab, p in zip(labels, predicted)])
        inside += baseline.low <= score <= baseline.high
    assert inside >= 34
    # an explainer that always points into the predicted class's fragment is far outside it
    oracle = np.mean([M.pointing_hit([float(x == p) + 0.01 * i for i, x in enumerate(lab)], lab, p) for lab, p in zip(labels, predicted)])
    assert oracle == 1.0 > baseline.high


def test_words_of_documents_match_the_explainers_words():
    doc = compose("H1", [sent("It isn't warmed-over , really .", "negative"), sent("Fun !", "positive")])
    assert len(doc.word_labels()) == len(split_words(doc.text))


def test_pytest_failure_message_gains_the_trust_line():
    from s2lct.trust.pytest_plugin import add_trust

    card = {"paradigms": {"hybrid": {"status": "ok", "baselines": {"random": {"value": 0.5}},
                                     "explainers": {"ig": {"pointing_game": {"value": 0.86, "n": 100, "ci": [0.83, 0.89]}}}}},
            "ranking": [{"explainer": "ig", "rank": 1, "trusted": True}]}
    res = add_trust({"message": "  evidence ...", "explanation": {"explainer": "ig"}}, card)
    assert res["message"] == "  evidence ...\n  trust: ig, pointing game 0.86 ± 0.03 on this model (random 0.50, rank 1/1)"
    assert res["explanation"]["trust"].startswith("ig, pointing game 0.86")
    assert add_trust({"message": "m", "explanation": {"explainer": "lime"}}, card)["message"] == "m"  # no score: unchanged
    assert add_trust(None, card) is None
