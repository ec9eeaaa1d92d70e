"""Issue 22's targets on a generated suite, and why seed cases got no expansion.

    python benchmarks/expansion_targets.py generated --cache-dir .cache/s2lct
    python benchmarks/expansion_targets.py /tmp/suite --cache-dir /tmp/cache --json out.json

Per capability: template (seed) cases, those with at least one expansion (target: >= 60%),
expansions; over the suite: expansions / template cases (target >= 1.5), the most frequent
inserted word's share of expansions (target <= 15%). For each template case without an
expansion, the reason (``s2lct.expand.reasons``) of its seed sentence in the expansion store the
suite was built from (``--cache-dir``; the manifest names the configuration), or
``capability_refused`` when the seed had accepted candidates that the capability refused
(search rules, transform, a capability rule such as an intensifier in a neutral seed or
``exclude_fills``, the word cap): ``s2lct.expand.reasons.case_reason``, as ``s2lct generate``
prints them. The reasons add up to the cases.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_deletion  # noqa: E402,F401  (sets the offline resources)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", type=Path)
    ap.add_argument("--cache-dir", type=Path, required=True)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    os.environ["S2LCT_CACHE_DIR"] = str(args.cache_dir)
    from s2lct.config import get_settings
    from s2lct.corpus.sst import load_sst
    from s2lct.expand.reasons import case_reason, seed_reason
    from s2lct.expand.store import ExpansionStore

    manifest = json.loads((args.suite / "manifest.json").read_text(encoding="utf-8"))
    config = manifest["resources"].get("expansion_config")
    store = ExpansionStore(args.cache_dir / "expansions.sqlite3")
    sst = {(s.split, s.index): s.tokens for s in load_sst(get_settings().data_root)}
    table, words, total_t, total_e = {}, Counter(), 0, 0
    for cap in manifest["capabilities"]:
        cases = [json.loads(line) for line in (args.suite / f"{cap}.jsonl").read_text(encoding="utf-8").splitlines()]
        template = [c for c in cases if c["expansion"] is None]
        exps = [c for c in cases if c["expansion"] is not None]
        expanded = {c["expansion"]["seed_case"] for c in exps}
        for c in exps:
            words[" ".join(m["word"].lower() for m in c["expansion"]["masks"])] += 1
        missing = [c for c in template if c["id"] not in expanded]
        seeds = {c["id"]: [sst[(s["split"], s["index"])] for s in c["seeds"] if s["source"] == "sst"] for c in missing}
        stored = store.get_many(config, {t for ts in seeds.values() for t in ts}) if config else {}
        reasons = Counter()
        for c in missing:
            rs = [seed_reason(stored[t]) if t in stored else "not_in_store" for t in seeds[c["id"]]] or ["not_in_store"]
            reasons[case_reason(rs)] += 1
        assert sum(reasons.values()) + len(expanded) == len(template)
        table[cap] = {"template_cases": len(template), "expanded": len(expanded),
                      "expanded_share": round(len(expanded) / len(template), 3) if template else None,
                      "expansions": len(exps), "reasons_for_none": dict(reasons.most_common())}
        total_t, total_e = total_t + len(template), total_e + len(exps)
    top = words.most_common(5)
    out = {"capabilities": table, "template_cases": total_t, "expansions": total_e,
           "expansions_per_template_case": round(total_e / total_t, 3) if total_t else None,
           "top_inserted": [(w, n, round(n / total_e, 3)) for w, n in top] if total_e else [],
           "targets": {"every_capability_60pct": all((v["expanded_share"] or 0) >= 0.6 for v in table.values()),
                       "ratio_1_5": bool(total_t) and total_e / total_t >= 1.5,
                       "top_word_15pct": bool(top) and top[0][1] / total_e <= 0.15}}
    print(f"{'cap':6} {'template':>8} {'expanded':>8} {'share':>6} {'expans.':>7}  top reasons for none")
    for cap, v in table.items():
        rs = ", ".join(f"{k} {n}" for k, n in list(v["reasons_for_none"].items())[:3])
        print(f"{cap:6} {v['template_cases']:8d} {v['expanded']:8d} {v['expanded_share'] or 0:6.2f} {v['expansions']:7d}  {rs}")
    print(json.dumps({k: out[k] for k in ("template_cases", "expansions", "expansions_per_template_case", "top_inserted", "targets")}))
    if args.json:
        args.json.write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
