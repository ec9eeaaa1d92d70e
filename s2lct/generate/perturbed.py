"""INV and DIR capabilities (a spec's ``test:`` section): each seed case the templates built becomes
the original of a pair case whose perturbed text comes from a registered perturbation.

A seed case the perturbation finds nothing to change in (no name to swap, no adjective to
intensify) is dropped and counted, never kept as an identical pair that tests nothing.
"""

from __future__ import annotations

from s2lct.suite import CapabilityResult, Case, Direction, case_id


def apply_test(result: CapabilityResult, seed: int, limit: int | None = None) -> None:
    """Replace ``result``'s cases by at most ``limit`` INV/DIR pair cases, in place; counts go to
    ``result.extra``. The seed cases are taken in a seeded random order and perturbed a chunk at a
    time until ``limit`` pairs exist, so the sample is drawn among cases the perturbation applies
    to (a name swap finds a name in few seeds) without perturbing every candidate."""
    import random

    from s2lct.perturb.registry import get_perturbation, perturb_all

    spec, test = result.spec, result.spec.test
    assert test is not None, "apply_test is for specs with a test: section"
    perturbation = get_perturbation(test.perturbation)
    direction = None
    if test.type == "dir":
        own = perturbation.direction
        label, change = (test.direction.label, test.direction.change) if test.direction else (own.label, own.change)
        direction = Direction(label, change, test.margin, test.tolerance or 0.0, tuple(test.unless_original))
    order = random.Random(f"s2lct:{seed}:{spec.id}:pairs").sample(result.cases, len(result.cases))
    chunk = len(order) if limit is None else max(limit, 100)
    pairs: list[Case] = []
    tried = skipped = 0
    while tried < len(order) and (limit is None or len(pairs) < limit):
        part = order[tried : tried + chunk]
        done, nothing = perturb_all(test.perturbation, [c.text for c in part], seed=f"{seed}:{spec.id}:{tried}")
        tried += len(part)
        skipped += len(nothing)
        skipped_here = set(nothing)
        kept = [c for i, c in enumerate(part) if i not in skipped_here]
        for c, p in zip(kept, done, strict=True):
            assert p.original == c.text and p.text != c.text
            pairs.append(Case(
                id=case_id(spec.id, c.id, test.type, test.perturbation, p.text), capability=c.capability, text=c.text, expected=(),
                template=c.template, transform=f"{c.transform}+{test.type}:{test.perturbation}", seeds=c.seeds, fragments=c.fragments,
                test_type=test.type, perturbed=(p.text,), perturbation=test.perturbation, direction=direction,
                tolerance=test.tolerance if test.type == "inv" else None,
            ))
    out: dict[str, Case] = {}
    for case in pairs[:limit] if limit is not None else pairs:
        out.setdefault(case.id, case)
    result.cases = [out[k] for k in sorted(out)]
    result.origins = {}
    result.extra["perturbation"] = {"name": test.perturbation, "type": test.type, "candidates": len(order), "tried": tried,
                                    "nothing_to_change": skipped, "cases": len(result.cases)}
