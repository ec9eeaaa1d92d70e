"""The CI reproducibility check compares exactly the seed/template cases, whatever expansions a suite holds."""

from __future__ import annotations

from s2lct.suite import Case, Fragment, SeedRef, seed_case_differences, write_cases


def _case(i: int, text: str, expansion: dict | None = None) -> Case:
    seed = SeedRef("s", text, "negative", "train", i)
    return Case(f"LC4-{i:04d}", "LC4", text, ("neutral", "positive"), "negated", "none", (seed,), (Fragment(0, len(text), text, "seed", "negative", "s"),), expansion)


def _suite(folder, cases):
    folder.mkdir()
    write_cases(folder / "LC4.jsonl", sorted(cases, key=lambda c: c.id))
    return folder


def test_expansion_cases_are_left_out_and_equal_seed_cases_pass(tmp_path):
    seeds = [_case(i, f"This isn't case {i}.") for i in range(5)]
    expanded = [_case(100 + i, f"This isn't quite case {i}.", {"seed_case": f"LC4-{i:04d}"}) for i in range(3)]
    committed = _suite(tmp_path / "committed", seeds + expanded)
    fresh = _suite(tmp_path / "fresh", seeds)
    assert seed_case_differences(committed, fresh) == []


def test_a_changed_missing_or_extra_seed_case_fails(tmp_path):
    seeds = [_case(i, f"This isn't case {i}.") for i in range(5)]
    committed = _suite(tmp_path / "committed", seeds)
    changed = _suite(tmp_path / "changed", [*seeds[:4], _case(4, "This is more a case of 'Sacre bleu!'")])
    problems = seed_case_differences(committed, changed)
    assert problems[0] == "LC4: 1 seed/template cases changed, 0 committed ones not regenerated, 0 new ones (5 committed, 5 regenerated)"
    assert "LC4-0004 fragments" in problems[1] and "Sacre bleu" in problems[1]
    assert seed_case_differences(committed, _suite(tmp_path / "fewer", seeds[:4]))
    assert seed_case_differences(committed, _suite(tmp_path / "more", [*seeds, _case(9, "This isn't new.")]))
