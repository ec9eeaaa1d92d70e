"""The draw ranks cases by their identity (``cases.rank``), so a rule that narrows a seed pool
changes only the cases on the seeds it removes: every other case stays, with the same partner."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from s2lct.generate.cases import _partner_blocks, _pool_variants, _slot_key, build_capability
from s2lct.generate.search import search_pools_counted
from s2lct.spec.sampling import Sampling
from s2lct.spec.review import seed_key


def _keys(case) -> set[str]:
    return {seed_key(s.source, s.split, s.index) for s in case.seeds}


def _blocks(spec, corpus) -> int:
    pools, _ = search_pools_counted(spec, corpus)
    variants = {}
    for t in spec.templates:
        for slot in t.slots():
            variants[_slot_key(slot)] = _pool_variants(pools[slot.seed], slot)[0]
    return _partner_blocks(spec, variants)


@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_a_narrower_pool_keeps_every_case_on_the_seeds_it_keeps(data, specs, corpus):
    spec = specs[data.draw(st.sampled_from(["LC3", "LC6", "LC10", "LC8", "LC12"]))]
    spec = spec.model_copy(update={"sampling": Sampling(max_cases=data.draw(st.sampled_from([40, 300])))})
    before = build_capability(spec, corpus, 0)
    used = sorted({k for c in before.cases for k in _keys(c)})
    removed = set(data.draw(st.lists(st.sampled_from(used), min_size=1, max_size=min(8, len(used)), unique=True)))
    narrower = [s for s in corpus if seed_key(s.sentence.source, s.sentence.split, s.sentence.index) not in removed]
    # partners are drawn within blocks whose number follows the pool size in powers of two
    assume(_blocks(spec, narrower) == _blocks(spec, corpus))
    after = build_capability(spec, narrower, 0)
    kept = {c.id for c in before.cases if not _keys(c) & removed}
    assert kept <= {c.id for c in after.cases}
    assert not any(_keys(c) & removed for c in after.cases)
    if not spec.templates[0].drawn()[1:]:  # one seed per case: the freed places go to the next cases in rank
        assert len(after.cases) == min(spec.sampling.max_cases, after.candidates)


def test_the_draw_depends_on_the_seed_option(specs, corpus):
    spec = specs["LC10"].model_copy(update={"sampling": Sampling(max_cases=50)})
    one, again, other = (build_capability(spec, corpus, s) for s in (0, 0, 1))
    assert [c.id for c in one.cases] == [c.id for c in again.cases]
    assert {c.id for c in one.cases} != {c.id for c in other.cases}
