"""DeepLIFT and epsilon-LRP through Captum, each with an applicability check.

* ``deeplift``: Captum ``LayerDeepLift`` on the embedding layer's output (rescale rule) against the
  pad-token baseline, explaining the class score s. Captum returns near-zero attributions on
  transformers *without an error* (its rules cover ReLU/Sigmoid/Tanh-like modules, not attention,
  GELU modules or LayerNorm), so every explanation checks completeness with
  ``return_convergence_delta`` and the method is marked not applicable when it fails.
* ``lrp``: Captum ``LRP`` (epsilon rule) has rules only for ``nn.Linear``, ``nn.Conv2d``, pooling,
  ``nn.BatchNorm2d``, ``nn.ReLU``, ``nn.Tanh`` and ``nn.Dropout``; it raises on ``nn.Embedding``,
  LayerNorm, recurrent layers and attention. It therefore applies to models whose
  :meth:`~s2lct.explain.adapters.TokenClassifier.lrp_module` (embedding output → logits) is built
  from those layers only (bag-of-embeddings and feed-forward/CNN heads such as the ``cnn-sst2``
  task model), never to BERT-, RoBERTa- or DistilBERT-style transformers or to the ``gru-sst2``
  GRU (Poerner et al. hand-wrote Arras et al.'s rule that treats gates as weights; Captum has no
  such rule and this project does not write one); the reason names the layer types without a rule.
  LRP explains s itself, so its completeness check is that the relevances sum to s (exact for a
  bias-free network such as ``cnn-sst2``; biases absorb relevance elsewhere, and an input whose
  relevances miss s by more than the tolerance is left unexplained, as for IG and DeepLIFT).

On a bias-free network of ReLUs and max pooling with the all-pad (zero) baseline — ``cnn-sst2`` —
gradient × input, integrated gradients, epsilon-LRP and DeepLIFT give the same relevances (the
network is piecewise linear and positively homogeneous: Ancona et al. 2018, §3); a test checks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import Explainer, Explanation, explainers
from .gradient import _words_explanation, check_completeness, torch_inputs

if TYPE_CHECKING:
    from .adapters import ModelHandle, TokenClassifier


def _module(clf: TokenClassifier) -> Any:
    import torch

    class Forward(torch.nn.Module):  # DeepLift hooks the modules of an nn.Module forward
        def __init__(self) -> None:
            super().__init__()
            self.inner = getattr(clf, "model", None) or clf.lrp_module()

        def forward(self, input_ids: Any, attention_mask: Any) -> Any:
            return clf.logits(input_ids, attention_mask)

    return Forward()


class DeepLiftExplainer(Explainer):
    name = "deeplift"
    family = "gradient"
    description = "DeepLIFT (rescale) of s on the embedding output, pad-token baseline; completeness-checked"

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        import torch
        from captum.attr import LayerDeepLift

        clf = handle.torch
        assert clf is not None
        inp = torch_inputs(clf, text)
        k = clf.classes.index(target)
        module = _module(clf)
        method = LayerDeepLift(module, clf.embeddings)
        attr, delta = method.attribute(inp["ids"], baselines=inp["baseline"], target=k,
                                       additional_forward_args=(inp["mask"],), return_convergence_delta=True)
        with torch.no_grad():
            diff = float(module(inp["ids"], inp["mask"])[0, k] - module(inp["baseline"], inp["mask"])[0, k])
        delta_f = float(delta.reshape(-1)[0])
        check_completeness(self.name, delta_f, diff, handle.name)
        token_rel = attr[0].detach().float().sum(dim=-1).cpu().numpy()
        info = {"convergence_delta": round(delta_f, 6), "output_difference": round(diff, 6), "evaluations": 2, "backwards": 1}
        return _words_explanation(self.name, target, inp, token_rel, info)


def lrp_unsupported(module: Any) -> list[str]:
    """Type names of leaf modules Captum's LRP has no rule for."""
    from captum.attr._core.lrp import SUPPORTED_LAYERS_WITH_RULES, SUPPORTED_NON_LINEAR_LAYERS

    bad: list[str] = []
    for m in module.modules():
        if next(m.children(), None) is not None:
            continue
        if type(m) not in SUPPORTED_LAYERS_WITH_RULES and type(m) not in SUPPORTED_NON_LINEAR_LAYERS and not hasattr(m, "rule"):
            if type(m).__name__ not in bad:
                bad.append(type(m).__name__)
    return bad


class LrpExplainer(Explainer):
    name = "lrp"
    family = "gradient"
    description = "epsilon-LRP (Captum) from the logits to the embedding output; feed-forward/CNN heads only"

    def not_applicable(self, handle: ModelHandle) -> str | None:
        reason = super().not_applicable(handle)
        if reason:
            return reason
        module = handle.torch.lrp_module() if handle.torch is not None else None
        if module is None:
            return f"lrp: model {handle.name!r} exposes no module for Captum's LRP"
        bad = lrp_unsupported(module)
        if bad:
            return (f"lrp: Captum's LRP has no rule for {', '.join(bad[:6])} in model {handle.name!r} (its rules cover "
                    f"Linear, Conv2d, pooling, BatchNorm2d, ReLU, Tanh and Dropout: not attention, LayerNorm or recurrent layers)")
        return None

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        import torch
        from captum.attr import LRP

        clf = handle.torch
        assert clf is not None
        inp = torch_inputs(clf, text)
        k = clf.classes.index(target)
        with torch.no_grad():
            emb = clf.embeddings(inp["ids"]).detach()
        module = clf.lrp_module()
        with torch.no_grad():
            score = float(module(emb, inp["mask"])[0, k])
        method = LRP(module)
        attr = method.attribute(emb.requires_grad_(True), target=k, additional_forward_args=(inp["mask"],))
        token_rel = attr[0].detach().float().sum(dim=-1).cpu().numpy()
        delta = float(token_rel.sum()) - score
        check_completeness(self.name, delta, score, handle.name)
        info = {"convergence_delta": round(delta, 6), "output": round(score, 6), "evaluations": 2, "backwards": 1}
        return _words_explanation(self.name, target, inp, token_rel, info)


explainers.register("deeplift", func=DeepLiftExplainer)
explainers.register("lrp", func=LrpExplainer)
