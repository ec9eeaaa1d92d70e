"""The explainer catalogue: built-in explainers plus any registered through entry points."""

from __future__ import annotations

from collections.abc import Iterable

from . import deeplift, gradient, lime, limsse, perturbation  # noqa: F401  (they register themselves)
from s2lct.suggest import unknown_name

from .base import ExplainError, Explainer, explainers

#: The default set of ``s2lct explain``: cheap, complementary, applicable to every model kind first.
DEFAULT_EXPLAINERS = ("ig", "occlusion1", "limsse_ms_p")


def available() -> list[str]:
    """Registered explainer names, in registration order."""
    return list(explainers.get_all())


def get_explainer(name: str) -> Explainer:
    names = available()
    if name not in names:
        raise ExplainError(unknown_name("explainer", name, names, valid_label="registered"))
    return explainers.get(name)()


def parse_explainers(value: str | Iterable[str] | None) -> list[Explainer]:
    """``"ig,occlusion1"`` (or a list) → explainers; unknown names list the registered ones."""
    if value is None:
        value = DEFAULT_EXPLAINERS
    parts = value.split(",") if isinstance(value, str) else list(value)
    names = list(dict.fromkeys(p.strip() for p in parts if p.strip()))
    if not names:
        raise ExplainError(f"no explainer given; registered: {', '.join(available())}")
    return [get_explainer(n) for n in names]
