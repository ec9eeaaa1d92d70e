"""Benchmark of `s2lct trust` on minilm-sst2 or a task model (``--model cnn-sst2``, ``gru-sst2``): wall time and peak memory (PSS) of the card, and per explainer
the documents/s on hybrid documents against its floor — the same model evaluations (the very token
sequences the explainer scored; for gradient methods its forwards and backwards) run as plain
batched calls in this process.

Usage: python benchmarks/bench_trust.py [--model NAME] [--documents N] [--agreement-items N] [--suite-cases N] [--threads T] [--workers W]
       [--out DIR] [--cache-dir DIR] [--stop-after MINUTES] [--floor-sample N]
(defaults: the card's defaults). Targets: the default card ≤ 20 min and ≤ 4 GB on 2 cores on minilm-sst2
(issue 13); the full card of a task model ≤ 10 min (issue 26), faithfulness included (the card's
``faithfulness`` paradigm: input and model consistency; its wall time is printed with the others).
A task model (and gru-sst2's number model) built in the configured cache is copied into the
benchmark's fresh cache, else built there first; that time is reported apart. The student the card
distils for model consistency is part of the card's time, as on a user's first card.

The card runs in a child process with a fresh cache folder (or ``--cache-dir``: a run stopped there
resumes). Its records are appended as they finish, so ``--stop-after`` can stop a card that is
going to miss its budget and still print the documents/s each explainer reached. In the card every
explainer of a document shares one memo of scored inputs (the first one pays for what the others
reuse), so its per-explainer rate differs from an explainer run alone, which is the column beside it.
By default the card explains in worker processes that share the threads (one each on 2 cores);
"in card" is then the rate within one worker, and "alone"/"floor" are measured in this process on
all ``--threads``. Peak memory is PSS summed over the card's processes (see :func:`tree_memory`).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from s2lct.trust import defaults as trust_defaults

REPO = Path(__file__).resolve().parents[1]


def partial_rates(cache_dir: Path) -> dict[str, dict[str, tuple[int, float]]]:
    """paradigm → explainer → (items done, seconds) from the card's resumable records."""
    out: dict[str, dict[str, tuple[int, float]]] = defaultdict(dict)
    for path in cache_dir.glob("trust/*/.partial/*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if r.get("status") != "ok":
                continue
            n, s = out[r["paradigm"]].get(r["explainer"], (0, 0.0))
            out[r["paradigm"]][r["explainer"]] = (n + 1, s + float(r.get("seconds") or 0.0))
    return out


def print_rates(rates: dict[str, dict[str, tuple[int, float]]]) -> None:
    for paradigm, by_name in rates.items():
        total = sum(s for _n, s in by_name.values())
        done = max((n for n, _s in by_name.values()), default=0)
        print(f"{paradigm}: {done} items so far, {total / 60:.1f} min of explanation time")
        for name, (n, s) in by_name.items():
            print(f"  {name:<14}{n:>5} items {n / s if s else float('nan'):>8.2f} items/s")


def run_card(args: argparse.Namespace, cache_dir: Path, out: Path) -> tuple[int, float, str, float, float]:
    cmd = [sys.executable, "-m", "s2lct.cli", "trust", "--model", args.model, "--out", str(out), "-q",
           "--documents", str(args.documents), "--agreement-items", str(args.agreement_items), "--suite-cases", str(args.suite_cases),
           "--threads", str(args.threads), "--suite", str(REPO / "generated"), "--cache-dir", str(cache_dir)]
    if args.workers:
        cmd += ["--workers", str(args.workers)]
    log = out / "card.stdout"
    t0 = time.perf_counter()
    with open(log, "w", encoding="utf-8") as fh:
        proc = subprocess.Popen(cmd, cwd=REPO, stdout=fh, stderr=subprocess.PIPE, text=True)
        stopped = False
        peak_rss = peak_pss = 0
        while proc.poll() is None:
            time.sleep(1)
            rss, pss = tree_memory(proc.pid)
            peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
            if args.stop_after and time.perf_counter() - t0 > args.stop_after * 60:
                proc.terminate()
                stopped = True
        _out, err = proc.communicate()
    wall = time.perf_counter() - t0
    code = -1 if stopped else proc.returncode
    return code, wall, err, peak_rss / 2**20, peak_pss / 2**20


def tree_memory(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes of a process and all its descendants (the card's workers included).
    Summed RSS counts the pages the processes share (torch's libraries, mapped once per process)
    once per process; summed PSS splits each shared page between its sharers, so it is the
    memory the card actually holds. getrusage's maxrss is the largest single process."""
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return 0, 0
    rss = pss = 0
    for p in procs:
        try:
            m = p.memory_full_info()
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
        rss, pss = rss + m.rss, pss + getattr(m, "pss", m.rss)
    return rss, pss


def floor_seconds(handle, explainer, text: str, target: str) -> tuple[float, float]:
    """(seconds of the explanation alone, seconds of its model evaluations as plain batched calls)."""
    import torch

    from s2lct.explain import adapters

    seqs: list[list[int]] = []
    real = adapters.run_logits

    def recording(clf, batch, batch_size=64):  # the token sequences the explainer has scored
        seqs.extend(list(s) for s in batch)
        return real(clf, batch, batch_size)

    adapters.run_logits = recording
    try:
        t = time.perf_counter()
        exp = explainer.explain(handle, text, target)
        alone = time.perf_counter() - t
    finally:
        adapters.run_logits = real
    clf = handle.torch
    backwards = int(exp.info.get("backwards") or 0)
    t0 = time.perf_counter()
    if seqs:
        real(clf, seqs, 64)
    else:  # gradient methods: their forwards, and backwards down to the embedding output (no weight gradients)
        ids = clf.encode(text).ids
        forwards = max(0, int(exp.info.get("evaluations") or 1) - backwards)
        real(clf, [ids] * forwards, 64)
        params = [q for q in clf.model.parameters() if q.requires_grad]
        for q in params:
            q.requires_grad_(False)
        hook = clf.embeddings.register_forward_hook(lambda _m, _i, o: o.requires_grad_())
        try:
            for start in range(0, backwards, 64):
                n = min(64, backwards - start)
                x = torch.tensor([ids] * n)
                out = clf.logits(x, torch.ones_like(x))
                out[:, 0].sum().backward()
        finally:
            hook.remove()
            for q in params:
                q.requires_grad_(True)
    return alone, time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="minilm-sst2", help="minilm-sst2 (default), cnn-sst2 or gru-sst2")
    ap.add_argument("--documents", type=int, default=trust_defaults.DOCUMENTS)
    ap.add_argument("--agreement-items", type=int, default=trust_defaults.AGREEMENT_ITEMS)
    ap.add_argument("--suite-cases", type=int, default=trust_defaults.SUITE_CASES)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workers", type=int, default=None, help="the card's worker processes (default: the card's own choice)")
    ap.add_argument("--out", type=Path, default=None, help="card folder (default: a new temporary one)")
    ap.add_argument("--cache-dir", type=Path, default=None, help="cache folder (default: a new, empty one); a stopped run resumes there")
    ap.add_argument("--stop-after", type=float, default=None, metavar="MINUTES", help="stop the card after this long and print the rates reached")
    ap.add_argument("--floor-sample", type=int, default=5, help="documents per explainer timed for the floor")
    args = ap.parse_args()
    cache_dir = args.cache_dir or Path(tempfile.mkdtemp(prefix="bench-trust-"))
    out = args.out or Path(tempfile.mkdtemp(prefix="bench-trust-out-"))
    out.mkdir(parents=True, exist_ok=True)
    print(f"card: {out} (cache {cache_dir}), {args.threads} torch threads", flush=True)
    from s2lct.models.registry import TASK_MODELS

    task_model = args.model in TASK_MODELS
    if task_model:
        import shutil

        from s2lct.config import get_settings
        from s2lct.models.registry import NUMBER_MODELS, task_model_folder

        t0 = time.perf_counter()
        for name in (args.model, NUMBER_MODELS.get(args.model)):
            if name is None:
                continue
            built, target = task_model_folder(name, get_settings().cache_dir), task_model_folder(name, cache_dir)
            if built.is_dir() and not target.exists():  # a model built before is copied, not retrained
                shutil.copytree(built, target)
            subprocess.run([sys.executable, "-m", "s2lct.cli", "build-task-model", name, "--cache-dir", str(cache_dir), "--threads", "1", "-q"],
                           cwd=REPO, check=True)
        print(f"{args.model} built, copied or found in {time.perf_counter() - t0:.0f} s (not part of the card's time; "
              f"its student is, as on a user's first card)", flush=True)
    code, wall, err, peak_mb, peak_pss_mb = run_card(args, cache_dir, out)
    largest_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    if code:
        what = f"stopped after {wall / 60:.1f} min (--stop-after)" if code == -1 else f"failed (exit {code}): {err.strip().splitlines()[-1:]}"
        print(f"card {what}; peak PSS {peak_pss_mb:.0f} MiB (RSS {peak_mb:.0f} MiB), summed over its processes")
        print_rates(partial_rates(cache_dir))
        sys.exit(1)
    card = json.loads((out / "card.json").read_text())
    print((out / "card.stdout").read_text(), end="")
    stages = ", ".join(f"{name} {p['wall_seconds'] / 60:.1f}" for name, p in card["paradigms"].items() if "wall_seconds" in p)
    target = 10 if task_model else 20
    print(f"default card on {args.model}: wall {wall / 60:.1f} min (target ≤ {target}; {stages} min), "
          f"peak PSS {peak_pss_mb:.0f} MiB summed over the card's processes, sampled each second (target ≤ 4096; "
          f"summed RSS {peak_mb:.0f} MiB, largest single process {largest_mb:.0f} MiB)")

    import torch

    torch.set_num_threads(args.threads)
    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.registry import get_explainer
    from s2lct.models import load_model
    from s2lct.trust.hybrid import build_documents, load_pool

    handle = prepare_model(load_model(args.model, cache_dir=cache_dir))
    docs = build_documents(load_pool(), args.floor_sample, card["options"]["fragments"], card["options"]["seed"])
    print(f"hybrid documents/s, {len(docs)} documents per explainer for the floor")
    print(f"{'explainer':<14}{'in card':>9}{'alone':>9}{'floor':>9}{'alone/floor':>13}")
    for name, e in card["paradigms"]["hybrid"]["explainers"].items():
        explainer = get_explainer(name)
        explainer.explain(handle, docs[0].text, "positive")  # warm-up, untimed
        secs = floor = 0.0
        for d in docs:
            a, f = floor_seconds(handle, explainer, d.text, "positive")
            secs, floor = secs + a, floor + f
        print(f"{name:<14}{e['items_per_second'] or float('nan'):>9.2f}{len(docs) / secs:>9.2f}{len(docs) / floor:>9.2f}{secs / floor:>13.2f}")


if __name__ == "__main__":
    main()
