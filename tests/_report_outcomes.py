"""Case outcomes for the report tests: a few passing and failing cases of two capabilities."""

from __future__ import annotations

from s2lct.run.report import CaseOutcome


THREE_CLASS = {"negative": 0.1, "neutral": 0.2, "positive": 0.7}
BINARY = {"negative": 0.3, "neutral": 0.0, "positive": 0.7}  # binary models' adapters report p(neutral) 0


def outcome(cid, cap, passed, predicted="positive", seed_case=None, seed_passed=None, truncated=False, text=None,
            probs=THREE_CLASS):
    return CaseOutcome(cid, cap, text or f"text of {cid}", ("negative",), predicted, dict(probs), passed, truncated,
                       seed_case, seed_passed)


def sample_outcomes():
    return [
        outcome("LC10-a", "LC10", False),
        outcome("LC2-a", "LC2", True, "negative"),
        outcome("LC2-b", "LC2", False),
        outcome("LC2-c", "LC2", False, seed_case="LC2-a", seed_passed=True),   # seed passed, expansion failed
        outcome("LC2-d", "LC2", False, seed_case="LC2-b", seed_passed=False),  # both failed
        outcome("LC2-e", "LC2", True, "negative", seed_case="LC2-a", seed_passed=True, truncated=True),
    ]


def binary_outcomes():
    """A binary model's failures on either side of the band and inside it (p(positive) 0.1, 0.5, 0.9)."""
    return [
        outcome("LC1-a", "LC1", False, "negative", probs={"negative": 0.9, "neutral": 0.0, "positive": 0.1}),
        outcome("LC1-b", "LC1", False, "neutral", probs={"negative": 0.5, "neutral": 0.0, "positive": 0.5}),
        outcome("LC1-c", "LC1", False, "positive", probs={"negative": 0.1, "neutral": 0.0, "positive": 0.9}),
    ]
