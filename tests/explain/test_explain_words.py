"""Word spans, subword-to-word aggregation, and position ids when tokens are replaced (RoBERTa)."""

from __future__ import annotations

import numpy as np
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.explain.adapters import DELETE, KEEP, OCCLUDE, TokenScorer, prepare_model
from s2lct.explain.registry import get_explainer
from s2lct.explain.words import split_words, sum_to_words, token_to_word

from _explain_tiny import tiny_hf

torch.set_num_threads(1)


@given(st.text(alphabet=st.sampled_from(list("ab c'-.,!?\t") + ["é", "’"]), max_size=40))
@settings(max_examples=200, deadline=None)
def test_words_cover_every_non_space_character_in_order(text):
    w = split_words(text)
    covered = set()
    prev_end = 0
    for word, (s, e) in zip(w.words, w.spans, strict=True):
        assert text[s:e] == word and s >= prev_end and e > s
        covered.update(range(s, e))
        prev_end = e
    assert covered == {i for i, ch in enumerate(text) if not ch.isspace()}
    assert split_words(w.render([KEEP] * len(w), "UNK")).words == w.words


def test_split_words_are_aggregated_into_one_word():
    clf = tiny_hf("bert").tokenizer
    text = "the movie isn't unwatchable."
    words = split_words(text)
    assert words.words == ("the", "movie", "isn't", "unwatchable", ".")
    enc = clf(text, return_offsets_mapping=True, return_special_tokens_mask=True)
    tokens = clf.convert_ids_to_tokens(enc["input_ids"])
    spans = [None if sp else tuple(o) for o, sp in zip(enc["offset_mapping"], enc["special_tokens_mask"], strict=True)]
    tw = token_to_word(words, spans)
    assert tw[0] == -1 and tw[-1] == -1  # [CLS], [SEP]
    assert [tokens[i] for i, w in enumerate(tw) if w == 3] == ["un", "##watch", "##able"]
    assert [tokens[i] for i, w in enumerate(tw) if w == 2] == ["isn", "'", "t"]
    rel = np.arange(len(tokens), dtype=float)
    summed = sum_to_words(rel, tw, len(words))
    assert summed[3] == sum(i for i, w in enumerate(tw) if w == 3)
    assert summed.sum() == rel[1:-1].sum()


def test_render_keeps_gaps_deletes_and_occludes():
    w = split_words("This isn't a great, dull movie.")
    assert w.render([KEEP, DELETE, KEEP, KEEP, KEEP, OCCLUDE, KEEP, KEEP], "UNK") == "This a great, UNK movie."
    assert w.render([DELETE, KEEP, DELETE, DELETE, DELETE, DELETE, KEEP, DELETE], "UNK") == "isn't movie"


def _roberta_positions(ids: torch.Tensor, pad: int) -> torch.Tensor:
    return (torch.arange(ids.shape[1]) + pad + 1).unsqueeze(0)


def test_roberta_position_ids_survive_token_replacement():
    clf = tiny_hf("roberta", seed=3)
    assert clf.pad_id == 1 and clf.replacement_id == clf.tokenizer.mask_token_id
    text = "the movie is not great but dull"
    ids = torch.tensor([clf.encode(text).ids])
    ones = torch.ones_like(ids)
    with_pad = ids.clone()
    with_pad[0, 3] = clf.pad_id  # a word replaced by PAD through input_ids
    with torch.no_grad():
        ours = clf.logits(with_pad, ones)
        right = clf.model(input_ids=with_pad, attention_mask=ones, position_ids=_roberta_positions(ids, clf.pad_id)).logits
        naive = clf.model(input_ids=with_pad, attention_mask=ones).logits  # positions counted over non-PAD tokens
    torch.testing.assert_close(ours, right)
    assert not torch.allclose(naive, right, atol=1e-5)  # the pitfall is real on this model


def test_roberta_padded_batches_and_occlusion_match_single_runs():
    clf = tiny_hf("roberta", seed=4)
    text = "the plot was dull but the movie is great"
    scorer = TokenScorer(clf, text)
    states = np.zeros((3, len(scorer.words)), dtype=np.int8)
    states[1, 3] = OCCLUDE
    states[2, 0:4] = DELETE  # a shorter sequence in the same batch: right padding
    s, _p = scorer.evaluate(states)
    for row, st_ in zip(s, states, strict=True):
        ids = torch.tensor([scorer.variant_ids(st_)])
        with torch.no_grad():
            alone = clf.model(input_ids=ids, attention_mask=torch.ones_like(ids)).logits[0].numpy()
        np.testing.assert_allclose(row, alone, atol=1e-5)
    assert scorer.variant_ids(states[1]).count(clf.replacement_id) == 1


def test_integrated_gradients_is_complete_on_roberta_with_a_pad_baseline():
    handle = prepare_model(tiny_hf("roberta", seed=5))
    exp = get_explainer("ig").explain(handle, "the movie isn't great", "positive")
    assert abs(exp.info["convergence_delta"]) < 0.05 * abs(exp.info["output_difference"]) + 1e-3
