"""Model adapters and the registry: label mapping, neutral band, lexicon models, HF models, user models."""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

import pytest
from _run_fixtures import build_tiny_hf_model, minilm_model

from s2lct.models import (
    HF_ALIASES,
    CallableModel,
    ModelError,
    available_aliases,
    load_model,
    parse_label_map,
    parse_neutral_band,
    score_to_prediction,
    to_prediction,
)
from s2lct.models.base import map_classes
from s2lct.models.huggingface import HuggingFaceModel
from s2lct.models.lexicon import TextBlobModel, VaderModel


# ------------------------------------------------------------------------------ label mapping
def test_map_classes_by_name_case_insensitive():
    assert map_classes({0: "NEG", 1: "Neutral", 2: "positive"}) == ["negative", "neutral", "positive"]
    assert map_classes({0: "negative", 1: "positive"}) == ["negative", "positive"]


def test_binary_generic_labels_default_to_sst2_convention():
    assert map_classes({0: "LABEL_0", 1: "LABEL_1"}) == ["negative", "positive"]


def test_generic_three_class_labels_need_a_label_map():
    with pytest.raises(ModelError, match="--label-map"):
        map_classes({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"})
    lm = parse_label_map("0=negative,1=neutral,2=positive")
    assert map_classes({0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2"}, lm) == ["negative", "neutral", "positive"]


def test_label_map_override_by_index_and_name():
    assert map_classes({0: "LABEL_0", 1: "LABEL_1"}, parse_label_map("0=positive,1=negative")) == ["positive", "negative"]
    assert map_classes({0: "bad", 1: "good"}, parse_label_map("BAD=neg,good=pos")) == ["negative", "positive"]


@pytest.mark.parametrize("spec", ["0negative", "0=happy"])
def test_bad_label_map_is_one_line_error(spec):
    with pytest.raises(ModelError) as exc:
        parse_label_map(spec)
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("spec", ["0.7,0.3", "a,b", "0.5"])
def test_bad_neutral_band(spec):
    with pytest.raises(ModelError, match="neutral-band"):
        parse_neutral_band(spec)


# ------------------------------------------------------------------------------ neutral band
@pytest.mark.parametrize(
    ("p_pos", "label"),
    [(0.0, "negative"), (0.33, "negative"), (1 / 3, "neutral"), (0.5, "neutral"), (2 / 3, "neutral"),
     (0.67, "positive"), (1.0, "positive")],
)
def test_binary_neutral_band_is_closed_third(p_pos, label):
    pred = to_prediction([1 - p_pos, p_pos], ["negative", "positive"])
    assert pred.label == label
    assert pred.probs == {"negative": pytest.approx(1 - p_pos), "neutral": 0.0, "positive": pytest.approx(p_pos)}


def test_custom_band_and_three_class_argmax():
    assert to_prediction([0.3, 0.7], ["negative", "positive"], (0.2, 0.8)).label == "neutral"
    assert to_prediction([0.3, 0.7], ["negative", "positive"], (0.5, 0.5)).label == "positive"
    assert to_prediction([0.2, 0.5, 0.3], ["negative", "neutral", "positive"]).label == "neutral"
    # several classes of one label are summed (e.g. 5-star models with a label map)
    p = to_prediction([0.3, 0.3, 0.4], ["negative", "negative", "positive"])  # p(pos) 0.4: in band
    assert p.label == "neutral"
    p = to_prediction([0.4, 0.4, 0.2], ["negative", "negative", "positive"])
    assert p.label == "negative" and p.probs["negative"] == pytest.approx(0.8)


@pytest.mark.parametrize(
    ("score", "label"),
    [(-1.0, "negative"), (-0.05, "negative"), (-0.049, "neutral"), (0.0, "neutral"), (0.049, "neutral"),
     (0.05, "positive"), (0.7, "positive")],
)
def test_score_mapping_uses_vader_thresholds(score, label):
    pred = score_to_prediction(score, (-0.05, 0.05))
    assert pred.label == label
    assert math.isclose(sum(pred.probs.values()), 1.0)
    assert max(pred.probs, key=pred.probs.get) == label or math.isclose(pred.probs[label], 0.5)


def test_score_probabilities_are_monotone():
    xs = [i / 100 for i in range(-100, 101)]
    pos = [score_to_prediction(x, (-0.05, 0.05)).probs["positive"] for x in xs]
    assert all(a <= b + 1e-12 for a, b in zip(pos, pos[1:]))
    assert pos[-1] == 1.0 and pos[0] == 0.0


# ------------------------------------------------------------------------------ lexicon models
def test_vader_known_sentences():
    m = load_model("vader")
    assert isinstance(m, VaderModel)
    preds = m.predict(["This movie is good.", "This movie is terrible.", "I saw a movie."])
    assert [p.label for p in preds] == ["positive", "negative", "neutral"]
    assert preds[0].probs["positive"] > 0.5 and preds[2].probs["neutral"] == 1.0
    assert m.identity.startswith("lexicon:vader@vaderSentiment-")


def test_textblob_known_sentences_and_band_option():
    m = load_model("textblob")
    assert isinstance(m, TextBlobModel)
    assert [p.label for p in m.predict(["This movie is good.", "This movie is terrible.", "I saw a movie."])] == [
        "positive", "negative", "neutral"]
    wide = load_model("textblob", neutral_band="-0.9,0.9")
    assert wide.predict(["This movie is good."])[0].label == "neutral"  # polarity 0.7 inside the band
    assert wide.identity != m.identity


# ------------------------------------------------------------------------------ registry errors
def test_unknown_alias_lists_aliases_and_paths():
    with pytest.raises(ModelError) as exc:
        load_model("robertta")
    msg = str(exc.value)
    assert "\n" not in msg
    for alias in ("vader", "textblob", "bert", "roberta", "distilbert", "minilm-sst2"):
        assert alias in msg
    assert "folder" in msg and "hub name" in msg


def test_aliases_point_to_the_paper_models():
    assert HF_ALIASES == {
        "bert": "textattack/bert-base-uncased-SST-2",
        "roberta": "textattack/roberta-base-SST-2",
        "distilbert": "textattack/distilbert-base-uncased-SST-2",
    }
    m = load_model("roberta")  # resolving is lazy: nothing is downloaded here
    assert isinstance(m, HuggingFaceModel) and m.source == "textattack/roberta-base-SST-2" and m.name == "roberta"


def test_minilm_without_models_dir_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.delenv("S2LCT_MODELS_DIR", raising=False)
    (tmp_path / "s2lct.toml").write_text("")  # a configuration file that sets nothing
    monkeypatch.setenv("S2LCT_CONFIG", str(tmp_path / "s2lct.toml"))
    with pytest.raises(ModelError, match=r"--models-dir.*S2LCT_MODELS_DIR.*models_dir = \.\.\. in s2lct.toml"):
        load_model("minilm-sst2")
    with pytest.raises(ModelError, match="not found"):
        load_model("minilm-sst2", models_dir="/nonexistent/models")


def test_missing_folder_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="does not exist"):
        load_model(str(tmp_path / "nope"))


def test_hub_model_that_cannot_load_gives_the_reason_in_one_line():
    m = load_model("some-org/not-a-model")
    with pytest.raises(ModelError) as exc:
        m.predict(["x"])
    assert str(exc.value).startswith("cannot load model 'some-org/not-a-model'")
    assert "\n" not in str(exc.value)


def test_corrupt_local_model_gives_the_loader_reason(tmp_path):
    bad = tmp_path / "broken"
    bad.mkdir()
    (bad / "config.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelError) as exc:
        load_model(str(bad)).predict(["x"])
    assert str(exc.value).startswith(f"cannot load model '{bad}'")
    assert "\n" not in str(exc.value)


# ------------------------------------------------------------------------------ tiny HF models
@pytest.fixture(scope="module")
def tiny_dir(tmp_path_factory) -> Path:
    return build_tiny_hf_model(tmp_path_factory.mktemp("tiny") / "m", bias=[0.0, 1.0])


def test_tiny_hf_model_labels_and_probabilities(tiny_dir):
    m = load_model(str(tiny_dir))
    preds = m.predict(["this movie is good .", "not bad", "the food"])
    p_pos = 1 / (1 + math.exp(-1.0))
    for p in preds:
        assert p.label == "positive" and not p.truncated
        assert p.probs["positive"] == pytest.approx(p_pos, abs=1e-6) and p.probs["neutral"] == 0.0
    assert m.device == "cpu"  # no CUDA on this machine; chosen automatically


def test_tiny_hf_model_label_map_and_band(tiny_dir):
    flipped = load_model(str(tiny_dir), label_map="0=positive,1=negative")
    assert flipped.predict(["good"])[0].label == "negative"
    wide = load_model(str(tiny_dir), neutral_band="0.2,0.8")
    assert wide.predict(["good"])[0].label == "neutral"
    assert len({load_model(str(tiny_dir)).identity, flipped.identity, wide.identity}) == 3


def test_tiny_hf_model_truncates_long_inputs_with_a_warning(tiny_dir):
    m = load_model(str(tiny_dir))
    with pytest.warns(UserWarning, match="1 input"):
        preds = m.predict(["good", "this movie is good " * 10])
    assert [p.truncated for p in preds] == [False, True]
    assert m.max_length == 16


def test_identity_is_stable_and_tracks_weights(tmp_path):
    d = build_tiny_hf_model(tmp_path / "m", bias=[0.0, 1.0])
    first = load_model(str(d)).identity
    assert load_model(str(d)).identity == first
    assert first.startswith(f"hf:{d.resolve()}@")
    build_tiny_hf_model(tmp_path / "m", bias=[0.0, 2.0])  # same architecture, new weights
    assert load_model(str(d)).identity != first


def test_three_class_hf_model(tmp_path):
    d = build_tiny_hf_model(tmp_path / "m3", id2label={0: "NEG", 1: "NEU", 2: "POS"}, bias=[0.0, 2.0, 1.0])
    p = load_model(str(d)).predict(["good"])[0]
    assert p.label == "neutral"
    assert p.probs["neutral"] > p.probs["positive"] > p.probs["negative"] > 0


def test_random_init_hf_model_by_hf_prefix(tmp_path):
    d = build_tiny_hf_model(tmp_path / "r", seed=3)  # random head too
    preds = load_model(f"hf:{d}").predict(["this movie is good .", "the food was bad ."])
    for p in preds:
        assert p.label in ("negative", "neutral", "positive")
        assert p.probs["negative"] + p.probs["positive"] == pytest.approx(1.0, abs=1e-6)


# ------------------------------------------------------------------------------ minilm-sst2
@pytest.fixture(scope="session")
def minilm():
    return minilm_model()


def test_minilm_sst2_sample_outputs(minilm):
    preds = minilm.predict(["This movie is not good.", "This movie is good.",
                            "I don't think I have ever seen a better movie."])
    assert [p.label for p in preds] == ["negative", "positive", "negative"]
    assert preds[0].probs["negative"] == pytest.approx(0.992, abs=0.002)
    assert preds[1].probs["positive"] == pytest.approx(0.997, abs=0.002)
    assert minilm.identity.startswith("hf:") and "minilm-sst2@" in minilm.identity


# ------------------------------------------------------------------------------ user models
def test_callable_model_outputs():
    def fn(texts):
        return [
            "POS" if "good" in t else {"negative": 0.9, "positive": 0.1} if "bad" in t else [0.2, 0.6, 0.2]
            for t in texts
        ]

    m = CallableModel("mine", fn)
    assert [p.label for p in m.predict(["good", "bad", "meh"])] == ["positive", "negative", "neutral"]
    with pytest.raises(ModelError, match="returned 1 outputs for 2 texts"):
        CallableModel("short", lambda ts: ["positive"]).predict(["a", "b"])
    with pytest.raises(ModelError, match="not one of"):
        CallableModel("odd", lambda ts: ["happy" for _ in ts]).predict(["a"])


def test_user_model_entry_point(tmp_path, monkeypatch):
    (tmp_path / "my_s2lct_model.py").write_text(textwrap.dedent("""
        def predict(texts):
            return [{"negative": 0.2, "positive": 0.8} if "good" in t else "negative" for t in texts]
    """), encoding="utf-8")
    dist = tmp_path / "mymodels-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mymodels\nVersion: 1.0\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text("[s2lct_models]\nshouty = my_s2lct_model:predict\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert "shouty" in available_aliases()
    m = load_model("shouty")
    assert [p.label for p in m.predict(["good film", "film"])] == ["positive", "negative"]
    assert m.identity.startswith("py:shouty=my_s2lct_model:predict@") and "mymodels-1.0" in m.identity
