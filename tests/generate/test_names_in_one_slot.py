"""A template with ``names_in_one_slot`` never joins two seeds that each name someone or something:
LC7's aside about one film and an opinion naming another contradict each other (read 49)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from s2lct.generate.cases import build_capability, names_something
from s2lct.spec import CapabilitySpec
from s2lct.spec.sampling import Sampling


def _seed(corpus, text):
    return next(s for s in corpus if s.text == text)


@pytest.mark.parametrize(
    "text, named",
    [
        ("Chao was Chen Kaige's assistant for years in China.", True),
        ("The film is directed by Wally Wolodarsky from a script by Joe Jarvis and Greg Coolidge.", True),
        ("Nothing is black and white.", False),
        ("The film is about the relationships rather than about the outcome.", False),
    ],
)
def test_a_seed_names_something_when_it_has_a_name_or_title(corpus, text, named):
    assert names_something(_seed(corpus, text)) is named


def test_lc7_pairs_a_named_aside_only_with_an_opinion_that_names_nothing(specs, corpus):
    spec = specs["LC7"].model_copy(update={"sampling": Sampling(max_cases=400)})
    assert spec.templates[0].names_in_one_slot
    by_text = {s.text: s for s in corpus}
    kept = build_capability(spec, corpus, 0)
    assert len(kept.cases) >= 300  # the rule narrows the partners, not the cases
    both = [c.text for c in kept.cases if all(names_something(by_text[s.text]) for s in c.seeds)]
    assert both == []
    # without the rule the draw does pair them: the test above can fail
    loose = spec.model_copy(update={"templates": [spec.templates[0].model_copy(update={"names_in_one_slot": False})]})
    free = build_capability(loose, corpus, 0)
    assert [c for c in free.cases if all(names_something(by_text[s.text]) for s in c.seeds)]


def test_names_in_one_slot_is_a_boolean():
    with pytest.raises(ValidationError, match="names_in_one_slot"):
        CapabilitySpec.model_validate({
            "id": "X", "name": "x", "expected_labels": ["negative"],
            "seeds": {"polar": {"any_of": [{"label": "negative"}]}},
            "templates": [{"id": "t", "parts": ["I think that", {"seed": "polar"}], "expected": ["negative"], "names_in_one_slot": "sometimes"}],
        })
