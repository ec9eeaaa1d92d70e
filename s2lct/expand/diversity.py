"""Diversity of test cases (METHOD §1.4, the original tool's metrics), measured like for like.

- Self-BLEU: the BLEU of each sampled case against all other sampled cases, averaged (lower =
  more diverse); nltk's ``sentence_bleu`` with smoothing method 1, 4-gram weights. Both columns
  (seeds, seeds+expansions) are scored on samples of the *same size* (the smaller of ``sample``
  and the seed cases), because Self-BLEU depends on the number of references. The 95% interval
  is a percentile bootstrap over the per-case scores of that sample (``bootstrap`` resamples;
  the references stay the sample): it says how much the figure depends on which cases were
  scored, at no extra BLEU computation.
- Production coverage: the number of distinct non-lexical grammar productions in the parses of
  *every* case (parses are cached by the parser, so a second run is fast), and, like for like, on
  an equal-size sample of each column (as many cases as the seeds column has).

Samples are drawn with a fixed seed, so the same suite gives the same figures. (The earlier
version parsed at most 1,000 cases per column, so a column with expansions could show *fewer*
productions than its seeds alone: an artifact of the cap.)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from nltk import Tree

from s2lct.progress import no_progress

from s2lct.expand.grammar import format_production, productions


def tokenize(text: str) -> list[str]:
    """PTB tokens of a case text (what the parser expects: ``-LRB-``, `````` quotes)."""
    from nltk.tokenize import TreebankWordTokenizer

    return TreebankWordTokenizer().tokenize(text, convert_parentheses=True)


def _sample(items: Sequence[Any], n: int | None, seed: int) -> list[Any]:
    if n is None or len(items) <= n:
        return list(items)
    return random.Random(seed).sample(list(items), n)


def self_bleu_scores(sentences: Sequence[Sequence[str]], *, sample: int | None = 200, seed: int = 0, max_n: int = 4) -> list[float]:
    """BLEU of each of (at most ``sample``) sentences against the others; [] if fewer than 2."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    chosen = [list(s) for s in _sample(sentences, sample, seed)]
    if len(chosen) < 2:
        return []
    weights = tuple([1.0 / max_n] * max_n)
    smooth = SmoothingFunction().method1
    return [
        sentence_bleu(chosen[:i] + chosen[i + 1 :], hyp, weights=weights, smoothing_function=smooth)
        for i, hyp in enumerate(chosen)
    ]


def self_bleu(sentences: Sequence[Sequence[str]], *, sample: int | None = 200, seed: int = 0, max_n: int = 4) -> float | None:
    """Mean BLEU of each of (at most ``sample``) sentences against the others; ``None`` if < 2."""
    scores = self_bleu_scores(sentences, sample=sample, seed=seed, max_n=max_n)
    return sum(scores) / len(scores) if scores else None


def bootstrap_interval(values: Sequence[float], *, resamples: int = 1000, seed: int = 0, level: float = 0.95) -> tuple[float, float] | None:
    """Percentile bootstrap interval of the mean of ``values`` (None if empty)."""
    if not values:
        return None
    rng = random.Random(seed)
    n = len(values)
    means = sorted(sum(values[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    lo = means[int((1 - level) / 2 * (resamples - 1))]
    hi = means[int((1 + level) / 2 * (resamples - 1))]
    return lo, hi


def distinct_productions(trees: Iterable[Tree | None]) -> set[str]:
    """Distinct non-lexical productions (``NP -> DT NN``) of the given parses."""
    return {format_production(lhs, rhs) for t in trees if t is not None for lhs, rhs in productions(t)}


def diversity_report(
    suite_dir: str | Path,
    *,
    only: Iterable[str] | None = None,
    sample: int = 200,
    bootstrap: int = 1000,
    seed: int = 0,
    parser: Any = None,
    progress: Any = None,
    max_cases: int | None = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per capability, for ``seeds`` (cases without expansion) and ``seeds+expansions`` (all)::

        {"cases": n, "self_bleu": float | None, "self_bleu_ci": [lo, hi] | None, "self_bleu_sample": m,
         "productions": int (every case), "productions_sample": k, "productions_at_sample": int}

    Self-BLEU uses ``m = min(sample, seed cases)`` cases in both columns; ``productions_at_sample``
    counts productions on ``k`` = the seed cases' number of cases of each column. Samples are
    drawn with ``seed``. ``parser`` defaults to ``parsing.Parser()`` (parses are cached). With
    ``max_cases`` each capability is first sampled down to that many cases (seeded), so a suite of
    tens of thousands of template cases (an imported CheckList suite) is compared without parsing
    every one.
    ``progress`` (a ``ProgressFactory``) reports parsing, the slow part, in chunks of 64 sentences."""
    from s2lct.suite import load_suite

    cases = load_suite(suite_dir, only=only)
    by_cap: dict[str, list[Any]] = {}
    for c in cases:
        by_cap.setdefault(c.capability, []).append(c)
    groups: dict[str, dict[str, list[list[str]]]] = {}
    for cap, cs in sorted(by_cap.items()):
        cs = sorted(cs, key=lambda c: c.id)
        if max_cases is not None and len(cs) > max_cases:
            cs = sorted(_sample(cs, max_cases, seed), key=lambda c: c.id)
        groups[cap] = {"seeds": [tokenize(c.text) for c in cs if c.expansion is None], "seeds+expansions": [tokenize(c.text) for c in cs]}
    if parser is None:
        from s2lct.expand.parsing import Parser

        parser = Parser()
    all_sents = list(dict.fromkeys(tuple(t) for cols in groups.values() for toks in cols.values() for t in toks))
    task = (progress or no_progress)("parsing cases", len(all_sents))
    trees: dict[tuple[str, ...], Any] = {}
    for i in range(0, len(all_sents), 64):
        chunk = all_sents[i : i + 64]
        trees.update(zip(chunk, parser.parse(chunk)))
        task.advance(len(chunk))
    task.close()
    report: dict[str, dict[str, dict[str, Any]]] = {}
    for cap, cols in groups.items():
        n_seed = len(cols["seeds"])
        m = min(sample, n_seed)
        for group, toks in cols.items():
            scores = self_bleu_scores(toks, sample=m, seed=seed)
            ci = bootstrap_interval(scores, resamples=bootstrap, seed=seed)
            at = _sample(toks, n_seed, seed)
            report.setdefault(cap, {})[group] = {
                "cases": len(toks),
                "self_bleu": sum(scores) / len(scores) if scores else None,
                "self_bleu_ci": list(ci) if ci else None,
                "self_bleu_sample": len(scores),
                "productions": len(distinct_productions(trees[tuple(t)] for t in toks)),
                "productions_sample": len(at),
                "productions_at_sample": len(distinct_productions(trees[tuple(t)] for t in at)),
            }
    return report


DIVERSITY_FOOTER = (
    "S: seed cases only; S+E: seed cases and their expansions. n: cases per column for Self-BLEU (the "
    "same in both); BLEU: Self-BLEU of those n cases against each other, ± half the 95% bootstrap interval "
    "(lower = more diverse); Prod.: distinct grammar productions (NP -> DT NN) in the parses of every case "
    "(higher = more varied syntax); k: the seed cases' count; P@k: productions in k cases of each column "
    "(like for like)."
)


def diversity_table(report: dict[str, Any], title: str) -> Any:
    """The figures per capability as a terminal table within 80 columns, and what each column means."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from s2lct.suite import natural_key

    table = Table(title=title, title_justify="left")
    for col in ("ID", "n", "BLEU\nS", "BLEU\nS+E", "Prod.\nS", "Prod.\nS+E", "k", "P@k\nS", "P@k\nS+E"):
        table.add_column(col, justify="left" if col == "ID" else "right", overflow="fold")

    def bleu(v: dict[str, Any]) -> str:
        if v["self_bleu"] is None:
            return "-"
        lo, hi = v["self_bleu_ci"]
        return f"{v['self_bleu']:.3f}±{(hi - lo) / 2:.3f}".replace("±0.", "±.")

    for cap, row in sorted(report.items(), key=lambda kv: natural_key(kv[0])):
        a, b = row["seeds"], row["seeds+expansions"]
        table.add_row(cap, str(a["self_bleu_sample"]), bleu(a), bleu(b), str(a["productions"]), str(b["productions"]),
                      str(a["productions_sample"]), str(a["productions_at_sample"]), str(b["productions_at_sample"]))
    return Group(table, Text(DIVERSITY_FOOTER, style="dim"))

