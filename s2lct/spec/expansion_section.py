"""The ``expansion`` section of a spec: whether and how syntax-based expansion grows its seed cases."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from s2lct.spec.terms import StrictModel

#: the slot kinds of s2lct.expand.slots.SLOT_KINDS (a test keeps the two equal)
SlotKind = Literal["adverb", "adjective", "complementiser", "pp", "determiner", "noun", "name", "conjunction", "other"]


class Expansion(StrictModel):
    """Syntax-based expansion: grow each seed case with neutral words where its parse allows (docs/specs.md)."""

    enabled: bool = True
    word_rule: Literal["neutral"] = Field(default="neutral", description="fill-ins must be pure neutral words")
    max_per_seed: int = Field(default=2, ge=0, description="expanded cases kept per seed case")
    kinds: list[SlotKind] | None = Field(
        default=None, description="slot kinds an expansion may fill (default: every kind the engine fills; docs/expansion.md)"
    )
    exclude_fills: list[Annotated[str, Field(min_length=1, pattern=r"^\S+$")]] = Field(
        default_factory=list,
        description="words the capability's frames cannot take as a fill (e.g. hedges under \"Do I think that ...?\"); compared lower-cased",
    )
