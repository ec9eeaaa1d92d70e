"""Test cases and suite files (format: docs/suite-format.md).

A suite folder holds one ``<capability>.jsonl`` (or ``.jsonl.gz``) per capability and a
``manifest.json``. This module is the only code that reads or writes those files, so the
generator, the runner and the pytest plugin agree on one format.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from s2lct.atomic import open_text, short_hash, write_json, write_jsonl
from s2lct.errors import SuiteFormatError
from s2lct.suggest import unknown_names

if TYPE_CHECKING:  # annotations only: the case model sits below every stage and imports none
    from s2lct.corpus.annotate import AnnotatedSentence
    from s2lct.generate.transforms import Variant
    from s2lct.spec import CapabilitySpec, Template

#: 2 added test types (INV/DIR cases with their perturbed texts); version 1 suites hold MFT cases only
SUITE_FORMAT_VERSION = 2
READABLE_FORMAT_VERSIONS = (1, 2)
MANIFEST_NAME = "manifest.json"

#: CheckList's three test types: a minimum functionality test (expected labels), invariance (the
#: prediction must not change under a perturbation) and a directional expectation (the probability
#: of a class must move one way)
TEST_TYPES = ("mft", "inv", "dir")
DIRECTION_LABELS = ("negative", "neutral", "positive", "predicted", "polarity")


def natural_key(capability: str) -> tuple[Any, ...]:
    """Sort key for capability ids in natural order: LC2 before LC10."""
    return tuple(int(t) if t.isdigit() else t for t in re.split(r"(\d+)", capability))


@dataclass(frozen=True, slots=True)
class SeedRef:
    """The real labelled sentence a case was built from."""

    slot: str
    text: str
    label: str
    split: str
    index: int
    source: str = "sst"


@dataclass(frozen=True, slots=True)
class Fragment:
    """A character span of the case text and its own gold label (``None`` for template text)."""

    start: int
    end: int
    text: str
    kind: str  # "template" | "seed"
    label: str | None = None
    slot: str | None = None


@dataclass(frozen=True, slots=True)
class Direction:
    """What a DIR case expects of its perturbed texts: the probability of ``label`` (a class;
    ``predicted``: the class predicted for the original; ``polarity``: p(positive) − p(negative), what
    CheckList's phrase tests compare) moves ``change`` (``up``/``down``) by at least ``margin``; with ``tolerance``, a move the other way of at most that much still passes
    (CheckList's ``Expect.monotonic``). Originals predicted as one of ``unless_original`` make the
    case not applicable (CheckList's intensifier test disregards originals predicted neutral), and
    so does a class probability that the tolerance leaves unable to fail
    (:func:`s2lct.run.judging.cannot_fail`)."""

    label: str
    change: str
    margin: float = 0.0
    tolerance: float = 0.0
    unless_original: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "change": self.change, "margin": self.margin, "tolerance": self.tolerance,
                "unless_original": list(self.unless_original)}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Direction:
        return cls(d["label"], d["change"], float(d.get("margin", 0.0)), float(d.get("tolerance", 0.0)), tuple(d.get("unless_original", ())))

    def problem(self) -> str | None:
        """Why this direction is not valid (``None``: it is)."""
        if self.label not in DIRECTION_LABELS:
            return f"direction label {self.label!r}; valid: {', '.join(DIRECTION_LABELS)}"
        if self.change not in ("up", "down"):
            return f"direction change {self.change!r}; valid: up, down"
        if self.margin < 0 or self.tolerance < 0:
            return "direction margin and tolerance must be >= 0"
        if self.margin and self.tolerance:
            return "direction: give a margin (it must move at least this much) or a tolerance (it may move back this much), not both"
        return None


@dataclass(frozen=True, slots=True)
class Case:
    """One test case. An MFT case passes when the prediction for ``text`` is among ``expected``;
    an INV or DIR case compares the prediction for ``text`` (the original) with those for each of
    ``perturbed``, and passes when every one meets the expectation."""

    id: str
    capability: str
    text: str
    expected: tuple[str, ...]
    template: str
    transform: str
    seeds: tuple[SeedRef, ...]
    fragments: tuple[Fragment, ...]
    expansion: dict[str, Any] | None = field(default=None)
    test_type: str = "mft"
    perturbed: tuple[str, ...] = ()
    perturbation: str | None = None
    direction: Direction | None = None
    tolerance: float | None = None  # INV: a changed label still passes when p(original's label) moved at most this much

    @property
    def is_expansion(self) -> bool:
        return self.expansion is not None

    @property
    def is_mft(self) -> bool:
        """Whether the case has expected labels (what retraining and explanations work from)."""
        return self.test_type == "mft"

    @property
    def texts(self) -> tuple[str, ...]:
        """Every text the model must see to judge the case."""
        return (self.text, *self.perturbed)

    def problem(self) -> str | None:
        """Why the record is not a valid case (``None``: it is)."""
        if self.test_type not in TEST_TYPES:
            return f"test_type {self.test_type!r}; valid: {', '.join(TEST_TYPES)}"
        if self.test_type == "mft":
            if not self.expected:
                return "an MFT case needs expected labels"
            if self.perturbed or self.direction is not None:
                return "an MFT case has no perturbed texts or direction"
            return None
        article = "an" if self.test_type == "inv" else "a"
        if not self.text:
            return f"{article} {self.test_type.upper()} case needs its original text (key 'text')"
        if not self.perturbed:
            return f"{article} {self.test_type.upper()} case needs its perturbed text(s) next to the original (key 'perturbed')"
        if self.test_type == "dir":
            if self.direction is None:
                return "a DIR case needs a direction (label, change)"
            return self.direction.problem()
        if self.direction is not None:
            return "an INV case has no direction"
        if self.tolerance is not None and self.tolerance < 0:
            return "INV tolerance must be >= 0"
        return None

    @property
    def seed_case_id(self) -> str | None:
        """For an expanded case, the id of the unexpanded case it came from."""
        return None if self.expansion is None else self.expansion.get("seed_case")

    def to_json(self) -> dict[str, Any]:
        # by hand: dataclasses.asdict deep-copies recursively and was a third of generation time
        return {
            "id": self.id,
            "capability": self.capability,
            "text": self.text,
            "expected": list(self.expected),
            "template": self.template,
            "transform": self.transform,
            "seeds": [{"slot": s.slot, "text": s.text, "label": s.label, "split": s.split, "index": s.index, "source": s.source} for s in self.seeds],
            "fragments": [
                {"start": f.start, "end": f.end, "text": f.text, "kind": f.kind, "label": f.label, "slot": f.slot} for f in self.fragments
            ],
            "expansion": self.expansion,
            **self._test_json(),
        }

    def _test_json(self) -> dict[str, Any]:
        """The test-type keys, written only for INV/DIR cases: MFT lines stay as format 1 wrote them."""
        if self.test_type == "mft":
            return {}
        out: dict[str, Any] = {"test_type": self.test_type, "perturbed": list(self.perturbed), "perturbation": self.perturbation}
        if self.direction is not None:
            out["direction"] = self.direction.to_json()
        if self.tolerance is not None:
            out["tolerance"] = self.tolerance
        return out

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> Case:
        direction = d.get("direction")
        return cls(
            id=d["id"],
            capability=d["capability"],
            text=d["text"],
            expected=tuple(d["expected"]),
            template=d["template"],
            transform=d["transform"],
            seeds=tuple(SeedRef(**s) for s in d["seeds"]),
            fragments=tuple(Fragment(**f) for f in d["fragments"]),
            expansion=d.get("expansion"),
            test_type=d.get("test_type", "mft"),
            perturbed=tuple(d.get("perturbed") or ()),
            perturbation=d.get("perturbation"),
            direction=None if direction is None else Direction.from_json(direction),
            tolerance=d.get("tolerance"),
        )


def suite_files(suite_dir: str | Path) -> dict[str, Path]:
    """Capability id → its suite file in ``suite_dir`` (``.jsonl`` or ``.jsonl.gz``)."""
    suite_dir = Path(suite_dir)
    files: dict[str, Path] = {}
    for p in sorted(suite_dir.glob("*.jsonl")) + sorted(suite_dir.glob("*.jsonl.gz")):
        cap = p.name.split(".jsonl")[0]
        if cap in files:
            raise SuiteFormatError(f"{suite_dir}: both {files[cap].name} and {p.name} exist for {cap}; keep one")
        files[cap] = p
    return files


def read_cases(path: str | Path) -> Iterator[Case]:
    """Yield the cases of one suite file; a corrupt line raises ``SuiteFormatError`` naming file:line."""
    with open_text(path) as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                case = Case.from_json(json.loads(line))
            except (json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
                raise SuiteFormatError(f"{path}:{lineno}: not a valid case record ({type(exc).__name__}: {exc})") from None
            problem = case.problem()
            if problem is not None:
                raise SuiteFormatError(f"{path}:{lineno}: case {case.id}: {problem}")
            yield case


def load_suite(suite_dir: str | Path, only: Iterable[str] | None = None) -> list[Case]:
    """All cases of a suite folder, capability files in sorted order, optionally only some ids."""
    suite_dir = Path(suite_dir)
    if not suite_dir.is_dir():
        raise SuiteFormatError(f"suite folder {suite_dir} does not exist; run `s2lct generate --out {suite_dir}` first")
    files = suite_files(suite_dir)
    wanted = set(only) if only else None
    if wanted:
        unknown = sorted(wanted - set(files))
        if unknown:
            raise SuiteFormatError(f"{suite_dir}: " + unknown_names("capability", unknown, sorted(files, key=natural_key), valid_label="available"))
    cases: list[Case] = []
    for cap, path in files.items():
        if wanted is None or cap in wanted:
            cases.extend(read_cases(path))
    if not cases:
        raise SuiteFormatError(f"{suite_dir}: the suite holds no cases; run `s2lct generate --out {suite_dir}`")
    return cases


def load_manifest(suite_dir: str | Path) -> dict[str, Any]:
    path = Path(suite_dir) / MANIFEST_NAME
    try:
        with open(path, encoding="utf-8") as fh:
            manifest = json.load(fh)
    except FileNotFoundError:
        raise SuiteFormatError(f"{path} is missing; a suite folder is written by `s2lct generate`") from None
    except json.JSONDecodeError as exc:
        raise SuiteFormatError(f"{path}:{exc.lineno}: invalid JSON ({exc.msg})") from None
    version = manifest.get("format_version", 1) if isinstance(manifest, dict) else None
    if version not in READABLE_FORMAT_VERSIONS:
        raise SuiteFormatError(f"{path}: format_version {version!r}; this s2lct reads {', '.join(map(str, READABLE_FORMAT_VERSIONS))} "
                               "(a newer s2lct wrote it: upgrade s2lct)")
    return manifest


def seed_case_lines(path: str | Path) -> list[str]:
    """The stored lines of a suite file's seed/template cases (``expansion`` null), byte for byte."""
    out = []
    with open_text(path) as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise SuiteFormatError(f"{path}:{lineno}: invalid JSON ({exc.msg})") from None
            if record.get("expansion") is None:
                out.append(line.rstrip("\n"))
    return out


def seed_case_differences(committed_dir: str | Path, fresh_dir: str | Path, limit: int = 10) -> list[str]:
    """How the seed/template cases of two suite folders differ (empty: identical), first ``limit`` shown.

    Expansion cases are left out of the comparison, so a suite generated with expansion can be
    checked against one regenerated with ``--no-expand``; both write cases sorted by id with the
    same serialiser, so equal cases give equal lines.
    """
    committed, fresh = suite_files(committed_dir), suite_files(fresh_dir)
    problems: list[str] = []
    for cap in sorted(set(committed) | set(fresh), key=natural_key):
        if cap not in fresh or cap not in committed:
            problems.append(f"{cap}: only in {'committed' if cap in committed else 'fresh'} suite")
            continue
        old, new = seed_case_lines(committed[cap]), seed_case_lines(fresh[cap])
        if old == new:
            continue
        old_by_id = {json.loads(x)["id"]: x for x in old}
        new_by_id = {json.loads(x)["id"]: x for x in new}
        changed = [i for i in old_by_id if i in new_by_id and old_by_id[i] != new_by_id[i]]
        gone = [i for i in old_by_id if i not in new_by_id]
        added = [i for i in new_by_id if i not in old_by_id]
        problems.append(
            f"{cap}: {len(changed)} seed/template cases changed, {len(gone)} committed ones not regenerated, "
            f"{len(added)} new ones ({len(old)} committed, {len(new)} regenerated)"
        )
        for i in changed[:limit]:
            a, b = json.loads(old_by_id[i]), json.loads(new_by_id[i])
            key = next(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))
            problems.append(f"  {i} {key}: committed {json.dumps(a.get(key))[:200]} / regenerated {json.dumps(b.get(key))[:200]}")
        for i in gone[:limit]:
            problems.append(f"  {i} not regenerated: {json.loads(old_by_id[i])['text'][:200]}")
        for i in added[:limit]:
            problems.append(f"  {i} new: {json.loads(new_by_id[i])['text'][:200]}")
    return problems


def write_cases(path: str | Path, cases: Iterable[Case]) -> None:
    write_jsonl(path, (c.to_json() for c in cases))


def write_manifest(suite_dir: str | Path, manifest: dict[str, Any]) -> None:
    write_json(Path(suite_dir) / MANIFEST_NAME, manifest)


@dataclass
class CapabilityResult:
    """One capability's cases on their way to a suite file: generation fills it, expansion adds to it."""

    spec: CapabilitySpec
    cases: list[Case]
    pools: dict[str, list[AnnotatedSentence]]
    candidates: int
    skipped_seeds: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    # case id → how it was built (template, literal options, slot → (seed, variant)), for expansion
    origins: dict[str, tuple[Template, tuple[str, ...], dict[str, tuple[AnnotatedSentence, Variant]]]] = field(default_factory=dict)


def seed_ref(slot: str, s: AnnotatedSentence) -> SeedRef:
    """Where a seed came from, as recorded in every case built from it."""
    return SeedRef(slot, s.text, s.label, s.sentence.split, s.sentence.index, s.sentence.source)


def case_id(capability: str, *parts: str) -> str:
    """Stable id from what defines a case, so regenerating never renames an unchanged case."""
    return f"{capability}-{short_hash(capability, *parts)}"
