"""Values every stage agrees on, kept in a module that imports nothing from the package."""

from __future__ import annotations

__version__ = "0.1.0"

LABELS: tuple[str, ...] = ("negative", "neutral", "positive")
# Seed/template generation engine (stage 1–2 output); bumped when the cases it writes change.
# 2: detokenised quotes and periods, phrase-label and shape rules, fluent templates.
# 3: shape rule for a leading noun phrase, stray closing quotes dropped, LC9-LC12 seed rules.
# 4: seed-quality and frame rules (issue 23), spread sampling, partner seeds drawn within blocks.
# 5: seed reviews, a template's primary slot, embedding ops drop a double quote the seed never pairs.
GENERATION_VERSION = "5"
