"""The morphosyntactic-agreement paradigm (Poerner §4.2, Ding & Koehn §3.1): a number probe on
the model's frozen representation predicts the verb's number from a prefix; an explainer hits
when it points at the subject (hit_target) or at a noun of the predicted number (hit_feat).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ..explain.adapters import ModelHandle
from ..explain.base import Explainer
from ..explain.words import split_words
from . import metrics as M
from .explaining import MARGIN, CardRun, applicable, explain_all, speed

if TYPE_CHECKING:
    from .card import CardOptions

AGREEMENT_METRICS = ("hit_target", "hit_feat", "hit_feat_correct", "hit_feat_wrong", "plausibility_expected", "plausibility_alternative")


def run_agreement(handle: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: CardRun, work: Path | None,
                  data_root: str | Path | None) -> dict[str, Any]:
    from .agreement import load_agreement
    from .probe import can_probe, make_probe, train_probe

    number_model = _number_model(handle, run, data_root)
    if number_model is not None:
        return _score_agreement(number_model[0], explainers, opts, run, data_root, number_model[1])
    if handle.torch is None or not can_probe(handle.torch):
        reason = (f"agreement paradigm skipped: model {handle.name!r} ({handle.kind}) has no representation to probe "
                  f"(it needs a Hugging Face transformer or a task model); the other paradigms are computed")
        run.log(reason)
        return {"status": "skipped", "reason": reason}

    data = load_agreement(opts.agreement_items, sources=opts.agreement_sources, seed=opts.seed, data_root=data_root,
                          probe_items=opts.probe_items)
    probe_file = work / f"probe-{opts.key()}.npz" if work is not None else None
    if probe_file is not None and probe_file.is_file():
        z = np.load(probe_file)
        probe = make_probe(handle.torch, z["w"], z["b"] if "b" in z else None)
        report = json.loads(str(z["report"]))
    else:
        run.log(f"training the number probe on {len(data.probe_train)} PTB prefixes (frozen {handle.name})")
        probe, rep = train_probe(handle.torch, data.probe_train, data.probe_heldout)
        report = rep.to_json()
        if probe_file is not None:
            tmp = probe_file.with_suffix(".tmp.npz")
            bias = {} if probe.linear.bias is None else {"b": probe.linear.bias.detach().cpu().numpy()}
            np.savez(tmp, w=probe.linear.weight.detach().cpu().numpy(), report=json.dumps(report), **bias)
            tmp.replace(probe_file)
    acc, major = report.get("heldout_accuracy"), report.get("majority_baseline")
    if acc is not None and major is not None and acc < major + MARGIN:
        reason = (f"agreement paradigm skipped: the number probe on {handle.name} is right on {acc:.2f} of held-out prefixes, "
                  f"less than {MARGIN:.2f} above always answering the majority number ({major:.2f}); its explanations would "
                  f"explain a predictor that does not predict number")
        run.log(reason)
        return {"status": "skipped", "reason": reason, "probe": report}
    ph = ModelHandle(probe.name, "probe", None, probe)
    return _score_agreement(ph, explainers, opts, run, data_root, report, data)


def _number_model(handle: ModelHandle, run: CardRun, data_root: str | Path | None) -> tuple[ModelHandle, dict[str, Any]] | None:
    """The number-prediction task model of a task model that has one (gru-sst2: gru-number, built
    into the cache on first use), as Poerner et al. explain a network trained on the task itself."""
    from ..models.registry import NUMBER_MODELS, task_model_folder

    name = NUMBER_MODELS.get(getattr(handle.model, "name", ""))
    if name is None or getattr(handle.model, "kind", "") != "task":
        return None
    from ..config import get_settings
    from ..models.task.adapter import TaskTokenClassifier, is_task_model_folder
    from ..models.task.build import build_task_model

    settings = get_settings(data_root=data_root)
    folder = task_model_folder(name, settings.cache_dir)
    if not is_task_model_folder(folder):
        run.log(f"building {name}, the number-prediction model of {handle.name} (s2lct build-task-model {name}; a few minutes)")
        build_task_model(name, cache_dir=settings.cache_dir, data_root=settings.data_root, log=run.log)
    clf = TaskTokenClassifier.from_folder(folder, name=name)
    training = json.loads((folder / "s2lct-task-model.json").read_text(encoding="utf-8"))["training"]
    report = {"features": f"{name}: the GRU trained on Linzen's number prediction (not a probe)", "train_prefixes": training["train_rows"],
              "heldout_prefixes": training["dev_rows"], "heldout_accuracy": training["dev_accuracy"],
              "majority_baseline": training.get("heldout_majority")}
    return ModelHandle(name, "task", None, clf), report


def _score_agreement(ph: ModelHandle, explainers: Sequence[Explainer], opts: CardOptions, run: CardRun,
                     data_root: str | Path | None, report: dict[str, Any], data: Any = None) -> dict[str, Any]:
    from .agreement import load_agreement
    from .probe import CLASSES, predict_numbers

    if data is None:
        data = load_agreement(opts.agreement_items, sources=opts.agreement_sources, seed=opts.seed, data_root=data_root,
                              probe_items=opts.probe_items)
    items = data.items
    predicted = predict_numbers(ph.torch, items)
    correct = [p == it.verb_number for p, it in zip(predicted, items, strict=True)]
    report["item_accuracy"] = round(float(np.mean(correct)), 4) if items else None
    views = [it.view(split_words(it.text)) for it in items]
    na: dict[str, str] = {}
    chosen = applicable(explainers, ph, na)
    todo = [(it.id, it.text, f) for it, f in zip(items, predicted, strict=True)]

    def score(i: int, exp: Any) -> dict[str, Any]:
        return {"hits": M.agreement_hits(exp.relevances, views[i], predicted[i])}

    got = explain_all("agreement", ph, chosen, todo, score, run, na, "agreement prefixes")

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
        out_expl[e.name] = {**summary, "beats_random": flag, **speed(got[e.name])}
    return {"status": "ok", "model": ph.name, "classes": CLASSES, "probe": report, "items": len(items),
            "correct": int(sum(correct)), "counts": data.counts, "baselines": baselines, "explainers": out_expl,
            "not_applicable": na}
