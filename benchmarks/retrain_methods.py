"""Benchmark: which retraining method fixes a capability without breaking the model? (issue 24)

Runs ``s2lct.retrain`` with ``--protocol beluga`` for every capability × method × seed, side by side
in one process, and prints per capability a method × partition table (mean ± standard deviation over
the seeds): failure rate on the i.i.d. held-out cases, on unseen templates, on the unseen capabilities
of the same group, Pass→Fail on every capability not trained on, the SST-2 dev accuracy change, and
training cost per example relative to plain fine-tuning. Then it checks the issue's targets for the
default method. Run folders under ``--out`` are reused, so an interrupted benchmark resumes.

    python benchmarks/retrain_methods.py --out runs/methods                      # LC4, LC8, LC6; 3 seeds
    python benchmarks/retrain_methods.py --capabilities LC6 --methods finetune,mix-joint --seeds 0

Needs S2LCT_MODELS_DIR and S2LCT_DATA_ROOT like every other command.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from s2lct.retrain import retrain  # noqa: E402
from s2lct.retrain.methods import DEFAULT_METHOD, METHODS  # noqa: E402

PARTS = ("iid", "unseen_template", "unseen_function")


def _ms(values: list[float], scale: float = 100.0, signed: bool = False) -> str:
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    mean = statistics.mean(values) * scale
    sd = statistics.stdev(values) * scale if len(values) > 1 else 0.0
    return f"{mean:+.1f} ± {sd:.1f}" if signed else f"{mean:.1f} ± {sd:.1f}"


def summarise(result: dict, run_dir: Path) -> dict:
    parts = result["partitions"]
    acc = result["accounting"]
    others = [r for r in acc["capabilities"] if r["scope"] != "test"]
    n_other = sum(r["cases"] for r in others)
    timing = run_dir / "rounds" / "round-1" / "timing.json"
    rnd = json.loads(timing.read_text()) if timing.is_file() else {}
    return {
        **{f"{p}_before": parts[p]["failure_rate_before"] for p in PARTS},
        **{f"{p}_after": parts[p]["failure_rate_after"] for p in PARTS},
        **{f"{p}_cases": parts[p]["cases"] for p in PARTS},
        "iid_fail_to_pass": parts["iid"]["fail_to_pass"],
        "others_pass_to_fail": sum(r["pass_to_fail"] for r in others) / max(1, n_other),
        "others_cases": n_other,
        "sst2_before": acc["sst2_dev"]["accuracy_before"],
        "sst2_change": acc["sst2_dev"]["accuracy_change"],
        "seconds_per_example": rnd.get("train_seconds", 0) / max(1, rnd.get("examples_seen", 1)),
        "step_seconds_per_example": rnd.get("step_seconds", 0) / max(1, rnd.get("examples_seen", 1)),
        "kept_start": bool(result["rounds"] and result["rounds"][-1].get("kept_start")),
    }


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--suite", default=str(REPO / "generated"))
    ap.add_argument("--capabilities", default="LC4,LC8,LC6")
    ap.add_argument("--methods", default=",".join(METHODS))
    ap.add_argument("--seeds", default="0,1,2")
    ap.add_argument("--max-eval-cases", type=int, default=100, help="cases per capability not trained on (sampled)")
    ap.add_argument("--out", default=str(REPO / "runs" / "methods"))
    ap.add_argument("--summarise-only", action="store_true", help="tabulate the finished runs under --out, train nothing")
    args = ap.parse_args()
    caps, methods = args.capabilities.split(","), args.methods.split(",")
    seeds = [int(s) for s in args.seeds.split(",")]
    out = Path(args.out)
    table: dict[str, dict[str, list[dict]]] = {}
    for cap in caps:
        for seed in seeds:
            for method in methods:  # methods interleaved per seed: a noisy machine hits them alike
                run_dir = out / cap / method / f"seed-{seed}"
                if args.summarise_only and not (run_dir / "accounting.json").is_file():
                    continue
                print(f"[{cap} {method} seed {seed}]", file=sys.stderr, flush=True)
                if args.summarise_only:  # the finished run's record: no model loaded, valid after the suite changed
                    res = json.loads((run_dir / "accounting.json").read_text())
                else:
                    res = retrain(args.model, cap, out=run_dir, suite=args.suite, method=method, seed=seed, protocol="beluga",
                                  max_eval_cases=args.max_eval_cases, resume=True)
                table.setdefault(cap, {}).setdefault(method, []).append(summarise(res, run_dir))
    (out / "summary.json").parent.mkdir(parents=True, exist_ok=True)
    (out / "summary.json").write_text(json.dumps(table, indent=1))
    lines = []
    for cap, rows in table.items():
        first = next(iter(rows.values()))[0]
        lines += [f"\n### {cap} (retrained with --protocol beluga; mean ± sd over seeds {args.seeds})", "",
                  f"Before retraining: failure % i.i.d. {_ms([r['iid_before'] for r in next(iter(rows.values()))])}, "
                  f"unseen templates {_ms([r['unseen_template_before'] for r in next(iter(rows.values()))])}, "
                  f"unseen capabilities {_ms([r['unseen_function_before'] for r in next(iter(rows.values()))])}; "
                  f"SST-2 dev {100 * first['sst2_before']:.1f}%. Cases: i.i.d. {first['iid_cases']}, unseen templates "
                  f"{first['unseen_template_cases']}, unseen capabilities {first['unseen_function_cases']}, others {first['others_cases']}.", "",
                  "| method | fail % i.i.d. | fail % unseen templates | fail % unseen capabilities | P→F % others | SST-2 dev Δ pp | cost/example × plain (steps; with evaluations) |",
                  "|---|--:|--:|--:|--:|--:|--:|"]
        base = rows.get("finetune", next(iter(rows.values())))
        plain = statistics.mean(r["seconds_per_example"] for r in base)
        plain_steps = statistics.mean(r["step_seconds_per_example"] for r in base)
        for method, rs in rows.items():
            cost = statistics.mean(r["seconds_per_example"] for r in rs) / plain if plain else float("nan")
            steps = statistics.mean(r["step_seconds_per_example"] for r in rs) / plain_steps if plain_steps else float("nan")
            lines.append(f"| {method} | {_ms([r['iid_after'] for r in rs])} | {_ms([r['unseen_template_after'] for r in rs])} "
                         f"| {_ms([r['unseen_function_after'] for r in rs])} | {_ms([r['others_pass_to_fail'] for r in rs])} "
                         f"| {_ms([r['sst2_change'] for r in rs], signed=True)} | {steps:.2f}; {cost:.2f} |")
    lines.append("\nRuns per cell: " + "; ".join(f"{cap} {m} {len(rs)}" for cap, rows in table.items() for m, rs in rows.items()
                                             if len(rs) != len(seeds)) + " (others: " + str(len(seeds)) + ")")
    lines.append("\nTargets for the default method (" + DEFAULT_METHOD + "):")
    for cap, rows in table.items():
        if DEFAULT_METHOD not in rows or "finetune" not in rows:
            continue
        d, f = rows[DEFAULT_METHOD], rows["finetune"]
        mean = lambda rs, k: statistics.mean(r[k] for r in rs if r[k] is not None)  # noqa: E731
        sst2 = 100 * mean(d, "sst2_change")
        fall_d = mean(d, "iid_before") - mean(d, "iid_after")
        fall_f = mean(f, "iid_before") - mean(f, "iid_after")
        share = fall_d / fall_f if fall_f > 0 else float("nan")
        p2f = 100 * mean(d, "others_pass_to_fail")
        unseen = (mean(d, "unseen_function_after") - mean(d, "unseen_function_before")) * 100
        cost = mean(d, "step_seconds_per_example") / mean(f, "step_seconds_per_example")
        lines.append(f"- {cap}: SST-2 dev {sst2:+.2f} pp ({'met' if sst2 >= -0.5 else 'MISSED'}: within 0.5); i.i.d. failure fall "
                     f"{share:.0%} of plain fine-tuning's ({'met' if share >= 0.8 else 'MISSED'}: ≥ 80%); P→F on others {p2f:.2f}% "
                     f"({'met' if p2f <= 2 else 'MISSED'}: ≤ 2%); unseen capabilities failure {unseen:+.1f} pp "
                     f"({'met' if unseen <= 0 else 'MISSED'}: no worse); training steps cost {cost:.2f}× per example "
                     f"({'met' if cost <= 1.3 else 'MISSED'}: ≤ 1.3×)"
                     + ("; i.i.d. split under 50 cases: too small to judge" if d[0]["iid_cases"] < 50 else ""))
    print("\n".join(lines))
    (out / "summary.md").write_text("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
