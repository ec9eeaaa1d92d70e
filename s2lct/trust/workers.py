"""Explaining a card's items in worker processes, one model copy each.

Why processes: on a CPU, two processes with one torch thread each explain a little faster than one
process with two threads (1.07× on 30 hybrid documents on 2 cores, their start included: the
explainers' batches are small for intra-op parallelism), and Python threads would share the modules
Captum hooks (and serialise the gradient methods' backward passes). The parent keeps all the bookkeeping (records, the completeness
policy, progress) and consumes results in item order, so the card does not depend on how many
workers computed it; a worker only runs :func:`explain_item`, the same function the serial path
runs.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import time
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

from ..explain.adapters import ModelHandle
from ..explain.base import CaseNotApplicable, Explainer, NotApplicable

#: name → ("ok", Explanation, seconds) | ("skipped" | "not_applicable", reason, 0.0)
ItemResult = dict[str, tuple[str, Any, float]]
MAX_AUTO_WORKERS = 4


def explain_item(memo: ModelHandle, explainers: Sequence[Explainer], text: str, target: str) -> ItemResult:
    """Every explainer on one text through one memoised handle (they share scored inputs)."""
    memo.forget()
    out: ItemResult = {}
    for e in explainers:
        t0 = time.perf_counter()
        try:
            exp = e.explain(memo, text, target)
        except CaseNotApplicable as exc:  # this item only
            out[e.name] = ("skipped", str(exc), 0.0)
            continue
        except NotApplicable as exc:
            out[e.name] = ("not_applicable", str(exc), 0.0)
            continue
        out[e.name] = ("ok", exp, time.perf_counter() - t0)
    return out


def auto_workers(handle: ModelHandle, threads: int | None = None) -> int:
    """Workers when none are asked for: one per torch thread (at most :data:`MAX_AUTO_WORKERS`) for
    a torch model on the CPU; otherwise 1 (text-level models are cheap, a GPU is shared anyway)."""
    if handle.torch is None or str(getattr(handle.torch, "device", "cpu")) != "cpu":
        return 1
    if threads is None:
        import torch

        threads = torch.get_num_threads()
    return max(1, min(threads, os.cpu_count() or 1, MAX_AUTO_WORKERS))


_WORKER: dict[str, Any] = {}


def _init_worker(handle_bytes: bytes, explainers_bytes: bytes, threads: int) -> None:
    import torch

    torch.set_num_threads(threads)
    _WORKER["memo"] = pickle.loads(handle_bytes).memoised()
    _WORKER["explainers"] = {e.name: e for e in pickle.loads(explainers_bytes)}


def _explain_in_worker(text: str, target: str, names: Sequence[str]) -> ItemResult:
    return explain_item(_WORKER["memo"], [_WORKER["explainers"][n] for n in names], text, target)


class WorkerPool:
    """Worker processes holding a copy of ``handle`` and ``explainers``; the torch threads are split
    between them (``threads`` each)."""

    def __init__(self, handle: ModelHandle, explainers: Sequence[Explainer], workers: int, threads: int) -> None:
        self.workers = workers
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=multiprocessing.get_context("spawn"), initializer=_init_worker,
            initargs=(pickle.dumps(handle), pickle.dumps(list(explainers)), threads),
        )

    def results(self, jobs: Iterator[tuple[str, str, Sequence[str]]]) -> Iterator[ItemResult]:
        """Results of (text, target, explainer names) jobs in job order. A job is drawn only when a
        slot frees (two per worker in flight), so names chosen when it is drawn see every result
        consumed before."""
        pending: deque[Future[ItemResult]] = deque()
        exhausted = False
        while True:
            while not exhausted and len(pending) < 2 * self.workers:
                job = next(jobs, None)
                if job is None:
                    exhausted = True
                    break
                pending.append(self._pool.submit(_explain_in_worker, *job))
            if not pending:
                return
            yield pending.popleft().result()

    def close(self) -> None:
        self._pool.shutdown(wait=True, cancel_futures=True)


def picklable(handle: ModelHandle, explainers: Sequence[Explainer]) -> str | None:
    """Why ``handle`` or ``explainers`` cannot go to a worker (an entry-point callable, a lambda, a
    class defined in a function), or None."""
    try:
        pickle.dumps(handle)
        pickle.dumps(list(explainers))
    except Exception as exc:  # noqa: BLE001 - any pickling failure means: stay in this process
        return f"{type(exc).__name__}: {exc}"
    return None
