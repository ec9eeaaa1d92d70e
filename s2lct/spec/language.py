"""The spec language: pydantic models of a linguistic-capability spec and its JSON Schema.

The models are the single source of truth; ``specs/schema.json`` is generated from them
(``s2lct schema``) and a test keeps the two identical, so editors that understand JSON Schema and
our own validator agree. Reading YAML files into these models is ``s2lct.spec.loader``.

A spec's parts are models of their own, one module each: ``seed_rules`` (where seeds come from),
``templates`` (how a case is made of them), ``expansion_section``, ``perturbation_section`` (INV/DIR)
and ``sampling``, over the shared ``terms``; this module joins them into ``CapabilitySpec`` and checks
what only the whole spec can (a slot's pool exists, its labels and accepted seeds can be met).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import Field, model_validator

from s2lct.spec.expansion_section import Expansion
from s2lct.spec.perturbation_section import TestSection
from s2lct.spec.sampling import Sampling
from s2lct.spec.seed_rules import SeedPool, unmeetable
from s2lct.spec.templates import SeedLabel, SeedSlot, Template
from s2lct.spec.terms import IDENT, Label, StrictModel, at_path


class CapabilitySpec(StrictModel):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    name: str = Field(min_length=1)
    description: str = ""
    markers: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]] = Field(default_factory=list)
    expected_labels: list[Label] = Field(min_length=1, description="every case's expected labels lie in this set")
    seeds: dict[Annotated[str, Field(pattern=IDENT)], SeedPool] = Field(min_length=1)
    templates: list[Template] = Field(min_length=1)
    sampling: Sampling = Field(default_factory=Sampling)
    expansion: Expansion = Field(default_factory=Expansion)
    test: TestSection | None = Field(default=None, description="INV/DIR capability: the perturbation applied to every seed case (absent: MFT)")
    checklist: list[Annotated[str, Field(min_length=1)]] | None = Field(
        default=None,
        description="names of the CheckList sentiment tests this capability covers (`s2lct compare` matches on them; docs/checklist.md)",
    )
    min_pass_rate: float | None = Field(
        default=None, ge=0, le=1,
        description="CI gate: `s2lct run` and pytest --model fail when the share of this capability's cases that pass is below this",
    )

    @model_validator(mode="after")
    def _references(self) -> CapabilitySpec:
        ids = [t.id for t in self.templates]
        if len(ids) != len(set(ids)):
            raise ValueError(at_path(("templates",), f"template ids must be unique, got {ids}"))
        allowed = set(self.expected_labels)
        for ti, t in enumerate(self.templates):
            for pi, slot in enumerate(t.parts):
                if isinstance(slot, SeedSlot) and slot.seed not in self.seeds:
                    raise ValueError(at_path(("templates", ti, "parts", pi, "seed"), f"template {t.id!r} uses seed pool {slot.seed!r}; defined pools: {sorted(self.seeds)}"))
                if isinstance(slot, SeedSlot) and slot.labels() is not None:
                    found = {lab for rule in self.seeds[slot.seed].any_of for lab in rule.labels()}
                    if not found <= set(slot.labels() or ()):
                        raise ValueError(at_path(
                            ("templates", ti, "parts", pi, "label"),
                            f"template {t.id!r}: slot {slot.name!r} must hold {sorted(slot.labels() or ())} seeds, "
                            f"but pool {slot.seed!r} can give {sorted(found)}; add 'label:' to the pool's rules",
                        ))
                if isinstance(slot, SeedSlot) and slot.accepts is not None:
                    reasons = [unmeetable(slot.accepts, rule) for rule in self.seeds[slot.seed].any_of]
                    if all(reasons):
                        raise ValueError(at_path(
                            ("templates", ti, "parts", pi, "accepts"),
                            f"template {t.id!r}: slot {slot.name!r} accepts no seed of pool {slot.seed!r}: {reasons[0]}",
                        ))
            if isinstance(t.expected, SeedLabel):
                names = [s.name for s in t.slots()]
                if t.expected.seed_label not in names:
                    raise ValueError(at_path(("templates", ti, "expected"), f"template {t.id!r}: seed_label names slot {t.expected.seed_label!r}; slots: {names}"))
                labels: set[str] = set()
                for s in t.slots():
                    if s.name == t.expected.seed_label:
                        for rule in self.seeds[s.seed].any_of:
                            labels.update(rule.labels())
            else:
                labels = set(t.expected)
            if not labels <= allowed:
                raise ValueError(at_path(
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
