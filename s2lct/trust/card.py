"""The report card: every explainer scored on the model under test, per paradigm, ranked.

``build_card`` runs the paradigms (hybrid documents, agreement on the encoder + probe, the suite's
failing cases), scores every explainer against its baselines with intervals, ranks them and marks
those that beat random by the card's stated margin. Cards are cached per model identity under
``<cache_dir>/trust/<hash of the identity>/``: ``card.json`` (the last completed card, which
``s2lct explain`` reads) and ``card-<options hash>.json`` (a rerun with the same options returns it
without recomputing). Work in progress is appended to ``.partial/<options hash>.jsonl`` as each
explanation finishes, so an interrupted card resumes where it stopped; the final card is written
atomically and does not depend on whether the run was interrupted.

Ranking: by the mean lift over the random baseline of the headline metrics the explainer was
scored on — the hybrid-document pointing game and, when the agreement paradigm ran, hit_target
(Poerner's Table 2 columns). ``trusted``: the lower end of the 95 % interval lies at least
:data:`MARGIN` above the random baseline on every headline metric.
"""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import dumps_json, short_hash, write_json, write_jsonl
from ..errors import S2LCTError
from ..explain.adapters import HFTokenClassifier, ModelHandle, prepare_model
from ..explain.base import CaseFailures, Explainer
from ..explain.registry import available, parse_explainers
from ..explain.words import split_words
from ..progress import ProgressFactory, ProgressTask
from . import defaults
from . import metrics as M
from .agreement import SOURCES as AGREEMENT_SOURCES
from .workers import WorkerPool, auto_workers, explain_item, picklable

FORMAT_VERSION = 1


class TrustError(S2LCTError):
    """Bad trust input (too few documents left, an unusable table): one line, exit code 2."""

    exit_code = 2


MARGIN = 0.05
MIN_DOCUMENTS = 5
#: An explainer left out of more than this share of a paradigm's items (completeness failed on them)
#: is not scored there: its score would describe the few inputs it happens to work on. DeepLIFT on
#: minilm-sst2's number probe held completeness on 2 of 100 agreement prefixes.
MAX_SKIPPED_SHARE = 0.5
HEADLINE = (("hybrid", "pointing_game"), ("agreement", "hit_target"))
AGREEMENT_METRICS = ("hit_target", "hit_feat", "hit_feat_correct", "hit_feat_wrong", "plausibility_expected", "plausibility_alternative")


@dataclass
class CardOptions:
    """What a card is computed from (its hash names the cached card)."""

    explainers: list[str] | None = None  # None: every registered explainer that applies
    documents: int = defaults.DOCUMENTS
    fragments: int = defaults.FRAGMENTS
    table: str | None = None  # labelled table instead of SST test+dev
    agreement_items: int = defaults.AGREEMENT_ITEMS
    agreement_sources: list[str] = field(default_factory=lambda: list(AGREEMENT_SOURCES))
    probe_items: int = defaults.PROBE_ITEMS
    suite: str | None = "generated"
    composite_cases: int | None = defaults.SUITE_CASES
    seed: int = 0

    def key(self) -> str:
        return short_hash(json.dumps({"format": FORMAT_VERSION, **asdict(self)}, sort_keys=True))


def card_dir(cache_dir: str | Path, identity: str) -> Path:
    return Path(cache_dir) / "trust" / short_hash(identity)


def load_cached_card(cache_dir: str | Path, identity: str) -> dict[str, Any] | None:
    """The last completed card of this model identity, or None."""
    path = card_dir(cache_dir, identity) / "card.json"
    if not path.is_file():
        return None
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return card if card.get("identity") == identity else None


class _Recorder:
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
class _Run:
    """What every paradigm of one card run shares: the record store, progress, log and workers."""

    rec: _Recorder
    progress: ProgressFactory
    log: Callable[[str], None]
    workers: int = 1  # processes explaining items (see workers.py); 1: in this process
    threads: int = 1  # torch threads of each worker


def _explain_all(paradigm: str, handle: ModelHandle, explainers: Sequence[Explainer], items: Sequence[tuple[str, str, str]],
                 score: Callable[[int, Any], dict[str, Any]], run: _Run, na: dict[str, str], what: str) -> dict[str, list[dict[str, Any]]]:
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
        if run.workers > 1 and any(_pending(paradigm, item_id, explainers, run.rec, na) for item_id, _t, _c in items):
            why = picklable(handle, explainers)
            if why is None:
                pool = WorkerPool(handle, explainers, run.workers, run.threads)
            else:
                run.log(f"{what}: explained in this process ({handle.name} or its explainers cannot be sent to a worker: {why})")
        return _explain_items(paradigm, handle, explainers, items, score, run.rec, na, task, pool)
    finally:
        if pool is not None:
            pool.close()
        task.close()


def _pending(paradigm: str, item_id: str, explainers: Sequence[Explainer], rec: _Recorder, na: dict[str, str]) -> list[str]:
    """Names of the explainers still to compute on an item: no record yet, not given up."""
    return [e.name for e in explainers if rec.get((paradigm, item_id, e.name)) is None and e.name not in na]


def _explain_items(paradigm: str, handle: ModelHandle, explainers: Sequence[Explainer], items: Sequence[tuple[str, str, str]],
                   score: Callable[[int, Any], dict[str, Any]], rec: _Recorder, na: dict[str, str],
                   task: ProgressTask, pool: WorkerPool | None = None) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {e.name: [] for e in explainers}
    case_failures = CaseFailures()
    skipped: dict[str, list[str]] = {}  # explainer → reasons of the items it was left out of
    by_name = {e.name: e for e in explainers}

    # What is left to compute for an item is decided when it is drawn (lazily), so it sees every
    # explainer given up on the items consumed before.
    if pool is not None:
        computed = pool.results((text, target, _pending(paradigm, item_id, explainers, rec, na)) for item_id, text, target in items)
    else:
        memo = handle.memoised()
        computed = (explain_item(memo, [by_name[n] for n in _pending(paradigm, item_id, explainers, rec, na)], text, target)
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


def _applicable(explainers: Sequence[Explainer], handle: ModelHandle, na: dict[str, str]) -> list[Explainer]:
    keep = []
    for e in explainers:
        reason = e.not_applicable(handle)
        if reason:
            na.setdefault(e.name, reason)
        else:
            keep.append(e)
    return keep


def _lift_flag(score: M.Score, baseline: M.Score, margin: float) -> bool | None:
    if score.value is None or baseline.value is None or score.low is None:
        return None
    return bool(score.low >= baseline.value + margin)


# -------------------------------------------------------------------------------------- paradigms
def run_hybrid(model: Any, handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: _Run,
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
    chosen = _applicable(explainers, handle, na)
    items = [(d.id, d.text, t) for d, t in zip(kept, targets, strict=True)]

    def score(i: int, exp: Any) -> dict[str, Any]:
        return {"hit": M.pointing_hit(exp.relevances, labels[i], targets[i])}

    got = _explain_all("hybrid", handle, chosen, items, score, run, na, "hybrid documents")
    p_random = [M.pointing_random(lab, t) for lab, t in zip(labels, targets, strict=True)]
    random = M.random_pointer(p_random, seed=opts.seed)
    out_expl: dict[str, Any] = {}
    for e in chosen:
        if e.name in na:
            continue
        s = M.bootstrap([float(r["hit"]) for r in got[e.name]], seed=opts.seed)
        out_expl[e.name] = {"pointing_game": s.to_json(), "beats_random": _lift_flag(s, random, MARGIN),
                            **_speed(got[e.name])}
    return {"status": "ok", "source": opts.table or "SST test+dev (positive/negative)", "documents": len(docs),
            "discarded": discarded, "scored": len(kept), "fragments_per_document": opts.fragments,
            "mean_words": round(float(np.mean([len(x) for x in labels])), 2),
            "baselines": {"random": random.to_json()}, "explainers": out_expl, "not_applicable": na}


def _speed(recs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    secs = sum(r.get("seconds", 0.0) for r in recs)
    return {"seconds": round(secs, 3), "items_per_second": round(len(recs) / secs, 4) if secs > 0 else None}


def run_agreement(handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: _Run, work: Path | None,
                  data_root: str | Path | None) -> dict[str, Any]:
    if handle.torch is None or not isinstance(handle.torch, HFTokenClassifier):
        reason = (f"agreement paradigm skipped: model {handle.name!r} ({handle.kind}) has no encoder to probe "
                  f"(it needs a Hugging Face transformer); the other paradigms are computed")
        run.log(reason)
        return {"status": "skipped", "reason": reason}
    from .agreement import load_agreement
    from .probe import CLASSES, ProbeClassifier, predict_numbers, train_probe

    data = load_agreement(opts.agreement_items, sources=opts.agreement_sources, seed=opts.seed, data_root=data_root,
                          probe_items=opts.probe_items)
    probe_file = work / f"probe-{opts.key()}.npz" if work is not None else None
    if probe_file is not None and probe_file.is_file():
        z = np.load(probe_file)
        probe = ProbeClassifier(handle.torch, z["w"], z["b"])
        report = json.loads(str(z["report"]))
    else:
        run.log(f"training the number probe on {len(data.probe_train)} PTB prefixes (frozen {handle.name} encoder)")
        probe, rep = train_probe(handle.torch, data.probe_train, data.probe_heldout)
        report = rep.to_json()
        if probe_file is not None:
            tmp = probe_file.with_suffix(".tmp.npz")
            np.savez(tmp, w=probe.linear.weight.detach().cpu().numpy(), b=probe.linear.bias.detach().cpu().numpy(),
                     report=json.dumps(report))
            tmp.replace(probe_file)
    ph = ModelHandle(probe.name, "probe", None, probe)
    items = data.items
    predicted = predict_numbers(probe, items)
    correct = [p == it.verb_number for p, it in zip(predicted, items, strict=True)]
    report["item_accuracy"] = round(float(np.mean(correct)), 4) if items else None
    views = [it.view(split_words(it.text)) for it in items]
    na: dict[str, str] = {}
    chosen = _applicable(explainers, ph, na)
    todo = [(it.id, it.text, f) for it, f in zip(items, predicted, strict=True)]

    def score(i: int, exp: Any) -> dict[str, Any]:
        return {"hits": M.agreement_hits(exp.relevances, views[i], predicted[i])}

    got = _explain_all("agreement", ph, chosen, todo, score, run, na, "agreement prefixes")

    def summarise(hits: Sequence[dict[str, Any]], random: bool = False, right: Sequence[bool] = correct) -> dict[str, Any]:
        out = {}
        for m in AGREEMENT_METRICS:
            base = "hit_feat" if m.startswith("hit_feat") else m
            vals = [(h[base], c) for h, c in zip(hits, right, strict=True)]
            if m == "hit_feat_correct":
                vals = [(v, c) for v, c in vals if c]
            elif m == "hit_feat_wrong":
                vals = [(v, c) for v, c in vals if not c]
            xs = [v for v, _ in vals if v is not None]
            s = M.random_pointer(xs, seed=opts.seed) if random else M.bootstrap(xs, seed=opts.seed)
            out[m] = s.to_json()
        return out

    rand_hits = [M.agreement_random(v, p) for v, p in zip(views, predicted, strict=True)]
    last_hits = [M.agreement_hits(M.last_word_relevance(v), v, p) for v, p in zip(views, predicted, strict=True)]
    noun_hits = [M.agreement_hits(M.last_noun_relevance(v), v, p) for v, p in zip(views, predicted, strict=True)]
    baselines = {"random": summarise(rand_hits, random=True), "last": summarise(last_hits), "last_noun": summarise(noun_hits)}
    rand_target = baselines["random"]["hit_target"]
    out_expl: dict[str, Any] = {}
    for e in chosen:
        if e.name in na:
            continue
        by_item = {r["item"]: r["hits"] for r in got[e.name]}
        explained = [k for k, it in enumerate(items) if it.id in by_item]  # an item that failed completeness is left out
        summary = summarise([by_item[items[k].id] for k in explained], right=[correct[k] for k in explained])
        ht = summary["hit_target"]
        flag = None
        if ht["value"] is not None and rand_target["value"] is not None:
            flag = bool(ht["ci"][0] >= rand_target["value"] + MARGIN)
        out_expl[e.name] = {**summary, "beats_random": flag, **_speed(got[e.name])}
    return {"status": "ok", "model": ph.name, "classes": CLASSES, "probe": report, "items": len(items),
            "correct": int(sum(correct)), "counts": data.counts, "baselines": baselines, "explainers": out_expl,
            "not_applicable": na}


def run_composite(model: Any, handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: _Run) -> dict[str, Any]:
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
    chosen = _applicable(explainers, handle, na)
    targets = [handle.explained_class(f.predicted, f.probs) for f in failures]
    origins = [word_origins(f.case) for f in failures]

    def score(i: int, exp: Any) -> dict[str, Any]:
        loc = localise(failures[i].case, exp, origins[i])
        return {"hit": bool(loc["hit"]), "category": loc["category"], "random_p": loc["random_baseline"]}

    got = _explain_all("composite", handle, chosen, [(f.case.id, f.case.text, t) for f, t in zip(failures, targets, strict=True)],
                       score, run, na, "failing cases")
    p_random = [sum(o.label == t for o in orig) / len(orig) if orig else 0.0 for orig, t in zip(origins, targets, strict=True)]
    random = M.random_pointer(p_random, seed=opts.seed)
    out_expl = {}
    for e in chosen:
        if e.name in na:
            continue
        s = M.bootstrap([float(r["hit"]) for r in got[e.name]], seed=opts.seed)
        out_expl[e.name] = {"pointing_game": s.to_json(), "beats_random": _lift_flag(s, random, MARGIN), **_speed(got[e.name])}
    caps: dict[str, int] = {}
    for f in failures:
        caps[f.case.capability] = caps.get(f.case.capability, 0) + 1
    return {"status": "ok", "suite": opts.suite, "cases": n_cases, "failures_scored": len(failures), "per_capability": caps,
            "baselines": {"random": random.to_json()}, "explainers": out_expl, "not_applicable": na}


def _run_context(handle: ModelHandle, rec: _Recorder, progress: ProgressFactory, log: Callable[[str], None],
                 workers: int | None) -> _Run:
    import torch

    threads = torch.get_num_threads()
    workers = auto_workers(handle, threads) if workers is None else max(1, workers)
    per_worker = max(1, threads // workers)
    if workers > 1:
        log(f"explaining in {workers} worker processes, {per_worker} torch thread(s) each")
    return _Run(rec, progress, log, workers, per_worker)


# ---------------------------------------------------------------------------------------- ranking
def rank(card: dict[str, Any]) -> list[dict[str, Any]]:
    """Explainers by mean lift over random on the headline metrics (see the module docstring)."""
    rows = []
    names = set()
    for par, _m in HEADLINE:
        p = card["paradigms"].get(par, {})
        names.update(p.get("explainers", {}))
    for name in names:
        lifts, trusted, scores = [], True, {}
        for par, metric in HEADLINE:
            p = card["paradigms"].get(par, {})
            if p.get("status") != "ok":
                continue
            e = p["explainers"].get(name)
            rnd = p["baselines"]["random"] if par == "hybrid" else p["baselines"]["random"][metric]
            if e is None:
                trusted = False
                continue
            s = e[metric]
            if s["value"] is None or rnd["value"] is None:
                continue
            lifts.append(s["value"] - rnd["value"])
            trusted = trusted and bool(e.get("beats_random"))
            scores[f"{par}.{metric}"] = s
        if lifts:
            rows.append({"explainer": name, "score": round(float(np.mean(lifts)), 4), "trusted": trusted, "headline": scores})
    rows.sort(key=lambda r: (-r["score"], r["explainer"]))
    for k, r in enumerate(rows, 1):
        r["rank"] = k
    return rows


def disagreements(card: dict[str, Any]) -> dict[str, Any]:
    """Where the suite-level pointing game and the hybrid-document one disagree."""
    from .composite import spearman

    h, c = card["paradigms"].get("hybrid", {}), card["paradigms"].get("composite", {})
    if h.get("status") != "ok" or c.get("status") != "ok":
        return {"status": "not_compared"}
    common = [n for n in h["explainers"] if n in c["explainers"]]
    hs = [h["explainers"][n]["pointing_game"] for n in common]
    cs = [c["explainers"][n]["pointing_game"] for n in common]
    rows = []
    for n, a, b in zip(common, hs, cs, strict=True):
        apart = a["ci"][0] > b["ci"][1] or b["ci"][0] > a["ci"][1]
        verdict_a, verdict_b = h["explainers"][n]["beats_random"], c["explainers"][n]["beats_random"]
        if apart or verdict_a != verdict_b:
            rows.append({"explainer": n, "hybrid": a["value"], "suite": b["value"], "intervals_apart": apart,
                         "hybrid_beats_random": verdict_a, "suite_beats_random": verdict_b})
    return {"status": "ok", "spearman": spearman([x["value"] for x in hs], [x["value"] for x in cs]),
            "random": {"hybrid": h["baselines"]["random"]["value"], "suite": c["baselines"]["random"]["value"]},
            "explainers": rows}


# ------------------------------------------------------------------------------------------- card
def build_card(model: str | Any, opts: CardOptions | None = None, *, cache_dir: str | Path | None = None,
               data_root: str | Path | None = None, models_dir: str | Path | None = None, use_cache: bool = True,
               progress: ProgressFactory | None = None, log: Callable[[str], None] | None = None,
               workers: int | None = None) -> dict[str, Any]:
    """Compute (or read from the cache) the report card of ``model`` (a name or a SentimentModel).
    ``workers``: processes explaining items, sharing this process's torch threads (None: one per
    thread for a torch model on the CPU, see :func:`~s2lct.trust.workers.auto_workers`); the card
    does not depend on it."""
    from ..config import get_settings
    from ..models import load_model

    opts = opts or CardOptions()
    log = log or (lambda m: None)
    progress = progress or (lambda d, t: ProgressTask())
    settings = get_settings(cache_dir=cache_dir, data_root=data_root)
    if isinstance(model, str):
        model = load_model(model, models_dir=models_dir)
    explainers = parse_explainers(opts.explainers if opts.explainers is not None else available())
    identity = model.identity
    work = card_dir(settings.cache_dir, identity)
    cached = work / f"card-{opts.key()}.json"
    if use_cache and cached.is_file():
        log(f"card cached for this model identity: {cached}")
        card = json.loads(cached.read_text(encoding="utf-8"))
        write_json(work / "card.json", card)
        return card
    handle = prepare_model(model)
    if opts.explainers is not None:
        from ..explain.command import check_applicable

        check_applicable(explainers, handle, explicit=True)
    t0 = time.perf_counter()
    rec = _Recorder(work / ".partial" / f"{opts.key()}.jsonl" if use_cache else None)
    run = _run_context(handle, rec, progress, log, workers)
    stages: dict[str, Callable[[], dict[str, Any]]] = {
        "hybrid": lambda: run_hybrid(model, handle, explainers, opts, run, settings.data_root),
        "agreement": lambda: run_agreement(handle, explainers, opts, run, work if use_cache else None, settings.data_root),
        "composite": lambda: run_composite(model, handle, explainers, opts, run),
    }
    paradigms: dict[str, dict[str, Any]] = {}
    try:
        for name, stage in stages.items():
            t_stage = time.perf_counter()
            paradigms[name] = stage()
            paradigms[name]["wall_seconds"] = round(time.perf_counter() - t_stage, 1)  # data, model runs and explanations
    finally:
        rec.close()
    card: dict[str, Any] = {
        "format": FORMAT_VERSION, "model": handle.name, "identity": identity, "options": asdict(opts), "options_key": opts.key(),
        "margin": MARGIN, "confidence": M.CONFIDENCE, "bootstrap_resamples": M.BOOTSTRAP,
        "rule": (f"ranked by the mean lift over the random baseline of the headline metrics "
                 f"({', '.join(f'{p}.{m}' for p, m in HEADLINE)}); trusted = the lower end of the {M.CONFIDENCE:.0%} interval is at "
                 f"least {MARGIN:.2f} above random on every headline metric scored"),
        "paradigms": paradigms,
    }
    card["ranking"] = rank(card)
    card["disagreement"] = disagreements(card)
    card["not_applicable"] = {k: v for p in paradigms.values() for k, v in p.get("not_applicable", {}).items()}
    card["compute_seconds"] = round(time.perf_counter() - t0, 1)
    if use_cache:
        write_json(cached, card)
        write_json(work / "card.json", card)
        partial = work / ".partial" / f"{opts.key()}.jsonl"
        if partial.is_file():
            partial.unlink()
    return card


def best_explainer(card: dict[str, Any], applicable: Sequence[str] | None = None) -> dict[str, Any] | None:
    """The best-ranked explainer of a card (among ``applicable`` names when given)."""
    for row in card.get("ranking", []):
        if applicable is None or row["explainer"] in applicable:
            return row
    return None


def trust_line(card: dict[str, Any], explainer: str) -> str | None:
    """"ig, pointing game 0.86 ± 0.03 on this model (random 0.52)" — None when the card lacks it."""
    h = card.get("paradigms", {}).get("hybrid", {})
    e = h.get("explainers", {}).get(explainer) if h.get("status") == "ok" else None
    if e is None:
        return None
    s = e["pointing_game"]
    half = (s["ci"][1] - s["ci"][0]) / 2
    rank_row = next((r for r in card.get("ranking", []) if r["explainer"] == explainer), None)
    tail = f", rank {rank_row['rank']}/{len(card['ranking'])}" + ("" if rank_row["trusted"] else ", not trusted") if rank_row else ""
    return (f"{explainer}, pointing game {s['value']:.2f} ± {half:.2f} on this model "
            f"(random {h['baselines']['random']['value']:.2f}{tail})")
