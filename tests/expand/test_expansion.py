"""SeedExpander: validation (a)+(b) on the running example, the resumable store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import _engine_models as models
from _engine_models import StubMLM, StubParser

from s2lct.expand.checks import FluencyFilter
from s2lct.expand.expander import (
    ExpansionCandidate,
    ExpansionConfig,
    ExpansionStore,
    MaskFill,
    SeedExpander,
    best,
)
from s2lct.expand.grammar import ReferenceGrammar

OR_BOTH = ("Or", "both", ".")
ONLY_NNS = ReferenceGrammar({"NP": {("DT",): 3, ("DT", "NNS"): 1}}, "toy")


def _expander(tmp_path, store=None, **parts) -> SeedExpander:
    # the PoS and neutrality checks alone; the fluency checks have their own tests
    kw = dict(parser=models.parser(), grammar=models.grammar(), mlm=models.mlm(), tagger=models.tagger(), polarity=models.polarity(),
              fluency=FluencyFilter.off())
    kw.update(parts)
    return SeedExpander(ExpansionConfig(chunk_size=2), store=store or tmp_path / "exp.sqlite3", **kw)


def test_running_example_stub_mlm_accepts_exactly_ways_and_things(tmp_path):
    # "great": tagged JJ, not NNS (as a noun SentiWordNet has it neutral); "problems": NNS but
    # negative; "there": neutral but not tagged NNS; "ways"/"things": accepted
    mlm = StubMLM([("great", 0.4), ("ways", 0.3), ("problems", 0.25), ("there", 0.2), ("things", 0.1)])
    ex = _expander(tmp_path, grammar=ONLY_NNS, mlm=mlm)
    (cands,) = ex.expand([OR_BOTH]).values()
    assert [" ".join(c.tokens) for c in cands] == ["Or both ways .", "Or both things ."]
    c = cands[0]
    assert c.masks == (MaskFill(2, "NNS", "ways", 0.3),)
    assert c.production == "NP -> DT NNS" and c.production_probability == 0.25
    assert c.score == 0.3 and dict(c.checks) == {"pos": True, "neutral": True}
    assert ex.stats.fills == 5 and ex.stats.neutral == 4 and ex.stats.accepted == 2
    assert models.tagger().tag([("Or", "both", "great", ".")])[0][2] != "NNS"
    assert not models.polarity().is_pure_neutral("great", "JJ")


def test_running_example_stub_parser_too(tmp_path):
    parser = StubParser({OR_BOTH: "(S (CC Or) (NP (DT both)) (. .))"})
    mlm = StubMLM([("ways", 0.3), ("great", 0.2), ("things", 0.1)])
    ex = _expander(tmp_path, parser=parser, grammar=ONLY_NNS, mlm=mlm)
    res = ex.expand([OR_BOTH, ("unparsable",)])
    assert [c.tokens[2] for c in res[OR_BOTH]] == ["ways", "things"]
    assert res[("unparsable",)] == []
    assert ex.expand_results([("unparsable",)])[("unparsable",)].status == "parse_failed"


def test_real_models_accept_only_right_tag_and_pure_neutral(tmp_path):
    ex = _expander(tmp_path)
    seeds = [OR_BOTH, ("This", "movie", "is", "not", "good", "."), OR_BOTH]
    res = ex.expand(seeds)
    assert list(res) == [OR_BOTH, seeds[1]]  # each distinct seed once
    assert ex.stats.computed == 2 and ex.stats.masked > 0 and ex.stats.fills > ex.stats.accepted > 0
    pol = models.polarity()
    checked = 0
    for seed, cands in res.items():
        assert cands, seed
        for c in cands:
            kept = [t for i, t in enumerate(c.tokens) if i not in {m.position for m in c.masks}]
            # the seed's words in order; only the first may lose its capital to a fill that now starts the sentence
            assert kept[1:] == list(seed)[1:] and kept[0].lower() == seed[0].lower()
            assert kept[0] == seed[0] or c.masks[0].position == 0
            # (a) was checked on the sentence as the (uncased) LM filled it, before casing
            positions = [m.position for m in c.masks]
            as_filled = list(c.tokens)
            for m in c.masks:
                as_filled[m.position] = m.word.lower()
            if positions[0] == 0:
                as_filled[min(set(range(len(as_filled))) - set(positions))] = seed[0]
            tags = models.tagger().tag([as_filled])[0]
            for m in c.masks:
                assert c.tokens[m.position] == m.word
                assert tags[m.position] == m.symbol
                assert pol.is_pure_neutral(m.word, m.symbol)
                checked += 1
        assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)
    assert checked >= 5


def test_candidate_json_and_expansion_record():
    c = ExpansionCandidate(OR_BOTH, ("Or", "both", "ways", "."), (MaskFill(2, "NNS", "ways", 0.3),), "NP -> DT NNS", 0.25, 0.3, {"pos": True, "neutral": True})
    assert ExpansionCandidate.from_json(json.loads(json.dumps(c.to_json()))) == c
    rec = c.expansion_record(seed_case="LC1-abc", seed_text="Or both.", checks={"search": True})
    assert rec["masks"] == [{"position": 2, "symbol": "NNS", "word": "ways", "score": 0.3}]
    assert rec["checks"] == {"pos": True, "neutral": True, "search": True}
    assert rec["expanded_seed"] == "Or both ways ." and rec["seed_case"] == "LC1-abc"
    d = ExpansionCandidate(OR_BOTH, ("Or", "both", "things", "."), (MaskFill(2, "NNS", "things", 0.1),), "NP -> DT NNS", 0.25, 0.1)
    assert best([d, c], 1) == [c]
    assert best([d, c], None, keep=lambda x: "things" in x.tokens) == [d]


RESUME_SEEDS = [
    ("Or", "both", "."),
    ("A", "quiet", "film", "."),
    ("The", "acting", "is", "fine", "."),
    ("This", "movie", "is", "not", "good", "."),
    ("It", "runs", "long", "."),
    ("A", "movie", "about", "a", "dog", "."),
]

KILLED_RUN = textwrap.dedent(
    """
    import os, signal, sys, json
    from s2lct.expand.checks import FluencyFilter
    from s2lct.expand.expander import ExpansionConfig, SeedExpander
    seeds = [tuple(s) for s in json.loads(sys.argv[2])]
    ex = SeedExpander(ExpansionConfig(chunk_size=2), store=sys.argv[1], fluency=FluencyFilter.off())
    def killer(n):
        print("committed", n, flush=True)
        os.kill(os.getpid(), signal.SIGKILL)   # die hard right after the first durable chunk
    ex.expand(seeds, on_progress=killer)
    print("not killed", flush=True)
    """
)


def _same(a, b) -> bool:
    """Equal, except that floats need only agree to a relative 1e-4, or to one unit in the fourth
    decimal: a score kept to four places can flip its last digit when the float behind it moves by
    a hair across a rounding boundary (0.70195 → 0.7019 in one process, 0.702 in another)."""
    import dataclasses
    import math

    if dataclasses.is_dataclass(a) and dataclasses.is_dataclass(b):
        return type(a) is type(b) and _same(dataclasses.asdict(a), dataclasses.asdict(b))
    if isinstance(a, float) or isinstance(b, float):
        if not (isinstance(a, (int, float)) and isinstance(b, (int, float))):
            return False
        four_places = round(a, 4) == a and round(b, 4) == b
        return math.isclose(a, b, rel_tol=1e-4, abs_tol=1.0001e-4 if four_places else 1e-9)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return type(a) is type(b) and len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    if isinstance(a, str) and isinstance(b, str) and a[:1] in "[{" and b[:1] in "[{":
        import json

        try:
            return _same(json.loads(a), json.loads(b))
        except json.JSONDecodeError:
            pass
    return a == b


def test_same_tolerates_only_float_noise():
    assert _same({"s": [0.0108302, "x"]}, {"s": [0.0108303, "x"]})
    assert not _same({"s": [0.0108302, "x"]}, {"s": [0.0118302, "x"]})
    assert _same({"s": 0.7019}, {"s": 0.702})  # one unit in the fourth decimal kept
    assert not _same({"s": 0.7017}, {"s": 0.702})
    assert not _same({"s": 0.0209358}, {"s": 0.0210358})  # a score kept to more places gets no such unit
    assert not _same({"s": [0.0108302, "x"]}, {"s": [0.0108302, "y"]})
    assert not _same([1, 2], [1, 2, 3])


def test_killed_run_resumes_without_recomputing(tmp_path):
    store_path = tmp_path / "resume.sqlite3"
    proc = subprocess.run(
        [sys.executable, "-c", KILLED_RUN, str(store_path), json.dumps(RESUME_SEEDS)],
        capture_output=True, text=True, env=dict(os.environ), timeout=300,
    )
    assert proc.returncode == -9, proc.stderr[-2000:]
    assert "committed 2" in proc.stdout and "not killed" not in proc.stdout

    # restart in this process: finished seeds come from the store
    resumed = _expander(tmp_path, store=store_path)
    cfg = resumed.config_hash
    after_kill = ExpansionStore(store_path).finished(cfg)
    assert len(after_kill) == 2
    out = resumed.expand(RESUME_SEEDS)
    assert set(resumed.stats.computed_seeds) == set(RESUME_SEEDS) - after_kill
    assert resumed.stats.computed == 4

    # an uninterrupted run into a fresh store gives the same rows
    fresh = _expander(tmp_path, store=tmp_path / "fresh.sqlite3")
    assert fresh.config_hash == cfg
    out2 = fresh.expand(RESUME_SEEDS)
    # the killed run computed its seeds in another process: the masked LM's floats may differ there in the
    # last digit kept (0.0108302 vs 0.0108303), so scores compare with a tolerance, everything else exactly
    assert _same(out, out2)
    assert _same(ExpansionStore(store_path).dump(cfg), ExpansionStore(tmp_path / "fresh.sqlite3").dump(cfg))

    # a third run computes nothing
    again = _expander(tmp_path, store=store_path)
    assert again.expand(RESUME_SEEDS) == out and again.stats.computed == 0


class _CaseSensitiveTagger:
    """Tags like a real tagger would here: "may" is a modal, "May" a name."""

    identity = "case-sensitive-stub"
    TAGS = {"may": "MD", "May": "NNP", "michael": "NNP", "Michael": "NNP", "Caine": "NNP", "sings": "VBZ", ".": "."}

    def tag(self, sentences, batch_size=256):
        return [[self.TAGS.get(t, "NN") for t in s] for s in sentences]


class _AllNeutral:
    identity = "all-neutral"

    def is_pure_neutral(self, word, tag):
        return True


def test_pos_check_sees_the_fill_as_the_lm_gave_it_and_output_is_cased(tmp_path):
    seed = ("Caine", "sings", ".")
    parser = StubParser({seed: "(S (NP (NNP Caine)) (VP (VBZ sings)) (. .))"})
    grammar = ReferenceGrammar({"NP": {("NNP",): 3, ("NNP", "NNP"): 1}}, "toy-nnp")
    mlm = StubMLM([("may", 0.5), ("michael", 0.3)])
    ex = _expander(tmp_path, parser=parser, grammar=grammar, mlm=mlm, tagger=_CaseSensitiveTagger(), polarity=_AllNeutral())
    (cands,) = ex.expand([seed]).values()
    # "may" is a modal as the LM wrote it: rejected at the NNP mask although "May" would pass as a name
    assert sorted(" ".join(c.tokens) for c in cands) == ["Caine Michael sings .", "Michael Caine sings ."]
    assert all(m.word == "Michael" for c in cands for m in c.masks)
