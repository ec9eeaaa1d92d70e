"""Training targets: for every expected-label shape and model kind, descending the loss makes the case pass."""

from __future__ import annotations

import pytest
import torch

from s2lct.retrain.targets import allowed_vector, binary_target, passes, target_loss

BINARY = ["negative", "positive"]
THREE = ["negative", "neutral", "positive"]
SHAPES = [["positive"], ["negative"], ["neutral"], ["neutral", "positive"], ["negative", "neutral"]]


@pytest.mark.parametrize("classes", [BINARY, THREE, ["positive", "negative"]], ids=["binary", "3-class", "binary-reversed"])
@pytest.mark.parametrize("expected", SHAPES, ids="/".join)
@pytest.mark.parametrize("start", [-4.0, 0.0, 4.0])
def test_descending_the_loss_makes_the_case_pass(classes, expected, start):
    """Free logits, started confidently wrong or undecided, end where the suite's judgement passes."""
    init = [start if c == "positive" else -start if c == "negative" else 0.0 for c in classes]
    logits = torch.tensor([init], requires_grad=True)
    allowed = torch.tensor([allowed_vector(expected)])
    opt = torch.optim.SGD([logits], lr=0.5)
    for _ in range(300):
        opt.zero_grad()
        target_loss(logits, allowed, classes).backward()
        opt.step()
    assert passes(logits.detach().numpy(), allowed.numpy(), classes) == [True]


def test_binary_targets_follow_the_neutral_band():
    band = (1 / 3, 2 / 3)
    m = (band[1] - band[0]) / 4
    assert binary_target(0.2, allowed_vector(["positive"]), band) == 1.0
    assert binary_target(0.9, allowed_vector(["negative"]), band) == 0.0
    # neutral: into the band with a margin; a p already inside it is its own target (no gradient)
    assert binary_target(0.9, allowed_vector(["neutral"]), band) == pytest.approx(band[1] - m)
    assert binary_target(0.1, allowed_vector(["neutral"]), band) == pytest.approx(band[0] + m)
    assert binary_target(0.5, allowed_vector(["neutral"]), band) == 0.5
    # label sets: the least change that passes
    assert binary_target(0.05, allowed_vector(["neutral", "positive"]), band) == pytest.approx(band[0] + m)
    assert binary_target(0.95, allowed_vector(["neutral", "positive"]), band) == 0.95
    assert binary_target(0.95, allowed_vector(["negative", "neutral"]), band) == pytest.approx(band[1] - m)
    assert binary_target(0.5, allowed_vector(["negative", "neutral", "positive"]), band) is None


def test_set_loss_does_not_favour_one_allowed_label():
    """3-class, [neutral, positive]: moving mass between the allowed classes costs nothing."""
    allowed = torch.tensor([allowed_vector(["neutral", "positive"])])
    a = target_loss(torch.tensor([[-9.0, 3.0, 0.0]]), allowed, THREE)
    b = target_loss(torch.tensor([[-9.0, 0.0, 3.0]]), allowed, THREE)
    assert a.item() == pytest.approx(b.item(), abs=1e-6)
    assert a.item() < 1e-3


def test_allowed_vector_rejects_unknown_labels():
    with pytest.raises(ValueError, match="subset of negative, neutral, positive"):
        allowed_vector(["mixed"])
