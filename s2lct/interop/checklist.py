"""Import a CheckList suite (its JSON export) as an s2lct suite folder, so ``s2lct run`` and
``pytest --model`` run CheckList's tests beside ours and the failure rates can be compared.

CheckList saves suites as dill pickles that embed code; the export this reads is data only
(``{source, note, tests: [{name, type, capability, description, labels, data, ...}]}``, see
``../shared/data/SOURCES.md`` §4): the expectation functions are not in it. Their behaviour is
therefore restated here, per test type and, where a test's own function differs, per test name,
from CheckList's released sentiment notebook as its descriptions state it:

* MFT: the labels (0 negative, 1 neutral, 2 positive; one per test or per case). Three negation
  tests have none: they expect "not negative" (neutral or positive), as their names say.
* INV: the prediction must not change; a changed label still passes when the probability of the
  original's label moved less than 0.1 (``INV``'s default ``threshold=0.1``).
* DIR: intensifiers: p(original's label) must not fall by more than 0.1, originals predicted
  neutral disregarded; reducers: must not rise by more than 0.1, same; "used to": must not rise by
  more than 0.1; added positive / negative phrases: p(positive) − p(negative) must not fall / rise
  by more than 0.1.

One CheckList test becomes one capability (``CL01`` …, in the export's order), one CheckList test
case one case (an INV/DIR test case's first text is the original, the rest its perturbations), so
per-test case counts equal the export's.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file
from s2lct.errors import S2LCTError
from s2lct.suite import SUITE_FORMAT_VERSION, Case, Direction, Fragment, case_id, write_cases, write_manifest

LABEL_NAMES = ("negative", "neutral", "positive")
NOT_NEGATIVE = ("neutral", "positive")
#: MFT tests of the released sentiment suite whose expectation is "not negative" (exported without labels)
NOT_NEGATIVE_TESTS = frozenset({
    "simple negations: not negative",
    "simple negations: I thought x was negative, but it was not (should be neutral or positive)",
    "Hard: Negation of negative with neutral stuff in the middle (should be positive or neutral)",
})
INV_TOLERANCE = 0.1
#: DIR tests of the released sentiment suite and their expectations (see the module docstring)
DIR_EXPECTATIONS: dict[str, Direction] = {
    "intensifiers": Direction("predicted", "up", tolerance=0.1, unless_original=("neutral",)),
    "reducers": Direction("predicted", "down", tolerance=0.1, unless_original=("neutral",)),
    '"used to" should reduce': Direction("predicted", "down", tolerance=0.1),
    "add positive phrases": Direction("polarity", "up", tolerance=0.1),
    "add negative phrases": Direction("polarity", "down", tolerance=0.1),
}
TEST_TYPES = {"MFT": "mft", "INV": "inv", "DIR": "dir"}


class CheckListFormatError(S2LCTError):
    """The file is not a CheckList export this version can read."""


@dataclass(frozen=True, slots=True)
class ImportedTest:
    capability: str
    name: str
    checklist_capability: str
    test_type: str
    cases: int


def read_export(path: str | Path) -> dict[str, Any]:
    """The export's JSON (plain or gzip'd); anything else is one line naming the file and the problem."""
    path = Path(path)
    if not path.is_file():
        raise CheckListFormatError(f"{path}: no such file")
    raw = path.read_bytes()
    if raw[:2] == b"\x1f\x8b":
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as exc:
            raise CheckListFormatError(f"{path}: not a readable gzip file ({exc})") from None
    if raw[:1] == b"\x80":
        raise CheckListFormatError(f"{path}: a pickled CheckList suite; s2lct reads the JSON export only (never unpickles), "
                                   "see docs/checklist.md for how it was exported")
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CheckListFormatError(f"{path}: not JSON ({exc})") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("tests"), list):
        raise CheckListFormatError(f"{path}: not a CheckList export (expected an object with a 'tests' list)")
    version = doc.get("format_version")
    if version is not None and version != 1:
        raise CheckListFormatError(f"{path}: export format_version {version!r}; this s2lct reads 1")
    return doc


def _expected(test: Mapping[str, Any], i: int, where: str) -> tuple[str, ...]:
    labels = test.get("labels")
    if labels is None:
        if test["name"] in NOT_NEGATIVE_TESTS:
            return NOT_NEGATIVE
        raise CheckListFormatError(f"{where}: MFT test {test['name']!r} has no labels and no known expectation")
    label = labels[i] if isinstance(labels, list) else labels
    if label not in (0, 1, 2):
        raise CheckListFormatError(f"{where}: case {i}: label {label!r}; valid: 0 (negative), 1 (neutral), 2 (positive)")
    return (LABEL_NAMES[label],)


def _case(cap: str, i: int, test: Mapping[str, Any], item: Any, where: str) -> Case:
    kind = TEST_TYPES[test["type"]]
    if kind == "mft":
        if not isinstance(item, str):
            raise CheckListFormatError(f"{where}: case {i}: an MFT case is one text, got {type(item).__name__}")
        text, perturbed = item, ()
    else:
        if not (isinstance(item, list) and len(item) >= 2 and all(isinstance(t, str) for t in item)):
            raise CheckListFormatError(f"{where}: case {i}: an {test['type']} case is a list of an original and its perturbed texts")
        text, perturbed = item[0], tuple(item[1:])  # as exported, even a "perturbation" equal to the original
    direction = None
    if kind == "dir":
        direction = DIR_EXPECTATIONS.get(test["name"])
        if direction is None:
            raise CheckListFormatError(f"{where}: DIR test {test['name']!r} has no known expectation; "
                                       f"known: {', '.join(sorted(DIR_EXPECTATIONS))}")
    return Case(
        id=case_id(cap, str(i), text, *perturbed),
        capability=cap, text=text, expected=_expected(test, i, where) if kind == "mft" else (),
        template=f"checklist:{test['name']}", transform="none" if kind == "mft" else f"checklist:{kind}",
        seeds=(), fragments=(Fragment(0, len(text), text, "template"),),
        test_type=kind, perturbed=perturbed, perturbation=None if kind == "mft" else f"checklist:{test['name']}",
        direction=direction, tolerance=INV_TOLERANCE if kind == "inv" else None,
    )


def convert(doc: Mapping[str, Any], where: str) -> list[tuple[ImportedTest, list[Case], Mapping[str, Any]]]:
    """Every test of the export as (summary, cases, the test's record)."""
    out = []
    for n, test in enumerate(doc["tests"], 1):
        at = f"{where}: test {n}"
        if not isinstance(test, dict) or not {"name", "type", "data"} <= set(test):
            raise CheckListFormatError(f"{at}: a test needs 'name', 'type' and 'data'")
        if test["type"] not in TEST_TYPES:
            raise CheckListFormatError(f"{at} ({test['name']!r}): type {test['type']!r}; valid: {', '.join(TEST_TYPES)}")
        if not isinstance(test["data"], list):
            raise CheckListFormatError(f"{at} ({test['name']!r}): 'data' must be a list of test cases")
        declared = test.get("n_testcases")
        if declared is not None and declared != len(test["data"]):
            raise CheckListFormatError(f"{at} ({test['name']!r}): n_testcases {declared} but {len(test['data'])} cases in 'data'")
        cap = f"CL{n:02d}"
        cases = [_case(cap, i, test, item, f"{at} ({test['name']!r})") for i, item in enumerate(test["data"])]
        ids = {c.id for c in cases}
        if len(ids) != len(cases):
            raise CheckListFormatError(f"{at} ({test['name']!r}): duplicate test cases")
        summary = ImportedTest(cap, str(test["name"]), str(test.get("capability") or ""), TEST_TYPES[test["type"]], len(cases))
        out.append((summary, sorted(cases, key=lambda c: c.id), test))
    if not out:
        raise CheckListFormatError(f"{where}: the export holds no tests")
    return out


def _markers(test: ImportedTest) -> list[str]:
    from s2lct.run.runner import marker_name

    return ["checklist", test.test_type] + ([marker_name(test.checklist_capability)] if test.checklist_capability.strip() else [])


def import_checklist(path: str | Path, out: str | Path, overwrite: bool = False) -> list[ImportedTest]:
    """Write the export at ``path`` as a suite folder ``out`` (all or nothing: a staging folder is
    renamed into place once every file is written)."""
    from s2lct.constants import __version__

    path, out = Path(path), Path(out)
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise S2LCTError(f"{out} exists and is not empty; pass --overwrite to replace it")
    doc = read_export(path)
    tests = convert(doc, str(path))
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    try:
        caps: dict[str, Any] = {}
        for summary, cases, test in tests:
            name = f"{summary.capability}.jsonl"
            write_cases(staging / name, cases)
            caps[summary.capability] = {
                "name": summary.name, "markers": _markers(summary), "file": name,
                "sha256": sha256_file(staging / name),
                "cases": len(cases), "seed_cases": len(cases), "expansion_cases": 0, "test_type": summary.test_type,
                # CheckList's own perturbations sometimes change nothing: such cases pass whatever the model does
                **({"unperturbed_cases": n} if (n := sum(all(p == c.text for p in c.perturbed) for c in cases if c.perturbed)) else {}),
                "checklist": {"name": summary.name, "capability": summary.checklist_capability, "type": test["type"],
                              "description": (test.get("info") or {}).get("description") or test.get("description") or ""},
            }
        write_manifest(staging, {
            "format_version": SUITE_FORMAT_VERSION, "tool_version": __version__, "imported_from": "checklist",
            "source": {"file": path.name, "sha256": sha256_file(path), "origin": doc.get("source")},
            "capabilities": caps, "expanded": False,
        })
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return [t for t, _, _ in tests]


def summary_lines(tests: Sequence[ImportedTest]) -> list[str]:
    """One line per imported test: capability id, type, case count and CheckList's name."""
    return [f"{t.capability}  {t.test_type.upper():3}  {t.cases:6d}  {t.checklist_capability}: {t.name}" for t in tests]


MAPPING_BEGIN = "<!-- checklist-mapping: generated by `s2lct docs-checklist`; tests/interop compare it with the specs -->"
MAPPING_END = "<!-- /checklist-mapping -->"


def mapping_markdown(doc: Mapping[str, Any], specs: Sequence[Any]) -> str:
    """The table of docs/checklist.md: every test of the export, its type, and the specs that
    declare they cover it (``checklist:`` in the spec), with the names of tests no spec claims."""
    covering: dict[str, list[str]] = {}
    for spec in specs:
        for name in spec.checklist or ():
            covering.setdefault(name, []).append(spec.id)
    known = {t["name"] for t in doc["tests"]}
    stray = sorted(n for n in covering if n not in known)
    if stray:
        raise S2LCTError(f"specs name CheckList tests the export does not have: {', '.join(stray)}")
    lines = [MAPPING_BEGIN, "", "| CheckList capability | CheckList test | type | cases | our spec(s) |", "|---|---|---|--:|---|"]
    for t in doc["tests"]:
        ours = ", ".join(covering.get(t["name"], [])) or "—"
        lines.append(f"| {t.get('capability', '')} | {t['name'].replace('|', '/')} | {t['type']} | {len(t['data'])} | {ours} |")
    lines += ["", MAPPING_END]
    return "\n".join(lines)
