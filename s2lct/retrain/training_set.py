"""What a round trains on: the capability's cases, task sentences mixed in, balancing partners.

A capability whose expected labels are one-sided (LC4 "not bad" → [neutral, positive], LC6, LC10,
LC11) gives the model a training set that only ever pulls p(positive) one way; it learns the global
shift, not the construction. **Balancing** pairs every case that pulls one way with a task sentence
of the opposite gold label and keeps the pair side by side in a fixed, seeded order, so every batch
pulls both ways about equally (:func:`batch_imbalance` states the bound). **Mixing** adds task
sentences at a ratio to the cases (as pairs of one positive and one negative when the order is
balanced).

Task sentences are SST train sentences with a polar label and five words or more, written the way
the suite writes its seeds (detokenised, cased; :class:`TaskPools`) rather than as GLUE SST-2's
lower-cased PTB tokens, so that surface form cannot tell cases from task sentences. Seeds of
held-out cases are never task sentences (:meth:`TaskPools.without`).

What balancing does to a one-sided capability (measured, docs/retraining.md): every partner of LC6
is a negative sentence, so the model learns "a sentence without the frame is negative" and predicts
almost every SST-2 dev sentence negative. Mixing keeps the task sentences' own label balance.

Joint checkpoint selection (:mod:`s2lct.retrain.selection`) scores general accuracy on sentences
neither training nor the accounting uses: 1,000 polar sentences of SST's *test* split (GLUE SST-2
train is SST's train split and its dev split is SST's dev, which the accounting reports). A proxy
from another domain does not track SST-2 dev: on the IMDb sentences of the UCI Sentiment Labelled
Sentences, general accuracy rose by a point while SST-2 dev fell by 2.5 (LC6, mix, seed 0).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from pathlib import Path

from ..errors import MissingResourceError
from ..suite import Case
from .targets import allowed_vector
from .train import Example

#: what balancing guarantees: in every batch, examples pulling p(positive) up and those pulling it
#: down differ by at most this many (a pair can be cut by each of the batch's two boundaries)
MAX_BATCH_IMBALANCE = 2
POSITIVE = (0.0, 0.0, 1.0)
NEGATIVE = (1.0, 0.0, 0.0)


def direction(allowed: Sequence[float]) -> int:
    """+1 if training pulls p(positive) up (positive allowed, negative not), -1 if down, else 0."""
    neg, _neu, pos = (bool(x) for x in allowed)
    return (pos and not neg) - (neg and not pos)


def case_examples(cases: Sequence[Case]) -> list[Example]:
    return [Example(c.text, tuple(allowed_vector(c.expected))) for c in cases]  # type: ignore[arg-type]


GENERAL_SENTENCES = 1000


def load_general(data_root: str | Path, n: int = GENERAL_SENTENCES) -> list[Example]:
    """The general-accuracy sentences for joint selection (module docstring), in a fixed order."""
    from ..corpus.sst import load_sst

    rows = sorted((s.text, s.label) for s in load_sst(Path(data_root), ["test"]) if s.label in ("positive", "negative"))
    if not rows:
        raise MissingResourceError(Path(data_root) / "sst" / "trees" / "test.txt",
                                   "joint checkpoint selection scores general accuracy on SST's test split; set S2LCT_DATA_ROOT "
                                   "or --data-root, or use --select validation")
    rows = random.Random("s2lct-general").sample(rows, min(n, len(rows)))
    return [Example(t, POSITIVE if y == "positive" else NEGATIVE, "general") for t, y in rows]


@dataclass(frozen=True)
class TaskPools:
    """Task sentences to pair and mix in, by label; and the general sentences (never trained on)."""

    general: list[Example]
    positive: list[str]
    negative: list[str]

    @classmethod
    def build(cls, sentences: Sequence[tuple[str, str]], general: Sequence[Example] = ()) -> TaskPools:
        """From ``(text, label)`` rows: polar ones of five words or more, sorted (seeded shuffles happen per round)."""
        rows = sorted({(t, y) for t, y in sentences if y in ("positive", "negative") and len(t.split()) >= 5})
        return cls(list(general), [t for t, y in rows if y == "positive"], [t for t, y in rows if y == "negative"])

    def without(self, texts: set[str]) -> TaskPools:
        """The pools less ``texts`` (the seed sentences of held-out cases)."""
        return TaskPools(self.general, [t for t in self.positive if t not in texts], [t for t in self.negative if t not in texts])


def training_examples(
    cases: Sequence[Case], pools: TaskPools | None, *, mix: float = 0.0, balance: bool = False, key: str = "0",
) -> tuple[list[Example], dict[str, int]]:
    """The examples of one round (in training order when ``balance``) and how many of each source."""
    examples = case_examples(cases)
    rng = random.Random(f"s2lct-training-set:{key}")
    n_mix = round(mix * len(examples)) if pools else 0
    if not balance:
        if n_mix:
            pool = [(t, 1) for t in pools.positive] + [(t, 0) for t in pools.negative]  # type: ignore[union-attr]
            pool.sort()
            sample = rng.sample(pool, min(n_mix, len(pool)))
            examples += [Example(t, POSITIVE if y else NEGATIVE, "task") for t, y in sample]
        return examples, {"cases": len(cases), "task_mixed": len(examples) - len(cases), "task_partners": 0}
    if pools is None:
        raise ValueError("balancing needs the task sentence pools")
    pos, neg = list(pools.positive), list(pools.negative)
    rng.shuffle(pos)
    rng.shuffle(neg)
    units: list[list[Example]] = []
    partners = 0
    for ex in examples:
        d = direction(ex.allowed)
        if d == 0:
            units.append([ex])
            continue
        partner = (neg if d > 0 else pos).pop() if (neg if d > 0 else pos) else None
        if partner is None:
            units.append([ex])
            continue
        partners += 1
        units.append([ex, Example(partner, NEGATIVE if d > 0 else POSITIVE, "task")])
    mixed = 0
    for _ in range(n_mix // 2):
        if not pos or not neg:
            break
        units.append([Example(pos.pop(), POSITIVE, "task"), Example(neg.pop(), NEGATIVE, "task")])
        mixed += 2
    rng.shuffle(units)
    ordered = [ex for unit in units for ex in unit]
    return ordered, {"cases": len(cases), "task_mixed": mixed, "task_partners": partners}


def batch_imbalance(examples: Sequence[Example], batch_size: int) -> list[int]:
    """Per batch (in order), |#examples pulling up - #pulling down|."""
    out = []
    for start in range(0, len(examples), batch_size):
        out.append(abs(sum(direction(e.allowed) for e in examples[start : start + batch_size])))
    return out
