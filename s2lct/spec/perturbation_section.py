"""The ``test`` section of a spec: an INV or DIR capability and the perturbation it applies."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from s2lct.spec.terms import Label, StrictModel, at_path


class DirectionSpec(StrictModel):
    label: Literal["negative", "neutral", "positive", "predicted", "polarity"] = Field(
        description="the class whose probability must move; predicted: the original's label; polarity: p(positive) - p(negative)")
    change: Literal["up", "down"]


class TestSection(StrictModel):
    """An INV or DIR capability: every case is a seed case and its perturbation (docs/specs.md, Test types)."""

    type: Literal["inv", "dir"] = Field(description="inv: the prediction must not change; dir: a probability must move one way")
    perturbation: str = Field(min_length=1, description="a registered perturbation (s2lct.perturb): typo, names, intensifiers, ...")
    direction: DirectionSpec | None = Field(default=None, description="dir: which probability moves which way (default: the perturbation's own)")
    margin: float = Field(default=0.0, ge=0, description="dir: it must move at least this much")
    tolerance: float | None = Field(default=None, ge=0, description="inv: a changed label passes when p(label) moved at most this; dir: it may move back at most this")
    unless_original: list[Label] = Field(default_factory=list, description="dir: originals predicted as these labels make a case not applicable")

    @model_validator(mode="after")
    def _fits(self) -> TestSection:
        from s2lct.perturb.registry import get_perturbation

        try:
            kind = get_perturbation(self.perturbation).kind
        except Exception as exc:  # the registry's own one-line message names the valid ones
            raise ValueError(at_path(("perturbation",), str(exc))) from None
        if kind != self.type:
            why = " (a perturbation that should change the label is DIR or MFT, never INV)" if kind == "dir" else ""
            raise ValueError(at_path(("type",), f"perturbation {self.perturbation!r} is {kind.upper()}, the test is {self.type.upper()}{why}"))
        if self.type == "inv" and (self.direction is not None or self.margin or self.unless_original):
            raise ValueError(at_path(("type",), "an INV test takes no direction, margin or unless_original"))
        if self.margin and self.tolerance:
            raise ValueError(at_path(("margin",), "give margin (it must move at least this much) or tolerance (it may move back this much), not both"))
        return self
