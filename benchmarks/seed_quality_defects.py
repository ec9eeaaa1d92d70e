"""Report: the template cases of an older suite that issue 23's seed and frame rules now catch, by
defect class, with 10 random examples each as they were and as the committed suite has them now.

    python benchmarks/seed_quality_defects.py 84e4acb          # the suite as committed for issue 22

A defect class is read off the rules an old case's seeds fail today (``phrases.opposite_max_words``
or ``agree.opinion_lexicon``: not one-sided; ``person``: voice clash; ``clauses`` in LC3/LC6: run-on,
in LC4/LC5/LC7: partial negation; ``subject``/``clauses``/``tense`` in LC8: halves about different
things) or, for tense, a present-tense seed under LC3/LC6's past frames (now backshifted). "now" is
the committed case built from the same seeds, or why the seed is refused.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from s2lct.config import get_settings  # noqa: E402
from s2lct.corpus.annotate import load_annotated_corpus  # noqa: E402
from s2lct.generate.search import clean_label_failures, fit_failures  # noqa: E402
from s2lct.spec import load_specs  # noqa: E402


def old_rows(rev: str, cap: str) -> list[dict]:
    out = subprocess.run(["git", "-C", str(REPO), "show", f"{rev}:generated/{cap}.jsonl"], capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("rev", help="git revision of the older suite")
    ap.add_argument("--examples", type=int, default=10)
    args = ap.parse_args()
    corpus, _ = load_annotated_corpus(get_settings())
    by_ref = {(s.sentence.split, s.sentence.index): s for s in corpus}
    specs = {s.id: s for s in load_specs([REPO / "specs"])}
    now_cases: dict[tuple, list[str]] = defaultdict(list)
    for path in (REPO / "generated").glob("LC*.jsonl"):
        for line in path.open(encoding="utf-8"):
            c = json.loads(line)
            if not c["expansion"]:
                now_cases[(c["capability"], tuple((s["split"], s["index"]) for s in c["seeds"]))].append(c["text"])
    classes: dict[str, list] = defaultdict(list)
    for cap, spec in sorted(specs.items()):
        for c in old_rows(args.rev, cap):
            template = next((t for t in spec.templates if t.id == c["template"]), None)
            if c["expansion"] or template is None:
                continue
            slots = {s.name: s for s in template.slots()}
            fails: dict[str, tuple[set[str], object]] = {}
            for ref in c["seeds"]:
                s, slot = by_ref[(ref["split"], ref["index"])], slots.get(ref["slot"])
                if slot is None:
                    continue
                found: set[str] = set()
                per_rule = [clean_label_failures(r, s) for r in spec.seeds[slot.seed].any_of if s.label in r.labels()]
                if per_rule and all(per_rule):
                    found |= set(min(per_rule, key=len))
                if slot.accepts is not None:
                    found |= set(fit_failures(slot.accepts, s))
                fails[ref["slot"]] = (found, s)
            failed = set().union(*(f for f, _ in fails.values())) if fails else set()
            now = now_cases.get((cap, tuple((r["split"], r["index"]) for r in c["seeds"])))
            item = (cap, c["text"], c["expected"], sorted(failed), now)
            if failed & {"phrases.opposite_max_words", "agree.opinion_lexicon"}:
                classes["not_one_sided"].append(item)
            if cap in ("LC4", "LC5", "LC7") and "clauses" in failed:
                classes["partial_negation"].append(item)
            if "person" in failed:
                classes["voice_clash"].append(item)
            if cap in ("LC3", "LC6") and "clauses" in failed:
                classes["run_on"].append(item)
            if cap in ("LC3", "LC6") and not failed and fails:
                s = next(iter(fails.values()))[1]
                if s.syntax and s.syntax.tense == "present":
                    classes["tense"].append(item)
            if cap == "LC8" and failed & {"subject", "clauses", "tense"}:
                classes["different_things"].append(item)
    print(json.dumps({k: len(v) for k, v in classes.items()}))
    for cls, items in classes.items():
        print(f"\n### {cls} ({len(items)} template cases of the suite at {args.rev})")
        for cap, text, expected, failed, now in random.Random(23).sample(items, min(args.examples, len(items))):
            print(f"- {cap} [{'/'.join(expected)}] was: {text}")
            print("  now: " + (f'"{now[0]}"' if now else f"seed refused ({', '.join(failed) or 'not drawn'})"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
