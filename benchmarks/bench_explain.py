"""Explainer cost on minilm-sst2 against its floor, measured side by side in one process.

For each explainer, over the first N failing cases of the committed suite (suite order, all
capabilities): seconds per case, and the ratio to the *floor*: the same number of model
evaluations run as plain batched calls (forwards of the text's token ids in batches of 64; plus,
for gradient methods, one backward through a batch of that many copies). The floor of each case
is timed right after the explainer on that case, so machine load hits both alike.

    python benchmarks/bench_explain.py [--cases 200] [--explainers ig,occlusion1,...] [--threads 1]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared"))
os.environ.setdefault("S2LCT_MODELS_DIR", str(SHARED / "models"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ALL = "grad_l2_s,grad_dot_s,ig,lime,limsse_bb,limsse_ms_s,limsse_ms_p,occlusion1,occlusion3,occlusion7,omission1,omission3,omission7"


def floor_seconds(clf, ids: list[int], forwards: int, backwards: int) -> float:
    import torch

    from s2lct.explain.adapters import run_logits

    t0 = time.perf_counter()
    if backwards:
        x = torch.tensor([ids] * backwards)
        with torch.enable_grad():
            emb_out = {}
            h = clf.embeddings.register_forward_hook(lambda m, i, o: emb_out.setdefault("o", o))
            logits = clf.logits(x, torch.ones_like(x))
            h.remove()
            (g,) = torch.autograd.grad(logits[:, 0].sum(), emb_out["o"])
        forwards = max(0, forwards - backwards)
    if forwards:
        run_logits(clf, [ids] * forwards, 64)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--explainers", default=ALL)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--suite", default=str(REPO / "generated"))
    ap.add_argument("--only", default=None, help="comma-separated capabilities (default: all)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.command import find_failures
    from s2lct.explain.registry import parse_explainers
    from s2lct.models import load_model

    model = load_model("minilm-sst2")
    handle = prepare_model(model)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failures, n_cases, _ = find_failures(model, args.suite, args.only.split(",") if args.only else None)
    failures = failures[: args.cases]
    print(f"minilm-sst2: {len(failures)} failing cases (of {n_cases}), torch threads {args.threads}")
    print(f"{'explainer':<14}{'s/case':>10}{'floor s/case':>14}{'ratio':>8}{'evals/case':>12}")
    for e in parse_explainers(args.explainers):
        t_exp = t_floor = 0.0
        evals = 0
        for f in failures:
            target = handle.explained_class(f.predicted, f.probs)
            t0 = time.perf_counter()
            exp = e.explain(handle, f.case.text, target)
            t_exp += time.perf_counter() - t0
            n_fwd = int(exp.info.get("evaluations", 1))
            n_bwd = int(exp.info.get("backwards", 0))
            evals += n_fwd
            t_floor += floor_seconds(handle.torch, handle.torch.encode(f.case.text).ids, n_fwd, n_bwd)
        n = len(failures)
        print(f"{e.name:<14}{t_exp / n:>10.4f}{t_floor / n:>14.4f}{t_exp / t_floor:>8.2f}{evals / n:>12.1f}", flush=True)


if __name__ == "__main__":
    main()
