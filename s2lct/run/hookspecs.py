"""pytest hooks the s2lct plugin calls, so later stages can add to failures without run/ importing them."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.hookspec(firstresult=True)
def pytest_s2lct_explain_failure(config: pytest.Config, case: Any, model: Any, prediction: Any) -> dict[str, Any] | None:
    """Explain a failing case: return ``{"message": str, "explanation": dict}`` or ``None``.

    ``message`` is appended to the failure message; ``explanation`` goes into the report files.
    Implemented by :mod:`s2lct.explain.pytest_plugin` (``--s2lct-explain EXPLAINER``).
    """
