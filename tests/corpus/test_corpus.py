from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from s2lct.corpus.sst import load_sst, load_table, parse_sst_line, sst_label, tokenize
from s2lct.errors import MissingResourceError, S2LCTError
from s2lct.text import detokenize


@pytest.fixture(scope="module")
def sst(shared_dir):
    return load_sst(shared_dir / "data")


def test_sst_has_every_sentence_with_split_and_line_index(sst, shared_dir):
    counts = Counter(s.split for s in sst)
    assert counts == {"train": 8544, "dev": 1101, "test": 2210}
    assert len(sst) == 11855
    # the index is the 0-based line number of the split file
    dev_lines = (shared_dir / "data/sst/trees/dev.txt").read_text(encoding="utf-8").splitlines()
    some = [s for s in sst if s.split == "dev"][17]
    assert parse_sst_line(dev_lines[some.index])[1] == some.tokens


@pytest.mark.parametrize("fine,label", [(0, "negative"), (1, "negative"), (2, "neutral"), (3, "positive"), (4, "positive")])
def test_three_way_label_from_root(fine, label):
    assert sst_label(fine) == label


def test_sst_line_is_detokenised_and_unescaped():
    line = "(1 (2 I) (1 (2 (2 do) (2 n't)) (2 (2 -LRB-) (2 (2 really) (2 -RRB-)) (2 like) (2 (2 ``) (2 it) (2 '')) (2 .))))"
    fine, tokens = parse_sst_line(line)
    assert fine == 1
    assert tokens == ("I", "do", "n't", "(", "really", ")", "like", "``", "it", "''", ".")
    assert detokenize(tokens) == 'I don\'t (really) like "it".'


def test_tokenize_is_ptb_like_sst():
    assert tokenize("These aren't bad ideas.") == ("These", "are", "n't", "bad", "ideas", ".")


def test_missing_sst_names_the_file_and_how_to_get_it(tmp_path):
    with pytest.raises(MissingResourceError) as err:
        load_sst(tmp_path)
    msg = str(err.value)
    assert str(tmp_path / "sst" / "trees" / "train.txt") in msg
    assert "S2LCT_DATA_ROOT" in msg and "\n" not in msg


def test_tables_csv_tsv_jsonl(tmp_path: Path):
    (tmp_path / "a.csv").write_text('text,y\n"Great film, really.",1\nDull.,0\n', encoding="utf-8")
    (tmp_path / "b.tsv").write_text("sentence\tlabel\nIt is fine .\tneutral\n", encoding="utf-8")
    (tmp_path / "c.jsonl").write_text(json.dumps({"sentence": "Awful.", "label": "neg"}) + "\n", encoding="utf-8")
    a = load_table(tmp_path / "a.csv", text_column="text", label_column="y")
    assert [(s.text, s.label, s.index) for s in a] == [("Great film, really.", "positive", 1), ("Dull.", "negative", 2)]
    assert load_table(tmp_path / "b.tsv")[0].label == "neutral"
    c = load_table(tmp_path / "c.jsonl")[0]
    assert (c.tokens, c.label, c.source) == (("Awful", "."), "negative", "c.jsonl")


def test_table_errors_name_file_and_line(tmp_path: Path):
    (tmp_path / "bad.csv").write_text("sentence,label\nok,1\nhmm,maybe\n", encoding="utf-8")
    with pytest.raises(S2LCTError, match=r"bad\.csv:3: label 'maybe'"):
        load_table(tmp_path / "bad.csv")
    (tmp_path / "cols.csv").write_text("txt,label\nok,1\n", encoding="utf-8")
    with pytest.raises(S2LCTError, match=r"cols\.csv:2: needs columns 'sentence' and 'label'"):
        load_table(tmp_path / "cols.csv")
    with pytest.raises(S2LCTError, match="unsupported table type"):
        (tmp_path / "x.xml").write_text("<a/>")
        load_table(tmp_path / "x.xml")


def test_capital_evidence_prefers_how_the_corpus_writes_a_word_inside_sentences():
    from s2lct.corpus.annotate import CapitalEvidence

    ev = CapitalEvidence([("It", "is", "dull", "."), ("So", "dull", "."), ("I", "like", "Spielberg"), ("See", "Spielberg", "films")])
    assert not ev.keeps_capital("Dull", "NNP")  # spaCy's tag says proper noun; the corpus says not
    assert ev.keeps_capital("Spielberg", "NN")
    assert ev.keeps_capital("Godard", "NNP") and not ev.keeps_capital("Bland", "JJ")  # no evidence: the tag decides
    assert ev.keeps_capital("I", "PRP") and ev.keeps_capital("TV", "NN")


def test_capital_evidence_lower_cases_an_ly_adverb_but_keeps_names_after_an_opening():
    """Read 15 found "I used to think that Stylistically, the movie was a disaster": the seed
    opens "... Stylistically", whose capital is the only evidence the corpus has. An adverb in
    "-ly" is no name; a name written after "..." keeps its capital ("... Ice Cube holds ...")."""
    from s2lct.corpus.annotate import CapitalEvidence

    ev = CapitalEvidence([("...", "Stylistically", ",", "it", "fails"), ("...", "Ice", "Cube", "wins"), ("And", "Ice", "Cube", "rocks")])
    assert not ev.keeps_capital("Stylistically", "NNP")
    assert ev.keeps_capital("Ice", "NNP")
    assert not ev.keeps_capital("Only", "RB")


def test_capital_evidence_reads_a_title_from_the_word_after_it():
    """Reads 17 and 18 found "men in Black II" and "two Weeks Notice": a common word that opens a
    title. The corpus writes "men" lower-cased, but "Men in" (after a word) mostly capitalised; a
    number before a capitalised word opens a title. A pair seen once, or as often each way, does
    not decide ("As well-acted as All or Nothing is, ...": "Nothing is" stays lower-cased)."""
    from s2lct.corpus.annotate import CapitalEvidence

    ev = CapitalEvidence([("I", "saw", "Men", "in", "Black", "II"), ("like", "Men", "in", "Black"), ("the", "men", "in", "it"),
                          ("the", "men", "are", "dull"), ("the", "men", "are", "bad"), ("some", "men", "are", "good"), ("the", "two", "leads"),
                          ("as", "All", "or", "Nothing", "is", ","), ("there", "is", "nothing", "here"), ("nothing", "else", "and", "nothing", "more"),
                          ("...", "Men", "in", "tights")])  # after "...": a sentence may start again, no evidence
    assert ev.keeps_capital("Men", "NNS", "in") and not ev.keeps_capital("Men", "NNS", "are")
    assert not ev.keeps_capital("Men", "NNS")  # no next word: the word's own evidence
    assert ev.keeps_capital("Two", "CD", "Weeks") and not ev.keeps_capital("Two", "CD", "leads")
    assert not ev.keeps_capital("Nothing", "NN", "is") and not ev.keeps_capital("Two", "CD", "I")


def test_a_title_opens_with_a_common_word_the_corpus_capitalises_with_its_tail():
    """Note 43's "murder by Numbers just didn't add up": "murder" is lower-cased inside sentences,
    "Murder by" was seen once after a word; "Murder by Numbers" inside sentences (after a bracket,
    a comma, a word) is capitalised, "fans of Ozzy" is not."""
    from s2lct.corpus.annotate import CapitalEvidence

    ev = CapitalEvidence([("a", "murder", "mystery"), ("the", "murder", "is", "dull"), ("one", "murder", "too", "many"),
                          ("a", "murder", "plot"), ("no", "murder", "here"),
                          ("in", "Murder", "by", "Numbers"), ("Gosling", "-LRB-", "Murder", "by", "Numbers", "-RRB-"),
                          (",", "Murder", "by", "Numbers", "fits"), ("like", "fans", "of", "Ozzy"), ("the", "fans", "are", "loud")])
    assert ev.keeps_capital("Murder", "NN", "by", third="Numbers")
    assert not ev.keeps_capital("Murder", "NN", "by", third="the")  # no capitalised third word: the word's own evidence
    assert not ev.keeps_capital("Fans", "NNS", "of", third="Ozzy")


def test_capital_evidence_keeps_a_name_the_corpus_and_the_dictionary_do_not_know():
    """A blind sample found "I felt that hatosy ... portrayed young Brendan" and "Do I think that
    louiso lets the movie dawdle": surnames the corpus never writes inside a sentence, which spaCy
    tags as common nouns. With no evidence, a word WordNet does not know that is followed by a
    finite verb is a name, and so is one with a capital inside ("IHOPs"); a known word, a coined
    derivation ("Talkiness is", "Vibrantly colored") and an interjection ("Um ... is") are not."""
    from s2lct.corpus.annotate import CapitalEvidence, verb_follows

    ev = CapitalEvidence([("It", "is", "dull", ".")])
    assert ev.keeps_capital("Hatosy", "NN", "...", verb_follows=True)
    assert ev.keeps_capital("Louiso", "NNS", "lets", verb_follows=True)
    assert not ev.keeps_capital("Louiso", "NNS", "lets")  # no verb after it: the tag decides
    assert ev.keeps_capital("IHOPs", "NNS", "do")
    assert not ev.keeps_capital("Talkiness", "NN", "is", verb_follows=True)
    assert not ev.keeps_capital("Vibrantly", "RB", "colored", verb_follows=True)
    assert not ev.keeps_capital("Um", "UH", "...", verb_follows=True)
    assert not ev.keeps_capital("Bland", "JJ", "is", verb_follows=True)  # WordNet knows it
    assert not ev.keeps_capital("Director-writer", "NN", "Bille", verb_follows=True)  # not one word
    assert not ev.keeps_capital("Dull", "NN", "is", verb_follows=True)  # the corpus writes it lower-cased

    assert verb_follows(["Hatosy", "...", "portrays", "Brendan"], ["NN", ":", "VBZ", "NNP"], 0)
    assert verb_follows(["Equlibrium", "could", "pass"], ["NN", "MD", "VB"], 0)
    assert not verb_follows(["Grenier", "'s", "turn"], ["NNP", "POS", "NN"], 0)
    assert not verb_follows(["Grenier"], ["NNP"], 0)
