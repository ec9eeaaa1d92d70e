"""GPU check: s2lct's own CUDA code paths against CPU, in one short run on a lent GPU machine.

Why it exists: this project's machines have no GPU, and a GPU machine is lent only to some tasks, for
minutes. Nothing else checks that the paths which pick CUDA by themselves — the model adapter
(``load_model``, :func:`s2lct.models.huggingface.choose_device`), the explainers' torch side
(Captum on the embedding output, batched perturbation forwards) and retraining (transformers'
``Trainer`` inside :func:`s2lct.retrain.retrain`) — really run there and give what they give on CPU.
This script is that check, prepared and tested on CPU so the lent minutes go to one run of it.
Everything goes through s2lct's public API, never raw torch.

Parts (``--parts``, default all three):

1. run: the classifier through the model registry (device picked by the adapter: CUDA where
   there is one, or ``--device``), predicting ``--cases`` cases spread evenly over the suite with
   :func:`s2lct.run.predict.predict_texts` (no cache); the same on CPU in the same process. Figures:
   cases/s on each, the fraction of identical labels, of identical pass/fail verdicts, and the
   largest absolute probability difference.
2. explain: ``--explainers`` (default: the gradient and Captum ones, occlusion, LIMSSE) on ``--explain`` fixed
   sentences spread over those cases, on the device and on CPU, each explaining the class the device
   model predicts. Figures: seconds per sentence on each (after one untimed warm-up sentence), and
   the agreement of device and CPU word relevances (mean and least Pearson correlation, fraction of
   sentences with the same top word).
3. retrain: :func:`s2lct.retrain.retrain` with ``--retrain-method`` (default: the product's default,
   ``mix-joint``: one SST train sentence mixed in per training case, the checkpoint chosen on the
   joint criterion over SST test sentences; ``mix``, what stops 35–41 measured, keeps the best
   validation pass rate), one round of at most ``--retrain-epochs`` (default 1), seed 0, on the first ``--retrain-examples`` cases of
   ``--retrain-capability`` (split 8:1:1 by seed), every other capability scored on at most
   ``--retrain-eval-cases`` cases, and SST-2 dev (the first ``--dev`` sentences) before and after.
   Figures: wall seconds, the Trainer's own training-loop seconds, the device the Trainer used, dev
   accuracy before/after. On the device, and on CPU too (in a child process that hides the GPU,
   stopped after ``--cpu-retrain-timeout`` seconds) unless ``--skip-cpu`` or ``--skip-cpu-retrain``.

Prints progress to stderr and one JSON line of figures to stdout, also written to
``$OUT/gpu_check.json`` when ``OUT`` is set (and to ``--json FILE``). Exit status 1 when a part failed
(its error is in the JSON), else 0.

    python benchmarks/gpu_check.py                                  # generated/ with minilm-sst2
    python benchmarks/gpu_check.py --cases 2000 --explain 20 --retrain-examples 300
    python benchmarks/gpu_check.py --device cpu --cases 200 --explain 3 --retrain-examples 40 --skip-cpu

Needs S2LCT_MODELS_DIR (for minilm-sst2) and S2LCT_DATA_ROOT (sst/trees/train.txt and
sst2_glue/dev.tsv, for retrain) like every other command; both default to ../shared beside the repo.

On a lent GPU machine (no package index, no ../shared, 64 MiB of working tree): put in a folder git
ignores (``.devcarry/``) the wheels the image lacks (pydantic, pydantic-core, pydantic-settings,
python-dotenv, typing-inspection, annotated-types, typing_extensions, catalogue, captum, nltk,
defusedxml; pydantic-core only for the image's Python, 3.12 in November 2026, or pip refuses the
whole set), a copy of ``models/minilm-sst2``, ``data/`` with the first 2,000 lines of SST's
``train.txt``, SST's ``test.txt`` (joint selection's general sentences) and SST-2's ``dev.tsv``, and ``suite/`` with the suite's files gzipped; move
``generated/`` out of the tree for the call (the model alone is 45 MB), carry ``.devcarry`` and run

    pip install --no-index --no-deps --target /tmp/site .devcarry/whl/*.whl; export PYTHONPATH=/tmp/site:$PWD
    S2LCT_SHARED=$PWD/.devcarry S2LCT_MODELS_DIR=$PWD/.devcarry/models S2LCT_DATA_ROOT=$PWD/.devcarry/data \
      python3 benchmarks/gpu_check.py --suite .devcarry/suite --cases 2000 --device-cases 0 --explain 20 --retrain-examples 300

(80 s on an H200; docs/running.md, "On a GPU", has the figures.)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
import warnings
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared"))
os.environ.setdefault("S2LCT_MODELS_DIR", str(SHARED / "models"))
os.environ.setdefault("S2LCT_DATA_ROOT", str(SHARED / "data"))
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

#: gradient methods through Captum (integrated gradients, gradient x input, gradient L2), Captum's LIME, and the
#: hand-written perturbation methods whose batched forwards run on the device (occlusion, LIMSSE)
DEFAULT_EXPLAINERS = "ig,grad_dot_s,grad_l2_s,occlusion1,lime,limsse_ms_p"


def log(msg: str) -> None:
    print(f"[gpu_check {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def spread(items: list[Any], n: int) -> list[Any]:
    """n items evenly spaced over the list (all of it when n >= its length), order kept."""
    if n >= len(items):
        return list(items)
    return [items[(i * len(items)) // n] for i in range(n)]


def environment(device: str) -> dict[str, Any]:
    import torch
    import transformers

    env: dict[str, Any] = {"python": platform.python_version(), "torch": torch.__version__, "transformers": transformers.__version__,
                           "cuda_available": torch.cuda.is_available(), "device": device, "cpu_threads": torch.get_num_threads(),
                           "cpu_count": os.cpu_count()}
    for mod in ("captum", "accelerate", "peft", "pydantic"):
        try:
            env[mod] = __import__(mod).__version__
        except Exception as exc:  # noqa: BLE001 - reported, not fatal
            env[mod] = f"unavailable: {type(exc).__name__}: {exc}"
    if torch.cuda.is_available():
        env["gpu"] = torch.cuda.get_device_name(0)
        env["cuda"] = torch.version.cuda
        try:  # the older switch; newer torch also has torch.backends.cuda.matmul.fp32_precision
            env["tf32_matmul"] = bool(torch.backends.cuda.matmul.allow_tf32)
        except Exception as exc:  # noqa: BLE001 - reported, not fatal
            env["tf32_matmul"] = f"unknown: {exc}"
    return env


def suite_cases(suite: str, n: int) -> list[Any]:
    """``n`` cases evenly spread over the suite (capability files in sorted order, every capability
    contributes; 0: all), in suite order."""
    from s2lct.suite import load_suite

    cases = load_suite(suite)
    return spread(cases, n) if n > 0 else cases


def cuda_sync() -> None:
    import torch

    if torch.cuda.is_available():
        torch.cuda.synchronize()


# ----------------------------------------------------------------------------------------- run
def part_run(args: argparse.Namespace, devices: list[str], cases: list[Any]) -> dict[str, Any]:
    from s2lct.models import load_model
    from s2lct.run.predict import predict_texts

    texts = list(dict.fromkeys(t for c in cases for t in c.texts))
    out: dict[str, Any] = {"cases": len(cases), "distinct_texts": len(texts), "batch_size": args.batch_size}
    preds: dict[str, dict[str, Any]] = {}
    for dev in devices:
        model = load_model(args.model, device=dev, batch_size=args.batch_size)
        t0 = time.perf_counter()
        model.predict(["warm up the model and the device"], batch_size=1)  # loads lazily; CUDA start-up counted here
        cuda_sync()
        load_s = time.perf_counter() - t0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # truncation warnings: the model's limit, as in `s2lct run`
            t0 = time.perf_counter()
            p = predict_texts(model, texts, use_cache=False, batch_size=args.batch_size)
            cuda_sync()
            secs = time.perf_counter() - t0
        preds[dev] = p
        if dev == devices[0] and dev != "cpu" and args.device_cases >= 0:  # the device alone, on more of the suite
            more = suite_cases(args.suite, args.device_cases)
            more_texts = list(dict.fromkeys(t for c in more for t in c.texts))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                t0 = time.perf_counter()
                predict_texts(model, more_texts, use_cache=False, batch_size=args.batch_size)
                cuda_sync()
                more_s = time.perf_counter() - t0
            out["device_only"] = {"device": dev, "cases": len(more), "distinct_texts": len(more_texts), "predict_s": round(more_s, 3),
                                  "cases_per_s": round(len(more) / more_s, 1)}
            log(f"run on {dev} alone: {len(more)} cases in {more_s:.2f} s = {len(more) / more_s:.0f} cases/s")
        mft = [c for c in cases if c.is_mft]
        out[dev] = {"adapter_device": str(model.device), "load_s": round(load_s, 3), "predict_s": round(secs, 3),
                    "cases_per_s": round(len(cases) / secs, 1), "texts_per_s": round(len(texts) / secs, 1),
                    "mft_pass_rate": round(sum(p[c.text].label in c.expected for c in mft) / max(1, len(mft)), 4)}
        log(f"run on {dev} (adapter device {model.device}): {len(texts)} texts in {secs:.2f} s = {len(cases) / secs:.0f} cases/s")
        del model
    if len(devices) == 2:
        a, b = (preds[d] for d in devices)
        same = sum(a[t].label == b[t].label for t in texts)
        diff = max((abs(a[t].probs[k] - b[t].probs[k]) for t in texts for k in a[t].probs), default=0.0)
        mft = [c for c in cases if c.is_mft]
        out["identical_label_fraction"] = round(same / max(1, len(texts)), 6)
        out["label_differences"] = len(texts) - same
        out["identical_verdict_fraction"] = round(
            sum((a[c.text].label in c.expected) == (b[c.text].label in c.expected) for c in mft) / max(1, len(mft)), 6)
        out["max_abs_prob_diff"] = float(f"{diff:.3g}")
        out["speedup"] = round(out[devices[0]]["cases_per_s"] / out[devices[1]]["cases_per_s"], 2)
    return out


# ------------------------------------------------------------------------------------- explain
def part_explain(args: argparse.Namespace, devices: list[str], cases: list[Any]) -> dict[str, Any]:
    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.base import NotApplicable
    from s2lct.explain.registry import parse_explainers
    from s2lct.models import load_model
    from s2lct.trust.faithfulness import pearson

    texts = [c.text for c in spread(cases, args.explain + 1)]  # the first one is the warm-up
    warm, texts = texts[0], texts[1:]
    names = [e.name for e in parse_explainers(args.explainers)]
    out: dict[str, Any] = {"sentences": len(texts), "explainers": names,
                           "mean_words": round(sum(len(t.split()) for t in texts) / max(1, len(texts)), 1)}
    targets: list[str] | None = None
    rel: dict[str, dict[str, list[tuple[float, ...] | None]]] = {}
    for dev in devices:
        model = load_model(args.model, device=dev)
        handle = prepare_model(model)
        if targets is None:  # the first device's predictions fix the explained class on every device
            preds = model.predict(texts)
            targets = [handle.explained_class(p.label, p.probs) for p in preds]
        per: dict[str, Any] = {"adapter_device": str(handle.torch.device) if handle.torch is not None else None}
        rel[dev] = {}
        for e in parse_explainers(args.explainers):
            why = e.not_applicable(handle)
            if why:
                per[e.name] = {"not_applicable": why}
                continue
            try:
                e.explain(handle, warm, handle.explained_class(*_label_probs(model, warm)))  # untimed: lazy imports, hooks, allocator
            except NotApplicable:
                pass
            got: list[tuple[float, ...] | None] = []
            secs, skipped = 0.0, 0
            for text, target in zip(texts, targets, strict=True):
                t0 = time.perf_counter()
                try:
                    exp = e.explain(handle, text, target)
                except NotApplicable:  # completeness failed on this input (ig): it goes unexplained
                    skipped += 1
                    got.append(None)
                    continue
                finally:
                    cuda_sync()
                    secs += time.perf_counter() - t0
                got.append(exp.relevances)
            rel[dev][e.name] = got
            n = len(texts)
            per[e.name] = {"s_per_sentence": round(secs / max(1, n), 4), "not_applicable_inputs": skipped}
            log(f"explain on {dev}: {e.name} {secs / max(1, n):.3f} s/sentence ({skipped} input(s) not applicable)")
        out[dev] = per
        del handle, model
    if len(devices) == 2:
        agree: dict[str, Any] = {}
        a_dev, b_dev = devices
        for name in names:
            if name not in rel[a_dev] or name not in rel[b_dev]:
                continue
            rs, top_same, both, max_rel_diff, differs = [], 0, 0, 0.0, 0
            for ra, rb in zip(rel[a_dev][name], rel[b_dev][name], strict=True):
                if ra is None or rb is None:
                    differs += (ra is None) != (rb is None)
                    continue
                both += 1
                r = pearson(list(ra), list(rb))  # s2lct.trust.faithfulness's, as the report card computes it
                if r is not None:
                    rs.append(r)
                top_same += _top(ra) == _top(rb)
                scale = max((abs(x) for x in ra), default=0.0) or 1.0
                max_rel_diff = max(max_rel_diff, max((abs(x - y) / scale for x, y in zip(ra, rb, strict=True)), default=0.0))
            agree[name] = {"compared": both, "applicability_differs": differs, "pearson_mean": round(sum(rs) / len(rs), 6) if rs else None,
                           "pearson_min": round(min(rs), 6) if rs else None,
                           "top_word_identical_fraction": round(top_same / both, 4) if both else None,
                           "max_abs_diff_over_max_relevance": float(f"{max_rel_diff:.3g}"),
                           "speedup": round(out[b_dev][name]["s_per_sentence"] / max(1e-9, out[a_dev][name]["s_per_sentence"]), 2)}
        out["agreement"] = agree
    return out


def _label_probs(model: Any, text: str) -> tuple[str, dict[str, float]]:
    p = model.predict([text])[0]
    return p.label, p.probs


def _top(r: tuple[float, ...]) -> int | None:
    """Index of the most relevant word (first on ties), None for a flat explanation (as Explanation.rmax)."""
    if not r or max(r) == min(r):
        return None
    return r.index(max(r))


# ------------------------------------------------------------------------------------- retrain
def _retrain_inputs(args: argparse.Namespace, tmp: Path) -> tuple[Path, Path]:
    """A small suite (the retrained capability's first N cases + a sample of every other one) and a
    data root holding the first lines of SST train (task sentences) and of SST-2 dev."""
    from s2lct.run.runner import select_cases
    from s2lct.suite import load_manifest, load_suite, suite_files, write_cases, write_manifest

    cap = args.retrain_capability
    files = suite_files(args.suite)
    if cap not in files:
        raise SystemExit(f"--retrain-capability {cap}: not in {args.suite} ({', '.join(files)})")
    suite = tmp / "suite"
    suite.mkdir()
    for c, path in files.items():
        cases = [x for x in load_suite(args.suite, only=[c]) if x.is_mft]
        cases = cases[: args.retrain_examples] if c == cap else select_cases(cases, args.retrain_eval_cases, 0)
        if cases:
            write_cases(suite / path.name.replace(".gz", ""), cases)
    write_manifest(suite, load_manifest(args.suite))
    src = Path(os.environ["S2LCT_DATA_ROOT"])
    data = tmp / "data"
    # SST dev trees are never read here (task sentences come from train), and test only by joint
    # checkpoint selection (its general sentences); the loader wants all three files, so an unread one stays empty
    from s2lct.retrain.methods import resolve

    joint = resolve(args.retrain_method, {}).get("select") == "joint"
    for rel, n in (("sst/trees/train.txt", args.retrain_sst_lines), ("sst/trees/dev.txt", 0),
                   ("sst/trees/test.txt", 10**9 if joint else 0),
                   ("sst2_glue/dev.tsv", args.dev + 1)):  # dev.tsv: + its header
        dst = data / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        with open(dst, "w", encoding="utf-8") as w:
            if n:
                with open(src / rel, encoding="utf-8") as fh:
                    for i, line in enumerate(fh):
                        if i >= n:
                            break
                        w.write(line)
    return suite, data


def retrain_once(args: argparse.Namespace) -> dict[str, Any]:
    """One retrain run on whatever device the Trainer picks in this process."""
    from s2lct.retrain import retrain

    with tempfile.TemporaryDirectory(prefix="s2lct-gpu-check-") as tmp_name:
        tmp = Path(tmp_name)
        suite, data = _retrain_inputs(args, tmp)
        t0 = time.perf_counter()
        result = retrain(args.model, [args.retrain_capability], out=tmp / "run", suite=suite, method=args.retrain_method, epochs=args.retrain_epochs,
                         seed=0, rounds=1, max_eval_cases=args.retrain_eval_cases, data_root=data, cache_dir=tmp / "cache")
        wall = time.perf_counter() - t0
        timing = json.loads((tmp / "run" / "rounds" / "round-1" / "timing.json").read_text(encoding="utf-8"))
    rnd = result["rounds"][0]
    before, after = result["curve"][0], result["curve"][-1]
    acc = {r["capability"]: r for r in result["accounting"]["capabilities"]}.get(args.retrain_capability, {})
    return {"trainer_device": rnd.get("device"), "wall_s": round(wall, 2), "train_loop_s": timing.get("train_seconds"),
            "step_s": timing.get("step_seconds"), "train_examples": rnd.get("train_examples"), "cases": rnd.get("cases"),
            "task_sentences_mixed": rnd.get("task_mixed"), "steps": rnd.get("steps"),
            "validation_examples": rnd.get("validation_examples"), "best_checkpoint": rnd.get("best_checkpoint"),
            "dev_sentences": result["accounting"]["sst2_dev"]["n"],
            "dev_accuracy_before": before["sst2_accuracy"], "dev_accuracy_after": after["sst2_accuracy"],
            "retrained_test_failure_rate_before": before["failure_rate"].get(args.retrain_capability),
            "retrained_test_failure_rate_after": after["failure_rate"].get(args.retrain_capability),
            "retrained_test_cases": acc.get("cases")}


def retrain_on_cpu_child(args: argparse.Namespace) -> dict[str, Any]:
    """The same run on CPU, in a child process that hides the GPU (the Trainer picks CUDA by itself)."""
    with tempfile.TemporaryDirectory(prefix="s2lct-gpu-check-cpu-") as tmp:
        out = Path(tmp) / "cpu.json"
        cmd = [sys.executable, str(Path(__file__).resolve()), "--parts", "retrain", "--device", "cpu", "--skip-cpu", "--json", str(out), "--suite", args.suite,
               "--model", args.model, "--retrain-capability", args.retrain_capability, "--retrain-examples", str(args.retrain_examples),
               "--retrain-eval-cases", str(args.retrain_eval_cases), "--retrain-method", args.retrain_method,
               "--retrain-epochs", str(args.retrain_epochs), "--retrain-sst-lines", str(args.retrain_sst_lines), "--dev", str(args.dev)]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "OUT": ""}
        try:
            done = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, text=True, timeout=args.cpu_retrain_timeout)
        except subprocess.TimeoutExpired:
            return {"skipped": f"the CPU run took longer than --cpu-retrain-timeout {args.cpu_retrain_timeout} s and was stopped"}
        if done.returncode != 0 or not out.is_file():
            raise RuntimeError(f"CPU retrain child failed with exit code {done.returncode} (its log is above)")
        return json.loads(out.read_text(encoding="utf-8"))["retrain"]["cpu"]


def part_retrain(args: argparse.Namespace, devices: list[str]) -> dict[str, Any]:
    import torch

    out: dict[str, Any] = {"method": args.retrain_method, "epochs": args.retrain_epochs, "seed": 0, "capability": args.retrain_capability,
                           "suite_cases": args.retrain_examples, "eval_cases_per_other_capability": args.retrain_eval_cases}
    for dev in devices:
        if dev == "cpu" and torch.cuda.is_available():
            if args.skip_cpu_retrain:
                out["cpu"] = {"skipped": "--skip-cpu-retrain"}
                continue
            log("retrain on cpu (child process, GPU hidden) ...")
            out["cpu"] = retrain_on_cpu_child(args)
        elif dev.startswith("cuda") or dev == "cpu":
            log(f"retrain on {dev} ...")
            out[dev] = retrain_once(args)
        else:
            out[dev] = {"skipped": f"the Trainer picks its device itself; {dev} cannot be forced"}
            continue
        log(f"retrain on {dev}: {out[dev]}")
    if len(devices) == 2 and all("wall_s" in out.get(d, {}) for d in devices):
        out["speedup_wall"] = round(out[devices[1]]["wall_s"] / out[devices[0]]["wall_s"], 2)
        if out[devices[0]].get("train_loop_s") and out[devices[1]].get("train_loop_s"):
            out["speedup_train_loop"] = round(out[devices[1]]["train_loop_s"] / out[devices[0]]["train_loop_s"], 2)
    return out


# ----------------------------------------------------------------------------------------- main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--suite", default=str(REPO / "generated"), help="suite folder (LC*.jsonl or .jsonl.gz, manifest.json)")
    ap.add_argument("--device", default=None, help="device to check (default: the adapter's choice, cuda where there is one)")
    ap.add_argument("--parts", default="run,explain,retrain")
    ap.add_argument("--skip-cpu", action="store_true", help="no CPU comparison in any part")
    ap.add_argument("--cases", type=int, default=2000, help="run: N cases spread evenly over the suite (0: all)")
    ap.add_argument("--device-cases", type=int, default=0,
                    help="run: also N cases spread over the suite on the device alone (0: the whole suite; -1: skip; never on CPU)")
    ap.add_argument("--batch-size", type=int, default=None, help="run: prediction batch size (default: the adapter's, 32)")
    ap.add_argument("--explain", type=int, default=20, help="explain: sentences, spread over the run's cases")
    ap.add_argument("--explainers", default=DEFAULT_EXPLAINERS)
    ap.add_argument("--retrain-examples", type=int, default=300,
                    help="retrain: cases of the retrained capability (8:1:1 train/validation/test; one SST sentence mixed in per training case)")
    ap.add_argument("--retrain-capability", default="LC8")
    ap.add_argument("--retrain-epochs", type=float, default=1.0, help="retrain: at most this many epochs (one round)")
    ap.add_argument("--retrain-method", default=None,
                    help="retrain: a method of `s2lct retrain --method` (default: the product's default, mix-joint)")
    ap.add_argument("--retrain-eval-cases", type=int, default=40, help="retrain: cases scored per other capability")
    ap.add_argument("--retrain-sst-lines", type=int, default=2000, help="retrain: first lines of SST train.txt to draw task sentences from")
    ap.add_argument("--dev", type=int, default=872, help="retrain: first N SST-2 dev sentences scored before and after (872: all)")
    ap.add_argument("--skip-cpu-retrain", action="store_true", help="retrain on the device only (CPU still compared in run and explain)")
    ap.add_argument("--cpu-retrain-timeout", type=float, default=150.0,
                    help="retrain: stop the CPU run (child process, only where there is a GPU) after this many seconds")
    ap.add_argument("--threads", type=int, default=None, help="torch CPU threads (default: torch's)")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    if args.retrain_method is None:
        from s2lct.retrain.methods import DEFAULT_METHOD

        args.retrain_method = DEFAULT_METHOD

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from s2lct.models.huggingface import choose_device

    device = choose_device(args.device)
    devices = [device] if args.skip_cpu or device == "cpu" else [device, "cpu"]
    parts = [p.strip() for p in args.parts.split(",") if p.strip()]
    unknown = set(parts) - {"run", "explain", "retrain"}
    if unknown:
        ap.error(f"--parts: unknown {', '.join(sorted(unknown))} (run, explain, retrain)")
    results: dict[str, Any] = {"check": "s2lct gpu_check", "env": environment(device), "devices": devices,
                               "model": args.model, "suite": args.suite}
    log(f"devices {devices}; env {results['env']}")
    started = time.perf_counter()
    failed = False
    cases: list[Any] | None = None
    for part in parts:
        t0 = time.perf_counter()
        try:
            if part in ("run", "explain") and cases is None:
                cases = suite_cases(args.suite, args.cases)
            if part == "run":
                results["run"] = part_run(args, devices, cases)  # type: ignore[arg-type]
            elif part == "explain":
                results["explain"] = part_explain(args, devices, cases)  # type: ignore[arg-type]
            else:
                results["retrain"] = part_retrain(args, devices)
        except Exception as exc:  # noqa: BLE001 - one part failing must not hide the others' figures
            failed = True
            traceback.print_exc()
            results[part] = {**results.get(part, {}), "error": f"{type(exc).__name__}: {exc}"}
        results.setdefault(part, {})["part_s"] = round(time.perf_counter() - t0, 2)
        log(f"{part} done in {time.perf_counter() - t0:.1f} s")
    results["total_s"] = round(time.perf_counter() - started, 2)
    if torch.cuda.is_available():
        results["gpu_max_memory_allocated_mib"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    line = json.dumps(results, sort_keys=False)
    print(line, flush=True)
    targets = [args.json] if args.json else []
    if os.environ.get("OUT"):
        targets.append(str(Path(os.environ["OUT"]) / "gpu_check.json"))
    for t in targets:
        Path(t).parent.mkdir(parents=True, exist_ok=True)
        Path(t).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
