"""BeLUGA-style partitions of a suite for judging a retrained model (Luz de Araujo & Roth, TACL 2023).

Training on behavioural tests is judged on three partitions that never share a seed sentence:

* ``iid``: held-out cases of the trained capabilities, from templates seen in training but seed
  sentences that are not (the 8:1:1 split by seed of :mod:`s2lct.retrain.split`);
* ``unseen_template``: cases of the trained capabilities whose *frame* (the template and the exact
  template wording around the seed, e.g. "Many critics say that … , but I feel that …") was held
  out of training, with seed sentences not seen either;
* ``unseen_function``: the capabilities of the trained ones' groups that were not trained on
  (leave-one-out within a group: train on LC4, judge LC5, LC6, LC7).

Cases of the other groups are scored too (``other``: what the retraining may break), and SST-2 dev
accuracy beside. Groups come from each capability's first spec marker through
``GROUP_OF_MARKER`` (negation, contrast, question, vocabulary), or from ``--groups``.

Frames held out: in each template with at least two frames, an eighth of them (at least one), chosen
with the run's seed. Seed groups (sentences joined by a shared case) go wholly to one partition:
``TEMPLATE_GROUP_SHARE`` of the trained capabilities' groups are judged on their held-out-frame
cases (their other cases dropped); the rest drop their held-out-frame cases and are split 8:1:1 into
train, validation and ``iid``. Cases that would put one seed in two partitions are dropped and counted.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..errors import S2LCTError
from ..suite import Case, natural_key
from .split import MIN_SEED_GROUPS, seed_groups, split_by_seed

PROTOCOLS = ("seed", "beluga")
PARTITIONS = ("iid", "unseen_template", "unseen_function", "other")
#: a spec marker → the group of capabilities it puts a capability in
GROUP_OF_MARKER: Mapping[str, str] = {
    "negation": "negation", "temporal": "contrast", "attribution": "contrast", "question": "question",
    "vocabulary": "vocabulary", "intensifier": "vocabulary", "neutral": "vocabulary",
}
#: a held-out partition smaller than this is reported, but as too small to judge
MIN_JUDGED_CASES = 50
HOLDOUT_SHARE = 0.125
#: share of the trained capabilities' seed groups judged on their held-out frames (the rest trains)
TEMPLATE_GROUP_SHARE = 0.25


class ProtocolError(S2LCTError):
    exit_code = 2


def parse_groups(text: str, known: Sequence[str]) -> dict[str, str]:
    """``"negation=LC4,LC5;contrast=LC3,LC8"`` → capability → group (one-line error on a bad entry)."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(";"))):
        name, sep, caps = part.partition("=")
        if not sep or not name.strip() or not caps.strip():
            raise ProtocolError(f"--groups entry {part!r} is not NAME=LC1,LC2 (entries separated by ';')")
        for cap in (c.strip() for c in caps.split(",") if c.strip()):
            if cap not in known:
                from ..suggest import unknown_name

                raise ProtocolError(f"--groups: {unknown_name('capability', cap, known, valid_label='in the suite')}")
            if cap in out:
                raise ProtocolError(f"--groups puts {cap} in both {out[cap]!r} and {name.strip()!r}")
            out[cap] = name.strip()
    return out


def groups_from_markers(markers: Mapping[str, Sequence[str]]) -> dict[str, str]:
    """Capability → group by its first marker that ``GROUP_OF_MARKER`` knows (else its own group)."""
    return {cap: next((GROUP_OF_MARKER[m] for m in ms if m in GROUP_OF_MARKER), cap) for cap, ms in markers.items()}


def frame_of(case: Case) -> tuple[str, ...]:
    """The template and its exact wording around the seed(s)."""
    return (case.template, *(f.text.strip().lower() for f in case.fragments if f.kind != "seed"))


@dataclass(frozen=True)
class Partitions:
    """Case id → ``train``/``validation``/``iid``/``unseen_template``/``unseen_function``/``other``/``dropped``."""

    assignment: dict[str, str]
    held_out_frames: dict[str, list[list[str]]]
    groups: dict[str, str]
    unseen_capabilities: list[str]

    def ids(self, part: str) -> list[str]:
        return sorted(i for i, p in self.assignment.items() if p == part)

    def counts(self, cases: Sequence[Case]) -> dict[str, dict[str, int]]:
        out: dict[str, Counter[str]] = defaultdict(Counter)
        for c in cases:
            if c.id in self.assignment:
                out[self.assignment[c.id]][c.capability] += 1
        return {p: dict(sorted(cnt.items(), key=lambda kv: natural_key(kv[0]))) for p, cnt in sorted(out.items())}

    def to_json(self) -> dict[str, object]:
        return {"protocol": "beluga", "groups": self.groups, "unseen_capabilities": self.unseen_capabilities,
                "held_out_frames": self.held_out_frames, "assignment": dict(sorted(self.assignment.items()))}


def held_out_frames(cases: Sequence[Case], seed: int) -> dict[tuple[str, ...], str]:
    """``HOLDOUT_SHARE`` (at least one) of the frames of every template that has two or more, each
    with the capability of the first case that uses it."""
    by_template: dict[tuple[str, str], set[tuple[str, ...]]] = defaultdict(set)
    first_capability: dict[tuple[str, ...], str] = {}
    for c in cases:
        frame = frame_of(c)
        by_template[(c.capability, c.template)].add(frame)
        first_capability.setdefault(frame, c.capability)
    out: dict[tuple[str, ...], str] = {}
    for key in sorted(by_template):
        frames = sorted(by_template[key])
        if len(frames) < 2:
            continue
        rng = random.Random(f"s2lct-frames:{seed}:{key[0]}:{key[1]}")
        out.update((f, first_capability[f]) for f in rng.sample(frames, max(1, round(HOLDOUT_SHARE * len(frames)))))
    return out


def beluga_split(cases: Sequence[Case], trained: Sequence[str], groups: Mapping[str, str], seed: int = 0,
                 min_groups: int = MIN_SEED_GROUPS) -> Partitions:
    """Partition ``cases`` for training on ``trained`` (module docstring); deterministic for ``seed``."""
    trained_set = set(trained)
    mine = {groups.get(c, c) for c in trained}
    unseen = sorted({c.capability for c in cases if groups.get(c.capability, c.capability) in mine} - trained_set, key=natural_key)
    unseen_set = set(unseen)
    train_cases = [c for c in cases if c.capability in trained_set]
    frames = held_out_frames(train_cases, seed)
    assignment: dict[str, str] = {}
    kept: list[Case] = []
    mixed = []  # seed groups holding trained-capability cases
    for key, members in sorted(seed_groups([c for c in cases if c.capability in trained_set | unseen_set]).items()):
        if not any(c.capability in trained_set for c in members):
            assignment.update({c.id: "unseen_function" for c in members})
            continue
        for c in members:
            if c.capability in unseen_set:
                assignment[c.id] = "dropped"  # its seed is trained on, or judged in another partition
        mixed.append([c for c in members if c.capability in trained_set])
    random.Random(f"s2lct-template-groups:{seed}").shuffle(mixed)
    with_held = [g for g in mixed if any(frame_of(c) in frames for c in g)]
    n_template = min(len(with_held), max(1, round(TEMPLATE_GROUP_SHARE * len(mixed)))) if frames else 0
    template_groups = {id(g) for g in with_held[:n_template]}
    for g in mixed:
        for c in g:
            held = frame_of(c) in frames
            if id(g) in template_groups:
                assignment[c.id] = "unseen_template" if held else "dropped"
            elif held:
                assignment[c.id] = "dropped"
            else:
                kept.append(c)
    if not kept:
        raise ProtocolError(f"nothing left to train on in {', '.join(trained)}: all {len(train_cases)} cases went to held-out "
                            f"frames; the split needs at least {min_groups} seed groups in seen frames")
    split = split_by_seed(kept, seed=seed, min_groups=min_groups)
    for cid, part in split.assignment.items():
        assignment[cid] = "iid" if part == "test" else part
    for c in cases:
        assignment.setdefault(c.id, "other")
    held_json: dict[str, list[list[str]]] = defaultdict(list)
    for f in sorted(frames):
        held_json[frames[f]].append(list(f))
    return Partitions(assignment, dict(held_json), {c: groups.get(c, c) for c in sorted(groups, key=natural_key)}, unseen)


def partition_summary(before: object, after: object, partitions: Mapping[str, Sequence[str]]) -> dict[str, dict[str, object]]:
    """Per partition: cases, failure rate before/after, Fail→Pass, Pass→Fail (``before``/``after``:
    :class:`~s2lct.retrain.accounting.Evaluation`), flagged when too small to judge."""
    out: dict[str, dict[str, object]] = {}
    for name in PARTITIONS:
        ids = list(partitions.get(name, ()))
        b = [before.passed[i] for i in ids]  # type: ignore[attr-defined]
        a = [after.passed[i] for i in ids]  # type: ignore[attr-defined]
        n = len(ids)
        out[name] = {
            "cases": n,
            "failure_rate_before": None if not n else sum(not x for x in b) / n,
            "failure_rate_after": None if not n else sum(not x for x in a) / n,
            "fail_to_pass": sum(1 for x, y in zip(b, a) if not x and y),
            "pass_to_fail": sum(1 for x, y in zip(b, a) if x and not y),
            "too_small": n < MIN_JUDGED_CASES,
        }
    return out
