"""The papers' task models (s2lct.models.task): tokenizer, training, loading, and what the
explainers see on them. Tiny versions are trained here on 300 SST-2 rows (seconds)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from s2lct.atomic import sha256_file
from s2lct.corpus.sst2 import load_sst2
from s2lct.explain.adapters import prepare_model, run_logits
from s2lct.explain.base import CaseNotApplicable
from s2lct.explain.registry import get_explainer
from s2lct.models import ModelError, load_model
from s2lct.models.task.training import TrainingOptions, train_task_model
from s2lct.models.task.vocabulary import tokenize

DATA = Path(os.environ["S2LCT_DATA_ROOT"]) / "sst2_glue"
TEXT = "The film is n't great, but the acting is wonderful and it's never dull."
TINY = TrainingOptions(epochs=1, embedding_dim=16, hidden=8, max_train=300, seed=3, threads=1)


@pytest.fixture(scope="module")
def sst2():
    return load_sst2(DATA / "train.tsv"), load_sst2(DATA / "dev.tsv")[:100]


def _train(arch, sst2, tmp_path_factory):
    folder = tmp_path_factory.mktemp(arch) / "model"
    train_task_model(arch, *sst2, folder, TINY, name=f"tiny-{arch}")
    return arch, folder


@pytest.fixture(scope="module")
def tiny_cnn(sst2, tmp_path_factory):
    return _train("cnn", sst2, tmp_path_factory)


@pytest.fixture(scope="module")
def tiny_gru(sst2, tmp_path_factory):
    return _train("gru", sst2, tmp_path_factory)


@pytest.fixture(params=["cnn", "gru"])
def tiny(request):
    return request.getfixturevalue(f"tiny_{request.param}")


def test_tokenizer_splits_clitics_as_sst2_does():
    assert [t for t, _s, _e in tokenize("It's not the film I hoped; it doesn't work.")] == [
        "it", "'s", "not", "the", "film", "i", "hoped", ";", "it", "does", "n't", "work", "."]


@given(st.text(alphabet=st.sampled_from(list("abcXYZ'’-., !n")), max_size=40))
@settings(max_examples=200, deadline=None)
def test_token_spans_point_at_the_token(text):
    spans = tokenize(text)
    for tok, s, e in spans:
        assert text[s:e].lower().replace("’", "'") == tok
    assert all(a[2] <= b[1] for a, b in zip(spans, spans[1:]))  # in order, never overlapping
    assert "".join(ch for ch in text if not ch.isspace()) == "".join(text[s:e] for _t, s, e in spans)  # nothing dropped


def test_a_built_folder_loads_by_path_and_predicts(tiny):
    arch, folder = tiny
    model = load_model(str(folder))
    assert model.identity.startswith(f"task:{arch}:")
    preds = model.predict(["A great movie.", "Awful and dull."])
    for p in preds:
        assert p.label in ("negative", "neutral", "positive")
        assert p.probs["negative"] + p.probs["positive"] == pytest.approx(1.0)


def test_training_is_deterministic_for_a_seed(tiny, sst2, tmp_path):
    arch, folder = tiny
    again = tmp_path / "again"
    train_task_model(arch, *sst2, again, TINY, name=f"tiny-{arch}")
    assert sha256_file(again / "weights.pt") == sha256_file(folder / "weights.pt")
    other = tmp_path / "other"
    train_task_model(arch, *sst2, other, TrainingOptions(**{**TINY.__dict__, "seed": 4}), name=f"tiny-{arch}")
    assert load_model(str(other)).identity != load_model(str(folder)).identity


def test_a_text_scores_the_same_alone_and_in_a_padded_batch(tiny):
    _arch, folder = tiny
    clf = load_model(str(folder)).token_classifier()
    texts = ["Great.", TEXT, "A long, slow and rather dull film about nothing at all, really.", ""]  # "": every word deleted
    together = run_logits(clf, [clf.encode(t).ids for t in texts], batch_size=8)
    alone = np.vstack([run_logits(clf, [clf.encode(t).ids]) for t in texts])
    np.testing.assert_allclose(together, alone, rtol=1e-5, atol=1e-5)


def test_lrp_and_deeplift_are_complete_on_the_cnn(tiny_cnn):
    _arch, folder = tiny_cnn
    handle = prepare_model(load_model(str(folder)))
    clf = handle.torch
    enc = clf.encode(TEXT)
    ids = torch.tensor([enc.ids])
    with torch.no_grad():
        s = clf.logits(ids, torch.ones_like(ids))[0]
        s0 = clf.logits(torch.tensor([clf.baseline_ids(enc.ids, enc.spans)]), torch.ones_like(ids))[0]
    for k, target in enumerate(clf.classes):
        lrp = get_explainer("lrp").explain(handle, TEXT, target)
        deeplift = get_explainer("deeplift").explain(handle, TEXT, target)
        assert sum(lrp.relevances) == pytest.approx(float(s[k]), rel=1e-4, abs=1e-5)  # LRP explains s
        assert sum(deeplift.relevances) == pytest.approx(float(s[k] - s0[k]), rel=1e-4, abs=1e-5)
        assert float(s0[k]) == 0.0  # bias-free: the all-pad baseline scores 0, so both explain the same
        # bias-free ReLU + max pooling is piecewise linear and homogeneous: gradient x input equals both
        grad = get_explainer("grad_dot_s").explain(handle, TEXT, target)
        np.testing.assert_allclose(lrp.relevances, grad.relevances, rtol=1e-4, atol=1e-5)
        np.testing.assert_allclose(deeplift.relevances, grad.relevances, rtol=1e-4, atol=1e-5)


def test_lrp_and_deeplift_refuse_the_gru(tiny_gru):
    _arch, folder = tiny_gru
    handle = prepare_model(load_model(str(folder)))
    reason = get_explainer("lrp").not_applicable(handle)
    assert reason is not None and "GRU" in reason
    with pytest.raises(CaseNotApplicable, match="completeness"):  # Captum's rescale rule does not reach inside nn.GRU
        get_explainer("deeplift").explain(handle, TEXT, "positive")
    ig = get_explainer("ig").explain(handle, TEXT, "positive")  # IG holds completeness on the GRU
    assert abs(ig.info["convergence_delta"]) <= 0.05 * abs(ig.info["output_difference"]) + 1e-3


def test_an_unbuilt_task_model_names_the_command_that_builds_it(tmp_path):
    with pytest.raises(ModelError, match=r"s2lct build-task-model gru-sst2"):
        load_model("gru-sst2", cache_dir=tmp_path)


def test_build_task_model_refuses_an_unknown_name(tmp_path, capsys):
    from s2lct.cli_common import run_app
    from s2lct.cli import app

    code = run_app(app, ["build-task-model", "lstm-sst2", "--cache-dir", str(tmp_path)])
    err = capsys.readouterr().err.strip()
    assert code == 2
    assert len(err.splitlines()) == 1 and "lstm-sst2" in err and "cnn-sst2" in err
    assert not (tmp_path / "task-models").exists()


def test_a_distilled_student_agrees_with_its_teacher(sst2, tmp_path):
    """Model consistency needs a student that learnt from the teacher: trained on the teacher's
    output distribution, it must agree with the teacher on held-out texts far above chance."""
    from s2lct.models.task.training import distil_task_model

    teacher_opts = TrainingOptions(epochs=2, embedding_dim=16, hidden=8, max_train=4000, seed=1, threads=1)
    train_task_model("cnn", *sst2, tmp_path / "teacher", teacher_opts, name="teacher")
    teacher = load_model(str(tmp_path / "teacher"))
    train_texts = [t for t, _ in sst2[0][4000:8000]]
    held_out = [t for t, _ in load_sst2(DATA / "dev.tsv")]
    opts = TrainingOptions(epochs=3, embedding_dim=8, hidden=8, seed=0, threads=1)
    info = distil_task_model(teacher, train_texts, held_out, tmp_path / "student", opts)
    student = load_model(str(tmp_path / "student"))
    t_labels = [p.probs["positive"] > 0.5 for p in teacher.predict(held_out)]
    s_labels = [p.probs["positive"] > 0.5 for p in student.predict(held_out)]
    agreement = sum(a == b for a, b in zip(t_labels, s_labels, strict=True)) / len(held_out)
    assert agreement == pytest.approx(info["training"]["dev_accuracy"], abs=1e-4)
    assert agreement >= 0.75  # the stated bound for a student with half the teacher's embedding width, on all of SST-2 dev
    assert info["training"]["distilled_from"] == teacher.identity
    again = distil_task_model(teacher, train_texts, held_out, tmp_path / "again", opts)
    assert sha256_file(tmp_path / "again" / "weights.pt") == sha256_file(tmp_path / "student" / "weights.pt")
    assert again["training"]["dev_accuracy"] == info["training"]["dev_accuracy"]


def test_number_prefixes_end_before_a_present_tense_verb_after_a_noun():
    from s2lct.models.task.number import prefixes_of

    words = "The keys to the cabinet are on the table and she says so".split()
    tags = ["DT", "NNS", "TO", "DT", "NN", "VBP", "IN", "DT", "NN", "CC", "PRP", "VBZ", "RB"]
    assert prefixes_of(words, tags) == [("The keys to the cabinet", 1), ("The keys to the cabinet are on the table and she", 0)]
    assert prefixes_of("It is good".split(), ["PRP", "VBZ", "JJ"]) == []  # no noun to agree with
    assert prefixes_of("The film was dull".split(), ["DT", "NN", "VBD", "JJ"]) == [("The film", 0)]  # was: singular copula


def test_the_card_of_a_task_model_scores_lrp_and_probes_its_representation(tiny_cnn, tmp_path):
    from s2lct.trust.card import CardOptions, build_card

    _arch, folder = tiny_cnn
    opts = CardOptions(explainers=["lrp", "deeplift", "grad_dot_s", "occlusion1"], documents=8, agreement_items=10, probe_items=200,
                       suite=None, composite_cases=None, faithfulness_texts=0)
    card = build_card(str(folder), opts, cache_dir=tmp_path / "cache", workers=1)
    hybrid = card["paradigms"]["hybrid"]
    assert "lrp" not in card["not_applicable"] and "deeplift" not in card["not_applicable"]
    scores = {n: hybrid["explainers"][n]["pointing_game"]["value"] for n in ("lrp", "deeplift", "grad_dot_s")}
    assert len(set(scores.values())) == 1  # identical relevances on a bias-free ReLU network: identical hits
    agreement = card["paradigms"]["agreement"]
    assert agreement["status"] == "ok" and "task model" in agreement["probe"]["features"]
    assert card["paradigms"]["faithfulness"]["status"] == "skipped"


def test_a_probe_no_better_than_the_majority_number_skips_agreement(tiny_cnn, tmp_path, monkeypatch):
    """Explaining a probe that does not predict number would score explanations of noise: the card
    skips the paradigm with the probe's accuracy and the majority baseline in its reason."""
    import s2lct.trust.probe as probe_module
    from s2lct.trust.card import CardOptions, build_card

    real = probe_module.train_probe

    def no_better(base, train, heldout):
        probe, report = real(base, train, heldout)
        report.heldout_accuracy = report.majority_baseline + 0.01
        return probe, report

    monkeypatch.setattr(probe_module, "train_probe", no_better)
    _arch, folder = tiny_cnn
    opts = CardOptions(explainers=["occlusion1"], documents=8, agreement_items=10, probe_items=200, suite=None,
                       composite_cases=None, faithfulness_texts=0)
    card = build_card(str(folder), opts, cache_dir=tmp_path / "cache", workers=1)
    agreement = card["paradigms"]["agreement"]
    assert agreement["status"] == "skipped" and "majority number" in agreement["reason"]
    assert all(not key.startswith("agreement") for row in card["ranking"] for key in row["headline"])
