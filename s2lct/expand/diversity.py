"""Diversity of test cases (METHOD §1.4, the original tool's metrics).

- Self-BLEU: the mean BLEU of each sampled case against all other sampled cases (lower = more
  diverse); nltk's ``sentence_bleu`` with smoothing method 1, 4-gram weights.
- Production coverage: the number of distinct non-lexical grammar productions in the parses of
  the cases (higher = more syntactic variety).

Both are computed on a sample drawn with a fixed seed, so the same suite gives the same figures,
and seeds vs seeds+expansions are compared on samples of at most the same size.
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


def self_bleu(sentences: Sequence[Sequence[str]], *, sample: int | None = 200, seed: int = 0, max_n: int = 4) -> float | None:
    """Mean BLEU of each of (at most ``sample``) sentences against the others; ``None`` if < 2."""
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    chosen = [list(s) for s in _sample(sentences, sample, seed)]
    if len(chosen) < 2:
        return None
    weights = tuple([1.0 / max_n] * max_n)
    smooth = SmoothingFunction().method1
    scores = [
        sentence_bleu(chosen[:i] + chosen[i + 1 :], hyp, weights=weights, smoothing_function=smooth)
        for i, hyp in enumerate(chosen)
    ]
    return sum(scores) / len(scores)


def distinct_productions(trees: Iterable[Tree | None]) -> set[str]:
    """Distinct non-lexical productions (``NP -> DT NN``) of the given parses."""
    return {format_production(lhs, rhs) for t in trees if t is not None for lhs, rhs in productions(t)}


def diversity_report(
    suite_dir: str | Path,
    *,
    only: Iterable[str] | None = None,
    sample: int | None = 200,
    max_cases: int | None = 1000,
    seed: int = 0,
    parser: Any = None,
    progress: Any = None,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Per capability, for ``seeds`` (cases without expansion) and ``seeds+expansions`` (all):
    ``{"cases": n, "sampled": m, "self_bleu": float | None, "productions": int}``.

    Self-BLEU uses ``sample`` cases, production coverage ``max_cases`` cases (None: all), both
    drawn with ``seed``. ``parser`` defaults to ``parsing.Parser()`` (parses are cached).
    ``progress`` (a ``ProgressFactory``) reports parsing, the slow part, in chunks of 64 sentences."""
    from s2lct.suite import load_suite

    cases = load_suite(suite_dir, only=only)
    by_cap: dict[str, list[Any]] = {}
    for c in cases:
        by_cap.setdefault(c.capability, []).append(c)
    groups: dict[tuple[str, str], list[list[str]]] = {}
    for cap, cs in sorted(by_cap.items()):
        cs = sorted(cs, key=lambda c: c.id)
        groups[(cap, "seeds")] = [tokenize(c.text) for c in cs if c.expansion is None]
        groups[(cap, "seeds+expansions")] = [tokenize(c.text) for c in cs]
    picked = {key: _sample(toks, max_cases, seed) for key, toks in groups.items()}
    if parser is None:
        from s2lct.expand.parsing import Parser

        parser = Parser()
    all_sents = list(dict.fromkeys(tuple(t) for toks in picked.values() for t in toks))
    task = (progress or no_progress)("parsing cases", len(all_sents))
    trees: dict[tuple[str, ...], Any] = {}
    for i in range(0, len(all_sents), 64):
        chunk = all_sents[i : i + 64]
        trees.update(zip(chunk, parser.parse(chunk)))
        task.advance(len(chunk))
    task.close()
    report: dict[str, dict[str, dict[str, Any]]] = {}
    for (cap, group), toks in groups.items():
        report.setdefault(cap, {})[group] = {
            "cases": len(toks),
            "sampled": len(picked[(cap, group)]),
            "self_bleu": self_bleu(toks, sample=sample, seed=seed),
            "productions": len(distinct_productions(trees[tuple(t)] for t in picked[(cap, group)])),
        }
    return report
