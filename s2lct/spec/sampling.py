"""The ``sampling`` section of a spec: how many seed cases, and the committed seed review that leaves
some out."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator

from s2lct.spec.terms import StrictModel

#: verdicts of a seed review (docs/specs.md, "Seed review"); ``clean`` is the one a review never excludes
ReviewVerdict = Literal["clean", "mixed", "descriptive", "wrong_label", "off_target", "needs_context", "not_fluent", "presupposed"]


class SeedReview(StrictModel):
    """A committed blind read of seed sentences: cases built on a seed it marks with one of
    ``exclude`` are left out. The seed rules (``seed_rules``) cannot see whether a sentence is an opinion at all
    ("He allows his cast members to make creative contributions.") or leans on a sentence before
    it ("In other words, ..."); a reader can. Loaded and checked by ``s2lct.spec.review``."""

    file: str = Field(
        min_length=1,
        description="JSON Lines file of verdicts, relative to the spec file; one row per seed: {source, split, index, text, verdict, note}",
    )
    exclude: list[ReviewVerdict] = Field(
        min_length=1,
        description=(
            "verdicts whose seeds are left out: mixed, descriptive, wrong_label, off_target, needs_context, not_fluent, "
            "presupposed (a clean opinion that a denial does not reach: for the capabilities that deny or negate a seed)"
        ),
    )
    #: the file as read (``s2lct.spec.review.ReviewFile``), set when the loader resolves ``file``
    _loaded: Any = PrivateAttr(default=None)

    @field_validator("exclude")
    @classmethod
    def _not_clean(cls, v: list[str]) -> list[str]:
        if "clean" in v:
            raise ValueError("'clean' marks the seeds a review keeps; exclude lists the others (mixed, descriptive, ...)")
        return v


class Sampling(StrictModel):
    max_cases: int | None = Field(default=None, ge=1, description="sample at most this many seed cases (fixed seed)")
    seed_review: SeedReview | None = Field(
        default=None,
        description=(
            "leave out the cases built on seeds a committed review marks with one of exclude; where the spec samples, "
            "their places go to the next cases of the same draw, so every other case stays"
        ),
    )
