"""Train/validation/test split of a suite's cases by seed sentence (METHOD.md §1.4, paper §6.1).

A seed sentence's template cases and its expansions must land in one split, or the test split would
hold near-copies of training cases. Cases built from several seeds (LC7, LC8 pair two sentences)
join those seeds, so the unit of the split is a connected group of seed sentences (union-find over
seed texts; expansions carry their seed's text). Groups are shuffled with the run's seed and dealt
so that every capability gets close to 8:1:1 of its cases (:func:`split_by_seed`).

scikit-learn's ``GroupShuffleSplit`` does one two-way split by group and is not installed; the
union-find and the deal are a few lines.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import S2LCTError
from ..suite import Case, natural_key

SPLITS: tuple[str, str, str] = ("train", "validation", "test")
RATIO: tuple[int, int, int] = (8, 1, 1)
#: Fewest seed groups a capability needs: with 8:1:1, ten give validation and test one group each.
MIN_SEED_GROUPS = 10


class SplitError(S2LCTError):
    """A capability has too few seed sentences for the 8:1:1 split."""

    exit_code = 2


@dataclass(frozen=True)
class SeedSplit:
    """Case id → split, and the seed groups behind it (recorded in the run folder)."""

    assignment: dict[str, str]
    groups: dict[str, list[str]]  # group key (its first seed text) -> case ids
    seed: int

    def cases(self, cases: Sequence[Case], split: str) -> list[Case]:
        return [c for c in cases if self.assignment.get(c.id) == split]

    def counts(self, cases: Sequence[Case]) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cases:
            if c.id in self.assignment:
                out[c.capability][self.assignment[c.id]] += 1
        return {cap: {s: cnt[s] for s in SPLITS} for cap, cnt in sorted(out.items(), key=lambda kv: natural_key(kv[0]))}

    def to_json(self) -> dict[str, object]:
        return {"seed": self.seed, "ratio": list(RATIO), "assignment": dict(sorted(self.assignment.items()))}


def seed_texts(case: Case) -> list[str]:
    """The seed sentences a case depends on (an expansion also names the unexpanded seed case)."""
    texts = [s.text for s in case.seeds]
    return texts or [case.seed_case_id or case.id]


def seed_groups(cases: Sequence[Case]) -> dict[str, list[Case]]:
    """Connected groups of seed sentences (joined by shared cases) → their cases, in suite order;
    each group keyed by its smallest seed text, whatever order the cases come in."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = parent.setdefault(x, x)
        while root != parent[root]:
            parent[root] = parent[parent[root]]
            root = parent[root]
        parent[x] = root
        return root

    for c in cases:
        texts = seed_texts(c)
        for t in texts[1:]:
            a, b = find(texts[0]), find(t)
            if a != b:
                # the smaller text roots the union, so a group's root is its smallest seed text: with
                # the first-come root, adding expansions to a suite renamed groups and reshuffled splits
                parent[max(a, b)] = min(a, b)
    groups: dict[str, list[Case]] = {}
    for c in cases:
        groups.setdefault(find(seed_texts(c)[0]), []).append(c)
    return groups


def split_by_seed(cases: Sequence[Case], seed: int = 0, min_groups: int = MIN_SEED_GROUPS) -> SeedSplit:
    """Deal seed groups into train/validation/test, 8:1:1 per capability, deterministically for ``seed``.

    Groups are shuffled, then each goes to the split furthest below its share of seed groups, summed
    over the capabilities the group holds cases of (each capability's shortfall relative to its
    group count), so capabilities that share seed sentences are balanced together. Counting groups,
    not cases, guarantees a capability with at least ``min_groups`` groups of its own a validation
    and a test group; cases follow at about 8:1:1 because a seed's cases number a handful.
    """
    groups = seed_groups(cases)
    sizes = Counter(c.capability for c in cases)
    n_groups = Counter(cap for members in groups.values() for cap in {c.capability for c in members})
    for cap in sorted(sizes, key=natural_key):
        if n_groups[cap] < min_groups:
            raise SplitError(
                f"capability {cap} has {n_groups[cap]} seed sentence group(s); the 8:1:1 split by seed needs at "
                f"least {min_groups} (so validation and test each get one); generate more cases for {cap} or leave it out"
            )
    keys = sorted(groups)
    random.Random(f"s2lct-split:{seed}").shuffle(keys)
    share = [r / sum(RATIO) for r in RATIO]
    filled: dict[str, list[int]] = {cap: [0, 0, 0] for cap in sizes}
    assignment: dict[str, str] = {}
    for key in keys:
        held = {c.capability for c in groups[key]}
        shortfall = [sum((share[s] * n_groups[cap] - filled[cap][s]) / n_groups[cap] for cap in held) for s in range(3)]
        s = max(range(3), key=lambda i: (shortfall[i], -i))
        for cap in held:
            filled[cap][s] += 1
        for c in groups[key]:
            assignment[c.id] = SPLITS[s]
    for cap in sorted(sizes, key=natural_key):
        empty = [SPLITS[s] for s in range(3) if not filled[cap][s]]
        if empty:
            raise SplitError(f"capability {cap}: its {n_groups[cap]} seed group(s) share seeds with other capabilities so that "
                             f"its {', '.join(empty)} split stays empty; retrain on fewer capabilities at once")
    return SeedSplit(assignment, {k: [c.id for c in v] for k, v in groups.items()}, seed)
