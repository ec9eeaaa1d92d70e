"""Agreement prefixes from hand-made PTB trees (each A.1 filter), agreement metrics with known answers,
and planted explainers that must score exactly the deterministic baselines."""

from __future__ import annotations

import pytest
from nltk import Tree

from s2lct.explain.words import split_words
from s2lct.trust import metrics as M
from s2lct.errors import S2LCTError
from s2lct.trust.agreement import (AgreementItem, _tagger, a1_reject, compound_head, form_number, gulordava, ptb_candidates,
                                   ptb_file_trees)


def cands(s: str) -> dict[str, tuple[AgreementItem, str | None]]:
    return {c.item.verb: (c.item, c.reject) for c in ptb_candidates(Tree.fromstring(s), "t")}


KEPT = "(S (NP-SBJ (NP (DT the) (NN man)) (PP (IN near) (NP (DT the) (NNS dogs)))) (VP (VBZ runs)))"


def test_prefix_subject_and_number_from_a_tree_that_passes_every_filter():
    item, reject = cands(KEPT)["runs"]
    assert reject is None
    assert item.tokens == ("the", "man", "near", "the", "dogs")
    assert item.subject == 1 and item.verb_number == "Sg"


def test_filter_1_needs_an_attractor():
    _, reject = cands("(S (NP-SBJ (NP (DT the) (NN man)) (PP (IN near) (NP (DT the) (NN dog)))) (VP (VBZ runs)))")["runs"]
    assert reject == "no_attractor"


def test_filter_2_verb_right_after_its_subject():
    _, reject = cands("(S (PP (IN After) (NP (NNS talks))) (, ,) (NP-SBJ (DT the) (NN man)) (VP (VBZ runs)))")["runs"]
    assert reject == "verb_follows_subject"


def test_filter_3_attractors_all_far_before_the_subject():
    far = " ".join(f"(NN w{i})" for i in range(11))
    tree = f"(S (PP (IN Among) (NP (NNS dogs))) (NP-ADV {far}) (, ,) (NP-SBJ (NP (DT the) (NN man)) (PP (IN near) (NP (DT a) (NN cat)))) (VP (VBZ runs)))"
    item, reject = cands(tree)["runs"]
    assert reject == "attractors_far"
    # an attractor within 10 words of the subject keeps it
    near = tree.replace("(NP (DT a) (NN cat))", "(NP (DT the) (NNS cats))")
    assert cands(near)["runs"][1] is None


def test_trace_subjects_copulas_and_disagreeing_subjects():
    rel = "(S (NP-SBJ (NP (DT the) (NNS men)) (SBAR (WHNP-1 (WP who)) (S (NP-SBJ (-NONE- *T*-1)) (VP (VBP like) (NP (DT the) (NN dog)))))) (VP (VBP are) (ADJP (JJ happy))))"
    got = cands(rel)
    assert got["like"][1] == "subject_unknown"  # the relative clause's subject is a trace
    item, reject = got["are"]
    assert reject is None and item.subject == 1 and item.verb_number == "Pl"  # copula 'are', across the relative clause
    assert item.tokens[-1] == "dog" and "*T*-1" not in item.tokens  # traces are not words
    bad = "(S (NP-SBJ (NP (DT the) (NN team)) (PP (IN of) (NP (NNS men)))) (VP (VBP play)))"
    assert cands(bad)["play"][1] == "subject_unknown"  # subject number disagrees with the verb


def test_helpers():
    assert compound_head(("DT", "NN", "NN", "IN"), 1) == 2
    assert form_number("is") == "Sg" and form_number("are") == "Pl" and form_number("laughs") == "Sg" and form_number("laugh") == "Pl"
    assert a1_reject(AgreementItem("x", "t", ("a", "b"), ("NN", "NNS"), None, "v", "Sg")) == "subject_unknown"


def item(text: str, tags: str, subject: int, number: str) -> AgreementItem:
    return AgreementItem("x", "hand", tuple(text.split()), tuple(tags.split()), subject, "v", number)


PREFIXES = [
    item("the keys to the cabinet", "DT NNS TO DT NN", 1, "Pl"),
    item("the author near the guards", "DT NN IN DT NNS", 1, "Sg"),
    item("the movie that the critics", "DT NN WDT DT NNS", 4, "Pl"),
]


def test_agreement_metrics_on_hand_built_prefixes():
    view = PREFIXES[0].view(split_words(PREFIXES[0].text))
    assert view.number == (None, "Pl", None, None, "Sg") and view.subject == {1}
    on_subject = [0, 5, 0, 0, 1]
    h = M.agreement_hits(on_subject, view, "Pl")  # right number, rmax on the subject
    assert h == {"hit_target": 1.0, "hit_feat": 1.0, "plausibility_expected": 1.0, "plausibility_alternative": None}
    on_attractor = [0, 1, 0, 0, 5]
    h = M.agreement_hits(on_attractor, view, "Pl")
    assert h == {"hit_target": 0.0, "hit_feat": 0.0, "plausibility_expected": 0.0, "plausibility_alternative": None}
    h = M.agreement_hits(on_attractor, view, "Sg")  # wrong number predicted, blame on the attractor
    assert h == {"hit_target": None, "hit_feat": 1.0, "plausibility_expected": None, "plausibility_alternative": 1.0}
    r = M.agreement_random(view, "Pl")
    assert r["hit_target"] == pytest.approx(1 / 5) and r["hit_feat"] == pytest.approx(1 / 5)
    assert r["plausibility_expected"] == pytest.approx(1 / 5)


def test_a_word_split_by_the_word_splitter_keeps_its_token_role():
    it = item("the company 's chiefs", "DT NN POS NNS", 3, "Pl")
    view = it.view(split_words(it.text))  # "'s" splits into "'" and "s"
    assert view.number == (None, "Sg", None, None, "Pl") and view.subject == {4}


def test_planted_last_word_explainer_scores_exactly_the_last_and_last_noun_baselines():
    """Prefixes ending in a noun: pointing at the last word is the last-noun baseline too."""
    predicted = ["Pl", "Pl", "Sg"]
    for base_fn in (M.last_word_relevance, M.last_noun_relevance):
        for it, p in zip(PREFIXES, predicted):
            words = split_words(it.text)
            view = it.view(words)
            planted = [float(i) for i in range(len(words))]  # the planted explainer: last word most relevant
            assert M.agreement_hits(planted, view, p) == M.agreement_hits(base_fn(view), view, p)
    # and the baselines' answers are the known ones: last noun is the subject only in the third prefix
    got = [M.agreement_hits(M.last_noun_relevance(it.view(split_words(it.text))), it.view(split_words(it.text)), p)["hit_feat"]
           for it, p in zip(PREFIXES, predicted)]
    assert got == [0.0, 1.0, 0.0]


# Gulordava et al. (2018) generated set: lines in the exact format of generated.text / generated.gold
# (gold: pattern, constr_id, sent_id, target index, target PoS, target morphology, correct form, wrong
# form, lemma, controller index, controller PoS, original prefix through the target).
GUL_TEXT = [
    "The sauce to recruit in pastors advises that Full European complexes are conventional . <eos>",  # nonce (sent_id 3)
    "Cats provide the ownership but throw her huge manufacturer and the pup cares . <eos>",
    "The sheep near the farmer sleeps here . <eos>",
]
L_SING = "L!NOUN_VERB_VERB!Number=Plur!Number=Sing"
GUL_GOLD = [
    f"{L_SING}\t0\t3\t6\tVERB\tMood=Ind|Number=Sing|Tense=Pres|VerbForm=Fin\tapproves\tapprove\tapprove\t1\tNOUN\tThe thing to keep in mind is",
    "R!VERB_NOUN_CCONJ_VERB!Number=Sing!Number=Plur\t0\t9\t5\tVERB\tMood=Ind|Number=Plur|Tense=Pres|VerbForm=Fin\tspend\tspends\tspend\t1\tVERB\tDignitaries condemn the act but visit",
    f"{L_SING.replace('Plur!Number=Sing', 'Sing!Number=Plur')}\t4\t0\t5\tVERB\tMood=Ind|Number=Plur|Tense=Pres|VerbForm=Fin\tgraze\tgrazes\tgraze\t1\tNOUN\tThe sheep near the farmer graze",
]


@pytest.fixture(scope="module")
def tagger():
    from s2lct.config import configure_nltk, get_settings

    configure_nltk(get_settings())
    return _tagger()


def write_gulordava(folder, text, gold):
    folder.mkdir(exist_ok=True)
    (folder / "generated.text").write_text("\n".join(text) + "\n", encoding="utf-8")
    (folder / "generated.gold").write_text("\n".join(gold) + "\n", encoding="utf-8")
    return folder


def test_gulordava_lines_give_prefix_number_subject_and_attractors(tmp_path, tagger):
    items = {it.id: it for it in gulordava(write_gulordava(tmp_path / "g", GUL_TEXT, GUL_GOLD), tagger)}
    assert set(items) == {"gulordava:L_NOUN_VERB_VERB:0:3", "gulordava:R_VERB_NOUN_CCONJ_VERB:0:9", "gulordava:L_NOUN_VERB_VERB:4:0"}
    nonce = items["gulordava:L_NOUN_VERB_VERB:0:3"]
    # the prefix stops before the target index; the verb is the gold form (the nonce line holds another verb there)
    assert nonce.tokens == ("The", "sauce", "to", "recruit", "in", "pastors") and nonce.verb == "approves"
    assert nonce.verb_number == "Sg" and nonce.subject == 1 and nonce.source == "gulordava"
    view = nonce.view(split_words(nonce.text))
    assert view.subject == {1} and view.number[1] == "Sg" and view.number[5] == "Pl"  # subject; attractor "pastors"
    on_subject = [0, 5, 0, 0, 0, 1]
    assert M.agreement_hits(on_subject, view, "Sg")["hit_target"] == 1.0
    assert M.agreement_hits(on_subject, view, "Sg")["plausibility_expected"] == 1.0
    # R pattern: the controller is the first coordinated verb, the subject is not annotated
    coord = items["gulordava:R_VERB_NOUN_CCONJ_VERB:0:9"]
    assert coord.tokens == ("Cats", "provide", "the", "ownership", "but") and coord.verb_number == "Pl"
    assert coord.subject is None
    assert M.agreement_hits([5, 0, 0, 0, 0], coord.view(split_words(coord.text)), "Pl")["hit_target"] is None
    # the controller counts as a noun of the verb's number even where the tagger reads it otherwise
    sheep = items["gulordava:L_NOUN_VERB_VERB:4:0"]
    assert tagger.tag(["The", "sheep"])[1][1] == "NN"  # the tagger alone says singular
    assert sheep.subject == 1 and sheep.verb_number == "Pl" and sheep.tags[1] == "NNS"
    assert sheep.view(split_words(sheep.text)).number == (None, "Pl", None, None, "Sg")


@pytest.mark.parametrize("gold, message", [
    (GUL_GOLD[0].rsplit("\t", 6)[0], "6 tab-separated fields, expected 12"),
    (GUL_GOLD[0].replace("\t6\tVERB", "\tsix\tVERB"), "target index 'six'"),
    (GUL_GOLD[0].replace("Number=Sing|Tense", "Tense"), "Number=Sing or Number=Plur"),
    (GUL_GOLD[0].replace("\t6\tVERB", "\t40\tVERB"), "target index 40 outside the 15 tokens"),
], ids=["fields", "index", "number", "range"])
def test_gulordava_bad_line_is_one_error_naming_file_and_line(tmp_path, tagger, gold, message):
    folder = write_gulordava(tmp_path / "g", GUL_TEXT[1:2] + GUL_TEXT[:1], [GUL_GOLD[1], gold])
    with pytest.raises(S2LCTError) as err:
        gulordava(folder, tagger)
    assert "generated.gold:2: " in str(err.value) and message in str(err.value)


def test_shared_gulordava_set_reads_every_line(shared_dir, tagger):
    items = gulordava(shared_dir / "data" / "agreement" / "gulordava2018_english_generated", tagger)
    assert len(items) == 410 and len({it.id for it in items}) == 410
    with_subject = [it for it in items if it.subject is not None]
    assert len(with_subject) == 250  # the L (NOUN ... VERB) lines; the 160 R lines have a verb controller
    assert all(noun_number_of(it, it.subject) == it.verb_number for it in with_subject)
    assert sum(":0" == it.id[-2:] for it in items) == 41  # sent_id 0: the original sentences, 1-9: nonce


def noun_number_of(it, index):
    from s2lct.trust.agreement import noun_number

    return noun_number(it.tags[index])


def test_fast_ptb_reader_gives_the_corpus_readers_trees(tagger):
    from nltk.corpus import treebank

    for fid in treebank.fileids()[::40]:  # 5 of the 199 files
        fast, reference = ptb_file_trees(treebank, fid), treebank.parsed_sents(fid)
        assert len(fast) == len(reference) > 0
        assert all(a == b and a.label() == b.label() for a, b in zip(fast, reference)), fid
