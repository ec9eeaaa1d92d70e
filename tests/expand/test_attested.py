"""The ``attested`` fluency check: a fill must occur in the reference corpus between neighbours of
the same kind (issue 22)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from s2lct.expand.checks import CheckItem
from s2lct.expand.checks import attested as attested_mod
from s2lct.expand.checks.attested import END, START, Attested, before_class, count_trigrams, reference_counts


def _item(seed: tuple[str, ...], tags: tuple[str, ...], at: int, word: str, symbol: str = "RB") -> CheckItem:
    tokens = (*seed[:at], word, *seed[at:])
    return CheckItem(seed, tags, tokens, (at,), (symbol,), "VP -> MD RB VP")


def test_function_words_stand_for_themselves_content_words_for_their_tag():
    assert before_class("Must", "MD") == "must" and before_class("'s", "VBZ") == "'s" and before_class("is", "VBZ") == "is"
    assert before_class("film", "NN") == "NN" and before_class("films", "NNS") == "NN" and before_class("loved", "VBD") == "VB"


@given(st.lists(st.lists(st.sampled_from(["it", "will", "probably", "be", "fun", "."]), min_size=1, max_size=8), max_size=6))
def test_trigram_counts_cover_every_token_once(sentences):
    tags = [["NN"] * len(s) for s in sentences]
    counts = count_trigrams(sentences, tags)
    assert sum(counts.values()) == sum(len(s) for s in sentences)
    for s in sentences:
        assert counts[(START, s[0].lower(), "NN" if len(s) > 1 else END)] >= 1


def test_a_fill_passes_only_where_the_corpus_has_it_between_such_neighbours(monkeypatch):
    corpus = [("It", "will", "probably", "be", "fun", "."), ("The", "film", "is", "very", "funny", ".")]
    tags = [("PRP", "MD", "RB", "VB", "JJ", "."), ("DT", "NN", "VBZ", "RB", "JJ", ".")]
    counts = count_trigrams(corpus, tags)
    monkeypatch.setattr(attested_mod, "reference_counts", lambda *a: counts)
    seed, seed_tags = ("It", "must", "be", "fun", "."), ("PRP", "MD", "VB", "JJ", ".")
    will = ("It", "will", "be", "fun", "."), ("PRP", "MD", "VB", "JJ", ".")
    res = Attested().check([_item(*will, 2, "probably"), _item(seed, seed_tags, 2, "probably")], ctx=None)
    assert [r.passed for r in res] == [True, False] and res[1].rule == "unattested"
    # "very" before an adjective after "is" was seen; before a participle it was not
    adj = Attested().check([_item(("It", "is", "good", "."), ("PRP", "VBZ", "JJ", "."), 2, "very")], ctx=None)
    part = Attested().check([_item(("It", "is", "weighed", "down", "."), ("PRP", "VBZ", "VBN", "RP", "."), 2, "very")], ctx=None)
    comparative = Attested().check([_item(("It", "is", "funnier", "."), ("PRP", "VBZ", "JJR", "."), 2, "very")], ctx=None)
    assert adj[0].passed and not part[0].passed and not comparative[0].passed


def test_reference_counts_from_sst_are_built_once_into_the_cache(tmp_path, shared_dir):
    from s2lct.corpus.tagging import get_tagger

    data = str(shared_dir / "data")
    ident = get_tagger().identity
    reference_counts.cache_clear()
    counts = reference_counts(str(tmp_path), data, ident)
    (built,) = (tmp_path / "attested").glob("*.json")
    assert counts[("will", "probably", "VB")] > 0 and counts[("must", "probably", "VB")] == 0
    reference_counts.cache_clear()
    assert reference_counts(str(tmp_path), data, ident) == counts  # read back from the file
    assert list((tmp_path / "attested").glob("*.json")) == [built]
