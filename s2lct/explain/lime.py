"""LIME over a bag of words, through Captum's ``Lime``.

The interpretable input is one presence bit per word (all ones = the text); Captum draws the
perturbations (each word kept with probability 1/2), weighs them with LIME's text kernel (cosine
distance, width 0.25 — the lime package's 25 on a 0–100 scale) and fits the surrogate. The forward
function turns presence bits into texts without the absent words (true deletion, as in LIME; for
torch models: their tokens dropped) and returns p, so it works on any model. The surrogate is a
weighted least-squares fit with intercept solved in closed form (a Captum ``Model``): Captum's
own surrogates need scikit-learn or SGD training, slower and not deterministic respectively.

Cost: Captum hands every sample to the forward function in one call, so the model sees each
distinct perturbed text once (short texts draw many duplicates) and the rows, whose lengths vary
with the deleted words, are batched by similar length (little padding).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from .adapters import DELETE, KEEP
from .base import Explainer, Explanation, explainers
from .perturbation import evaluate_unique

if TYPE_CHECKING:
    from .adapters import ModelHandle

N_SAMPLES = 500
RIDGE = 1e-3


def _surrogate() -> Any:
    import torch
    from captum._utils.models.model import Model

    class WeightedLeastSquares(Model):
        """Weighted ridge regression with intercept, closed form."""

        def __init__(self) -> None:
            self.coef: Any = None

        def fit(self, train_data: Any, **kwargs: Any) -> dict[str, float]:
            xs, ys, ws = [], [], []
            for batch in train_data:
                x, y = batch[0], batch[1]
                w = batch[2] if len(batch) > 2 else torch.ones(len(x))
                xs.append(x.reshape(len(x), -1).double())
                ys.append(y.reshape(len(x), -1)[:, :1].double())
                ws.append(w.reshape(-1).double())
            x, y, w = torch.cat(xs), torch.cat(ys), torch.cat(ws)
            xa = torch.cat([x, torch.ones(len(x), 1, dtype=x.dtype)], dim=1)
            sw = w.sqrt().unsqueeze(1)
            a = xa * sw
            reg = RIDGE * torch.eye(xa.shape[1], dtype=x.dtype)
            reg[-1, -1] = 0.0
            sol = torch.linalg.solve(a.T @ a + reg, a.T @ (y * sw))
            self.coef = sol[:-1, 0].float().unsqueeze(0)
            return {}

        def representation(self) -> Any:
            return self.coef

        def __call__(self, x: Any) -> Any:
            return x.float() @ self.coef.T

    return WeightedLeastSquares()


class LimeExplainer(Explainer):
    name = "lime"
    family = "perturbation"
    description = f"LIME (Captum), bag of words with deletion, {N_SAMPLES} samples, surrogate fit on p"

    def __init__(self, n_samples: int = N_SAMPLES) -> None:
        self.n_samples = n_samples

    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        import torch
        from captum.attr import Lime
        from captum.attr._core.lime import get_exp_kernel_similarity_function

        scorer = handle.scorer(text)
        words = scorer.words
        nw = len(words)
        k = scorer.classes.index(target)
        if nw == 0:
            return Explanation(self.name, target, (), (), (), {"evaluations": 0})

        def forward(presence: Any) -> Any:
            bits = presence.detach().cpu().numpy().reshape(len(presence), nw)
            states = np.where(bits > 0.5, KEEP, DELETE).astype(np.int8)
            _s, p = evaluate_unique(scorer, states)
            return torch.from_numpy(p).float()

        torch.manual_seed(0)  # Captum samples with torch's generator: same text → same explanation
        lime = Lime(forward, interpretable_model=_surrogate(),
                    similarity_func=get_exp_kernel_similarity_function("cosine", kernel_width=0.25))
        attr = lime.attribute(torch.ones(1, nw), baselines=torch.zeros(1, nw), target=k,
                              n_samples=self.n_samples, perturbations_per_eval=self.n_samples)
        rel = attr.reshape(-1).detach().double().numpy()
        info = {"evaluations": scorer.evaluations, "samples": self.n_samples}
        return Explanation(self.name, target, words.words, words.spans, tuple(float(x) for x in rel), info)


explainers.register("lime", func=LimeExplainer)
