"""s2lct: specification- and syntax-based linguistic capability tests for sentiment models."""

__version__ = "0.1.0"

LABELS: tuple[str, ...] = ("negative", "neutral", "positive")
