"""Parser layer: the transformers-5 shim, the registry, the parse cache, failures skipped."""

from __future__ import annotations

import _engine_models as models
from nltk import Tree

from s2lct.expand.parsing import (
    Parser,
    install_benepar_shim,
    parsers,
    strip_top,
    tree_from_str,
    tree_to_str,
)


def test_shim_restores_bert_special_tokens():
    from transformers import AutoTokenizer
    from transformers.models.bert.tokenization_bert import BertTokenizer

    saved = BertTokenizer.__dict__.get("build_inputs_with_special_tokens")
    if saved is not None:  # transformers 5 has no such method: it is our shim; remove and reinstall it
        delattr(BertTokenizer, "build_inputs_with_special_tokens")
        assert not hasattr(BertTokenizer, "build_inputs_with_special_tokens")
    install_benepar_shim()
    install_benepar_shim()  # idempotent
    assert hasattr(BertTokenizer, "build_inputs_with_special_tokens")
    tok = AutoTokenizer.from_pretrained(models.parser()._model)
    assert isinstance(tok, BertTokenizer)
    cls, sep = tok.cls_token_id, tok.sep_token_id
    assert tok.build_inputs_with_special_tokens([5, 6]) == [cls, 5, 6, sep]
    assert tok.build_inputs_with_special_tokens([5], [7, 8]) == [cls, 5, sep, 7, 8, sep]


def test_registry_has_benepar():
    assert "benepar" in parsers.get_all()


def test_real_parser_running_example_and_top_stripped():
    p = models.parser()
    (tree,) = p.parse([("Or", "both", ".")])
    assert str(tree) == "(S (CC Or) (NP (DT both)) (. .))"
    (tree,) = p.parse([("This", "movie", "is", "not", "good", ".")])
    assert tree.label() == "S" and tree.leaves() == ["This", "movie", "is", "not", "good", "."]


def test_ptb_escaped_leaves_survive_and_round_trip():
    p = models.parser()
    sent = ("-LRB-", "a", "``", "film", "''", "-RRB-")
    (tree,) = p.parse([sent])
    assert tuple(tree.leaves()) == sent
    odd = Tree("NP", [Tree("-LRB-", ["("]), Tree("NN", ["x"]), Tree("-RRB-", [")"])])
    assert tree_from_str(tree_to_str(odd)) == odd


def test_strip_top():
    t = Tree.fromstring("(TOP (S (NN x)))")
    assert strip_top(t) == Tree.fromstring("(S (NN x))")
    multi = Tree.fromstring("(TOP (S (NN x)) (. .))")
    assert strip_top(multi) is multi


class CountingBackend:
    identity = "counting"

    def __init__(self):
        self.calls: list[int] = []

    def parse_batch(self, sentences):
        self.calls.append(len(sentences))
        if any("BOOM" in s for s in sentences):
            raise RuntimeError("cannot parse BOOM")
        return [Tree("S", [Tree("NN", [w]) for w in s]) for s in sentences]


def test_second_parse_hits_the_cache(tmp_path):
    backend = CountingBackend()
    p = Parser("x", backend=backend, cache_dir=tmp_path)
    sents = [("a", "b"), ("c",), ("a", "b")]
    first = p.parse(sents)
    assert backend.calls == [2]  # duplicates parsed once
    assert p.stats["parsed"] == 2
    p2 = Parser("x", backend=backend, cache_dir=tmp_path)  # a new process would see the same file
    second = p2.parse(sents)
    assert backend.calls == [2]
    assert p2.stats["cache_hits"] == 2
    assert [str(t) for t in first] == [str(t) for t in second]


def test_real_parser_cache_hit(tmp_path):
    real = models.parser()
    p = Parser(backend=real.backend, cache_dir=tmp_path)
    s = ("A", "quiet", "film", ".")
    (t1,) = p.parse([s])
    hits = p.stats["cache_hits"]
    (t2,) = p.parse([s])
    assert p.stats["cache_hits"] == hits + 1 and p.stats["parsed"] == 1
    assert t1 == t2


def test_failure_is_recorded_and_skipped(tmp_path):
    backend = CountingBackend()
    p = Parser("x", backend=backend, cache_dir=tmp_path, max_tokens=5)
    sents = [("fine",), ("BOOM", "here"), (), tuple("abcdefg"), ("also", "fine")]
    trees = p.parse(sents)
    assert [t is None for t in trees] == [False, True, True, True, False]
    assert "BOOM" in p.failures[("BOOM", "here")]
    assert p.failures[()] == "empty sentence"
    assert "longer than 5" in p.failures[tuple("abcdefg")]
    # failures are cached too: not retried on the next call
    n = len(backend.calls)
    assert p.parse([("BOOM", "here")]) == [None]
    assert len(backend.calls) == n


def test_real_parser_failure_does_not_sink_batch(tmp_path):
    real = models.parser()
    p = Parser(backend=real.backend, cache_dir=tmp_path, max_tokens=10_000)
    too_long = ("word",) * 520  # > 512 word pieces: benepar raises ValueError for the whole batch
    trees = p.parse([("Or", "both", "."), too_long, ()])
    assert str(trees[0]) == "(S (CC Or) (NP (DT both)) (. .))"
    assert trees[1] is None and trees[2] is None
    assert "exceeds the maximum" in p.failures[too_long]
    assert set(p.failures) == {too_long, ()}
