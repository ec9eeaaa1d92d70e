"""The insert operation, token patterns in search rules (spaCy Matcher), and the intensifier spec."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from pydantic import ValidationError

from s2lct.generate.search import matches
from s2lct.generate.transforms import TransformError, apply_ops
from s2lct.spec import Insert, SearchRule, load_spec

INTENSIFIER_SPEC = Path(__file__).resolve().parents[2] / "specs" / "LC12.yaml"

COPULA_ADJ = [{"LOWER": {"IN": ["is", "was"]}}, {"TAG": "JJ"}]


def _texts(variants) -> list[str]:
    return [" ".join(v.tokens) for v in variants]


def test_insert_before_the_first_adjective_one_variant_per_word():
    op = Insert(insert=["very", "quite a bit"], before=[{"POS": "ADJ"}])
    out = apply_ops(("The", "plot", "is", "thin", "and", "dull", "."), ("DT", "NN", "VBZ", "JJ", "CC", "JJ", "."), [op])
    assert _texts(out) == ["The plot is very thin and dull .", "The plot is quite a bit thin and dull ."]
    assert [v.name for v in out] == ["insert:very", "insert:quite a bit"]
    assert out[0].tags == ("DT", "NN", "VBZ", "RB", "JJ", "CC", "JJ", ".")


def test_insert_after_last_match_and_at_a_token_of_the_match():
    tags = ("DT", "NN", "VBZ", "JJ", "CC", "JJ", ".")
    tokens = ("The", "plot", "is", "thin", "and", "dull", ".")
    last = Insert(insert=["indeed"], after=[{"POS": "ADJ"}], which="last")
    assert _texts(apply_ops(tokens, tags, [last])) == ["The plot is thin and dull indeed ."]
    inner = Insert(insert=["very"], before=COPULA_ADJ, token=1)
    assert _texts(apply_ops(tokens, tags, [inner])) == ["The plot is very thin and dull ."]


def test_insert_at_the_start_moves_the_capital():
    op = Insert(insert=["very"], before=[{"TAG": "JJ"}])
    assert _texts(apply_ops(("Good", "fun", "."), ("JJ", "NN", "."), [op])) == ["Very good fun ."]
    really = Insert(insert=["really"], before=[{"LOWER": "i"}])
    assert _texts(apply_ops(("I", "liked", "it", "."), ("PRP", "VBD", "PRP", "."), [really])) == ["Really I liked it ."]


def test_no_match_skips_the_seed():
    with pytest.raises(TransformError, match="no match"):
        apply_ops(("It", "works", "."), ("PRP", "VBZ", "."), [Insert(insert=["very"], before=[{"POS": "ADJ"}])])


def _sentence(tokens, tags):
    return SimpleNamespace(label="positive", n_words=len(tokens), word_classes=frozenset(), words=frozenset(t.lower() for t in tokens),
                           text=" ".join(tokens), tokens=tuple(tokens), tags=tuple(tags))


def test_token_pattern_search_rule_finds_an_adjective_right_after_very():
    rule = SearchRule(token_pattern=[{"LOWER": "very"}, {"POS": "ADJ"}])
    assert matches(rule, _sentence(["A", "very", "good", "film"], ["DT", "RB", "JJ", "NN"]))
    assert not matches(rule, _sentence(["Very", "much", "a", "good", "film"], ["RB", "RB", "DT", "JJ", "NN"]))  # not right after


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"token_pattern": [{"DEP": "amod"}]}, "attribute 'DEP' is not available"),
        ({"token_pattern": [{"POS": {"INN": ["ADJ"]}}]}, "invalid token pattern"),
        ({"token_pattern": []}, "at least one token"),
        ({"exclude_pattern": [{"DEP": "amod"}]}, "attribute 'DEP' is not available"),
    ],
)
def test_bad_token_patterns_are_refused_in_one_line(spec, message):
    with pytest.raises(ValidationError, match=message):
        SearchRule(**spec)


def test_insert_needs_exactly_one_position():
    with pytest.raises(ValidationError, match="exactly one of 'before' or 'after'"):
        Insert(insert=["very"])
    with pytest.raises(ValidationError, match="token 2 must index a token"):
        Insert(insert=["very"], before=COPULA_ADJ, token=2)


def test_intensifier_spec_inserts_an_intensifier_or_reducer_before_an_adjective(corpus):
    """Every case, re-tagged from its text by the configured spaCy pipeline: the inserted word precedes an adjective."""
    from s2lct.corpus.tagging import get_tagger
    from s2lct.generate.cases import build_capability
    from s2lct.text import tokenize

    spec = load_spec(INTENSIFIER_SPEC)
    words = {w for t in spec.templates for s in t.slots() for op in s.ops if isinstance(op, Insert) for w in op.insert}
    cases = build_capability(spec, corpus, seed=0).cases
    assert len(cases) >= 100
    toks = [tokenize(c.text) for c in cases]
    tags = get_tagger().tag(toks)
    for case, tokens, tagged in zip(cases, toks, tags):
        word = case.transform.split("insert:", 1)[1]
        assert word in words, case.transform
        at = [i for i, t in enumerate(tokens) if t.lower() == word]
        assert at, case.text
        i = at[0]
        assert tagged[i + 1].startswith("JJ"), (case.text, tokens[i + 1], tagged[i + 1])
        assert tokens[i - 1].lower() in {"is", "was", "are", "were"}, case.text
        # no relative clause's copula (read 26: "in which murder is [really] casual and fun")
        assert not {"which", "who", "whom", "whose"} & {t.lower() for t in tokens}, case.text
        # a softened adjective with more opinion after it (read 37: "is [fairly] shallow, offensive and
        # redundant") keeps the seed's label; softened alone it may read neutral
        in_a_list = tokens[i + 2].lower() in {",", "and", "or", "--", "-", ";", ":", "..."}
        assert case.template.endswith("_in_a_list") == (case.template.startswith("softened") and in_a_list), case.text
        keeps = case.template.startswith("intensified") or case.template.endswith("_in_a_list")
        assert case.expected == ((case.seeds[0].label,) if keeps else tuple(sorted({case.seeds[0].label, "neutral"})))
