"""Faithfulness (Ding & Koehn §3.2): swap pairs keep the tag, the number and every other word;
Pearson and its aggregation on planted explainers with known correlations; a tiny student distilled
from a tiny teacher agrees with it on held-out texts, deterministically."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from s2lct.corpus.polarity import get_polarity
from s2lct.corpus.sst2 import load_sst2
from s2lct.corpus.tagging import get_tagger
from s2lct.explain.adapters import HFTokenClassifier, ModelHandle
from s2lct.explain.base import CaseNotApplicable, Explainer, Explanation, NotApplicable
from s2lct.explain.registry import get_explainer
from s2lct.explain.words import split_words
from s2lct.models.base import Prediction
from s2lct.trust.faithfulness import input_consistency, model_consistency, pearson
from s2lct.trust.swaps import SWAP_TAGS, SwapBuilder, SwapOptions, SwapPair

FINITE = st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False)


# ------------------------------------------------------------------------------------- pearson
#: The machine may be shared: no per-example deadline, no slowness health check.
RELAXED = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


@RELAXED
@given(st.lists(FINITE, min_size=2, max_size=30), st.floats(0.1, 10), st.floats(-5, 5))
def test_pearson_is_one_on_identical_and_positively_scaled_relevances(xs, scale, shift):
    assume(np.ptp(xs) > 1e-6 * (1 + np.abs(xs).max()))  # not constant (constants: below)
    assert pearson(xs, xs) == pytest.approx(1.0)
    assert pearson(xs, [scale * x + shift for x in xs]) == pytest.approx(1.0)
    assert pearson(xs, [-x for x in xs]) == pytest.approx(-1.0)


@RELAXED
@given(FINITE, st.integers(1, 30), st.lists(FINITE, min_size=30, max_size=30))
def test_pearson_is_undefined_on_a_constant_vector(c, n, other):
    assert pearson([c] * n, other[:n]) is None
    assert pearson(other[:n], [c] * n) is None


def test_pearson_matches_numpy_and_refuses_what_is_undefined():
    rng = np.random.default_rng(3)
    for _ in range(20):
        a, b = rng.normal(size=7), rng.normal(size=7)
        assert pearson(a, b) == pytest.approx(np.corrcoef(a, b)[0, 1])
    assert pearson([1.0], [2.0]) is None
    assert pearson([0.1, 0.1, 0.1], [1.0, 2.0, 3.0]) is None
    with pytest.raises(ValueError):
        pearson([1.0, 2.0], [1.0, 2.0, 3.0])


# ------------------------------------------------------------------- aggregation, planted explainers
class Words(Explainer):
    """Relevance of a word = its length: a swap changes one value."""

    name, family = "words", "perturbation"

    def explain(self, handle, text, target):
        w = split_words(text)
        return Explanation(self.name, target, w.words, w.spans, tuple(float(len(x)) for x in w.words))


class Position(Words):
    """Relevance = position: the same vector before and after any swap."""

    name = "position"

    def explain(self, handle, text, target):
        w = split_words(text)
        return Explanation(self.name, target, w.words, w.spans, tuple(float(i) for i in range(len(w))))


class Flat(Words):
    name = "flat"

    def explain(self, handle, text, target):
        w = split_words(text)
        return Explanation(self.name, target, w.words, w.spans, (0.5,) * len(w))


class Never(Words):
    name = "never"

    def explain(self, handle, text, target):
        raise NotApplicable("never applies")


class FailsOnWide(Words):
    """Completeness fails on texts holding 'wide'; succeeds elsewhere."""

    name = "fails_on_wide"

    def explain(self, handle, text, target):
        if "wide" in text.split():
            raise CaseNotApplicable("delta too large")
        return super().explain(handle, text, target)


class ByModel(Words):
    """On the 'student' handle the relevances are reversed in order."""

    name = "by_model"

    def explain(self, handle, text, target):
        exp = super().explain(handle, text, target)
        if handle.name == "student":
            return Explanation(self.name, target, exp.words, exp.spans, exp.relevances[::-1])
        return exp


class KeywordModel:
    """negative when the text says 'awful', else positive."""

    name, kind, identity = "keyword", "model", "keyword"

    def predict(self, texts):
        out = []
        for t in texts:
            neg = "awful" in t.split()
            probs = {"negative": 0.9 if neg else 0.1, "neutral": 0.0, "positive": 0.1 if neg else 0.9}
            out.append(Prediction("negative" if neg else "positive", probs))
        return out


def pair(text: str, i: int, new: str, tag: str = "JJ") -> SwapPair:
    w = split_words(text)
    s, e = w.spans[i]
    return SwapPair(text, text[:s] + new + text[e:], i, w.words[i], new, tag)


PAIRS = [pair("the plot is good and the cast is fine", 3, "great"),
         pair("a long and wide river runs through it", 1, "broad"),
         pair("the plot is good but slow", 3, "awful"),  # the prediction changes
         pair("an old film with a young cast", 1, "ancient")]


def test_input_consistency_averages_the_pair_correlations_and_reports_what_it_could_not_score():
    handle = ModelHandle("keyword", "model", KeywordModel())
    out = input_consistency(handle, [Words(), Position(), Flat(), Never(), FailsOnWide()], pairs=PAIRS,
                            labels=["positive", "positive", "positive", "negative"])
    assert out["status"] == "ok"
    expected = [np.corrcoef([len(x) for x in split_words(p.text).words], [len(x) for x in split_words(p.swapped).words])[0, 1]
                for p in PAIRS]
    words = out["explainers"]["words"]
    assert words["pairs"] == 4 and words["input_consistency"]["value"] == pytest.approx(np.mean(expected), abs=1e-4)
    lo, hi = words["input_consistency"]["ci"]
    assert lo <= np.mean(expected) + 1e-4 and hi >= np.mean(expected) - 1e-4
    assert words["prediction_changed"]["n"] == 1 and words["prediction_changed"]["value"] == pytest.approx(expected[2], abs=1e-4)
    assert words["prediction_kept"]["value"] == pytest.approx(np.mean([expected[k] for k in (0, 1, 3)]), abs=1e-4)
    assert words["expected"]["n"] == 3 and words["alternative"]["n"] == 1  # the last pair's gold label is not the predicted one
    assert out["explainers"]["position"]["input_consistency"] == {"value": 1.0, "n": 4, "ci": [1.0, 1.0], "undefined": 0}
    flat = out["explainers"]["flat"]
    assert flat["input_consistency"]["value"] is None and flat["input_consistency"]["undefined"] == 4 and flat["pairs"] == 0
    assert "never" not in out["explainers"] and out["not_applicable"]["never"] == "never applies"
    wide = out["explainers"]["fails_on_wide"]  # the pair with 'wide' is left out, the rest scored
    assert wide["pairs"] == 3 and wide["skipped"] == 1
    assert wide["input_consistency"]["value"] == pytest.approx(np.mean([expected[k] for k in (0, 2, 3)]), abs=1e-4)
    rows = out["pairs"]
    assert [r["prediction_changed"] for r in rows] == [False, False, True, False]
    assert rows[2]["prediction"] == "positive" and rows[2]["prediction_swapped"] == "negative"
    assert rows[0]["pearson"]["words"] == pytest.approx(expected[0], abs=1e-5)
    assert "fails_on_wide" not in rows[1]["pearson"] and rows[0]["pearson"]["flat"] is None
    assert out["prediction_changed"] == 1


def test_an_explainer_failing_completeness_on_most_pairs_is_not_scored():
    handle = ModelHandle("keyword", "model", KeywordModel())
    # 'wide' swapped away: the original fails, the swapped text succeeds; 3 of 4 pairs left out
    away = [pair("a wide and long river runs here", 1, "broad"), pair("a wide valley with a long road", 1, "deep"),
            pair("the wide river", 1, "broad")]
    out = input_consistency(handle, [FailsOnWide(), Words()], pairs=[*away, PAIRS[0]])
    assert "fails_on_wide" not in out["explainers"] and "left out of 3 of 4 swap pairs" in out["not_applicable"]["fails_on_wide"]
    assert out["explainers"]["words"]["pairs"] == 4
    # 'wide' on both sides: three failures before any success give the explainer up (the card's rule)
    both = [pair("a wide and long river runs here", 3, "short"), pair("a wide valley with a long road", 5, "path")]
    out = input_consistency(handle, [FailsOnWide(), Words()], pairs=[*both, PAIRS[0]])
    assert out["not_applicable"]["fails_on_wide"] == "delta too large"


def test_model_consistency_correlates_teacher_and_student_relevances():
    teacher = ModelHandle("teacher", "model", KeywordModel())
    student = ModelHandle("student", "model", KeywordModel())
    texts = ["the plot is good and the cast is fine", "an awful film", "a long river runs through it"]
    out = model_consistency(teacher, student, [Words(), ByModel(), Never()], texts)
    assert out["status"] == "ok" and out["agreement"] == 1.0
    assert out["explainers"]["words"]["model_consistency"]["value"] == pytest.approx(1.0)
    expected = [np.corrcoef(v := [len(x) for x in split_words(t).words], v[::-1])[0, 1] for t in texts]
    got = out["explainers"]["by_model"]["model_consistency"]
    assert got["value"] == pytest.approx(np.mean(expected), abs=1e-4) and got["n"] == 3
    assert out["not_applicable"] == {"never": "never applies"}
    assert [r["prediction"] for r in out["texts"]] == ["positive", "negative", "positive"]


# ----------------------------------------------------------------------------------- swap pairs
@pytest.fixture(scope="module")
def builder():
    """The default builder without its masked-LM filter (tested on its own below): the filter only
    removes candidates, and the property tests draw many texts."""
    return SwapBuilder(SwapOptions(fluency_margin=None))


def like(b: SwapBuilder, **options) -> SwapBuilder:
    return SwapBuilder(SwapOptions(**{"fluency_margin": None, **options}), counts=b.counts, nlp=b.nlp, polarity=b.polarity)


@pytest.fixture(scope="module")
def dev_texts(shared_dir):
    return [t for t, _ in load_sst2(shared_dir / "data" / "sst2_glue" / "dev.tsv")][:300]


VOCAB = ("the", "a", "movie", "films", "actor", "actors", "plot", "is", "are", "was", "very", "funny", "dull", "long", "story",
         "runs", "makes", "made", "slowly", "and", "but", "with", "director", "directs", "scenes", "beautiful", "quickly", ",", ".")


def check_pair(p: SwapPair) -> None:
    a, b = split_words(p.text), split_words(p.swapped)
    assert len(a) == len(b)
    differ = [i for i, (x, y) in enumerate(zip(a.words, b.words, strict=True)) if x != y]
    assert differ == [p.position]
    assert a.words[p.position] == p.original and b.words[p.position] == p.replacement != p.original
    s, e = a.spans[p.position]
    assert p.swapped[:s] == p.text[:s] and p.swapped[s + len(p.replacement):] == p.text[e:]  # every other character kept
    nlp = get_tagger().nlp
    tok_a = next(t for t in nlp(p.text) if t.idx == s)
    tok_b = next(t for t in nlp(p.swapped) if t.idx == s)
    assert tok_a.tag_ == tok_b.tag_ == p.tag and p.tag in SWAP_TAGS
    assert tok_a.text == p.original and tok_b.text == p.replacement  # one token each
    assert tok_a.morph.get("Number") == tok_b.morph.get("Number")
    assert get_polarity().polarity(p.replacement, p.tag) == get_polarity().polarity(p.original, p.tag)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data(), seed=st.integers(0, 10_000))
def test_every_swap_keeps_the_tag_the_number_and_every_other_word(builder, dev_texts, data, seed):
    if data.draw(st.booleans()):
        text = data.draw(st.sampled_from(dev_texts))
    else:
        text = " ".join(data.draw(st.lists(st.sampled_from(VOCAB), min_size=4, max_size=12)))
    pairs, _why = like(builder, seed=seed, per_text=2).pairs_for(text)
    assert len({p.position for p in pairs}) == len(pairs) <= 2
    for p in pairs:
        check_pair(p)


def test_most_sst_sentences_get_a_pair_and_the_pairs_are_reproducible(builder, dev_texts):
    texts = dev_texts[:30]
    first = builder.build(texts)
    assert len(first.pairs) >= 24, first.to_json()  # 30 texts: at least 80 % get a pair
    assert like(builder).build(texts).pairs == first.pairs
    assert like(builder, seed=1).build(texts).pairs != first.pairs
    nouns = like(builder, tags=("NN", "NNS")).build(texts)
    assert nouns.pairs and {p.tag for p in nouns.pairs} <= {"NN", "NNS"}
    vocabulary = like(builder, source="vocabulary").build(texts[:10])
    assert vocabulary.pairs
    for p in vocabulary.pairs:
        check_pair(p)


def test_no_pair_swaps_a_negation_an_auxiliary_or_a_short_text(builder):
    pairs, why = builder.pairs_for("it is not")
    assert pairs == [] and why == "too_short"
    words = split_words("it is not a movie that never ends").words
    assert {words[i] for i, _ in builder.positions("it is not a movie that never ends")} <= {"movie", "ends"}


class LengthScorer:
    """A planted fluency scorer: a word's score is minus its length."""

    def scores(self, items):
        return [-(e - s) for _text, (s, e) in items]


def test_the_fluency_filter_keeps_the_candidates_within_the_margin(builder):
    b = SwapBuilder(SwapOptions(fluency_margin=2.0), counts=builder.counts, nlp=builder.nlp, polarity=builder.polarity,
                    fluency=LengthScorer())
    text = "the movie has a charming and often affecting story"
    for i, tag in b.positions(text):
        word = split_words(text).words[i]
        cands = list(b.candidates(word, tag))
        kept = b._fluent(split_words(text), i, cands)
        assert kept == [c for c in cands if len(c) <= len(word) + 2]
    for p in b.build([text]).pairs:
        assert len(p.replacement) <= len(p.original) + 2


def test_the_masked_lm_scores_a_word_as_the_full_model_does():
    import torch
    from transformers import AutoModelForMaskedLM, AutoTokenizer

    from s2lct.config import get_settings
    from s2lct.trust.swaps import MaskedWordScorer

    scorer = MaskedWordScorer()
    text = "an unflinchingly bleak and desperate film"
    span = (text.index("bleak"), text.index("bleak") + len("bleak"))
    tok = AutoTokenizer.from_pretrained(get_settings().mlm)
    model = AutoModelForMaskedLM.from_pretrained(get_settings().mlm).eval()
    enc = tok(text, return_offsets_mapping=True)
    total = 0.0
    for j, (a, b) in enumerate(enc["offset_mapping"]):
        if b > a and a >= span[0] and b <= span[1]:
            ids = list(enc["input_ids"])
            true, ids[j] = ids[j], tok.mask_token_id
            with torch.no_grad():
                total += float(model(input_ids=torch.tensor([ids])).logits[0, j].log_softmax(-1)[true])
    assert scorer.scores([(text, span)])[0] == pytest.approx(total, abs=1e-4)
    real = SwapBuilder(SwapOptions(), counts=builder_counts(), nlp=get_tagger().nlp, polarity=get_polarity(), fluency=scorer)
    pairs, _ = real.pairs_for(text)
    assert pairs
    for p in pairs:
        check_pair(p)


def builder_counts():
    from s2lct.trust.swaps import default_counts

    return default_counts()


# ------------------------------------------------------------------------------ tiny distillation
POS = ["good", "great", "fine", "lovely", "superb", "charming"]
NEG = ["bad", "awful", "dull", "poor", "boring", "weak"]
FILL = ["the", "a", "movie", "film", "plot", "story", "cast", "was", "is", "and", "with", "very", "quite", "really", "scenes"]


def synthetic(n: int, seed: int) -> list[tuple[str, int]]:
    """Texts of fillers and sentiment words; label 1 when positive words outnumber negative ones."""
    rng = random.Random(seed)
    rows = []
    while len(rows) < n:
        k_pos, k_neg = rng.randint(0, 2), rng.randint(0, 2)
        if k_pos == k_neg:
            continue
        words = rng.choices(FILL, k=rng.randint(3, 7)) + rng.choices(POS, k=k_pos) + rng.choices(NEG, k=k_neg)
        rng.shuffle(words)
        rows.append((" ".join(words), int(k_pos > k_neg)))
    return rows


@pytest.fixture(scope="module", autouse=True)
def one_torch_thread():
    """Tiny networks on one thread: their operations are too small to share, and two threads
    contending with another process for the cores wait on each other (seconds per backward pass)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def tiny_teacher(tmp_path_factory):
    """A 4-layer BERT (hidden 32) with a WordLevel tokenizer, trained here for a second on the
    synthetic task with its two lower layers frozen at their random start: its decision lives in
    its upper layers, so the 2-layer cut copy alone does not agree with it and distillation has to
    teach the student (trained throughout, the cut copy agreed 98 % before any distillation)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    folder = tmp_path_factory.mktemp("tiny-teacher")
    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {w: i for i, w in enumerate(specials + sorted(set(POS + NEG + FILL)))}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]", sep_token="[SEP]",
                                   mask_token="[MASK]", model_max_length=32)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=4, num_attention_heads=2, intermediate_size=64,
                     max_position_embeddings=40, num_labels=2, id2label={0: "negative", 1: "positive"},
                     label2id={"negative": 0, "positive": 1})
    model = BertForSequenceClassification(cfg)
    for layer in model.bert.encoder.layer[:2]:
        layer.requires_grad_(False)
    rows = synthetic(800, seed=1)
    opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=3e-3)
    model.train()
    for _epoch in range(3):
        for s in range(0, len(rows), 32):
            batch = rows[s : s + 32]
            enc = fast([t for t, _ in batch], padding=True, return_tensors="pt")
            loss = model(**enc, labels=torch.tensor([y for _, y in batch])).loss
            opt.zero_grad()
            loss.backward()
            opt.step()
    model.eval()
    fast.save_pretrained(folder)
    model.save_pretrained(folder)
    return folder


def argmax_labels(folder, texts) -> list[int]:
    """Predicted class ids of a saved classifier, computed here with transformers alone."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    tok = AutoTokenizer.from_pretrained(folder)
    model = AutoModelForSequenceClassification.from_pretrained(folder).eval()
    with torch.no_grad():
        return model(**tok(list(texts), padding=True, return_tensors="pt")).logits.argmax(-1).tolist()


STUDENT = dict(layers=2, train_examples=600, epochs=3, learning_rate=3e-3, batch_size=32, max_length=32)
BOUND = 0.9  # the student gives the teacher's class on at least 90 % of held-out texts (measured: 100 %)


def test_a_tiny_student_agrees_with_its_teacher_on_held_out_texts_and_is_cached(tiny_teacher, tmp_path):
    import torch

    from s2lct.models.huggingface import HuggingFaceModel
    from s2lct.trust.student import StudentOptions, build_student, cut_encoder

    train, held_out = synthetic(1000, seed=2), synthetic(300, seed=3)
    texts = [t for t, _ in held_out]
    teacher = HuggingFaceModel(tiny_teacher, name="tiny")
    student = build_student(teacher, StudentOptions(**STUDENT), cache_dir=tmp_path, train=train, dev=held_out)
    assert not student.cached and student.folder.parent == tmp_path / "students"
    assert not any(p.name.startswith(".") for p in (tmp_path / "students").iterdir())  # no temporary folder left

    teacher_says = argmax_labels(tiny_teacher, texts)
    student_says = argmax_labels(student.folder, texts)
    majority = max(teacher_says.count(0), teacher_says.count(1)) / len(texts)
    agree = np.mean([a == b for a, b in zip(teacher_says, student_says, strict=True)])
    assert majority < 0.75  # the teacher's decisions vary: agreeing is not a constant guess
    assert agree >= BOUND and student.info["dev"]["agreement"] == pytest.approx(agree, abs=1e-4)
    assert student.info["dev"]["n"] == 300
    right = [a == y for a, (_t, y) in zip(teacher_says, held_out, strict=True)]
    assert student.info["dev"]["teacher_accuracy"] == pytest.approx(np.mean(right), abs=1e-4)

    # the cut copy before distillation does not agree: the agreement is the distillation's doing
    teacher.load()
    cut = cut_encoder(teacher._model, 2).eval()
    with torch.no_grad():
        cut_says = cut(**teacher._tokenizer(texts, padding=True, return_tensors="pt")).logits.argmax(-1).tolist()
    assert np.mean([a == b for a, b in zip(teacher_says, cut_says, strict=True)]) < 0.75

    assert student.info["layers"] == {"teacher": 4, "student": 2}
    assert student.info["parameters"]["student"] < student.info["parameters"]["teacher"]
    again = build_student(teacher, StudentOptions(**STUDENT), cache_dir=tmp_path, train=train, dev=held_out)
    assert again.cached and again.folder == student.folder and again.info == student.info
    other = build_student(teacher, StudentOptions(**{**STUDENT, "seed": 1}), cache_dir=tmp_path, train=train, dev=held_out)
    assert not other.cached and other.folder != student.folder  # the options name the student

    # model consistency between them runs with real explainers, every score a correlation
    out = model_consistency(prepare(teacher), student.handle(), [get_explainer("grad_dot_s"), get_explainer("occlusion1")], texts[:6])
    assert out["status"] == "ok" and set(out["explainers"]) == {"grad_dot_s", "occlusion1"}
    for e in out["explainers"].values():
        assert -1.0 <= e["model_consistency"]["value"] <= 1.0 and e["texts"] + e["model_consistency"]["undefined"] == 6


def prepare(model):
    from s2lct.explain.adapters import prepare_model

    return prepare_model(model)


def test_distillation_is_deterministic_with_a_seed(tiny_teacher):
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from s2lct.trust.student import StudentOptions, cut_encoder, distil

    tok = AutoTokenizer.from_pretrained(tiny_teacher)
    teacher = AutoModelForSequenceClassification.from_pretrained(tiny_teacher).eval()
    t_clf = HFTokenClassifier(teacher, tok, ["negative", "positive"], name="t")
    texts = [t for t, _ in synthetic(200, seed=4)]

    def run(seed):
        s = cut_encoder(teacher, 2)
        assert torch.equal(s.bert.embeddings.word_embeddings.weight, teacher.bert.embeddings.word_embeddings.weight)
        assert torch.equal(s.classifier.weight, teacher.classifier.weight) and len(s.bert.encoder.layer) == 2
        distil(t_clf, HFTokenClassifier(s, tok, ["negative", "positive"], name="s"), texts,
               StudentOptions(**{**STUDENT, "epochs": 1, "seed": seed}), module=s)
        return s.state_dict()

    a, b, c = run(0), run(0), run(1)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_a_teacher_without_an_automatic_student_brings_its_own():
    from s2lct.trust.student import StudentError, student_handle

    teacher = KeywordModel()
    with pytest.raises(StudentError, match="distil"):
        student_handle(teacher)
    mine = ModelHandle("student", "model", KeywordModel())
    handle, info = student_handle(teacher, student=lambda t: mine)
    assert handle is mine and info == {"name": "student", "given": True}
    handle, _ = student_handle(teacher, student=KeywordModel())  # a SentimentModel-like object is wrapped
    assert handle.model is not None and handle.torch is None


def test_worker_processes_give_the_same_section(tiny_teacher):
    from s2lct.models.huggingface import HuggingFaceModel

    handle = prepare(HuggingFaceModel(tiny_teacher, name="tiny"))
    texts = [t for t, _ in synthetic(4, seed=5)]
    pairs = [pair(t, 0, "x", "NN") for t in texts]  # any one-word change: the tiny tokenizer reads it as [UNK]
    explainers = [get_explainer("occlusion1"), get_explainer("grad_dot_s")]
    here = input_consistency(handle, explainers, pairs=pairs)
    there = input_consistency(handle, explainers, pairs=pairs, workers=2)
    assert set(here["explainers"]) == set(there["explainers"]) == {"occlusion1", "grad_dot_s"}
    for a, b in zip(here["pairs"], there["pairs"], strict=True):  # equal up to float rounding across processes
        assert a.pop("pearson") == pytest.approx(b.pop("pearson"), abs=1e-5) and a == b
    for name, a in here["explainers"].items():
        b = there["explainers"][name]
        assert a["input_consistency"]["value"] == pytest.approx(b["input_consistency"]["value"], abs=1e-5)
        assert (a["pairs"], a["skipped"]) == (b["pairs"], b["skipped"])
