"""Explainer cost on minilm-sst2 against its floor, measured side by side in one process.

Cases: N failing cases of the committed suite (default 200), spread evenly over the suite's
failures in suite order (every capability contributes), the same cases for every explainer.

The *floor* of an explainer on a case is the model work the method needs, run as plain batched
calls on inputs of the same lengths the explainer evaluates:

* perturbation methods (occlusion, omission, LIME, LIMSSE): one forward per distinct perturbed
  input the explainer evaluated, each of that input's own token length (LIMSSE: its 1-6-word
  substrings; occlusion: full-length copies; omission/LIME: the shortened texts), sorted by length
  and padded in batches of 64 (a forward hook on the model records every row's length);
* gradient methods: one forward+backward of the full text (grad_*), or ``steps`` full-length
  copies forward+backward in one batch (ig, ig_p); the gradient is taken at the embedding output.

Every explainer and its floor run once over a few warm-up cases first (first calls pay for lazy
imports, Captum's hook set-up and allocator growth). Then, case by case, the explainer is timed
and its floor right after it, so machine load hits both alike. Printed per explainer: cases/s,
floor cases/s, their ratio (explainer time / floor time; target <= 1.3) and model rows per case.

    python benchmarks/bench_explain.py [--cases 200] [--explainers ig,occlusion1,...] [--threads 1]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared"))
os.environ.setdefault("S2LCT_MODELS_DIR", str(SHARED / "models"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

ALL = ("grad_l2_s,grad_l2_p,grad_dot_s,grad_dot_p,ig,ig_p,occlusion1,occlusion3,occlusion7,"
       "omission1,omission3,omission7,lime,limsse_bb,limsse_ms_s,limsse_ms_p")
WARMUP = 3
BATCH = 64


class RowRecorder:
    """Records the token length (attention-mask sum) of every row the model is run on."""

    def __init__(self, model: Any) -> None:
        self.lengths: list[int] = []
        self._h = model.register_forward_pre_hook(self._hook, with_kwargs=True)

    def _hook(self, module: Any, args: Any, kwargs: Any) -> None:
        mask = kwargs.get("attention_mask")
        if mask is None:
            ids = kwargs.get("input_ids", args[0] if args else None)
            self.lengths.extend([ids.shape[1]] * ids.shape[0])
        else:
            self.lengths.extend(int(n) for n in mask.sum(dim=1).tolist())

    def take(self) -> list[int]:
        out, self.lengths = self.lengths, []
        return out

    def remove(self) -> None:
        self._h.remove()


def floor_plan(explainer: Any, ids: list[int], exp: Any, lengths: list[int]) -> tuple[list[int], int]:
    """(lengths of the forward-only rows, number of full-length forward+backward rows) the method needs."""
    if explainer.family == "gradient":
        return [], int(exp.info.get("backwards", 1))
    return lengths, 0


def run_floor(clf: Any, ids: list[int], target: int, forward_lengths: list[int], backwards: int) -> float:
    """Seconds for the floor: plain batched forwards of rows of the given lengths (the text's
    first tokens, ending with its last), plus ``backwards`` full-length rows forward+backward."""
    import torch

    from s2lct.explain.adapters import run_logits

    t0 = time.perf_counter()
    if backwards:
        x = torch.tensor([ids] * backwards)
        emb: dict[str, Any] = {}
        h = clf.embeddings.register_forward_hook(lambda m, i, o: emb.setdefault("o", o))
        try:
            with torch.enable_grad():
                logits = clf.logits(x, torch.ones_like(x))
                torch.autograd.grad(logits[:, target].sum(), emb["o"])
        finally:
            h.remove()
    if forward_lengths:
        run_logits(clf, [ids[: max(n - 1, 0)] + ids[-1:] for n in forward_lengths], BATCH)
    return time.perf_counter() - t0


def spread(items: list[Any], n: int) -> list[Any]:
    """n items evenly spaced over the list (all of it when n >= its length), order kept."""
    if n >= len(items):
        return list(items)
    return [items[(i * len(items)) // n] for i in range(n)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cases", type=int, default=200, help="failing cases to time (spread over the suite's failures)")
    ap.add_argument("--explainers", default=ALL, help="comma-separated explainer names (default: every one that applies)")
    ap.add_argument("--threads", type=int, default=1, help="torch CPU threads")
    ap.add_argument("--suite", default=str(REPO / "generated"))
    ap.add_argument("--only", default=None, help="comma-separated capabilities (default: all)")
    args = ap.parse_args()
    import torch

    torch.set_num_threads(args.threads)
    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.base import NotApplicable
    from s2lct.explain.command import find_failures
    from s2lct.explain.registry import parse_explainers
    from s2lct.models import load_model

    model = load_model("minilm-sst2")
    handle = prepare_model(model)
    clf = handle.torch
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        failures, n_cases, _ = find_failures(model, args.suite, args.only.split(",") if args.only else None)
    cases = spread(failures, args.cases)
    warm = spread(failures, WARMUP + 1)[1:]
    prepared = [(f.case.text, handle.explained_class(f.predicted, f.probs)) for f in cases]
    prepared = [(text, target, clf.encode(text).ids, clf.classes.index(target)) for text, target in prepared]
    mean_tokens = sum(len(p[2]) for p in prepared) / max(len(prepared), 1)
    caps = sorted({f.case.capability for f in cases}, key=lambda c: int(c[2:]) if c[2:].isdigit() else 0)
    print(f"minilm-sst2: {len(cases)} failing cases (of {len(failures)} failures in {n_cases} cases; "
          f"{', '.join(caps)}; {mean_tokens:.1f} tokens on average), torch threads {args.threads}, warm-up {len(warm)} cases")
    print(f"{'explainer':<13}{'cases/s':>9}{'floor cases/s':>15}{'ratio':>7}{'rows/case':>11}{'floor rows/case':>17}")
    rec = RowRecorder(clf.model)
    try:
        for e in parse_explainers(args.explainers):
            if e.not_applicable(handle):
                print(f"{e.name:<13} not applicable: {e.not_applicable(handle)}")
                continue
            for f in warm:  # warm-up: explainer and floor, untimed
                target = handle.explained_class(f.predicted, f.probs)
                ids = clf.encode(f.case.text).ids
                try:
                    exp = e.explain(handle, f.case.text, target)
                except NotApplicable:  # completeness failed on this case (ig); the timed loop counts them
                    rec.take()
                    continue
                fl, bw = floor_plan(e, ids, exp, rec.take())
                run_floor(clf, ids, clf.classes.index(target), fl, bw)
                rec.take()
            t_exp = t_floor = 0.0
            rows = floor_rows = 0
            skipped = 0
            for text, target, ids, k in prepared:
                t0 = time.perf_counter()
                try:
                    exp = e.explain(handle, text, target)
                except NotApplicable:
                    skipped += 1
                    rec.take()
                    continue
                t_exp += time.perf_counter() - t0
                lengths = rec.take()
                rows += len(lengths)
                fl, bw = floor_plan(e, ids, exp, lengths)
                floor_rows += len(fl) + bw
                t_floor += run_floor(clf, ids, k, fl, bw)
                rec.take()
            n = len(prepared) - skipped
            if not n:
                print(f"{e.name:<13} not applicable on any case (completeness)")
                continue
            note = f"  ({skipped} case(s) not applicable: completeness)" if skipped else ""
            print(f"{e.name:<13}{n / t_exp:>9.2f}{n / t_floor:>15.2f}{t_exp / t_floor:>7.2f}{rows / n:>11.1f}{floor_rows / n:>17.1f}{note}",
                  flush=True)
    finally:
        rec.remove()


if __name__ == "__main__":
    main()
