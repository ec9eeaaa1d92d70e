"""The suite-level pointing game: on failing cases of the generated suite, does the explainer point
at the fragment whose label the model followed?
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..explain.adapters import ModelHandle
from ..explain.base import Explainer
from . import metrics as M
from .explaining import MARGIN, CardRun, applicable, explain_all, lift_flag, speed

if TYPE_CHECKING:
    from .card import CardOptions

def run_composite(model: Any, handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: CardRun) -> dict[str, Any]:
    from ..explain.localise import localise, word_origins
    from .composite import failing_cases

    if not opts.suite or not Path(opts.suite).is_dir():
        reason = f"suite-level pointing game skipped: no suite folder {opts.suite!r}"
        run.log(reason)
        return {"status": "skipped", "reason": reason}
    failures, n_cases = failing_cases(model, opts.suite, opts.composite_cases, opts.seed)
    if not failures:
        return {"status": "skipped", "reason": f"no failing case with a labelled fragment among {n_cases} cases", "cases": n_cases}
    na: dict[str, str] = {}
    chosen = applicable(explainers, handle, na)
    targets = [handle.explained_class(f.predicted, f.probs) for f in failures]
    origins = [word_origins(f.case) for f in failures]

    def score(i: int, exp: Any) -> dict[str, Any]:
        loc = localise(failures[i].case, exp, origins[i])
        return {"hit": bool(loc["hit"]), "category": loc["category"], "random_p": loc["random_baseline"]}

    got = explain_all("composite", handle, chosen, [(f.case.id, f.case.text, t) for f, t in zip(failures, targets, strict=True)],
                       score, run, na, "failing cases")
    p_random = [sum(o.label == t for o in orig) / len(orig) if orig else 0.0 for orig, t in zip(origins, targets, strict=True)]
    random = M.random_pointer(p_random, seed=opts.seed)
    out_expl = {}
    for e in chosen:
        if e.name in na:
            continue
        s = M.bootstrap([float(r["hit"]) for r in got[e.name]], seed=opts.seed)
        out_expl[e.name] = {"pointing_game": s.to_json(), "beats_random": lift_flag(s, random, MARGIN), **speed(got[e.name])}
    caps: dict[str, int] = {}
    for f in failures:
        caps[f.case.capability] = caps.get(f.case.capability, 0) + 1
    return {"status": "ok", "suite": opts.suite, "cases": n_cases, "failures_scored": len(failures), "per_capability": caps,
            "baselines": {"random": random.to_json()}, "explainers": out_expl, "not_applicable": na}
