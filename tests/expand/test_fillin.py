"""Masked-LM fill-in: whole words only, joint fills of several masks, both code paths agree."""

from __future__ import annotations

import _engine_models as models
from hypothesis import given
from hypothesis import strategies as st

from s2lct.expand.fillin import Fill, MaskedLM, _beam, place_fills


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


def test_fills_are_cased_as_written_english():
    # an uncased LM's "the" starting the sentence: capitalised, and "Movies" (a common noun) loses its capital
    seed_tags = ("NNS", "IN", "DT", "VBP", "JJ", ".")
    masked = ("[MASK]", "Movies", "like", "this", "are", "dull", ".")
    assert place_fills(masked, (0,), ("DT",), ("the",), seed_tags) == ("The", "movies", "like", "this", "are", "dull", ".")
    # a proper noun keeps its capital after a sentence-initial fill; a proper-noun fill gets one
    assert place_fills(("[MASK]", "Raimi", "crafted", "it", "."), (0,), ("NNP",), ("michael",), ("NNP", "VBD", "PRP", "."))[:2] == ("Michael", "Raimi")
    # "I" stays capital; an uncased "i" fill is written "I"
    assert place_fills(("[MASK]", "I", "liked", "it"), (0,), ("CC",), ("and",), ("PRP", "VBD", "PRP"))[:2] == ("And", "I")
    assert place_fills(("It", "is", "what", "[MASK]", "expected"), (3,), ("PRP",), ("i",), ("PRP", "VBZ", "WP", "VBD"))[3] == "I"


def test_fills_inside_the_sentence_keep_the_seed_untouched():
    masked = ("Or", "both", "[MASK]", ".")
    assert place_fills(masked, (2,), ("NNS",), ("ways",), ("CC", "DT", ".")) == ("Or", "both", "ways", ".")


@given(
    words=st.lists(st.text(alphabet="abcXYZ", min_size=1, max_size=5), min_size=1, max_size=6),
    data=st.data(),
)
def test_placing_fills_changes_only_case_and_masks(words, data):
    n_masks = data.draw(st.integers(1, len(words) + 1))
    positions = tuple(sorted(data.draw(st.sets(st.integers(0, len(words) + n_masks - 1), min_size=n_masks, max_size=n_masks))))
    masked, it = [], iter(words)
    for i in range(len(words) + len(positions)):
        masked.append("[MASK]" if i in positions else next(it))
    fills = tuple(data.draw(st.text(alphabet="abc", min_size=1, max_size=4)) for _ in positions)
    symbols = tuple(data.draw(st.sampled_from(["DT", "NN", "NNP", "CC"])) for _ in positions)
    tags = tuple(data.draw(st.sampled_from(["NN", "NNP", "DT"])) for _ in words)
    out = place_fills(tuple(masked), positions, symbols, fills, tags)
    assert len(out) == len(masked)
    assert [t.lower() for i, t in enumerate(out) if i in positions] == [f.lower() for f in fills]
    assert [t.lower() for i, t in enumerate(out) if i not in positions] == [w.lower() for w in words]
    # only the first letter of a word may change, and only the fills' and the first seed word's
    for i, (a, b) in enumerate(zip(out, masked)):
        if i not in positions:
            assert a[1:] == b[1:]
            assert a == b or (0 in positions and i == min(set(range(len(out))) - set(positions)))
