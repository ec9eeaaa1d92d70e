"""Linguistic-capability specs: YAML files validated against a published JSON Schema.

The pydantic models below are the single source of truth; ``specs/schema.json`` is generated from
them (``s2lct schema``) and a test keeps the two identical, so editors that understand JSON Schema
and our own validator agree. Loading keeps YAML line numbers so every error reads
``FILE:LINE: message`` with the key at fault and what would be valid.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from . import LABELS
from .errors import SpecError
from .suite import natural_key

Label = Literal["negative", "neutral", "positive"]
WORD_CLASS_PATTERN = r"^(positive|negative|neutral) (adj|noun|verb|adv)$"
WordClass = Annotated[str, Field(pattern=WORD_CLASS_PATTERN, description="'<polarity> <word class>', e.g. 'neutral adj'")]
IDENT = r"^[A-Za-z][A-Za-z0-9_\-]*$"
SeedOp = Literal["negate_copula", "strip_final_punct", "lowercase_first"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_regex(value: str | None) -> str | None:
    if value is not None:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


class Length(_Strict):
    """Bounds on the number of words (tokens with a letter or digit), inclusive."""

    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> Length:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class SearchRule(_Strict):
    """Conditions a seed sentence must meet; all given conditions must hold."""

    label: Label | list[Label] | None = Field(default=None, description="3-way label(s) of the seed")
    length: Length | None = None
    include: list[WordClass] = Field(default_factory=list, description="word classes that must all occur")
    exclude: list[WordClass] = Field(default_factory=list, description="word classes that must not occur")
    include_words: list[str] = Field(default_factory=list, description="words that must all occur (case-insensitive)")
    exclude_words: list[str] = Field(default_factory=list, description="words that must not occur (case-insensitive)")
    start: str | None = Field(default=None, description="regex matched at the start of the detokenised sentence")
    end: str | None = Field(default=None, description="regex matched at the end of the detokenised sentence")
    contains: str | None = Field(default=None, description="regex found anywhere in the detokenised sentence")

    _regex = field_validator("start", "end", "contains")(classmethod(lambda cls, v: _check_regex(v)))

    def labels(self) -> tuple[str, ...]:
        if self.label is None:
            return LABELS
        return (self.label,) if isinstance(self.label, str) else tuple(self.label)


class SeedPool(_Strict):
    """A named set of seeds: sentences matching any one of the rules."""

    any_of: list[SearchRule] = Field(min_length=1)
    max_seeds: int | None = Field(default=None, ge=1, description="sample at most this many seeds (fixed seed)")


class SeedSlot(_Strict):
    seed: str = Field(pattern=IDENT, description="name of a seed pool")
    slot: str | None = Field(default=None, pattern=IDENT, description="slot name (defaults to the pool name)")
    ops: list[SeedOp] = Field(default_factory=list, description="applied to the seed in order")

    @property
    def name(self) -> str:
        return self.slot or self.seed


class SeedLabel(_Strict):
    seed_label: str = Field(pattern=IDENT, description="the expected label is the label of the seed in this slot")


TemplatePart = Annotated[
    str | list[str] | SeedSlot,
    Field(description="literal text, a list of alternatives (one case per alternative), or a seed slot"),
]


class Template(_Strict):
    id: str = Field(pattern=IDENT)
    parts: list[TemplatePart] = Field(min_length=1)
    expected: list[Label] | SeedLabel

    @field_validator("parts")
    @classmethod
    def _parts(cls, parts: list[Any]) -> list[Any]:
        for i, part in enumerate(parts):
            if isinstance(part, list) and not part:
                raise ValueError(f"part {i} is an empty list of alternatives; give at least one text")
            if isinstance(part, list) and any(not p.strip() for p in part):
                raise ValueError(f"part {i} has an empty alternative")
            if isinstance(part, str) and not part.strip():
                raise ValueError(f"part {i} is empty text")
        if not any(isinstance(p, SeedSlot) for p in parts):
            raise ValueError("a template needs at least one seed slot ({seed: <pool>})")
        names = [p.name for p in parts if isinstance(p, SeedSlot)]
        if len(names) != len(set(names)):
            raise ValueError(f"slot names must be unique within a template, got {names}; set 'slot:' to tell them apart")
        return parts

    def slots(self) -> list[SeedSlot]:
        return [p for p in self.parts if isinstance(p, SeedSlot)]


class Expansion(_Strict):
    """Syntax-based expansion rules (METHOD.md §1.3)."""

    enabled: bool = True
    word_rule: Literal["neutral"] = Field(default="neutral", description="fill-ins must be pure neutral words")
    max_per_seed: int = Field(default=2, ge=0, description="expanded cases kept per seed case")


class Sampling(_Strict):
    max_cases: int | None = Field(default=None, ge=1, description="sample at most this many seed cases (fixed seed)")


class CapabilitySpec(_Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    name: str = Field(min_length=1)
    description: str = ""
    markers: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]] = Field(default_factory=list)
    expected_labels: list[Label] = Field(min_length=1, description="every case's expected labels lie in this set")
    seeds: dict[Annotated[str, Field(pattern=IDENT)], SeedPool] = Field(min_length=1)
    templates: list[Template] = Field(min_length=1)
    sampling: Sampling = Field(default_factory=Sampling)
    expansion: Expansion = Field(default_factory=Expansion)

    @model_validator(mode="after")
    def _references(self) -> CapabilitySpec:
        ids = [t.id for t in self.templates]
        if len(ids) != len(set(ids)):
            raise ValueError(_at(("templates",), f"template ids must be unique, got {ids}"))
        allowed = set(self.expected_labels)
        for ti, t in enumerate(self.templates):
            for pi, slot in enumerate(t.parts):
                if isinstance(slot, SeedSlot) and slot.seed not in self.seeds:
                    raise ValueError(_at(("templates", ti, "parts", pi, "seed"), f"template {t.id!r} uses seed pool {slot.seed!r}; defined pools: {sorted(self.seeds)}"))
            if isinstance(t.expected, SeedLabel):
                names = [s.name for s in t.slots()]
                if t.expected.seed_label not in names:
                    raise ValueError(_at(("templates", ti, "expected"), f"template {t.id!r}: seed_label names slot {t.expected.seed_label!r}; slots: {names}"))
                labels: set[str] = set()
                for s in t.slots():
                    if s.name == t.expected.seed_label:
                        for rule in self.seeds[s.seed].any_of:
                            labels.update(rule.labels())
            else:
                labels = set(t.expected)
            if not labels <= allowed:
                raise ValueError(_at(
                    ("templates", ti, "expected"),
                    f"template {t.id!r} can expect {sorted(labels - allowed)}, outside expected_labels {sorted(allowed)}",
                ))
        return self


def json_schema() -> dict[str, Any]:
    schema = CapabilitySpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://s2lct.invalid/specs/schema.json"
    schema["title"] = "s2lct linguistic capability spec"
    return schema


# --- loading with line numbers ---------------------------------------------------------------


def _yaml():
    from ruamel.yaml import YAML

    y = YAML(typ="rt", pure=True)
    return y


def _line_of(doc: Any, loc: tuple[Any, ...]) -> int | None:
    """1-based YAML line of the deepest node of ``loc`` that exists in ``doc``."""
    line = None
    node = doc
    for key in loc:
        lc = getattr(node, "lc", None)
        try:
            if isinstance(node, dict) and key in node:
                if lc is not None:
                    line = lc.key(key)[0] + 1
                node = node[key]
            elif isinstance(node, list) and isinstance(key, int) and key < len(node):
                if lc is not None:
                    line = lc.item(key)[0] + 1
                node = node[key]
            else:
                break
        except (KeyError, IndexError, TypeError):
            break
    if line is None and getattr(doc, "lc", None) is not None:
        line = doc.lc.line + 1
    return line


def _plain(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_plain(v) for v in obj]
    return obj


_BRANCH_TAGS = {"str", "int", "float", "bool", "none", "list", "dict"}
_AT = re.compile(r"^@([^@]*)@ ")


def _is_branch_tag(p: Any) -> bool:
    """Union branch names pydantic puts in error locations (``str``, ``SeedSlot``, ``list[...]``)."""
    return isinstance(p, str) and (p in _BRANCH_TAGS or "[" in p or p[:1].isupper() or p.startswith("function-"))


def _useful_loc(err: dict[str, Any]) -> tuple[Any, ...]:
    loc = tuple(p for p in err["loc"] if not _is_branch_tag(p))
    m = _AT.match(err["msg"].removeprefix("Value error, "))
    if m:  # a cross-field check names the path it is about (see ``_at``)
        loc += tuple(int(p) if p.isdigit() else p for p in m.group(1).split(".") if p)
    return loc


def _at(path: tuple[Any, ...], message: str) -> str:
    """Tag a model-level validation message with the path it concerns, for the line lookup."""
    return "@" + ".".join(map(str, path)) + "@ " + message


def _describe(err: dict[str, Any]) -> str:
    loc = ".".join(str(p) for p in _useful_loc(err))
    msg = _AT.sub("", err["msg"].removeprefix("Value error, "))
    if err["type"] == "extra_forbidden":
        return f"unknown key {loc!r}; check the spelling against specs/schema.json"
    if err["type"] == "missing":
        return f"missing required key {loc!r}"
    shown = err["type"] in {"literal_error", "string_pattern_mismatch", "int_type", "string_type", "int_parsing"}
    return f"{loc or 'spec'}: {msg}" + (f" (got {err['input']!r})" if shown else "")


def _first_error(exc: ValidationError) -> dict[str, Any]:
    """The most specific error: union branches produce one error each, prefer the deepest path."""
    errors = exc.errors()
    generic = {"list_type", "dict_type", "model_type", "model_attributes_type", "none_required", "string_type"}
    return max(errors, key=lambda e: (len(_useful_loc(e)), e["type"] not in generic))


def load_spec(path: str | Path) -> CapabilitySpec:
    """Parse and validate one spec; raise ``SpecError`` (``FILE:LINE: message``) when invalid."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(path, None, "file not found") from None
    except UnicodeDecodeError as exc:
        raise SpecError(path, None, f"not UTF-8 text ({exc.reason})") from None
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        doc = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise SpecError(path, mark.line + 1 if mark else None, f"invalid YAML: {exc.problem or exc.context}") from None
    except YAMLError as exc:
        raise SpecError(path, None, f"invalid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(doc, dict):
        raise SpecError(path, 1, "a spec must be a YAML mapping with keys id, name, expected_labels, seeds, templates")
    try:
        return CapabilitySpec.model_validate(_plain(doc))
    except ValidationError as exc:
        err = _first_error(exc)
        raise SpecError(path, _line_of(doc, _useful_loc(err)), _describe(err)) from None


def spec_files(paths: list[Path] | list[str]) -> list[Path]:
    """Expand folders to the ``*.yaml``/``*.yml`` files inside them, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(list(p.glob("*.yaml")) + list(p.glob("*.yml"))))
        else:
            out.append(p)
    return out


def load_specs(paths: list[Path] | list[str]) -> list[CapabilitySpec]:
    """Load every spec; ids must be unique across files. Specs are returned sorted by id (natural)."""
    files = spec_files(paths)
    if not files:
        raise SpecError(paths[0] if paths else "specs", None, "no spec files (*.yaml) found")
    specs: dict[str, tuple[CapabilitySpec, Path]] = {}
    for f in files:
        spec = load_spec(f)
        if spec.id in specs:
            raise SpecError(f, None, f"duplicate capability id {spec.id!r}, also in {specs[spec.id][1]}")
        specs[spec.id] = (spec, f)
    return [s for s, _ in sorted(specs.values(), key=lambda sf: natural_key(sf[0].id))]


def spec_hash(spec: CapabilitySpec) -> str:
    """Hash of the validated content (not the bytes), so comments and formatting do not count."""
    from .atomic import dumps_json

    return hashlib.sha256(dumps_json(spec.model_dump(mode="json")).encode()).hexdigest()
