"""Gradient explainers (Poerner §3.1), all through Captum on the embedding layer's *output*.

* ``grad_l2_s`` / ``grad_l2_p``: L2 norm of the gradient of the class score s (resp. probability p)
  w.r.t. each token's embedding (Captum ``LayerGradientXActivation(multiply_by_inputs=False)``);
* ``grad_dot_s`` / ``grad_dot_p``: gradient · embedding (``LayerGradientXActivation``);
* ``ig`` / ``ig_p``: integrated gradients of s (resp. p), M = 50 steps, batched by at most
  :data:`IG_TOKENS_PER_BATCH` tokens (the backward pass keeps every layer's activations of a
  batch: 50 steps of a 117-token text in one batch peaked at 1.6 GB, in batches of 8 steps at
  0.7 GB, at the same speed), pad-token baseline (Captum ``LayerIntegratedGradients``), dot product with (embedding − baseline);
  completeness is checked (the convergence delta sum(attributions) - (f(x) - f(baseline)), with
  f(x) and f(baseline) taken from the forwards Captum already runs).

Why the layer *output*: BERT-style embeddings add word, position and type vectors and then apply a
LayerNorm, which is invariant to the scale of its input, so gradient · (the sum) is exactly 0 and
gradient · word-embedding only mirrors the position and type terms. After the LayerNorm the
product is meaningful. Token relevances are summed into words (L2: per-token norms summed).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .base import CaseNotApplicable, Explainer, Explanation, NotApplicable, explainers
from .words import split_words, sum_to_words, token_to_word

if TYPE_CHECKING:
    from .adapters import ModelHandle, TokenClassifier

IG_STEPS = 50
IG_TOKENS_PER_BATCH = 1024
#: |convergence delta| allowed, relative to |f(x) - f(baseline)| (plus a small absolute slack).
COMPLETENESS_RTOL = 0.05
COMPLETENESS_ATOL = 1e-3


def torch_inputs(clf: TokenClassifier, text: str) -> dict[str, Any]:
    """Token ids, attention mask, pad baseline and token→word map of one text."""
    import torch

    words = split_words(text)
    enc = clf.encode(text)
    device = getattr(clf, "device", "cpu")
    ids = torch.tensor([enc.ids], dtype=torch.long, device=device)
    return {
        "words": words,
        "ids": ids,
        "mask": torch.ones_like(ids),
        "baseline": torch.tensor([clf.baseline_ids(enc.ids, enc.spans)], dtype=torch.long, device=device),
        "token_word": token_to_word(words, enc.spans),
    }


def forward_fn(clf: TokenClassifier, output: str):  # type: ignore[no-untyped-def]
    """Captum forward: ids, mask → class scores (``s``) or probabilities (``p``)."""

    def fwd(input_ids: Any, attention_mask: Any) -> Any:
        logits = clf.logits(input_ids, attention_mask)
        return logits if output == "s" else logits.softmax(dim=-1)

    return fwd


def check_completeness(name: str, delta: float, out_diff: float, model: str) -> None:
    """Raise :class:`CaseNotApplicable` when attributions do not add up to the output difference."""
    if not np.isfinite(delta) or abs(delta) > COMPLETENESS_RTOL * abs(out_diff) + COMPLETENESS_ATOL:
        raise CaseNotApplicable(
            f"{name} on {model}: completeness fails (convergence delta {delta:+.4g} against an output "
            f"difference of {out_diff:+.4g}); its attributions of this input are not trustworthy"
        )


def _words_explanation(name: str, target: str, inp: dict[str, Any], token_rel: np.ndarray, info: dict[str, Any]) -> Explanation:
    words = inp["words"]
    rel = sum_to_words(token_rel, inp["token_word"], len(words))
    return Explanation(name, target, words.words, words.spans, tuple(float(x) for x in rel), info)


class GradientExplainer(Explainer):
    family = "gradient"

    def __init__(self, name: str, reduce: str, output: str) -> None:
        self.name, self.reduce, self.output = name, reduce, output
        self.description = f"gradient of {output} w.r.t. the embedding output, {'L2 norm' if reduce == 'l2' else 'dot product with the embedding'}"

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        from captum.attr import LayerGradientXActivation

        clf = handle.torch
        assert clf is not None
        inp = torch_inputs(clf, text)
        k = clf.classes.index(target)
        method = LayerGradientXActivation(forward_fn(clf, self.output), clf.embeddings, multiply_by_inputs=self.reduce == "dot")
        attr = method.attribute(inp["ids"], target=k, additional_forward_args=(inp["mask"],))
        attr = attr[0] if isinstance(attr, (tuple, list)) else attr
        a = attr[0].detach().float()
        token_rel = (a.norm(dim=-1) if self.reduce == "l2" else a.sum(dim=-1)).cpu().numpy()
        return _words_explanation(self.name, target, inp, token_rel, {"evaluations": 1, "backwards": 1})


class IntegratedGradientsExplainer(Explainer):
    family = "gradient"

    def __init__(self, name: str, output: str, steps: int = IG_STEPS) -> None:
        self.name, self.output, self.steps = name, output, steps
        self.description = f"integrated gradients of {output} on the embedding output, M={steps}, pad-token baseline"

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        import torch
        from captum.attr import LayerIntegratedGradients

        clf = handle.torch
        assert clf is not None
        inp = torch_inputs(clf, text)
        k = clf.classes.index(target)
        fwd = forward_fn(clf, self.output)
        single_rows: list[tuple[Any, Any]] = []

        def recording_fwd(input_ids: Any, attention_mask: Any) -> Any:
            out = fwd(input_ids, attention_mask)
            if input_ids.shape[0] == 1 and not torch.is_grad_enabled():  # not an interpolation step
                single_rows.append((input_ids, out.detach()))
            return out

        method = LayerIntegratedGradients(recording_fwd, clf.embeddings)
        attr = method.attribute(
            inp["ids"], baselines=inp["baseline"], target=k, additional_forward_args=(inp["mask"],),
            n_steps=self.steps, internal_batch_size=max(1, min(self.steps, IG_TOKENS_PER_BATCH // int(inp["ids"].shape[1]))),
        )
        # Completeness: sum(attributions) = f(x) - f(baseline). Captum's return_convergence_delta
        # would run both through the model again; it already ran them (to get the layer's
        # activations), so their outputs are taken from those calls when recorded.
        ends = [next((o for i, o in single_rows if torch.equal(i, inp[key])), None) for key in ("ids", "baseline")]
        if ends[0] is None or ends[1] is None:
            with torch.no_grad():
                out = fwd(torch.cat([inp["ids"], inp["baseline"]]), torch.cat([inp["mask"], inp["mask"]]))
            ends = [out[:1], out[1:]]
        diff = float(ends[0][0, k]) - float(ends[1][0, k])
        delta_f = float(attr.detach().double().sum()) - diff
        check_completeness(self.name, delta_f, diff, handle.name)
        token_rel = attr[0].detach().float().sum(dim=-1).cpu().numpy()
        info = {"convergence_delta": round(delta_f, 6), "output_difference": round(diff, 6),
                "evaluations": self.steps + 2, "backwards": self.steps}
        return _words_explanation(self.name, target, inp, token_rel, info)


for _name, _reduce, _out in (("grad_l2_s", "l2", "s"), ("grad_l2_p", "l2", "p"), ("grad_dot_s", "dot", "s"), ("grad_dot_p", "dot", "p")):
    explainers.register(_name, func=lambda n=_name, r=_reduce, o=_out: GradientExplainer(n, r, o))
explainers.register("ig", func=lambda: IntegratedGradientsExplainer("ig", "s"))
explainers.register("ig_p", func=lambda: IntegratedGradientsExplainer("ig_p", "p"))
