"""What every paradigm of a card shares: the resumable record store, the loop that explains items
with every explainer (memoised, optionally in worker processes), and the margin a score must clear.

Records are appended to a JSONL file as each explanation finishes, so an interrupted card resumes
where it stopped; an explainer that fails completeness on too many of a paradigm's items, or is not
applicable, is left out of that paradigm's scores with its reason.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import dumps_json, write_jsonl
from ..errors import S2LCTError
from ..explain.adapters import ModelHandle
from ..explain.base import CaseFailures, Explainer
from ..progress import ProgressFactory, ProgressTask
from . import metrics as M
from .workers import WorkerPool, auto_workers, explain_item, picklable


class TrustError(S2LCTError):
    """Bad trust input (too few documents left, an unusable table): one line, exit code 2."""

    exit_code = 2


MARGIN = 0.05
MIN_DOCUMENTS = 5
#: An explainer left out of more than this share of a paradigm's items (completeness failed on them)
#: is not scored there: its score would describe the few inputs it happens to work on. DeepLIFT on
#: minilm-sst2's number probe held completeness on 2 of 100 agreement prefixes.
MAX_SKIPPED_SHARE = 0.5


class Recorder:
    """Resumable record store: (paradigm, item, explainer) → record, appended as computed."""

    def __init__(self, path: Path | None) -> None:
        self.path, self.done = path, {}
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            if path.is_file():
                for line in path.read_text(encoding="utf-8").splitlines():
                    try:
                        r = json.loads(line)
                    except json.JSONDecodeError:
                        break  # a torn last line: recomputed
                    self.done[(r["paradigm"], r["item"], r["explainer"])] = r
                write_jsonl(path, self.done.values())
        self.fh = open(path, "a", encoding="utf-8") if path is not None else None

    def get(self, key: tuple[str, str, str]) -> dict[str, Any] | None:
        return self.done.get(key)

    def add(self, rec: dict[str, Any]) -> None:
        self.done[(rec["paradigm"], rec["item"], rec["explainer"])] = rec
        if self.fh is not None:
            self.fh.write(dumps_json(rec) + "\n")
            self.fh.flush()

    def close(self) -> None:
        if self.fh is not None:
            self.fh.close()


@dataclass
class CardRun:
    """What every paradigm of one card run shares: the record store, progress, log and workers."""

    rec: Recorder
    progress: ProgressFactory
    log: Callable[[str], None]
    workers: int = 1  # processes explaining items (see workers.py); 1: in this process
    threads: int = 1  # torch threads of each worker


def explain_all(paradigm: str, handle: ModelHandle, explainers: Sequence[Explainer], items: Sequence[tuple[str, str, str]],
                 score: Callable[[int, Any], dict[str, Any]], run: CardRun, na: dict[str, str], what: str) -> dict[str, list[dict[str, Any]]]:
    """Explain every (item id, text, class) with every explainer; ``score(i, explanation)`` → record fields.
    ``what`` names the items in the progress bar ("hybrid documents").

    Item by item, every explainer on it, through a memoised handle: each distinct perturbed input
    of a text is scored once across the explainers (the explanations are the same as without the
    memo). A record's ``seconds`` is what that explainer took given the explainers before it on
    the same text (the first one pays for shared evaluations). With ``run.workers`` > 1 the items
    are explained in worker processes and consumed here in item order (the same records)."""
    task = run.progress(f"{what} × explainers ({handle.name})", len(items) * len(explainers))
    pool = None
    try:
        if run.workers > 1 and any(pending_explainers(paradigm, item_id, explainers, run.rec, na) for item_id, _t, _c in items):
            why = picklable(handle, explainers)
            if why is None:
                pool = WorkerPool(handle, explainers, run.workers, run.threads)
            else:
                run.log(f"{what}: explained in this process ({handle.name} or its explainers cannot be sent to a worker: {why})")
        return explain_items(paradigm, handle, explainers, items, score, run.rec, na, task, pool)
    finally:
        if pool is not None:
            pool.close()
        task.close()


def pending_explainers(paradigm: str, item_id: str, explainers: Sequence[Explainer], rec: Recorder, na: dict[str, str]) -> list[str]:
    """Names of the explainers still to compute on an item: no record yet, not given up."""
    return [e.name for e in explainers if rec.get((paradigm, item_id, e.name)) is None and e.name not in na]


def explain_items(paradigm: str, handle: ModelHandle, explainers: Sequence[Explainer], items: Sequence[tuple[str, str, str]],
                   score: Callable[[int, Any], dict[str, Any]], rec: Recorder, na: dict[str, str],
                   task: ProgressTask, pool: WorkerPool | None = None) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {e.name: [] for e in explainers}
    case_failures = CaseFailures()
    skipped: dict[str, list[str]] = {}  # explainer → reasons of the items it was left out of
    by_name = {e.name: e for e in explainers}

    # What is left to compute for an item is decided when it is drawn (lazily), so it sees every
    # explainer given up on the items consumed before.
    if pool is not None:
        computed = pool.results((text, target, pending_explainers(paradigm, item_id, explainers, rec, na)) for item_id, text, target in items)
    else:
        memo = handle.memoised()
        computed = (explain_item(memo, [by_name[n] for n in pending_explainers(paradigm, item_id, explainers, rec, na)], text, target)
                    for item_id, text, target in items)
    for i, ((item_id, _text, _target), results) in enumerate(zip(items, computed, strict=True)):
        for e in explainers:
            key = (paradigm, item_id, e.name)
            r = rec.get(key)
            if r is None:
                if e.name in na:  # given up on an earlier item (a worker may have computed it anyway)
                    task.advance()
                    continue
                status, payload, seconds = results[e.name]
                if status == "skipped":  # this item only: left out of the explainer's score
                    rec.add({"paradigm": paradigm, "item": item_id, "explainer": e.name, "status": "skipped", "reason": payload})
                    skipped.setdefault(e.name, []).append(payload)
                    if case_failures.failure(e.name):
                        na[e.name] = payload
                    task.advance()
                    continue
                if status == "not_applicable":
                    na[e.name] = payload
                    rec.add({"paradigm": paradigm, "item": item_id, "explainer": e.name, "status": "not_applicable", "reason": payload})
                    task.advance()
                    continue
                case_failures.success(e.name)
                exp = payload
                r = {"paradigm": paradigm, "item": item_id, "explainer": e.name, "status": "ok",
                     "seconds": round(seconds, 4), "evaluations": exp.info.get("evaluations"),
                     "backwards": exp.info.get("backwards", 0), "rmax": exp.rmax,
                     "rmax_word": None if exp.rmax is None else exp.words[exp.rmax], **score(i, exp)}
                rec.add(r)
            elif r.get("status") == "not_applicable":
                na[e.name] = r["reason"]
            elif r.get("status") == "skipped":  # read back from a resumed run
                skipped.setdefault(e.name, []).append(r["reason"])
            if r.get("status") == "ok":
                out[e.name].append(r)
            task.advance()
    for name, reasons in skipped.items():
        if name not in na and len(reasons) > MAX_SKIPPED_SHARE * len(items):
            na[name] = (f"{name} on {handle.name}: left out of {len(reasons)} of {len(items)} {paradigm} items, too many to score "
                        f"(more than {MAX_SKIPPED_SHARE:.0%}); first reason: {reasons[0]}")
            out[name] = []
    return out


def applicable(explainers: Sequence[Explainer], handle: ModelHandle, na: dict[str, str]) -> list[Explainer]:
    keep = []
    for e in explainers:
        reason = e.not_applicable(handle)
        if reason:
            na.setdefault(e.name, reason)
        else:
            keep.append(e)
    return keep




def speed(recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    secs = sum(r.get("seconds", 0.0) for r in recs)
    return {"seconds": round(secs, 3), "items_per_second": round(len(recs) / secs, 4) if secs > 0 else None}


def run_context(handle: ModelHandle, rec: Recorder, progress: ProgressFactory, log: Callable[[str], None],
                 workers: int | None) -> CardRun:
    import torch

    threads = torch.get_num_threads()
    workers = auto_workers(handle, threads) if workers is None else max(1, workers)
    per_worker = max(1, threads // workers)
    if workers > 1:
        log(f"explaining in {workers} worker processes, {per_worker} torch thread(s) each")
    return CardRun(rec, progress, log, workers, per_worker)


def lift_flag(score: M.Score, baseline: M.Score, margin: float) -> bool | None:
    if score.value is None or baseline.value is None or score.low is None:
        return None
    return bool(score.low >= baseline.value + margin)
