"""Every explainer on a bag-of-words linear model whose relevances are known, the black-box ones
through the SentimentModel interface too, and the gradient ones on tiny BERT/RoBERTa/DistilBERT."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from s2lct.explain.adapters import ModelHandle, TokenScorer, prepare_model
from s2lct.explain.base import CaseNotApplicable, NotApplicable
from s2lct.explain.perturbation import ngram_windows
from s2lct.explain.registry import available, get_explainer, parse_explainers
from s2lct.explain.base import ExplainError
from s2lct.models import CallableModel, load_model

from _explain_tiny import WEIGHTS, BowClassifier, tiny_hf

torch.set_num_threads(1)
TEXT = "the movie is not great but the plot was dull and bad"
WORDS = TEXT.split()
C = np.array([WEIGHTS.get(w, 0.0) for w in WORDS])  # known contribution of each word to s(positive)
S = C.sum()
P = 1 / (1 + np.exp(-2 * S))  # p(positive) = softmax([-S, S])[1]


@pytest.fixture(scope="module")
def bow() -> ModelHandle:
    return prepare_model(BowClassifier())


def explain(handle: ModelHandle, name: str, text: str = TEXT, target: str = "positive"):
    return get_explainer(name).explain(handle, text, target)


def test_lrp_that_does_not_add_up_is_refused(bow):
    """Captum's LRP hands the relevance at the linear layer's input to every token the functional
    sum before it added up (a copy each, not a share), so the bag of words' relevances sum to T
    times s; the completeness check refuses them instead of reporting them (cnn-sst2, whose layers
    all have rules, is exact: tests/models/test_task_models.py)."""
    with pytest.raises(CaseNotApplicable, match="completeness"):
        explain(bow, "lrp")


@pytest.mark.parametrize("name", ["grad_dot_s", "ig", "deeplift", "occlusion1", "omission1", "limsse_ms_s"])
def test_exact_on_a_linear_model(bow, name):
    exp = explain(bow, name)
    assert exp.words == tuple(WORDS)
    np.testing.assert_allclose(exp.relevances, C, atol=1e-4)
    neg = explain(bow, name, target="negative")  # the other class: signs flip
    np.testing.assert_allclose(neg.relevances, -C, atol=1e-4)


@pytest.mark.parametrize("n", [3, 7])
@pytest.mark.parametrize("kind", ["occlusion", "omission"])
def test_ngram_perturbation_averages_the_windows(bow, kind, n):
    exp = explain(bow, f"{kind}{n}")
    expected = np.zeros(len(C))
    for t in range(len(C)):
        windows = [(max(j, 0), min(j + n, len(C))) for j in range(t - n + 1, t + 1)]
        expected[t] = np.mean([C[a:b].sum() for a, b in windows])
    np.testing.assert_allclose(exp.relevances, expected, atol=1e-4)
    assert len(ngram_windows(len(C), n)) == len(C) + n - 1


def test_probability_gradients_are_scaled_score_gradients(bow):
    dp = 2 * P * (1 - P)  # d p(positive) / d s(positive) for p = sigmoid(2 s)
    np.testing.assert_allclose(explain(bow, "grad_dot_p").relevances, dp * C, rtol=1e-4, atol=1e-7)
    np.testing.assert_allclose(explain(bow, "grad_l2_s").relevances, np.ones(len(C)), rtol=1e-5)  # |W_k| = 1 per word
    np.testing.assert_allclose(explain(bow, "grad_l2_p").relevances, np.full(len(C), dp), rtol=1e-4)


def test_integrated_gradients_is_complete(bow):
    exp = explain(bow, "ig_p")
    assert sum(exp.relevances) == pytest.approx(exp.info["output_difference"], abs=1e-3)
    assert abs(exp.info["convergence_delta"]) < 1e-3
    assert exp.info["output_difference"] == pytest.approx(P - 0.5, abs=1e-5)


@pytest.mark.parametrize("name", ["lime", "limsse_bb", "limsse_ms_p", "grad_dot_p", "ig_p"])
def test_heaviest_word_first_and_signs_right(bow, name):
    exp = explain(bow, name, text="great movie but dull and bad")
    weights = [WEIGHTS.get(w, 0.0) for w in exp.words]
    assert exp.words[exp.ranked()[0]] == "great"
    for w, c, r in zip(exp.words, weights, exp.relevances, strict=True):
        if abs(c) >= 0.4:
            assert np.sign(r) == np.sign(c), (w, r)
    assert exp.words[int(np.argmin(exp.relevances))] == "bad"


def bow_probabilities(texts):
    out = []
    for t in texts:
        s = sum(WEIGHTS.get(w.lower(), 0.0) for w in t.split())
        p = float(1 / (1 + np.exp(-2 * s)))
        out.append([1 - p, p])
    return out


@pytest.mark.parametrize("name", ["occlusion1", "omission1", "occlusion3", "lime", "limsse_bb", "limsse_ms_p"])
def test_black_box_explainers_work_through_the_sentiment_model_interface(name):
    handle = prepare_model(CallableModel("bow-callable", bow_probabilities))
    assert handle.torch is None
    exp = explain(handle, name, text="great movie but dull and bad")
    assert exp.words[exp.ranked()[0]] == "great"
    assert exp.words[int(np.argmin(exp.relevances))] == "bad"


def test_vader_occlusion_points_at_the_opinion_word():
    handle = prepare_model(load_model("vader"))
    exp = explain(handle, "occlusion1", text="The plot was dull and the acting was terrible.", target="negative")
    assert exp.words[exp.ranked()[0]] in {"dull", "terrible"}
    assert exp.info["output"] == "p"


@pytest.mark.parametrize("name", ["grad_dot_s", "ig", "deeplift", "lrp", "limsse_ms_s"])
def test_gradient_and_score_explainers_say_why_they_do_not_apply_to_vader(name):
    handle = prepare_model(load_model("vader"))
    reason = get_explainer(name).not_applicable(handle)
    assert reason and name in reason and "vader" in reason


def test_unknown_explainer_lists_the_registered_ones():
    with pytest.raises(ExplainError) as err:
        parse_explainers("ig,nonsense")
    assert "'nonsense'" in str(err.value) and "occlusion1" in str(err.value) and "limsse_ms_p" in str(err.value)
    assert {"grad_l2_s", "grad_l2_p", "grad_dot_s", "grad_dot_p", "ig", "deeplift", "lrp", "lime", "limsse_bb",
            "limsse_ms_s", "limsse_ms_p", "occlusion1", "occlusion3", "occlusion7", "omission1", "omission3", "omission7"} <= set(available())


@pytest.fixture(scope="module", params=["bert", "roberta", "distilbert"])
def tiny(request) -> ModelHandle:
    return prepare_model(tiny_hf(request.param))


@pytest.mark.parametrize("name", ["grad_l2_s", "grad_dot_s", "grad_dot_p", "ig", "occlusion1", "limsse_ms_s"])
def test_explainers_run_on_every_architecture_family(tiny, name):
    text = "the movie isn't unwatchable, but the plot was dull"
    exp = explain(tiny, name, text)
    assert exp.words == ("the", "movie", "isn't", "unwatchable", ",", "but", "the", "plot", "was", "dull")
    assert all(np.isfinite(exp.relevances))
    assert max(abs(r) for r in exp.relevances) > 1e-6
    if name == "ig":  # completeness held, else NotApplicable would have been raised
        assert abs(exp.info["convergence_delta"]) <= 0.05 * abs(exp.info["output_difference"]) + 1e-3


def test_integrated_gradients_in_token_bounded_batches_equals_one_batch(tiny, monkeypatch):
    """The steps are split to bound memory (every layer's activations of a batch are kept for the
    backward pass); the attributions are those of one batch of all the steps."""
    import captum.attr

    from s2lct.explain import gradient

    text = "the movie isn't unwatchable, but the plot was dull"
    sizes: list[int] = []
    real = captum.attr.LayerIntegratedGradients.attribute

    def spy(self, *a, **k):
        sizes.append(k["internal_batch_size"])
        return real(self, *a, **k)

    monkeypatch.setattr(captum.attr.LayerIntegratedGradients, "attribute", spy)
    one = explain(tiny, "ig", text)
    n_tokens = len(tiny.torch.encode(text).ids)
    monkeypatch.setattr(gradient, "IG_TOKENS_PER_BATCH", 3 * n_tokens)  # 3 steps a batch: 17 batches
    split = explain(tiny, "ig", text)
    assert sizes == [gradient.IG_STEPS, 3]
    np.testing.assert_allclose(split.relevances, one.relevances, rtol=1e-4, atol=1e-6)
    assert split.info["output_difference"] == pytest.approx(one.info["output_difference"], abs=1e-6)


def test_lrp_is_not_applicable_to_transformers(tiny):
    reason = get_explainer("lrp").not_applicable(tiny)
    assert "Embedding" in reason or "LayerNorm" in reason


def test_gradient_times_input_is_taken_after_the_layernorm():
    """The pitfall: grad · (word + position + type) entering BERT's LayerNorm is exactly 0."""
    handle = prepare_model(tiny_hf("bert", seed=1))
    clf = handle.torch
    enc = clf.encode("the movie is not great but dull")
    ids = torch.tensor([enc.ids])
    captured = {}
    ln = clf.embeddings.LayerNorm
    hook = ln.register_forward_hook(lambda mod, inp, out: captured.setdefault("x", inp[0]))
    with torch.no_grad():
        _ = clf.logits(ids, torch.ones_like(ids))
    hook.remove()
    x = captured["x"].detach().requires_grad_(True)
    # gradient of s(positive) w.r.t. the LayerNorm input, through the rest of the network
    def rest(z):
        h = clf.model.bert.encoder(clf.embeddings.dropout(ln(z))).last_hidden_state
        return clf.model.classifier(clf.model.dropout(clf.model.bert.pooler(h)))[0, 1]
    (grad,) = torch.autograd.grad(rest(x), x)
    degenerate = (grad * x).sum(dim=-1)[0].detach().abs()
    scale = (grad.norm(dim=-1) * x.norm(dim=-1))[0].detach()
    assert bool((degenerate <= 1e-4 * scale).all())  # LayerNorm is scale-invariant: the product vanishes
    exp = explain(handle, "grad_dot_s", "the movie is not great but dull")
    assert max(abs(r) for r in exp.relevances) > 1e3 * float(degenerate.max())


def test_deeplift_is_marked_not_applicable_when_completeness_fails():
    handle = prepare_model(load_model("minilm-sst2"))
    with pytest.raises(NotApplicable, match="completeness"):
        explain(handle, "deeplift", "This isn't a great movie.", target="negative")


def test_token_scorer_counts_each_distinct_perturbation_once(bow):
    exp = explain(bow, "occlusion7", text="great movie")  # 8 windows, 3 distinct perturbations + the text
    assert exp.info["evaluations"] == 4
    scorer = TokenScorer(bow.torch, "great movie")
    assert scorer.variant_ids([1, 2]) == [bow.torch.vocab["[CLS]"], bow.torch.vocab["[MASK]"], bow.torch.vocab["[SEP]"]]


PERTURBATION = ["occlusion1", "omission1", "occlusion3", "omission3", "occlusion7", "omission7", "lime",
                "limsse_bb", "limsse_ms_s", "limsse_ms_p"]


def _plain_and_memoised(handle, names, texts):
    """Every explainer on every text, once on a fresh scorer each, once through one memoised handle
    (text by text, every explainer in turn, as the trust card runs them)."""
    memo = handle.memoised()
    asked, scored = 0, 0
    pairs = []
    for text in texts:
        memo.forget()
        for name in names:
            plain = explain(handle, name, text)
            shared = explain(memo, name, text)
            pairs.append((name, plain, shared))
            asked += plain.info["evaluations"]
        scored += len(memo.memo[text])
    return pairs, asked, scored


def test_memoised_scorer_gives_the_same_explanations_with_fewer_model_calls():
    """Text-level model (pure Python, no batching): equal to the last bit; each distinct input scored once."""
    counted: list[str] = []

    def probabilities(texts):
        counted.extend(texts)
        return bow_probabilities(texts)

    handle = prepare_model(CallableModel("bow-callable", probabilities))
    texts = ["great movie but dull and bad", "the plot was not good but fine"]
    names = [n for n in PERTURBATION if n != "limsse_ms_s"]  # limsse_ms_s needs class scores
    pairs, asked, scored = _plain_and_memoised(handle, names, texts)
    for name, plain, shared in pairs:
        assert shared.relevances == plain.relevances and shared.info == plain.info, name
    counted.clear()
    memo = handle.memoised()
    for name in names:
        explain(memo, name, texts[0])
    assert len(counted) == len(set(counted)) == len(memo.memo[texts[0]])  # no input reaches the model twice
    assert scored < asked * 0.8


def test_memoised_scorer_on_a_transformer_changes_nothing_but_float_rounding():
    """Batches hold other rows once shared inputs are skipped, which moves float32 logits in the
    last bits only: the same words, rmax and info, relevances equal to 1e-5."""
    handle = prepare_model(tiny_hf("bert", seed=2))
    texts = ["the movie isn't unwatchable, but the plot was dull", "a great movie, the plot is fine but bad"]
    pairs, asked, scored = _plain_and_memoised(handle, PERTURBATION, texts)
    for name, plain, shared in pairs:
        assert shared.words == plain.words and shared.info == plain.info, name
        assert shared.rmax == plain.rmax, name
        np.testing.assert_allclose(shared.relevances, plain.relevances, rtol=1e-5, atol=1e-6, err_msg=name)
    assert scored < asked * 0.8
