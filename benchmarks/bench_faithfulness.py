"""Faithfulness (Ding & Koehn §3.2) measured on a Hugging Face model: the distilled student (wall
time, agreement with the teacher and accuracy of both on SST-2 dev), then input consistency and
model consistency per explainer on a seeded sample of SST-2 dev sentences, with wall times.

Usage: python benchmarks/bench_faithfulness.py [--model minilm-sst2] [--texts 50] [--explainers a,b,...]
       [--layers 2] [--train-examples 8000] [--student-input] [--cache-dir DIR] [--out FILE] [--threads T]

``--student-input`` also measures input consistency on the student (Ding & Koehn's Table 6: the
distilled models' input faithfulness). The student is cached under the cache folder (a second run
reads it; ``--cache-dir`` a fresh folder to time its distillation again). Prints one table and
writes every number (and every pair) to ``--out`` as JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

DEFAULT_EXPLAINERS = "grad_l2_s,grad_dot_s,ig,occlusion1,limsse_ms_p,lime"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--texts", type=int, default=50)
    ap.add_argument("--explainers", default=DEFAULT_EXPLAINERS)
    ap.add_argument("--layers", type=int, default=2)
    ap.add_argument("--train-examples", type=int, default=None)
    ap.add_argument("--student-input", action="store_true")
    ap.add_argument("--cache-dir", default=None)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--workers", type=int, default=None, help="explaining processes (default: one per torch thread, as the card)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="faithfulness.json")
    args = ap.parse_args()

    import torch

    if args.threads:
        torch.set_num_threads(args.threads)
    from s2lct.config import get_settings
    from s2lct.corpus.sst2 import load_sst2
    from s2lct.explain.adapters import prepare_model
    from s2lct.explain.registry import parse_explainers
    from s2lct.models import load_model
    from s2lct.trust.faithfulness import input_consistency, model_consistency
    from s2lct.trust.student import SST2_CLASSES, StudentOptions, build_student

    from s2lct.trust.workers import MAX_AUTO_WORKERS

    threads = torch.get_num_threads()
    workers = args.workers or max(1, min(threads, MAX_AUTO_WORKERS))
    per_worker = max(1, threads // workers)
    settings = get_settings(cache_dir=args.cache_dir)
    opts = StudentOptions(layers=args.layers, seed=args.seed)
    if args.train_examples is not None:
        opts.train_examples = args.train_examples
    log = lambda m: print(f"[{time.strftime('%H:%M:%S')}] {m}", flush=True)  # noqa: E731
    teacher = load_model(args.model)
    t0 = time.perf_counter()
    student = build_student(teacher, opts, cache_dir=settings.cache_dir, log=log)
    t_student = time.perf_counter() - t0
    info = student.info
    log(f"student: {'read from the cache' if student.cached else 'distilled'} in {t_student:.1f} s "
        f"(distillation itself {info['wall_seconds']} s, training {info['training']['seconds']} s on {info['train']['examples']} texts); "
        f"dev n={info['dev']['n']}: agreement {info['dev']['agreement']}, teacher accuracy {info['dev']['teacher_accuracy']}, "
        f"student accuracy {info['dev']['student_accuracy']}; parameters {info['parameters']}")

    dev = load_sst2(Path(settings.data_root) / "sst2_glue" / "dev.tsv")
    rows = random.Random(args.seed).sample(dev, args.texts)
    texts = [t for t, _ in rows]
    labels = [SST2_CLASSES[y] for _, y in rows]
    explainers = parse_explainers(args.explainers)
    t_handle, s_handle = prepare_model(teacher), student.handle()
    out: dict = {"model": args.model, "texts": len(texts), "explainers": [e.name for e in explainers], "student": info,
                 "student_seconds_this_run": round(t_student, 1), "torch_threads": threads, "workers": workers,
                 "threads_per_worker": per_worker}

    def save() -> None:  # after every stage: a stopped run keeps what it finished
        Path(args.out).write_text(json.dumps(out, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    done = [0]

    def tick() -> None:  # one explained text
        done[0] += 1
        if done[0] % 10 == 0:
            log(f"{done[0]} texts explained")

    t0 = time.perf_counter()
    out["input_consistency"] = input_consistency(t_handle, explainers, texts, labels=labels, seed=args.seed, log=log, tick=tick,
                                                 workers=workers, threads=per_worker)
    out["input_consistency"]["wall_seconds"] = round(time.perf_counter() - t0, 1)
    save()
    log(f"input consistency: {out['input_consistency']['wall_seconds']} s")
    t0 = time.perf_counter()
    out["model_consistency"] = model_consistency(t_handle, s_handle, explainers, texts, labels=labels, seed=args.seed, log=log, tick=tick,
                                                 workers=workers, threads=per_worker,
                                                 student_info={k: info[k] for k in ("name", "dev", "layers", "parameters")})
    out["model_consistency"]["wall_seconds"] = round(time.perf_counter() - t0, 1)
    save()
    log(f"model consistency: {out['model_consistency']['wall_seconds']} s")
    if args.student_input:
        t0 = time.perf_counter()
        out["student_input_consistency"] = input_consistency(s_handle, explainers, texts, labels=labels, seed=args.seed, log=log,
                                                             tick=tick, workers=workers, threads=per_worker)
        out["student_input_consistency"]["wall_seconds"] = round(time.perf_counter() - t0, 1)
    save()

    ic, mc = out["input_consistency"], out["model_consistency"]
    sic = out.get("student_input_consistency")
    def fmt(s: dict | None) -> str:
        if s is None or s.get("value") is None:
            return "—"
        return f"{s['value']:.3f} [{s['ci'][0]:.2f}, {s['ci'][1]:.2f}] n={s['n']}"

    print(f"\n{len(ic.get('pairs', []))} swap pairs from {len(texts)} texts ({ic.get('prediction_changed')} changed the prediction); "
          f"student agreement on these texts {mc.get('agreement')}")
    head = f"{'explainer':<12} {'input consistency':<32} {'(prediction kept)':<32} {'model consistency':<32}"
    print(head + ("  student input consistency" if sic else ""))
    for e in explainers:
        i, m = ic.get("explainers", {}).get(e.name), mc.get("explainers", {}).get(e.name)
        line = (f"{e.name:<12} {fmt(i and i['input_consistency']):<32} {fmt(i and i['prediction_kept']):<32} "
                f"{fmt(m and m['model_consistency']):<32}")
        if sic:
            s = sic.get("explainers", {}).get(e.name)
            line += "  " + fmt(s and s["input_consistency"])
        print(line)
    for section in (ic, mc):
        for name, why in section.get("not_applicable", {}).items():
            print(f"not applicable ({section.get('measure')}): {name}: {why}")
    print(f"wall: student {t_student:.1f} s, input consistency {ic['wall_seconds']} s, model consistency {mc['wall_seconds']} s"
          + (f", student input consistency {sic['wall_seconds']} s" if sic else "") + f"; JSON in {args.out}")


if __name__ == "__main__":
    main()
