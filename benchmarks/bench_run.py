"""Benchmark: what does running a suite through pytest cost over plain batched inference?

In one run it measures, each in a fresh Python process so both pay the same start-up:

(a) raw batched inference: import transformers, load the model, tokenize and classify every case text
    in length-sorted batches (the same batching the adapter uses) — nothing else;
(b) ``pytest --model MODEL --suite SUITE --s2lct-no-cache`` over the same cases (every case is a test
    item; predictions are computed, not read from the cache);

and prints b/a and the per-case overhead (b - a) / cases. Then (c) the pytest collection time of a
synthetic suite of ``--collect-cases`` cases (default 100,000) with ``--collect-only``, and (d) the
whole ``s2lct run --no-cache`` process against (a) (whole-process ratio) and against (a)'s model
load plus inference (target on a GPU: within 2x), with its stages measured in process (imports,
model load, suite load, predictions, judging and report) and the in-process ratio (predictions /
raw inference). (a) runs on the device the adapter picks (CUDA when available), so both sides of
every ratio run on the same device.

Targets: b/a <= 1.15 for minilm-sst2 over all committed cases; (c) <= 30 s.

    python benchmarks/bench_run.py                       # generated/ with minilm-sst2
    python benchmarks/bench_run.py --synthetic 5000      # no committed suite yet: SST-2 sentences

Needs S2LCT_MODELS_DIR (for minilm-sst2) like every other command.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_RATIO = 1.15
TARGET_COLLECT_S = 30.0

RAW_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer
path, texts_file, batch_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
texts = json.load(open(texts_file, encoding="utf-8"))
device = "cuda" if torch.cuda.is_available() else "cpu"  # the adapter's choice (models/huggingface.py)
tok = AutoTokenizer.from_pretrained(path)
model = AutoModelForSequenceClassification.from_pretrained(path).eval().to(device)
if device == "cuda":
    torch.zeros(1, device=device).sum().item()  # CUDA start-up belongs to loading, as in the adapter
t1 = time.perf_counter()
order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
labels = [None] * len(texts)
with torch.inference_mode():
    for s in range(0, len(order), batch_size):
        idx = order[s:s + batch_size]
        enc = tok([texts[i] for i in idx], padding=True, truncation=True, return_tensors="pt").to(device)
        probs = model(**enc).logits.float().softmax(-1).tolist()
        for i, p in zip(idx, probs):
            labels[i] = max(range(len(p)), key=p.__getitem__)
t2 = time.perf_counter()
print(json.dumps({"load_s": t1 - t0, "infer_s": t2 - t1, "device": device}))
"""

# (d) where a whole `s2lct run` process spends its time, stage by stage, through the functions the
# command calls (imports, model load, suite load, predictions, judging and the report)
STAGES_SCRIPT = r"""
import json, sys, time
t0 = time.perf_counter()
from s2lct.run.runner import load_selection, outcomes_for
from s2lct.run.predict import predict_texts
from s2lct.run.report import build_report
from s2lct.models import load_model
t1 = time.perf_counter()
model_name, suite, batch_size = sys.argv[1], sys.argv[2], int(sys.argv[3])
model = load_model(model_name, batch_size=batch_size)
model.predict(["warm up"], batch_size=1)  # the adapter loads lazily: loading (and CUDA start) is counted here
t2 = time.perf_counter()
selection = load_selection(suite, None, 0)
t3 = time.perf_counter()
preds = predict_texts(model, selection.texts_to_predict(), batch_size=batch_size, use_cache=False)
t4 = time.perf_counter()
report = build_report(model.name, model.identity, outcomes_for(selection, preds), selection.names, suite)
t5 = time.perf_counter()
print(json.dumps({"imports_s": t1 - t0, "model_load_s": t2 - t1, "suite_load_s": t3 - t2, "predict_s": t4 - t3,
                  "judge_report_s": t5 - t4, "device": getattr(model, "device", None)}))
"""


def _suite_texts(suite: Path) -> tuple[list[str], int]:
    """The distinct texts to predict and the number of cases."""
    sys.path.insert(0, str(REPO))
    from s2lct.run.runner import load_selection

    sel = load_selection(suite)
    return sel.texts_to_predict(), len(sel.cases)


def _write_synthetic_suite(folder: Path, n: int, source: Path | None) -> None:
    """``n`` cases over 11 capabilities, texts from SST-2 sentences if available (else templated)."""
    sys.path.insert(0, str(REPO))
    from s2lct.suite import Case, Fragment, SeedRef, write_cases, write_manifest

    sentences: list[str] = []
    if source is not None and source.is_file():
        with open(source, encoding="utf-8") as fh:
            next(fh)
            sentences = [line.split("\t")[0].strip() for line in fh if line.strip()]
    if not sentences:
        sentences = [f"this is test sentence number {i} and it is fine ." for i in range(1000)]
    folder.mkdir(parents=True, exist_ok=True)
    per_cap = -(-n // 11)
    made = 0
    manifest = {"format_version": 1, "capabilities": {}}
    for c in range(1, 12):
        cap = f"LC{c}"
        cases = []
        for i in range(per_cap):
            if made >= n:
                break
            base = sentences[made % len(sentences)]
            text = base if made < len(sentences) else f"{base} ({made // len(sentences)})"
            cases.append(Case(f"{cap}-{i:08d}", cap, text, ("positive",) if i % 2 else ("negative",), "t1", "none",
                              (SeedRef("s", text, "positive", "train", i),), (Fragment(0, len(text), text, "seed", "positive", "s"),)))
            made += 1
        write_cases(folder / f"{cap}.jsonl", cases)
        manifest["capabilities"][cap] = {"name": f"synthetic {cap}", "markers": ["negation"] if c in (4, 5) else []}
    write_manifest(folder, manifest)


def _model_path(model: str) -> str:
    sys.path.insert(0, str(REPO))
    from s2lct.models import load_model

    m = load_model(model)
    source = getattr(m, "source", None)
    if source is None:
        raise SystemExit(f"{model}: the raw-inference baseline needs a Hugging Face model")
    return source


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--suite", default=str(REPO / "generated"))
    ap.add_argument("--synthetic", type=int, default=None, metavar="N",
                    help="benchmark a synthetic suite of N SST-2 sentences instead of --suite")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--collect-cases", type=int, default=100_000)
    ap.add_argument("--skip-collect", action="store_true")
    ap.add_argument("--threads", type=int, default=None,
                    help="torch threads for both (a) and (b) (OMP_NUM_THREADS); 1 is steadier on a busy machine")
    ap.add_argument("--repeat", type=int, default=2, help="alternate (a) and (b) this many times; report the best of each")
    ap.add_argument("--json", default=None, help="also write the figures to this JSON file")
    args = ap.parse_args(argv)

    env = dict(os.environ)
    env.setdefault("HF_HUB_OFFLINE", "1")
    env.setdefault("TRANSFORMERS_OFFLINE", "1")
    if args.threads:
        env["OMP_NUM_THREADS"] = env["MKL_NUM_THREADS"] = str(args.threads)
    results: dict[str, object] = {"model": args.model, "threads": args.threads}
    with tempfile.TemporaryDirectory(prefix="s2lct-bench-") as tmp:
        tmp_path = Path(tmp)
        env["S2LCT_CACHE_DIR"] = str(tmp_path / "cache")
        suite = Path(args.suite)
        if args.synthetic:
            suite = tmp_path / "suite"
            _write_synthetic_suite(suite, args.synthetic, Path(os.environ.get("S2LCT_DATA_ROOT", REPO.parent / "shared" / "data")) / "sst2_glue" / "train.tsv")
        texts, n_cases = _suite_texts(suite)
        texts_file = tmp_path / "texts.json"
        texts_file.write_text(json.dumps(texts), encoding="utf-8")
        path = _model_path(args.model)

        cmd = [sys.executable, "-m", "pytest", "--model", args.model, "--suite", str(suite), "--s2lct-no-cache",
               "--s2lct-batch-size", str(args.batch_size), "-q", "-p", "no:cacheprovider",
               "--rootdir", str(tmp_path), "-o", "addopts="]
        raw_times, pytest_times, raw_inner, items = [], [], {}, None
        for _ in range(args.repeat):  # alternate (a) and (b); keep the best of each (other load on the machine)
            t0 = time.perf_counter()
            raw = subprocess.run([sys.executable, "-c", RAW_SCRIPT, path, str(texts_file), str(args.batch_size)],
                                 capture_output=True, text=True, env=env, check=True)
            raw_times.append(time.perf_counter() - t0)
            inner = json.loads(raw.stdout.strip().splitlines()[-1])
            if raw_times[-1] == min(raw_times):
                raw_inner = inner
            t0 = time.perf_counter()
            run = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=tmp_path)
            pytest_times.append(time.perf_counter() - t0)
            if run.returncode not in (0, 1):
                print(run.stdout[-3000:], run.stderr[-3000:], file=sys.stderr)
                raise SystemExit(f"pytest run failed with exit code {run.returncode}")
            for line in run.stdout.splitlines()[::-1]:
                if " in " in line and ("passed" in line or "failed" in line):
                    items = line.strip("= ")
                    break
        a, b = min(raw_times), min(pytest_times)
        results.update(raw_runs_s=[round(x, 3) for x in raw_times], pytest_runs_s=[round(x, 3) for x in pytest_times],
                       load_average=os.getloadavg())
        ratio = b / a
        overhead_ms = 1000 * (b - a) / max(1, n_cases)
        results.update(cases=n_cases, distinct_texts=len(texts), raw_s=round(a, 3), raw_load_s=round(raw_inner["load_s"], 3),
                       raw_infer_s=round(raw_inner["infer_s"], 3), pytest_s=round(b, 3), ratio=round(ratio, 4),
                       overhead_ms_per_case=round(overhead_ms, 4), pytest_summary=items)
        print(f"suite: {suite} ({n_cases} cases, {len(texts)} distinct texts), model {args.model}, batch size {args.batch_size}")
        print(f"runs (a): {results['raw_runs_s']}  runs (b): {results['pytest_runs_s']}  load average: {os.getloadavg()[0]:.2f}")
        print(f"(a) raw batched inference, fresh process: {a:8.2f} s  (load {raw_inner['load_s']:.2f} s, inference {raw_inner['infer_s']:.2f} s)")
        print(f"(b) pytest --model {args.model}:        {b:8.2f} s  ({items})")
        print(f"b/a = {ratio:.3f}  (target <= {TARGET_RATIO})   per-case overhead = {overhead_ms:.3f} ms")

        # (d) the whole `s2lct run` process against (a), and its stages
        script = Path(sys.executable).parent / "s2lct"  # the console script a user runs
        run_cmd = [str(script) if script.exists() else "s2lct", "run", "--model", args.model, "--suite", str(suite), "--no-cache",
                   "--no-task-metrics", "--batch-size", str(args.batch_size), "-q"]
        run_times, stages = [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            done = subprocess.run(run_cmd, capture_output=True, text=True, env=env, cwd=REPO)
            run_times.append(time.perf_counter() - t0)
            if done.returncode not in (0, 1, 3):
                print(done.stdout[-3000:], done.stderr[-3000:], file=sys.stderr)
                raise SystemExit(f"s2lct run failed with exit code {done.returncode}")
            staged = subprocess.run([sys.executable, "-c", STAGES_SCRIPT, args.model, str(suite), str(args.batch_size)],
                                    capture_output=True, text=True, env=env, check=True, cwd=REPO)
            st = json.loads(staged.stdout.strip().splitlines()[-1])
            if stages is None or st["predict_s"] < stages["predict_s"]:
                stages = st
        d = min(run_times)
        assert stages is not None
        results.update(run_runs_s=[round(x, 3) for x in run_times], run_s=round(d, 3),
                       run_whole_process_ratio=round(d / a, 4),
                       run_whole_vs_load_plus_infer=round(d / (raw_inner["load_s"] + raw_inner["infer_s"]), 4),
                       run_in_process_ratio=round(stages["predict_s"] / raw_inner["infer_s"], 4),
                       run_stages_s={k: round(v, 3) for k, v in stages.items() if k.endswith("_s")}, device=raw_inner["device"])
        print(f"(d) s2lct run, whole process:        {d:8.2f} s  = {d / a:.3f} x (a); {results['run_whole_vs_load_plus_infer']:.3f} x (a)'s load + inference"
              f" (target on a GPU <= 2)")
        print(f"    its stages: " + ", ".join(f"{k[:-2]} {v:.2f} s" for k, v in results["run_stages_s"].items())
              + f"; predictions / raw inference = {results['run_in_process_ratio']:.3f} (device {raw_inner['device']})")

        if not args.skip_collect:
            big = tmp_path / "big"
            _write_synthetic_suite(big, args.collect_cases, None)
            t0 = time.perf_counter()
            col = subprocess.run([sys.executable, "-m", "pytest", "--model", "vader", "--suite", str(big), "--collect-only",
                                  "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), "-o", "addopts="],
                                 capture_output=True, text=True, env=env, cwd=tmp_path)
            c = time.perf_counter() - t0
            last = col.stdout.strip().splitlines()[-1] if col.stdout.strip() else col.stderr[-500:]
            results.update(collect_cases=args.collect_cases, collect_s=round(c, 3), collect_summary=last)
            print(f"(c) collection of {args.collect_cases} cases: {c:.2f} s wall, pytest says: {last}  (target <= {TARGET_COLLECT_S} s)")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    ok = results["ratio"] <= TARGET_RATIO and results.get("collect_s", 0) <= TARGET_COLLECT_S  # type: ignore[operator]
    print("targets met" if ok else "TARGETS MISSED")
    return 0


if __name__ == "__main__":
    sys.exit(main())
