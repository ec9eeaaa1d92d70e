"""Benchmark (issue 25): our runner against CheckList's own ``TestSuite.run`` on the same imported
CheckList cases and the same model, each in a fresh process, wall time side by side; and whether
the two runners agree on every test's failure count (the check that the import restates
CheckList's expectations faithfully).

CheckList 0.0.11 does not install on this Python (its setup.py runs ``pip install jupyter`` and then
``notebook.nbextensions``, gone from notebook 7), so it runs from its source distribution in a
separate environment that sees this one's torch and transformers:

    python -m venv --system-site-packages /tmp/clenv && /tmp/clenv/bin/pip install dill munch ipywidgets
    pip download --no-deps --no-binary :all: checklist==0.0.11   # fails at metadata: fetch the sdist itself
    curl -sO https://files.pythonhosted.org/packages/38/b3/8511f50025b9fc66f5feacf9eb2db044c321f4026b6937cb3820f29e9c1d/checklist-0.0.11.tar.gz
    tar xzf checklist-0.0.11.tar.gz
    python benchmarks/bench_checklist_runner.py --checklist-src checklist-0.0.11 --checklist-python /tmp/clenv/bin/python

Both sides predict every text (our prediction cache is off), map the binary model's p(positive) to
three labels with the same neutral band (1/3, 2/3) and give p(neutral) 0, as our adapter does.
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

CHECKLIST_SCRIPT = r"""
import gzip, json, sys, time
t0 = time.perf_counter()
import numpy as np, torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer
from checklist.expect import Expect
from checklist.test_suite import TestSuite
from checklist.test_types import DIR, INV, MFT
export, names, model_path, batch = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3], int(sys.argv[4])
tok = AutoTokenizer.from_pretrained(model_path)
model = AutoModelForSequenceClassification.from_pretrained(model_path).eval()
pos = [i for i, l in model.config.id2label.items() if str(l).lower() in ("positive", "pos", "label_1")][0]

def pred_conf(texts):
    order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
    p = np.zeros(len(texts))
    with torch.inference_mode():
        for s in range(0, len(order), batch):
            idx = order[s:s + batch]
            enc = tok([texts[i] for i in idx], padding=True, truncation=True, return_tensors="pt")
            p[idx] = model(**enc).logits.float().softmax(-1)[:, int(pos)].numpy()
    return np.where(p < 1 / 3, 0, np.where(p > 2 / 3, 2, 1)), np.stack([1 - p, np.zeros_like(p), p], 1)

def change(orig_conf, conf):
    return orig_conf[0] - conf[0] + conf[2] - orig_conf[2]

def up(orig_pred, pred, orig_conf, conf, labels=None, meta=None):
    c = change(orig_conf, conf)
    return True if c + 0.1 >= 0 else c + 0.1

def down(orig_pred, pred, orig_conf, conf, labels=None, meta=None):
    c = change(orig_conf, conf)
    return True if c - 0.1 <= 0 else -(c - 0.1)

not_neutral = lambda orig_pred, *a, **k: orig_pred != 1
DIRS = {
    "intensifiers": Expect.slice_orig(Expect.monotonic(increasing=True, tolerance=0.1), not_neutral),
    "reducers": Expect.slice_orig(Expect.monotonic(increasing=False, tolerance=0.1), not_neutral),
    '"used to" should reduce': Expect.monotonic(increasing=False, tolerance=0.1),
    "add positive phrases": Expect.pairwise(up),
    "add negative phrases": Expect.pairwise(down),
}
not_negative = Expect.single(lambda x, pred, *a, **k: pred != 0)
suite = TestSuite()
for t in json.load(gzip.open(export))["tests"]:
    if t["name"] not in names:
        continue
    if t["type"] == "MFT":
        test = MFT(t["data"], labels=t["labels"]) if t["labels"] is not None else MFT(t["data"], expect=not_negative)
    elif t["type"] == "INV":
        test = INV(t["data"], threshold=0.1)
    else:
        test = DIR(t["data"], DIRS[t["name"]])
    suite.add(test, name=t["name"], capability=t["capability"])
t1 = time.perf_counter()
suite.run(pred_conf, overwrite=True, verbose=False)
t2 = time.perf_counter()
stats = {n: dict(suite.tests[n].get_stats()) for n in suite.tests}
print(json.dumps({"load_s": t1 - t0, "run_s": t2 - t1, "stats": stats}, default=float))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--export", default=None, help="CheckList export (default: <data root>/checklist/sentiment_suite_export.json.gz)")
    ap.add_argument("--only", default="CL04,CL06,CL13,CL19,CL21,CL26", help="imported tests to run (ids of import-checklist)")
    ap.add_argument("--checklist-src", required=True, help="extracted CheckList sdist (holds checklist/)")
    ap.add_argument("--checklist-python", required=True, help="interpreter of the CheckList environment")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--repeat", type=int, default=2, help="alternate the two runners this many times; the best of each")
    ap.add_argument("--json", default=None)
    args = ap.parse_args(argv)

    from s2lct.config import get_settings
    from s2lct.interop.checklist import import_checklist
    from s2lct.models.registry import LOCAL_ALIASES

    settings = get_settings()
    export = Path(args.export or settings.data_root / "checklist" / "sentiment_suite_export.json.gz")
    model_path = str(Path(settings.models_dir) / LOCAL_ALIASES[args.model]) if args.model in LOCAL_ALIASES else args.model
    only = [c.strip() for c in args.only.split(",") if c.strip()]
    with tempfile.TemporaryDirectory(prefix="s2lct-bench-cl-") as tmp:
        suite = Path(tmp) / "suite"
        tests = {t.capability: t for t in import_checklist(export, suite)}
        names = [tests[c].name for c in only]
        cases = sum(tests[c].cases for c in only)
        ours_cmd = [sys.executable, "-m", "s2lct.cli", "run", "--model", args.model, "--suite", str(suite), "--only", ",".join(only),
                    "--no-cache", "--quiet", "--batch-size", str(args.batch_size), "--json", str(Path(tmp) / "ours.json")]
        theirs_cmd = [args.checklist_python, "-c", CHECKLIST_SCRIPT, str(export), json.dumps(names), model_path, str(args.batch_size)]
        env_theirs = {**os.environ, "PYTHONPATH": str(Path(args.checklist_src).resolve())}
        ours_s, theirs_s, theirs = [], [], None
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            subprocess.run(ours_cmd, check=True, capture_output=True, text=True)
            ours_s.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            out = subprocess.run(theirs_cmd, check=True, capture_output=True, text=True, env=env_theirs)
            theirs_s.append(time.perf_counter() - t0)
            theirs = json.loads(out.stdout.strip().splitlines()[-1])
        ours = {c["id"]: c for c in json.loads((Path(tmp) / "ours.json").read_text())["capabilities"]}
    rows = []
    for c in only:
        st = theirs["stats"][tests[c].name]
        judged = st.get("after_filtering", st["testcases"])
        rows.append({"id": c, "name": tests[c].name, "type": tests[c].test_type, "cases": tests[c].cases,
                     "ours": [ours[c]["failures"], ours[c]["cases"] - ours[c].get("not_applicable", 0)],
                     "checklist": [st.get("fails", 0), judged]})
    result = {"model": args.model, "cases": cases, "ours_s": min(ours_s), "checklist_s": min(theirs_s),
              "ratio": min(ours_s) / min(theirs_s), "checklist_run_s": theirs["run_s"], "rows": rows}
    print(f"{args.model}, {cases} imported CheckList cases ({', '.join(only)}), whole process, best of {args.repeat}:")
    print(f"  s2lct run             {result['ours_s']:7.1f} s")
    print(f"  CheckList TestSuite   {result['checklist_s']:7.1f} s   (its run() alone {theirs['run_s']:.1f} s)")
    print(f"  ratio s2lct/CheckList {result['ratio']:7.2f}   (target <= 1.00)")
    print("\n| test | type | cases | s2lct fails/judged | CheckList fails/judged | same |\n|---|---|--:|--:|--:|---|")
    for r in rows:
        same = "yes" if r["ours"] == r["checklist"] else "NO"
        print(f"| {r['id']} {r['name']} | {r['type'].upper()} | {r['cases']} | {r['ours'][0]}/{r['ours'][1]} | "
              f"{r['checklist'][0]}/{r['checklist'][1]} | {same} |")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
