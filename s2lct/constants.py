"""Values every stage agrees on, kept in a module that imports nothing from the package."""

from __future__ import annotations

__version__ = "0.1.0"

LABELS: tuple[str, ...] = ("negative", "neutral", "positive")
