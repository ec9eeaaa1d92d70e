"""The suite's failing cases as hybrid documents (METHOD.md §3, first bullet; issue 13 item 4).

A test case is built from template text and labelled seed sentences, so a failure is a small hybrid
document whose answer is known: the same hit test as the pointing game — does rmax for the (wrong)
predicted class lie in a fragment whose label equals it? — scored per explainer over the failing
cases gives a suite-level pointing game to set beside the hybrid-document one. Uses the explain
package's failure finder and localisation (:func:`s2lct.explain.localise.localise`).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from ..explain.command import Failure, select_failures
from ..models.base import SentimentModel

#: Cases run per capability for every failing case wanted there (the suite is sampled, not run whole).
OVERSAMPLE = 8


def failing_cases(model: SentimentModel, suite: str | Path, max_cases: int | None, seed: int = 0,
                  batch_size: int | None = None) -> tuple[list[Failure], int]:
    """Failures whose text has a labelled fragment (a case with only template text cannot be scored),
    at most ``max_cases`` spread evenly over capabilities (seeded); and the number of cases run.
    With ``max_cases`` only a seeded sample of each capability is run (``OVERSAMPLE`` cases per
    failure wanted), so a card does not predict a whole suite of tens of thousands of cases."""
    import warnings

    from ..run.predict import predict_texts
    from ..run.runner import judge, load_selection
    from ..suite import suite_files

    per_cap_run = None
    if max_cases is not None:
        n_caps = max(1, len(suite_files(suite)))
        per_cap_run = max(1, -(-max_cases // n_caps)) * OVERSAMPLE
    selection = load_selection(suite, max_per_capability=per_cap_run, seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        preds = predict_texts(model, [c.text for c in selection.cases if c.is_mft], batch_size=batch_size)
    n_cases = len(selection.cases)
    failures = [Failure(c, preds[c.text].label, dict(preds[c.text].probs)) for c in selection.cases
                if c.is_mft and not judge(c, preds[c.text].label) and any(fr.label is not None for fr in c.fragments)]
    if max_cases is not None and len(failures) > max_cases:
        caps = sorted({f.case.capability for f in failures})
        per_cap = max(1, max_cases // max(1, len(caps)))
        failures = select_failures(failures, per_cap, seed)[:max_cases]
    return failures, n_cases


def spearman(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Rank correlation of two explainer scorings (None for fewer than 3 explainers)."""
    import numpy as np
    from scipy.stats import spearmanr

    if len(a) < 3:
        return None
    r = spearmanr(np.asarray(a), np.asarray(b)).statistic
    return None if r != r else round(float(r), 4)
