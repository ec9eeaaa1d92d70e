"""``s2lct.retrain``: split by seed, fine-tune, evaluate everything, account; rounds and the matrix.

A run folder (``--out``) holds ``run.json`` (the settings, so a different run is never mixed in),
``split.json`` (case id → train/validation/test), ``evaluation-base.json``, one
``rounds/round-K/`` per round (``round.json`` written last marks it finished, ``timing.json`` beside it holds the wall-clock figures that vary run to run; its ``checkpoints/``
let an interrupted round resume), the final ``model/`` folder (runs with ``--model DIR``),
``accounting.json``/``.md`` and, with several rounds, ``curve.json`` and the learning-curve plot.
``--matrix`` puts one such run per retrained capability under ``matrix/<LC>/`` and writes
``matrix.json``/``.md`` and the heat map after every row, so finished rows survive an interruption.

Rounds: round 1 trains on the whole training split (the paper's setup); each later round trains on
the training cases the current model still fails plus a replay sample of those it passes
(``replay`` × the failing count), and the loop stops early when the validation failure rate stops
falling — the previous round's model is then the result.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..atomic import write_json, write_text
from ..cache import load_json_or
from ..models import load_model
from ..models.base import SentimentModel
from ..suggest import unknown_names
from ..progress import ProgressFactory
from ..suite import Case, load_manifest, load_suite, natural_key, suite_files
from .accounting import Evaluation, account, evaluate, load_sst2, markdown_table
from .options import Log, RetrainError, RetrainOptions, check_lora, load_trainable, prepare_out, suite_digest
from .split import SPLITS, split_by_seed
from .train import CHECKPOINTS, fine_tune
from .training_set import TaskPools, case_examples, load_general, training_examples

__all__ = ["RetrainError", "RetrainOptions", "load_trainable", "retrain", "run_rounds"]


def retrain(
    model: str,
    capabilities: Sequence[str] | str | None = None,
    *,
    out: str | Path,
    suite: str | Path = "generated",
    method: str | None = None,
    epochs: float | None = None,
    batch_size: int | None = None,
    lr: float | None = None,
    mix_original: float | None = None,
    balance: bool | None = None,
    l2sp: float | None = None,
    lora_rank: int | None = None,
    select: str | None = None,
    patience: int | None = None,
    seed: int = 0,
    rounds: int = 1,
    replay: float = 0.5,
    max_length: int | None = None,
    matrix: bool = False,
    max_eval_cases: int | None = None,
    protocol: str = "seed",
    groups: str | None = None,
    resume: bool = False,
    overwrite: bool = False,
    models_dir: str | Path | None = None,
    data_root: str | Path | None = None,
    cache_dir: str | Path | None = None,
    progress: ProgressFactory | None = None,
    log: Log | None = None,
) -> dict[str, Any]:
    """Retrain ``model`` on ``capabilities`` of ``suite`` and account for every case (module docstring).

    ``method`` (:mod:`s2lct.retrain.methods`, default ``DEFAULT_METHOD``) presets the training
    options; any of them given (not None) wins. Returns the accounting (``{"accounting", "curve",
    ...}``), or with ``matrix=True`` the matrix.
    """
    from ..config import get_settings
    from .methods import DEFAULT_METHOD, resolve
    from .protocol import PROTOCOLS
    from .selection import SELECTIONS

    log = log or (lambda msg: None)
    settings = get_settings(data_root=data_root, cache_dir=cache_dir, models_dir=models_dir)
    if isinstance(capabilities, str):
        capabilities = [c.strip() for c in capabilities.split(",") if c.strip()]
    suite = Path(suite)
    files = suite_files(suite) if suite.is_dir() else {}
    if not files:
        raise RetrainError(f"suite folder {suite} holds no <capability>.jsonl files; pass --suite DIR")
    caps = tuple(capabilities or ()) or (tuple(sorted(files, key=natural_key)) if matrix else ())
    if not caps:
        raise RetrainError("no capability given; pass --capability LC4[,LC8...] (or --matrix for every capability)")
    unknown = [c for c in caps if c not in files]
    if unknown:
        raise RetrainError(f"{suite}: " + unknown_names("capability", unknown, sorted(files, key=natural_key), valid_label="available"))
    try:
        v = resolve(method, {"epochs": epochs, "batch_size": batch_size, "lr": lr, "mix_original": mix_original, "balance": balance,
                             "l2sp": l2sp, "lora_rank": lora_rank, "select": select, "patience": patience})
    except ValueError as exc:
        raise RetrainError(f"--method: {exc}") from None
    for name, value, low in (("--epochs", v["epochs"], 0), ("--lr", v["lr"], 0)):
        if not value > low:
            raise RetrainError(f"{name} {value} must be > {low}")
    if v["batch_size"] < 1 or rounds < 1:
        raise RetrainError(f"--batch-size {v['batch_size']} and --rounds {rounds} must be at least 1")
    if v["mix_original"] < 0 or replay < 0 or v["l2sp"] < 0 or v["lora_rank"] < 0:
        raise RetrainError(f"--mix-original {v['mix_original']}, --replay {replay}, --l2sp {v['l2sp']} and --lora-rank "
                           f"{v['lora_rank']} must be >= 0")
    if v["select"] not in SELECTIONS:
        raise RetrainError(f"--select {v['select']!r}: choose one of {', '.join(SELECTIONS)}")
    if protocol not in PROTOCOLS:
        raise RetrainError(f"--protocol {protocol!r}: choose one of {', '.join(PROTOCOLS)}")
    if groups and protocol != "beluga":
        raise RetrainError("--groups applies to --protocol beluga only")
    opts = RetrainOptions(model, caps, str(suite.resolve()), v["epochs"], v["batch_size"], v["lr"], v["mix_original"], seed,
                          rounds, replay, max_length, matrix, max_eval_cases, method or DEFAULT_METHOD, v["balance"],
                          v["l2sp"], v["lora_rank"], v["select"], v["patience"], protocol, groups)
    base = load_trainable(model, models_dir=settings.models_dir, max_length=max_length, cache_dir=settings.cache_dir)
    check_lora(base, opts.lora_rank)
    record = {"options": opts.to_json(), "base_identity": base.identity, "suite_digest": suite_digest(suite)}
    out = Path(out)
    record = prepare_out(out, record, resume=resume, overwrite=overwrite, log=log)
    opts = RetrainOptions.from_json(record["options"])
    if opts.model != model or opts.max_length != max_length:
        base = load_trainable(opts.model, models_dir=settings.models_dir, max_length=opts.max_length, cache_dir=settings.cache_dir)
    suite = Path(opts.suite)
    cases = [c for c in load_suite(suite) if c.is_mft]  # training needs expected labels: INV/DIR cases have none
    manifest_caps = (load_manifest(suite).get("capabilities") or {}) if (suite / "manifest.json").is_file() else {}
    names = {cid: str(info.get("name") or cid) for cid, info in manifest_caps.items()}
    sst2_dev = load_sst2(settings.data_root / "sst2_glue" / "dev.tsv")
    pools = None
    if opts.needs_task_sentences:
        from ..corpus.sst import load_sst

        general = load_general(settings.data_root) if opts.select == "joint" else []
        pools = TaskPools.build([(s.text, s.label) for s in load_sst(settings.data_root, ["train"])], general)
    groups_of = None
    if opts.protocol == "beluga":
        from .protocol import groups_from_markers, parse_groups

        groups_of = groups_from_markers({c: list((manifest_caps.get(c) or {}).get("markers") or []) for c in files})
        if opts.groups:
            groups_of.update(parse_groups(opts.groups, sorted(files, key=natural_key)))
    ctx = _Context(base, cases, names, sst2_dev, pools, opts, settings.cache_dir, progress, log, groups_of)
    if opts.matrix:
        from .matrix import run_matrix

        return run_matrix(ctx, out, run_rounds)
    return run_rounds(ctx, out, opts.capabilities)


@dataclass
class _Context:
    base: Any
    cases: list[Case]
    names: dict[str, str]
    sst2_dev: list[tuple[str, int]]
    pools: TaskPools | None
    opts: RetrainOptions
    cache_dir: Path
    progress: ProgressFactory | None
    log: Log
    groups: dict[str, str] | None = None


def _split(ctx: _Context, out: Path, caps: Sequence[str], retrained: Sequence[Case]) -> tuple[dict[str, str], Any]:
    """Case id → train/validation/test for the trained capabilities (test: the i.i.d. held-out cases),
    and the BeLUGA partitions under ``--protocol beluga`` (else None); written to ``split.json``."""
    if ctx.opts.protocol == "beluga":
        from .protocol import beluga_split

        parts = beluga_split(ctx.cases, caps, ctx.groups or {}, ctx.opts.seed)
        write_json(out / "split.json", {**parts.to_json(), "counts": parts.counts(ctx.cases)})
        names = {"train": "train", "validation": "validation", "iid": "test"}
        return {i: names[p] for i, p in parts.assignment.items() if p in names}, parts
    split = split_by_seed(retrained, seed=ctx.opts.seed)
    write_json(out / "split.json", {**split.to_json(), "counts": split.counts(retrained)})
    return split.assignment, None


def _scopes(ctx: _Context, assignment: Mapping[str, str], caps: Sequence[str], parts: Any = None) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Capability → case ids it is scored on: the test split if retrained, the unseen-function
    partition's cases under BeLUGA, else all (or a fixed sample)."""
    from ..run.runner import select_cases

    retrained = set(caps)
    unseen = set(parts.unseen_capabilities) if parts is not None else set()
    others = select_cases([c for c in ctx.cases if c.capability not in retrained | unseen], ctx.opts.max_eval_cases, ctx.opts.seed)
    scopes: dict[str, list[str]] = {}
    for c in ctx.cases:
        if (c.capability in retrained and assignment.get(c.id) == "test") or (
                c.capability in unseen and parts.assignment.get(c.id) == "unseen_function"):
            scopes.setdefault(c.capability, []).append(c.id)
    for c in others:
        scopes.setdefault(c.capability, []).append(c.id)
    rest = "all" if not ctx.opts.max_eval_cases else f"sample≤{ctx.opts.max_eval_cases}"
    kinds = {cap: "test" if cap in retrained else "unseen function" if cap in unseen else rest for cap in scopes}
    return scopes, kinds


def _rate(ev: Evaluation, ids: Sequence[str]) -> float | None:
    return None if not ids else sum(not ev.passed[i] for i in ids) / len(ids)


def _curve_point(k: int, ev: Evaluation, scopes: Mapping[str, list[str]], kinds: Mapping[str, str], val_ids: Sequence[str]) -> dict[str, Any]:
    return {"round": k, "failure_rate": {cap: _rate(ev, ids) for cap, ids in sorted(scopes.items(), key=lambda kv: natural_key(kv[0]))},
            "scope": dict(kinds), "validation_failure_rate": _rate(ev, val_ids), "sst2_accuracy": ev.sst2_accuracy}


def _evaluate_cached(ctx: _Context, model: SentimentModel, cases: Sequence[Case], path: Path, label: str) -> Evaluation:
    found = load_json_or(path, None)
    if isinstance(found, dict) and found.get("identity") == model.identity and set(found.get("passed", {})) >= {c.id for c in cases}:
        return Evaluation.from_json(found)
    ev = evaluate(model, cases, ctx.sst2_dev, cache_dir=ctx.cache_dir, progress=ctx.progress, description=label)
    write_json(path, ev.to_json())
    return ev


def _copy_model(src: Path, dst: Path) -> None:
    tmp = dst.with_name(f".{dst.name}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(src, tmp)
    if dst.exists():
        shutil.rmtree(dst)
    tmp.rename(dst)


def run_rounds(ctx: _Context, out: Path, caps: Sequence[str], *, keep_models: bool = True) -> dict[str, Any]:
    """Split, then up to ``opts.rounds`` rounds of fine-tuning and evaluation in ``out``; account."""
    opts, log = ctx.opts, ctx.log
    retrained = [c for c in ctx.cases if c.capability in set(caps)]
    assignment, parts = _split(ctx, out, caps, retrained)
    scopes, kinds = _scopes(ctx, assignment, caps, parts)
    in_scope = {i for ids in scopes.values() for i in ids} | (set(parts.ids("unseen_template")) if parts is not None else set())
    # the training split is scored only when a later round needs to know which of its cases still fail
    needed = {"validation", "test"} | ({"train"} if opts.rounds > 1 else set())
    eval_cases = [c for c in ctx.cases if c.id in in_scope or assignment.get(c.id) in needed]
    train_cases = [c for c in retrained if assignment.get(c.id) == "train"]
    val_cases = [c for c in retrained if assignment.get(c.id) == "validation"]
    val_ids = [c.id for c in val_cases]
    # no seed of a held-out case may come back as a task sentence to train on
    held_out = {s.text for c in ctx.cases if c.id in in_scope or assignment.get(c.id) in ("validation", "test") for s in c.seeds}
    pools = ctx.pools.without(held_out) if ctx.pools is not None else None
    counts = {cap: {s: sum(1 for c in retrained if c.capability == cap and assignment.get(c.id) == s) for s in SPLITS}
              for cap in caps}
    log("split by seed: " + "; ".join(f"{cap} {v['train']}/{v['validation']}/{v['test']}" for cap, v in counts.items())
        + " (train/validation/test cases)")

    base = ctx.base
    base.load()
    classes, band = list(base.classes), tuple(base.neutral_band)
    before = _evaluate_cached(ctx, base, eval_cases, out / "evaluation-base.json", "before")
    curve = [_curve_point(0, before, scopes, kinds, val_ids)]
    current_source, current_eval, best = base.source, before, 0
    stopped_early = False
    rounds_info = []
    for k in range(1, opts.rounds + 1):
        rdir = out / "rounds" / f"round-{k}"
        done = load_json_or(rdir / "round.json", None)
        if isinstance(done, dict):
            ev = Evaluation.from_json(load_json_or(rdir / "evaluation.json", {}))
            info = done
        else:
            if k == 1:
                chosen = list(train_cases)
            else:
                failing = [c for c in train_cases if not current_eval.passed[c.id]]
                passing = [c for c in train_cases if current_eval.passed[c.id]]
                n_replay = min(len(passing), round(opts.replay * len(failing)))
                chosen = failing + random.Random(f"s2lct-replay:{opts.seed}:{k}").sample(passing, n_replay)
                chosen.sort(key=lambda c: c.id)
                if not failing:
                    log(f"round {k}: every training case passes; stopping")
                    break
            examples, made = training_examples(chosen, pools, mix=opts.mix_original, balance=opts.balance,
                                               key=f"{opts.seed}:{k}")
            n_task = made["task_mixed"] + made["task_partners"]
            log(f"round {k}: training on {len(chosen)} cases" + (f" + {n_task} SST train sentences" if n_task else "")
                + f", validating on {len(val_cases)}" + (f" + {len(ctx.pools.general)} general sentences (SST test)"
                                                         if opts.select == "joint" and ctx.pools else ""))
            info = fine_tune(current_source, classes, band, examples, case_examples(val_cases), rdir, rdir / "model",
                             opts.train_config(), general=ctx.pools.general if ctx.pools and opts.select == "joint" else (),
                             progress=ctx.progress, description=f"round {k} fine-tuning")
            write_json(rdir / "timing.json", info.pop("timing"))  # apart: round.json and the accounting are deterministic
            info = {**info, "round": k, "cases": len(chosen), **made}
            model = load_model(str(rdir / "model"), max_length=opts.max_length, cache_dir=ctx.cache_dir)
            ev = _evaluate_cached(ctx, model, eval_cases, rdir / "evaluation.json", f"round {k}")
            write_json(rdir / "round.json", info)
            shutil.rmtree(rdir / CHECKPOINTS, ignore_errors=True)
        rounds_info.append(info)
        point = _curve_point(k, ev, scopes, kinds, val_ids)
        curve.append(point)
        if k > 1 and point["validation_failure_rate"] >= curve[best]["validation_failure_rate"]:
            log(f"round {k}: validation failure rate {point['validation_failure_rate']:.3f} did not fall "
                f"(round {best}: {curve[best]['validation_failure_rate']:.3f}); stopping, round {best} is the result")
            stopped_early = True
            break
        best, current_eval, current_source = k, ev, str(rdir / "model")
    final_eval = current_eval
    model_dir = out / "model"
    if best and keep_models:
        _copy_model(out / "rounds" / f"round-{best}" / "model", model_dir)
    if not keep_models:
        for k in range(1, opts.rounds + 1):
            shutil.rmtree(out / "rounds" / f"round-{k}" / "model", ignore_errors=True)
    acc = account(before, final_eval, scopes, names=ctx.names, scope_names=kinds)
    from .protocol import MIN_JUDGED_CASES

    for row in acc["capabilities"]:  # a held-out split this small says nothing about the fix (issue 24)
        row["too_small"] = row["scope"] == "test" and row["cases"] < MIN_JUDGED_CASES
    partitions = None
    if parts is not None:
        from .protocol import partition_summary

        other_ids = [i for cap, ids in scopes.items() if kinds[cap] not in ("test", "unseen function") for i in ids]
        partitions = partition_summary(before, final_eval, {"iid": parts.ids("iid"), "unseen_template": parts.ids("unseen_template"),
                                                            "unseen_function": parts.ids("unseen_function"), "other": other_ids})
    result = {"capabilities": list(caps), "split_counts": counts, "final_round": best, "stopped_early": stopped_early,
              "method": opts.method, "protocol": opts.protocol, "partitions": partitions,
              "rounds": rounds_info, "curve": curve, "accounting": acc,
              "model_dir": str(model_dir) if best and keep_models else None}
    write_json(out / "accounting.json", result)
    write_text(out / "accounting.md", f"Retrained {opts.model} on {', '.join(caps)} (round {best} of {opts.rounds}).\n\n"
               + markdown_table(acc))
    if opts.rounds > 1:
        from .plots import learning_curve

        write_json(out / "curve.json", curve)
        learning_curve(curve, out / "learning_curve")
    return result
