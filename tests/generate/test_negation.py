"""Negating a copula never yields a double negation ("This is not NOT a retread", "is not no ...")."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from s2lct.generate.cases import build_capability
from s2lct.generate.transforms import NEGATORS, TransformError, negate_copula, Variant

# the inserted negation ("is not", "isn't", "are not", "aren't") directly followed by another negator
DOUBLE_NEGATION = re.compile(
    r"\b(?:is|are)(?: not|n't) (?:" + "|".join(sorted(NEGATORS - {"n't"})) + r")\b", re.IGNORECASE
)


@pytest.mark.parametrize("capability", ["LC4", "LC5"])
def test_no_double_negation_from_any_sst_seed(capability, specs, corpus):
    # every SST sentence is searched and every matching seed is transformed (no sampling)
    result = build_capability(specs[capability], corpus, seed=0, max_cases=10**9)
    assert result.cases, "the capability found no seeds at all"
    doubled = [c.text for c in result.cases if DOUBLE_NEGATION.search(c.text)]
    assert not doubled, doubled[:5]


def test_the_detector_sees_the_known_double_negations():
    for text in ['This is not NOT a retread.', "This isn't no laughing matter.", "These are not never dull."]:
        assert DOUBLE_NEGATION.search(text), text
    assert not DOUBLE_NEGATION.search("This is not a movie that never ends.")


WORDS = st.sampled_from(["this", "This", "film", "is", "are", "Is", "not", "NOT", "n't", "no", "No", "never", "good", "a", "."])


@given(st.lists(WORDS, min_size=1, max_size=12))
def test_negate_copula_never_stacks_negators(tokens):
    v = Variant(tuple(tokens), tuple("XX" for _ in tokens), "none")
    try:
        variants = negate_copula(v)
    except TransformError:
        return
    for out in variants:
        low = [t.lower() for t in out.tokens]
        i = next(i for i, t in enumerate(low) if t in ("is", "are"))
        assert low[i + 1] in ("not", "n't")
        assert i + 2 >= len(low) or low[i + 2] not in NEGATORS, out.tokens
