"""``s2lct.retrain``: split by seed, fine-tune, evaluate everything, account; rounds and the matrix.

A run folder (``--out``) holds ``run.json`` (the settings, so a different run is never mixed in),
``split.json`` (case id → train/validation/test), ``evaluation-base.json``, one
``rounds/round-K/`` per round (``round.json`` written last marks it finished; its ``checkpoints/``
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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from ..atomic import sha256_file, write_json, write_text
from ..cache import load_json_or
from ..errors import S2LCTError
from ..models import HF_ALIASES, LOCAL_ALIASES, load_model
from ..models.base import SentimentModel
from ..suggest import unknown_names
from ..progress import ProgressFactory
from ..suite import Case, load_manifest, load_suite, natural_key, suite_files
from .accounting import Evaluation, account, evaluate, load_sst2, markdown_table
from .split import SeedSplit, split_by_seed
from .targets import allowed_vector
from .train import CHECKPOINTS, Example, TrainConfig, fine_tune

RUN_FILE = "run.json"
Log = Callable[[str], None]


class RetrainError(S2LCTError):
    exit_code = 2


@dataclass(frozen=True)
class RetrainOptions:
    """Everything that decides a run's result (recorded in ``run.json``)."""

    model: str
    capabilities: tuple[str, ...]
    suite: str
    epochs: float = 1.0
    batch_size: int = 16
    lr: float = 5e-5
    mix_original: float = 0.0
    seed: int = 0
    rounds: int = 1
    replay: float = 0.5
    max_length: int | None = None
    matrix: bool = False
    max_eval_cases: int | None = None

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["capabilities"] = list(self.capabilities)
        return d

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> RetrainOptions:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        kw["capabilities"] = tuple(kw["capabilities"])
        return cls(**kw)

    def train_config(self) -> TrainConfig:
        return TrainConfig(epochs=self.epochs, batch_size=self.batch_size, lr=self.lr, seed=self.seed, max_length=self.max_length)


def fine_tunable_models() -> str:
    return ", ".join([*HF_ALIASES, *LOCAL_ALIASES]) + ", a local Hugging Face model folder or a hub name (org/model)"


def load_trainable(name: str, *, models_dir: Any = None, max_length: int | None = None, cache_dir: Any = None) -> SentimentModel:
    """The model as a :class:`HuggingFaceModel`; anything else cannot be fine-tuned (one-line error)."""
    from ..models.huggingface import HuggingFaceModel

    model = load_model(name, models_dir=models_dir, max_length=max_length, cache_dir=cache_dir)
    if not isinstance(model, HuggingFaceModel):
        raise RetrainError(
            f"model {name!r} is a {model.kind} model and cannot be fine-tuned; retrain needs a Hugging Face "
            f"classifier: {fine_tunable_models()}"
        )
    return model


def _suite_digest(suite: Path) -> str:
    from ..atomic import short_hash

    return short_hash(*(f"{cap}:{sha256_file(p)}" for cap, p in sorted(suite_files(suite).items())), length=16)


def _prepare_out(out: Path, record: dict[str, Any], *, resume: bool, overwrite: bool, log: Log) -> dict[str, Any]:
    """Claim ``out`` for this run; returns the record to use (the folder's own with ``resume``)."""
    run_file = out / RUN_FILE
    if overwrite and out.exists():
        if out.is_dir() and (run_file.is_file() or not any(out.iterdir())):
            shutil.rmtree(out)
        else:
            raise RetrainError(f"--overwrite: {out} exists and is not a retrain run folder (no {RUN_FILE}); choose another --out")
    if run_file.is_file():
        old = load_json_or(run_file, None)
        if old == record:
            log(f"resuming the run in {out}")
            return record
        if not isinstance(old, dict) or "options" not in old:
            raise RetrainError(f"{run_file} is unreadable; pass --overwrite to start afresh in {out}")
        if resume:
            log(f"resuming the run recorded in {run_file} (its settings win over the arguments given)")
            return old
        diff = sorted(k for k in set(old["options"]) | set(record["options"]) if old["options"].get(k) != record["options"].get(k))
        if old.get("base_identity") != record.get("base_identity"):
            diff.append("model weights")
        if old.get("suite_digest") != record.get("suite_digest"):
            diff.append("suite content")
        raise RetrainError(
            f"{out} already holds a different retrain run (differs in: {', '.join(diff) or 'settings'}); "
            f"pass --resume to continue that run, --overwrite to replace it, or choose another --out"
        )
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise RetrainError(f"--out {out} exists and is not a retrain run folder; pass --overwrite or choose another --out")
    write_json(run_file, record)
    return record


def retrain(
    model: str,
    capabilities: Sequence[str] | str | None = None,
    *,
    out: str | Path,
    suite: str | Path = "generated",
    epochs: float = 1.0,
    batch_size: int = 16,
    lr: float = 5e-5,
    mix_original: float = 0.0,
    seed: int = 0,
    rounds: int = 1,
    replay: float = 0.5,
    max_length: int | None = None,
    matrix: bool = False,
    max_eval_cases: int | None = None,
    resume: bool = False,
    overwrite: bool = False,
    models_dir: str | Path | None = None,
    data_root: str | Path | None = None,
    cache_dir: str | Path | None = None,
    progress: ProgressFactory | None = None,
    log: Log | None = None,
) -> dict[str, Any]:
    """Retrain ``model`` on ``capabilities`` of ``suite`` and account for every case (module docstring).

    Returns the accounting (``{"accounting", "curve", ...}``), or with ``matrix=True`` the matrix.
    """
    from ..config import get_settings

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
    for name, value, low in (("--epochs", epochs, 0), ("--lr", lr, 0)):
        if not value > low:
            raise RetrainError(f"{name} {value} must be > {low}")
    if batch_size < 1 or rounds < 1:
        raise RetrainError(f"--batch-size {batch_size} and --rounds {rounds} must be at least 1")
    if mix_original < 0 or replay < 0:
        raise RetrainError(f"--mix-original {mix_original} and --replay {replay} must be >= 0")
    opts = RetrainOptions(model, caps, str(suite.resolve()), epochs, batch_size, lr, mix_original, seed, rounds, replay,
                          max_length, matrix, max_eval_cases)
    base = load_trainable(model, models_dir=settings.models_dir, max_length=max_length, cache_dir=settings.cache_dir)
    record = {"options": opts.to_json(), "base_identity": base.identity, "suite_digest": _suite_digest(suite)}
    out = Path(out)
    record = _prepare_out(out, record, resume=resume, overwrite=overwrite, log=log)
    opts = RetrainOptions.from_json(record["options"])
    if opts.model != model or opts.max_length != max_length:
        base = load_trainable(opts.model, models_dir=settings.models_dir, max_length=opts.max_length, cache_dir=settings.cache_dir)
    suite = Path(opts.suite)
    cases = load_suite(suite)
    names = {cid: str(info.get("name") or cid) for cid, info in (load_manifest(suite).get("capabilities") or {}).items()} \
        if (suite / "manifest.json").is_file() else {}
    sst2_dev = load_sst2(settings.data_root / "sst2_glue" / "dev.tsv")
    sst2_train = load_sst2(settings.data_root / "sst2_glue" / "train.tsv") if opts.mix_original > 0 else []
    ctx = _Context(base, cases, names, sst2_dev, sst2_train, opts, settings.cache_dir, progress, log)
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
    sst2_train: list[tuple[str, int]]
    opts: RetrainOptions
    cache_dir: Path
    progress: ProgressFactory | None
    log: Log


def _scopes(ctx: _Context, split: SeedSplit, caps: Sequence[str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """Capability → case ids it is scored on: the test split if retrained, else all (or a fixed sample)."""
    from ..run.runner import select_cases

    retrained = set(caps)
    others = select_cases([c for c in ctx.cases if c.capability not in retrained], ctx.opts.max_eval_cases, ctx.opts.seed)
    scopes: dict[str, list[str]] = {}
    for c in ctx.cases:
        if c.capability in retrained and split.assignment.get(c.id) == "test":
            scopes.setdefault(c.capability, []).append(c.id)
    for c in others:
        scopes.setdefault(c.capability, []).append(c.id)
    kinds = {cap: "test" if cap in retrained else ("all" if not ctx.opts.max_eval_cases else f"sample≤{ctx.opts.max_eval_cases}")
             for cap in scopes}
    return scopes, kinds


def _rate(ev: Evaluation, ids: Sequence[str]) -> float | None:
    return None if not ids else sum(not ev.passed[i] for i in ids) / len(ids)


def _curve_point(k: int, ev: Evaluation, scopes: Mapping[str, list[str]], kinds: Mapping[str, str], val_ids: Sequence[str]) -> dict[str, Any]:
    return {"round": k, "failure_rate": {cap: _rate(ev, ids) for cap, ids in sorted(scopes.items(), key=lambda kv: natural_key(kv[0]))},
            "scope": dict(kinds), "validation_failure_rate": _rate(ev, val_ids), "sst2_accuracy": ev.sst2_accuracy}


def _examples(cases: Sequence[Case]) -> list[Example]:
    return [Example(c.text, tuple(allowed_vector(c.expected))) for c in cases]  # type: ignore[arg-type]


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
    split = split_by_seed(retrained, seed=opts.seed)
    write_json(out / "split.json", {**split.to_json(), "counts": split.counts(retrained)})
    scopes, kinds = _scopes(ctx, split, caps)
    in_scope = {i for ids in scopes.values() for i in ids}
    # the training split is scored only when a later round needs to know which of its cases still fail
    needed = {"validation", "test"} | ({"train"} if opts.rounds > 1 else set())
    eval_cases = [c for c in ctx.cases if c.id in in_scope or split.assignment.get(c.id) in needed]
    train_cases = split.cases(retrained, "train")
    val_cases = split.cases(retrained, "validation")
    val_ids = [c.id for c in val_cases]
    counts = split.counts(retrained)
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
            examples = _examples(chosen)
            n_mix = min(len(ctx.sst2_train), round(opts.mix_original * len(examples)))
            if n_mix:
                sample = random.Random(f"s2lct-mix:{opts.seed}:{k}").sample(ctx.sst2_train, n_mix)
                examples += [Example(t, tuple(allowed_vector(["positive" if y else "negative"])), "sst2") for t, y in sample]  # type: ignore[arg-type]
            log(f"round {k}: training on {len(chosen)} cases" + (f" + {n_mix} SST-2 sentences" if n_mix else "")
                + f", validating on {len(val_cases)}")
            info = fine_tune(current_source, classes, band, examples, _examples(val_cases), rdir, rdir / "model",
                             opts.train_config(), progress=ctx.progress, description=f"round {k} fine-tuning")
            info = {**info, "round": k, "cases": len(chosen), "sst2_sentences": n_mix}
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
    result = {"capabilities": list(caps), "split_counts": counts, "final_round": best, "stopped_early": stopped_early,
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
