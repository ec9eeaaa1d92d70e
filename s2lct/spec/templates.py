"""How a case is made from seeds: a template's parts (literal alternatives, seed slots with their
ops and accepted seeds, insertions) and its expected labels."""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator, model_validator

from s2lct.spec.seed_rules import SeedFit
from s2lct.spec.terms import IDENT, Label, SeedOp, StrictModel, TokenPattern, at_path, check_token_pattern

# Every combination of a template's literal alternatives is enumerated for every seed before
# sampling, so an unbounded product would exhaust memory; real templates use tens.
MAX_TEMPLATE_COMBINATIONS = 10_000


class Insert(StrictModel):
    """Insert a word or phrase (one case per entry) before or after where a token pattern matches."""

    insert: list[Annotated[str, Field(min_length=1, pattern=r"\S")]] = Field(min_length=1, description="words or phrases to insert; one variant each")
    before: TokenPattern | None = Field(default=None, description="insert before the match of this token pattern")
    after: TokenPattern | None = Field(default=None, description="insert after the match of this token pattern")
    which: Literal["first", "last"] = Field(default="first", description="which match when the pattern matches several times")
    token: int | None = Field(default=None, ge=0, description="insert before/after this token of the match (0-based; default: its first token for before, its last for after)")
    tag: str = Field(default="RB", pattern=r"^[A-Z$]+$", description="PTB tag of the inserted words (RB: adverb)")

    _pattern = field_validator("before", "after")(classmethod(lambda cls, v: check_token_pattern(v)))

    @model_validator(mode="after")
    def _one_position(self) -> Insert:
        if (self.before is None) == (self.after is None):
            raise ValueError("insert needs exactly one of 'before' or 'after' (a token pattern)")
        pattern = self.before if self.before is not None else self.after
        if self.token is not None and self.token >= len(pattern) or self.token is not None and any("OP" in t for t in pattern):
            raise ValueError(f"token {self.token} must index a token of a pattern without OP quantifiers (the pattern has {len(pattern)} tokens)")
        return self


class SeedSlot(StrictModel):
    seed: str = Field(pattern=IDENT, description="name of a seed pool")
    slot: str | None = Field(default=None, pattern=IDENT, description="slot name (defaults to the pool name)")
    ops: list[SeedOp | Insert] = Field(default_factory=list, description="applied to the seed in order: negate_copula, strip_final_punct, lowercase_first, strip_leading_conjunction, full_stop (a final '!' becomes '.'), backshift (first only: present main verbs to past, after a past frame) or {insert: [...], before|after: <token pattern>}")
    accepts: SeedFit | None = Field(
        default=None,
        description="what this slot's frame needs of the seed (person, tense, clauses, subject); seeds of the pool that do not fit are not used here",
    )
    label: Label | list[Label] | None = Field(
        default=None,
        description=(
            "the polarity this slot's seed must have (e.g. the past opinion of LC3 is positive before "
            "'but now I don't like it'); every rule of the pool must search only these labels"
        ),
    )

    @field_validator("ops")
    @classmethod
    def _backshift_first(cls, ops: list[Any]) -> list[Any]:
        if "backshift" in ops[1:]:
            raise ValueError("backshift must be the first operation: it finds the main verbs where the seed's parse put them")
        return ops

    @property
    def name(self) -> str:
        return self.slot or self.seed

    def labels(self) -> tuple[str, ...] | None:
        if self.label is None:
            return None
        return (self.label,) if isinstance(self.label, str) else tuple(self.label)


class SeedLabel(StrictModel):
    seed_label: str = Field(pattern=IDENT, description="the expected label is the label of the seed in this slot")


TemplatePart = Annotated[
    str | list[str] | SeedSlot,
    Field(description="literal text, a list of alternatives (one case per alternative), or a seed slot"),
]


class Template(StrictModel):
    id: str = Field(pattern=IDENT)
    parts: list[TemplatePart] = Field(min_length=1)
    expected: list[Label] | SeedLabel
    primary: str | None = Field(
        default=None,
        pattern=IDENT,
        description=(
            "the slot whose seeds the cases are drawn for (each of its seeds in every frame, sampled and spread); "
            "the other slots get a partner seed per case. Default: the first slot. LC7 names its second: its "
            "neutral asides are few, and the cases should be as many as its positive opinions"
        ),
    )

    names_in_one_slot: bool = Field(
        default=False,
        description=(
            "true: at most one seed of a case names anyone or anything (a capitalised name or title): two seeds "
            "that each name one are about different things, and a frame that joins them into one statement "
            "contradicts itself (LC7: '— this version of H.G. Wells' Time Machine was directed by H.G. Wells' "
            "great-grandson — that it further declares its director, Zhang Yang ...', read 49, both reads). A "
            "partner is drawn among the seeds that keep the case so"
        ),
    )

    @model_validator(mode="after")
    def _primary_is_a_slot(self) -> Template:
        if self.primary is not None and self.primary not in (names := [s.name for s in self.slots()]):
            raise ValueError(at_path(("primary",), f"template {self.id!r}: primary {self.primary!r} is not one of its slots {names}"))
        return self

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
            raise ValueError("a template needs at least one seed slot ({seed: <pool>}); templates of literal text only are refused: every case is built from a real corpus sentence (docs/specs.md, 'Templates')")
        names = [p.name for p in parts if isinstance(p, SeedSlot)]
        if len(names) != len(set(names)):
            raise ValueError(f"slot names must be unique within a template, got {names}; set 'slot:' to tell them apart")
        sizes = [len(p) for p in parts if isinstance(p, list)]
        combinations = math.prod(sizes)
        if combinations > MAX_TEMPLATE_COMBINATIONS:
            raise ValueError(
                f"the lists of alternatives give {combinations:,} combinations ({' × '.join(map(str, sizes))}); "
                f"the limit is {MAX_TEMPLATE_COMBINATIONS:,} per template: split it into several templates or shorten the lists"
            )
        return parts

    def slots(self) -> list[SeedSlot]:
        return [p for p in self.parts if isinstance(p, SeedSlot)]

    def drawn(self) -> list[SeedSlot]:
        """The slots in the order cases draw them: the primary slot, then its partners."""
        slots = self.slots()
        first = next((s for s in slots if s.name == self.primary), slots[0])
        return [first, *(s for s in slots if s is not first)]
