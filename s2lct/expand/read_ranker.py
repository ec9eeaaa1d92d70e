"""Rank accepted expansions by how the suite's blind reads judged expansions like them (issues 22, 23).

Every candidate that reaches the suite has passed the fluency checks and the selector, yet the
blind reads of the committed suites found about one expansion in five not fluent, and the masked
LM's fill probability, which chose among them, barely tells those apart (AUC 0.56 on the reads;
the selector, trained on candidates of every kind, 0.62). This head is trained on the reads
themselves (tests/data/read_expansions.jsonl: each expansion read blind in a suite review, fluent
or with an inserted word that is not) over the selector's features, so it ranks what the reads
rank. ``generate`` uses it twice: a seed case's expansions and the word cap's drops go by its
score, and a candidate below its floor (where the reads' expansions were mostly not fluent) is
rejected as a check would reject it (``checks["reader"]``, reason ``rejected:reader``).

The head sits in the selector's file (``benchmarks/train_selector.py`` builds both; a trained
model, never committed).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from s2lct.expand.candidates import ExpansionCandidate, SeedResult

NAME = "reader"


def reader_head(path: str | None = None) -> dict[str, Any]:
    """The head trained on the reads, from the selector's file; a file built before the head
    existed names the command that rebuilds it."""
    from s2lct.errors import MissingResourceError
    from s2lct.expand.checks.selector import BUILD_COMMAND, default_path, load_head

    p = str(path or default_path())
    head = load_head(p).get(NAME)
    if head is None:
        raise MissingResourceError(f"the read ranker in {p} (the selector file predates it)", f"rebuild it with `{BUILD_COMMAND} --out {p}`")
    return head


class ReadRanker:
    """Scores accepted candidates with the head and floors them (``mark``)."""

    def __init__(self, mlm: Any, head: Mapping[str, Any] | None = None) -> None:
        self.mlm = mlm
        self.head = head if head is not None else reader_head()

    @property
    def floor(self) -> float:
        return float(self.head["floor"])

    def scores(self, candidates: Sequence[ExpansionCandidate]) -> list[float]:
        """The head's probability that each candidate reads as fluent."""
        from s2lct.expand.checks.selector import features, score_rows, with_score

        if not candidates:
            return []
        rows = features([(c.seed, c.tokens, tuple(m.position for m in c.masks)) for c in candidates], self.mlm)
        return score_rows(with_score(rows, [c.score for c in candidates]), self.head)

    def mark(self, results: Mapping[tuple[str, ...], SeedResult]) -> dict[tuple[str, ...], SeedResult]:
        """``results`` with each accepted candidate's ``checks["reader"]`` recorded; one below the
        floor moves to the rejected candidates, as if a fluency check had rejected it."""
        accepted = [c for s in sorted(results) for c in results[s].candidates]
        score = dict(zip(((c.seed, c.tokens) for c in accepted), self.scores(accepted), strict=True))
        out = {}
        for s, r in results.items():
            marked = [dataclasses.replace(c, checks={**c.checks, NAME: {"pass": score[c.seed, c.tokens] >= self.floor, "score": score[c.seed, c.tokens]}})
                      for c in r.candidates]
            out[s] = dataclasses.replace(r, candidates=tuple(c for c in marked if c.accepted),
                                         rejected=(*r.rejected, *(c for c in marked if not c.accepted)))
        return out

    def description(self) -> dict[str, Any]:
        """What the manifest records of the ranker."""
        return {"name": NAME, "floor": self.floor, "model": self.head.get("identity"), "trained_on": self.head.get("trained_on")}


def read_score(checks: Mapping[str, Any], fill_probability: float) -> float:
    """A candidate's (or expansion record's) reader score from its checks; the fill probability
    where none was recorded (the paper's engine ranks by it alone)."""
    value = checks.get(NAME)
    return float(value["score"]) if isinstance(value, Mapping) else fill_probability
