"""Masked-LM fill-in: whole words only, joint fills of several masks, both code paths agree."""

from __future__ import annotations

from s2lct.fillin import Fill, MaskedLM, _beam

import _engine_models as models


def test_running_example_fills_match_reference_outputs():
    (fills,) = models.mlm().fill([(("Or", "both", "[MASK]", "."), (2,))], top_n=8)
    # MODELS.md top-8 for "Or both [MASK] ." minus "." (not a whole word); probabilities unchanged
    assert [f.words[0] for f in fills][:7] == ["else", "here", "one", "both", "there", "either", "other"]
    assert abs(fills[0].score - 0.050) < 0.001 and fills[0].probabilities == (fills[0].score,)


def test_only_whole_words_are_offered():
    sents = [(("I", "[MASK]", "this", "movie", "."), (1,)), (("The", "film", "[MASK]"), (2,)), (("-LRB-", "[MASK]", "-RRB-"), (1,))]
    for fills in models.mlm().fill(sents, top_n=20):
        assert len(fills) == 20
        for f in fills:
            (w,) = f.words
            assert w.isalnum() and not w.startswith("##") and "[" not in w
        assert [f.score for f in fills] == sorted((f.score for f in fills), reverse=True)


def test_several_masks_are_filled_jointly():
    (fills,) = models.mlm().fill([(("the", "[MASK]", "[MASK]", "film", "."), (1, 2))], top_n=5)
    assert len(fills) == 5
    for f in fills:
        assert len(f.words) == 2 and abs(f.score - f.probabilities[0] * f.probabilities[1]) < 1e-6


def test_fast_bert_path_equals_generic_path():
    sents = [(("Or", "both", "[MASK]", "."), (2,)), (("the", "[MASK]", "[MASK]", "film"), (1, 2)), (("a", "[MASK]", "``", "movie", "''"), (1,))]
    fast = models.mlm()
    fast._load()
    generic = MaskedLM(fast.model_name, batch_size=2)
    generic._load()
    generic._fast_bert = False
    assert fast._fast_bert
    a, b = generic.fill(sents, top_n=6), fast.fill(sents, top_n=6)
    # same words; probabilities equal up to float noise (different batch shapes)
    assert [[f.words for f in x] for x in a] == [[f.words for f in x] for x in b]
    for x, y in zip(a, b):
        for f, g in zip(x, y):
            assert abs(f.score - g.score) <= 1e-4 * g.score


def test_truncated_masks_get_no_fill():
    lm = models.mlm()
    long = ("word",) * 200 + ("[MASK]",)
    short = lm.max_length
    assert len(long) > short
    assert lm.fill([(long, (200,))], top_n=3) == [[]]


def test_beam_product_and_ties():
    per_mask = [[("a", 0.5), ("b", 0.25)], [("x", 0.5), ("y", 0.5)]]
    assert _beam(per_mask, 3) == [Fill(("a", "x"), (0.5, 0.5), 0.25), Fill(("a", "y"), (0.5, 0.5), 0.25), Fill(("b", "x"), (0.25, 0.5), 0.125)]
