"""The hybrid-document paradigm (Poerner §4.1): documents of sentences with different labels; an
explainer hits when the word it finds most relevant comes from a sentence of the predicted class.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..explain.adapters import ModelHandle
from ..explain.base import Explainer
from . import metrics as M
from .explaining import MARGIN, MIN_DOCUMENTS, CardRun, TrustError, applicable, explain_all, lift_flag, speed

if TYPE_CHECKING:
    from .card import CardOptions

def run_hybrid(model: Any, handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: CardRun,
               data_root: str | Path | None) -> dict[str, Any]:
    from .hybrid import build_documents, load_pool

    pool = load_pool(opts.table, data_root=data_root)
    docs = build_documents(pool, opts.documents, opts.fragments, opts.seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        preds = model.predict([d.text for d in docs])
    kept, targets = [], []
    for d, p in zip(docs, preds, strict=True):
        target = handle.explained_class(p.label, dict(p.probs))
        if target in d.labels:
            kept.append(d)
            targets.append(target)
    discarded = len(docs) - len(kept)
    if len(kept) < MIN_DOCUMENTS:
        raise TrustError(f"hybrid documents: only {len(kept)} of {len(docs)} documents are left after discarding those whose "
                         f"predicted class is no fragment's label (need at least {MIN_DOCUMENTS}); raise --documents")
    labels = [d.word_labels() for d in kept]
    na: dict[str, str] = {}
    chosen = applicable(explainers, handle, na)
    items = [(d.id, d.text, t) for d, t in zip(kept, targets, strict=True)]

    def score(i: int, exp: Any) -> dict[str, Any]:
        return {"hit": M.pointing_hit(exp.relevances, labels[i], targets[i])}

    got = explain_all("hybrid", handle, chosen, items, score, run, na, "hybrid documents")
    p_random = [M.pointing_random(lab, t) for lab, t in zip(labels, targets, strict=True)]
    random = M.random_pointer(p_random, seed=opts.seed)
    out_expl: dict[str, Any] = {}
    for e in chosen:
        if e.name in na:
            continue
        s = M.bootstrap([float(r["hit"]) for r in got[e.name]], seed=opts.seed)
        out_expl[e.name] = {"pointing_game": s.to_json(), "beats_random": lift_flag(s, random, MARGIN),
                            **speed(got[e.name])}
    return {"status": "ok", "source": opts.table or "SST test+dev (positive/negative)", "documents": len(docs),
            "discarded": discarded, "scored": len(kept), "fragments_per_document": opts.fragments,
            "mean_words": round(float(np.mean([len(x) for x in labels])), 2),
            "baselines": {"random": random.to_json()}, "explainers": out_expl, "not_applicable": na}
