"""Reading spec files: YAML → validated ``CapabilitySpec``, every error as ``FILE:LINE: message``.

Loading keeps YAML line numbers so every error names the key at fault and what would be valid.
"""

from __future__ import annotations

import difflib
import hashlib
import re
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from s2lct.errors import S2LCTError, SpecError, SpecErrors
from s2lct.spec.language import CapabilitySpec
from s2lct.spec.terms import PATH_TAG
from s2lct.suite import natural_key


MAX_SPEC_BYTES = 1_000_000


def refuse_unsafe_yaml(path: Path, text: str) -> None:
    """Refuse anchors, aliases, merge keys and explicit tags by reading YAML events, before composing.

    Composing is where aliases expand, so a few hundred bytes of nested aliases ("billion laughs")
    would build gigabytes; events are read in time linear in the file, and a spec never needs any
    of these features. Explicit tags (``!!python/...``) are refused too: a spec is plain data.
    """
    from ruamel.yaml.events import AliasEvent, CollectionStartEvent, NodeEvent, ScalarEvent

    for event in _yaml().parse(text):
        line = event.start_mark.line + 1
        if isinstance(event, AliasEvent):
            raise SpecError(path, line, f"YAML alias '*{event.anchor}' is not allowed in specs; write the value out")
        if not isinstance(event, NodeEvent):
            continue
        if event.anchor is not None:
            raise SpecError(path, line, f"YAML anchor '&{event.anchor}' is not allowed in specs; write the value out")
        if isinstance(event, ScalarEvent) and event.value == "<<" and event.style is None:
            raise SpecError(path, line, "YAML merge key '<<' is not allowed in specs; write the keys out")
        tag = event.tag
        explicit = tag is not None and (not isinstance(event, ScalarEvent) or not event.implicit[0])
        if isinstance(event, CollectionStartEvent):
            explicit = tag is not None and not event.implicit
        if explicit:
            raise SpecError(path, line, f"YAML tag {tag!r} is not allowed in specs; specs are plain data")


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


def _is_branch_tag(p: Any) -> bool:
    """Union branch names pydantic puts in error locations (``str``, ``SeedSlot``, ``list[...]``)."""
    return isinstance(p, str) and (p in _BRANCH_TAGS or "[" in p or p[:1].isupper() or p.startswith("function-"))


def _useful_loc(err: dict[str, Any]) -> tuple[Any, ...]:
    loc = tuple(p for p in err["loc"] if not _is_branch_tag(p))
    m = PATH_TAG.match(err["msg"].removeprefix("Value error, "))
    if m:  # a cross-field check names the path it is about (see ``at_path``)
        loc += tuple(int(p) if p.isdigit() else p for p in m.group(1).split(".") if p)
    return loc


def _models_in(annotation: Any) -> set[type[BaseModel]]:
    """Pydantic models anywhere inside a type annotation (unions, lists, dicts, Annotated)."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return {annotation}
    found: set[type[BaseModel]] = set()
    for arg in typing.get_args(annotation):
        found |= _models_in(arg)
    return found


def valid_keys_at(loc: tuple[Any, ...]) -> list[str]:
    """The keys the spec language allows in the mapping at ``loc`` (for did-you-mean)."""
    models: set[type[BaseModel]] = {CapabilitySpec}
    for key in loc:
        fields = [m.model_fields[key] for m in models if isinstance(key, str) and key in m.model_fields]
        if fields:  # a field name: descend into the models its annotation holds
            models = set().union(*(_models_in(f.annotation) for f in fields))
        # else a list index or a user-chosen name (a seed pool): same models
    return sorted({k for m in models for k in m.model_fields})


def _unknown_key(loc: tuple[Any, ...]) -> str:
    key = str(loc[-1])
    where = ".".join(map(str, loc[:-1]))
    valid = valid_keys_at(loc[:-1])
    close = difflib.get_close_matches(key, valid, n=1, cutoff=0.6)
    if close:
        return f"unknown key {key!r} — did you mean {close[0]!r}?"
    place = f" in {where}" if where else ""
    return f"unknown key {'.'.join(map(str, loc))!r}; valid keys{place}: {', '.join(valid)}" if len(loc) > 1 else \
        f"unknown key {key!r}; check the spelling against specs/schema.json (valid keys: {', '.join(valid)})"


def _describe(err: dict[str, Any]) -> str:
    loc = ".".join(str(p) for p in _useful_loc(err))
    msg = PATH_TAG.sub("", err["msg"].removeprefix("Value error, "))
    if err["type"] == "extra_forbidden":
        return _unknown_key(_useful_loc(err))
    if err["type"] == "missing":
        return f"missing required key {loc!r}"
    if err["type"] == "literal_error" and isinstance(err.get("input"), str):
        close = difflib.get_close_matches(err["input"], re.findall(r"'([^']*)'", str(err.get("ctx", {}).get("expected", ""))), n=1)
        if close:
            return f"{loc or 'spec'}: {err['input']!r} is not valid — did you mean {close[0]!r}? ({msg})"
    shown = err["type"] in {"literal_error", "string_pattern_mismatch", "int_type", "string_type", "int_parsing"}
    return f"{loc or 'spec'}: {msg}" + (f" (got {err['input']!r})" if shown else "")


_GENERIC = {"list_type", "dict_type", "model_type", "model_attributes_type", "none_required", "string_type"}


def _distinct_errors(exc: ValidationError) -> list[dict[str, Any]]:
    """One error per problem, in file order of discovery.

    A union (a template part is text, a list or a seed slot) fails once per branch; the branch that
    got deepest is the one the user meant, so an error whose path is a prefix of another's, or a
    generic type error beside a specific one at the same path, is dropped. A key missing because it
    was misspelt is reported once, as the unknown key with its suggestion.
    """
    errors = exc.errors()
    locs = [_useful_loc(e) for e in errors]
    best: dict[tuple[Any, ...], dict[str, Any]] = {}
    for err, loc in zip(errors, locs):
        if any(other != loc and other[: len(loc)] == loc for other in locs):
            continue
        if loc not in best or (best[loc]["type"] in _GENERIC and err["type"] not in _GENERIC):
            best[loc] = err
    kept = list(best.values())
    unknown = {(_useful_loc(e)[:-1], str(_useful_loc(e)[-1])) for e in kept if e["type"] == "extra_forbidden" and _useful_loc(e)}
    out = []
    for err in kept:
        loc = _useful_loc(err)
        if err["type"] == "missing" and loc:
            typos = [k for parent, k in unknown if parent == loc[:-1]]
            if difflib.get_close_matches(str(loc[-1]), typos, n=1, cutoff=0.6):
                continue
        out.append(err)
    return out


def _first_error(exc: ValidationError) -> dict[str, Any]:
    """The most specific error: union branches produce one error each, prefer the deepest path."""
    return max(exc.errors(), key=lambda e: (len(_useful_loc(e)), e["type"] not in _GENERIC))


def load_spec(path: str | Path) -> CapabilitySpec:
    """Parse and validate one spec; raise ``SpecError`` (``FILE:LINE: message``) when invalid."""
    path = Path(path)
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        raise SpecError(path, None, "file not found") from None
    if size > MAX_SPEC_BYTES:
        raise SpecError(path, None, f"the file is {size:,} bytes; a spec may be at most {MAX_SPEC_BYTES:,} bytes (1 MB)")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise SpecError(path, None, f"not UTF-8 text ({exc.reason})") from None
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    try:
        refuse_unsafe_yaml(path, text)
        doc = _yaml().load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise SpecError(path, mark.line + 1 if mark else None, f"invalid YAML: {exc.problem or exc.context}") from None
    except YAMLError as exc:
        raise SpecError(path, None, f"invalid YAML: {str(exc).splitlines()[0]}") from None
    if not isinstance(doc, dict):
        raise SpecError(path, 1, "a spec must be a YAML mapping with keys id, name, expected_labels, seeds, templates")
    try:
        spec = CapabilitySpec.model_validate(_plain(doc))
    except ValidationError as exc:
        found = [SpecError(path, _line_of(doc, _useful_loc(e)), _describe(e)) for e in _distinct_errors(exc)]
        found.sort(key=lambda e: e.line or 0)
        raise SpecErrors(found) from None
    if spec.sampling.seed_review is not None:
        from s2lct.spec.review import bind

        try:
            bind(spec.sampling.seed_review, path.parent)
        except S2LCTError as exc:
            raise SpecError(path, _line_of(doc, ("sampling", "seed_review", "file")), f"sampling.seed_review.file: {exc}") from None
    return spec


def spec_files(paths: list[Path] | list[str]) -> list[Path]:
    """Expand folders to the ``*.yaml``/``*.yml`` files inside them, sorted."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(list(p.glob("*.yaml")) + list(p.glob("*.yml"))))
        else:
            out.append(p)
    return out


def check_specs(paths: list[Path] | list[str]) -> tuple[list[CapabilitySpec], list[SpecError]]:
    """Load every spec file, collecting every error of every file and duplicate ids across files."""
    files = spec_files(paths)
    if not files:
        where = paths[0] if paths else "specs"
        what = "folder not found" if not Path(where).exists() else "no spec files (*.yaml) found"
        return [], [SpecError(where, None, what)]
    specs: dict[str, tuple[CapabilitySpec, Path]] = {}
    errors: list[SpecError] = []
    for f in files:
        try:
            spec = load_spec(f)
        except SpecError as exc:
            errors.extend(exc.errors if isinstance(exc, SpecErrors) else [exc])
            continue
        if spec.id in specs:
            line = _id_line(f)
            errors.append(SpecError(f, line, f"duplicate capability id {spec.id!r}, also in {specs[spec.id][1]}; ids must be unique across files"))
            continue
        specs[spec.id] = (spec, f)
    return [s for s, _ in sorted(specs.values(), key=lambda sf: natural_key(sf[0].id))], errors


def _id_line(path: Path) -> int | None:
    for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("id:"):
            return i
    return None


def load_specs(paths: list[Path] | list[str]) -> list[CapabilitySpec]:
    """Load every spec; ids must be unique across files. Specs are returned sorted by id (natural)."""
    specs, errors = check_specs(paths)
    if errors:
        raise SpecErrors(errors)
    return specs


def spec_hash(spec: CapabilitySpec) -> str:
    """Hash of the validated content (not the bytes), so comments and formatting do not count."""
    from s2lct.atomic import dumps_json

    content = _without_unset_additions(spec.model_dump(mode="json"))
    if spec.sampling.seed_review is not None and spec.sampling.seed_review._loaded is not None:
        content["sampling"]["seed_review"]["sha256"] = spec.sampling.seed_review._loaded.sha256  # the verdicts, not the path
    return hashlib.sha256(dumps_json(content).encode()).hexdigest()


#: Optional keys added to the language after suites were committed: left out of the hash while
#: unset, so adding a key does not invalidate every committed suite.
_ADDED_KEYS = frozenset({"token_pattern", "kinds", "min_pass_rate", "checklist", "test", "seed_review", "primary"})


def _without_unset_additions(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {k: _without_unset_additions(v) for k, v in obj.items() if not (k in _ADDED_KEYS and v is None)}
    if isinstance(obj, list):
        return [_without_unset_additions(v) for v in obj]
    return obj
