"""Labels a reader accepts: slot polarity, phrase-label rules and seed shapes, over whole suites."""

from __future__ import annotations

import re

import pytest

from s2lct.corpus.annotate import annotate
from s2lct.corpus.polarity import get_polarity
from s2lct.corpus.shape import shape_of
from s2lct.corpus.sst import Sentence, phrase_label_counts
from s2lct.errors import S2LCTError
from s2lct.generate.cases import build_capability
from s2lct.generate.search import MissingPhraseLabels, matches, root_margin, search_pools_counted
from s2lct.spec import CapabilitySpec, SearchRule, load_specs
from s2lct.text import detokenize


def _seed(tree: str, tags: list[str], shape: str | None = "clause", source: str = "sst") -> object:
    fine = int(tree[1])
    counts = phrase_label_counts(tree) if source == "sst" else None
    tokens = tuple(t.strip("()") for t in tree.replace("(", " ").replace(")", " ").split() if not t.isdigit())
    s = Sentence(tokens, detokenize(tokens), {0: "negative", 1: "negative", 2: "neutral"}.get(fine, "positive"), "t", 0, source, fine if source == "sst" else None, counts)
    return annotate(s, tags, get_polarity(), shape)


# hand-built trees: "It is a masterpiece ." is neutral at the root but has a very positive word
NEUTRAL_WITH_STRONG_WORD = "(2 (2 It) (2 (2 (2 is) (3 (2 a) (4 masterpiece))) (2 .)))"
CLEAN_NEUTRAL = "(2 (2 It) (2 (2 (2 is) (2 (2 a) (2 documentary))) (2 .)))"
POSITIVE_WITH_STRONG_NEGATIVE = "(3 (3 (2 It) (3 (2 is) (3 fine))) (2 (2 ,) (1 (2 not) (0 awful))))"
VERY_POSITIVE = "(4 (2 It) (4 (2 is) (4 wonderful)))"
TAGS4 = ["PRP", "VBZ", "DT", "NN", "."]


def test_phrase_counts_leave_out_the_root():
    assert phrase_label_counts(NEUTRAL_WITH_STRONG_WORD) == (0, 0, 6, 1, 1)


def test_neutral_rule_refuses_a_strongly_polar_sub_phrase():
    rule = SearchRule(label="neutral", phrases={"forbid": ["very negative", "very positive"]})
    assert matches(rule, _seed(CLEAN_NEUTRAL, TAGS4))
    assert not matches(rule, _seed(NEUTRAL_WITH_STRONG_WORD, TAGS4))


def test_polar_rule_refuses_a_strong_phrase_of_the_other_polarity():
    rule = SearchRule(label="positive", phrases={"forbid": ["very negative"]})
    tags = ["PRP", "VBZ", "JJ", ",", "RB", "JJ"]
    assert not matches(rule, _seed(POSITIVE_WITH_STRONG_NEGATIVE, tags))
    assert matches(rule, _seed(VERY_POSITIVE, ["PRP", "VBZ", "JJ"]))


@pytest.mark.parametrize("fine,margin", [(0, 0.3), (1, 0.1), (2, 0.1), (3, 0.1), (4, 0.3)])
def test_root_margin_is_distance_of_the_class_middle_from_the_boundaries(fine, margin):
    assert root_margin(fine) == pytest.approx(margin)


def test_root_margin_keeps_only_clear_roots():
    rule = SearchRule(label="positive", phrases={"root_margin": 0.2})
    assert matches(rule, _seed(VERY_POSITIVE, ["PRP", "VBZ", "JJ"]))
    assert not matches(rule, _seed(POSITIVE_WITH_STRONG_NEGATIVE, ["PRP", "VBZ", "JJ", ",", "RB", "JJ"]))


def test_corpus_without_phrase_labels_works_unless_a_rule_needs_them():
    table_seed = _seed(CLEAN_NEUTRAL, TAGS4, source="table.csv")
    assert matches(SearchRule(label="neutral"), table_seed)
    with pytest.raises(MissingPhraseLabels, match="'phrases' rule needs phrase labels.*'table.csv'"):
        matches(SearchRule(label="neutral", phrases={"forbid": ["very positive"]}), table_seed)
    assert issubclass(MissingPhraseLabels, S2LCTError)


def test_shape_rule():
    rule = SearchRule(shape=["clause"])
    assert matches(rule, _seed(CLEAN_NEUTRAL, TAGS4, shape="clause"))
    assert not matches(rule, _seed(CLEAN_NEUTRAL, TAGS4, shape="noun_phrase"))


@pytest.mark.parametrize(
    "roots,shape",
    [
        ([("VERB", "VBD", [("nsubj", "NN"), ("dobj", "NN")])], "clause"),  # "The film lost me."
        ([("AUX", "VBZ", [("nsubj", "PRP"), ("attr", "NN")])], "clause"),  # "It is a mess."
        ([("VERB", "VBN", [("nsubj", "NN"), ("xcomp", "VB")])], "fragment"),  # "an entertainment destined to fill"
        ([("VERB", "VB", [("nsubj", "PRP"), ("aux", "MD")])], "clause"),  # "It will win you over."
        ([("NOUN", "NN", [("det", "DT"), ("amod", "JJ")])], "noun_phrase"),  # "A stupid horror film."
        ([("VERB", "VBG", [("dobj", "NN")])], "fragment"),  # "Offering nothing new."
        ([("AUX", "VBZ", [("nsubj", "PRP")]), ("VERB", "VBZ", [("nsubj", "PRP")])], "sentences"),
        # "a sly female empowerment movie, although not in a way anyone would expect": a long noun
        # phrase before the subject is a fragment with a clause tacked on
        ([("VERB", "VB", [("npadvmod", "NN", 4, 5), ("nsubj", "NN", 11, 1), ("aux", "MD", 12, 1)])], "fragment"),
        # "Last year, the film won.": a short time adverbial before the subject keeps the clause
        ([("VERB", "VBD", [("npadvmod", "NN", 1, 2), ("nsubj", "NN", 4, 2)])], "clause"),
        # the same long noun phrase *after* the subject is an object, not a fragment
        ([("VERB", "VBD", [("nsubj", "NN", 1, 2), ("dobj", "NN", 5, 5)])], "clause"),
    ],
)
def test_seed_shape_from_roots(roots, shape):
    assert shape_of(roots) == shape


@pytest.fixture(scope="session")
def paper_specs(repo_dir):
    return {s.id: s for s in load_specs([repo_dir / "specs" / "paper"])}


def _slot_polarity_holds(spec: CapabilitySpec, cases) -> list[str]:
    bad = []
    for case in cases:
        template = next(t for t in spec.templates if t.id == case.template)
        wanted = {s.name: s.labels() for s in template.slots()}
        for ref in case.seeds:
            if wanted[ref.slot] is not None and ref.label not in wanted[ref.slot]:
                bad.append(f"{case.id} slot {ref.slot}: {ref.label} seed, wants {wanted[ref.slot]}: {case.text}")
    return bad


@pytest.mark.parametrize("spec_set", ["main", "paper"])
def test_every_slot_with_a_stated_polarity_gets_seeds_of_it_over_the_whole_suite(spec_set, specs, paper_specs, corpus):
    chosen = specs if spec_set == "main" else paper_specs
    for spec in chosen.values():
        result = build_capability(spec, corpus, seed=0)
        assert result.cases, spec.id
        assert not _slot_polarity_holds(spec, result.cases), spec.id


def test_lc3_past_opinion_is_opposite_to_the_present(specs, paper_specs, corpus):
    for spec in (specs["LC3"], paper_specs["LC3"]):
        for case in build_capability(spec, corpus, seed=0).cases:
            (past,) = case.seeds
            assert past.label != case.expected[0] and past.label in ("positive", "negative"), case.text


def test_spec_refuses_a_slot_polarity_its_pool_cannot_give():
    with pytest.raises(ValueError, match="slot 'polar' must hold \\['positive'\\] seeds"):
        CapabilitySpec.model_validate({
            "id": "X", "name": "x", "expected_labels": ["negative"],
            "seeds": {"polar": {"any_of": [{"label": "positive"}, {"label": "negative"}]}},
            "templates": [{"id": "t", "parts": ["I think that", {"seed": "polar", "label": "positive"}], "expected": ["negative"]}],
        })


def test_removed_seeds_are_counted_per_rule(specs, corpus):
    pools, removed = search_pools_counted(specs["LC7"], corpus)
    neutral = removed["neutral_sent"]
    assert neutral["kept"] == len(pools["neutral_sent"]) and neutral["phrases.forbid"] > 0 and neutral["shape"] > 0
    assert neutral["candidates"] >= neutral["kept"] + max(neutral["phrases.forbid"], neutral["shape"])
    assert all(s.shape == "clause" for s in pools["pos_sent"])


def test_a_clause_ending_in_a_question_mark_is_a_question():
    roots = [("VERB", "VBD", [("nsubj", "WP", 2, 1), ("ccomp", "VB", 5, 6)])]  # "Wow, so who knew ...?"
    assert shape_of(roots, asks=True) == "question"
    assert shape_of(roots, asks=False) == "clause"
    assert shape_of([("NOUN", "NN", [("det", "DT")])], asks=True) == "noun_phrase"  # "A remake?" is still a noun phrase


def test_embedding_frames_take_no_question_and_no_first_person_seed(specs, corpus):
    """Over the whole main suite: a seed embedded after "that" is a statement about the film, not "I ..." or a question."""
    bad = []
    for spec in specs.values():
        for case in build_capability(spec, corpus, seed=0).cases:
            for ref in case.seeds:
                if ref.slot is None:
                    continue
                embedded = ref.text.rstrip(" '\"").endswith("?") or re.match(r"(I|My|Me|We|Our|Us)\b", ref.text)
                frame = case.text[: case.text.find(ref.text[1:20])] if ref.text[1:20] in case.text else ""
                if embedded and " that" in frame:
                    bad.append(f"{case.id}: {case.text[:120]}")
    assert not bad, f"{len(bad)} cases embed a question or a first-person seed, e.g. {bad[:3]}"
