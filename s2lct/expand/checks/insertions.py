"""Which kinds of word an expansion may insert at all (calibrated on tests/data/expansions_annotated.jsonl).

Read by a careful annotator, most masked-LM insertions that pass PoS, neutrality and the
function-word rules still change what the seed says or read oddly, and they do so by word class:
of 320 random candidates, a new noun was right 5 times in 72 ("This [series] is wild", "the
[movie] back"), a new conjunction, preposition or possessive 1 time in 48 ("sweet [and] [fun]",
"at [your] conception"), "a"/"the"/"this" 2 times in 60 ("captured on [a] film", "[The] life on
the rez"), while "some"/"any" and degree adverbs ("[so] heavily", "[sometimes] dramatically") were
mostly right. The masked-LM score cannot tell these apart (its AUC on the set is ~0.65), so the
rules below decide by word class, and every list is a setting (recorded in the manifest).

Rules (the first that fires is recorded):
- ``noun``: a common-noun fill (new content or a changed referent; names are ``names``'s);
- ``conjunction``: a CC fill;
- ``preposition``: an IN/TO fill, except a complementiser "that" after a verb;
- ``possessive``: a PRP$ fill;
- ``determiner``: a DT fill other than the quantifiers in ``determiners``;
- ``npi``: "any" with no negation, question or condition before it to license it ("[Any]
  message movie or ...?");
- ``quantifier_stack``: "some"/"any" after a quantity phrase ("loads of [some] damage");
- ``adjective``: a reference/quantity adjective ("only", "few", "own", "initial" ...) or a
  demonym the uncased LM wrote in lower case ("french");
- ``adverb``: a place, time or discourse adverb ("here", "again", "also", "anyway" ...), or a
  stance adverb next to another ("[probably] certainly").
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.expand.checks import CheckContext, CheckItem, CheckResult, fluency_checks

DETERMINERS = ("some", "any")
REFERENCE_ADJECTIVES = (
    "few many only own much several other same certain initial entire whole main first last next final such various "
    "particular specific original previous former latter real actual very little more most less least new old"
).split()
DEMONYMS = (
    "american british english french german italian spanish chinese japanese korean indian russian european african "
    "asian canadian australian mexican irish scottish hollywood oscar christian jewish muslim catholic"
).split()
ADVERBS = (
    "here there back again anyway anyhow ever also too then now still just even already yet once away out up down off on "
    "in around together instead else later today tonight almost thus hence therefore besides otherwise meanwhile"
).split()
STANCE = "probably certainly possibly definitely maybe perhaps surely clearly obviously apparently undoubtedly".split()
NPI_LICENSORS = frozenset(
    "not n't no never without nothing none nobody if whether hardly barely scarcely rarely seldom than before ? few "
    "doubt deny refuse every".split()
)
QUANTITY_NOUNS = frozenset("loads load lots lot plenty bunch amount amounts number deal couple most all none many few each one".split())
VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ"})


class Insertions:
    name = "insertions"
    version = "1"

    def __init__(
        self,
        determiners: Sequence[str] = DETERMINERS,
        reference_adjectives: Sequence[str] = REFERENCE_ADJECTIVES,
        demonyms: Sequence[str] = DEMONYMS,
        adverbs: Sequence[str] = ADVERBS,
        stance: Sequence[str] = STANCE,
        allow_nouns: bool = False,
    ) -> None:
        self.determiners = frozenset(determiners)
        self.reference_adjectives = frozenset(reference_adjectives)
        self.demonyms = frozenset(demonyms)
        self.adverbs = frozenset(adverbs)
        self.stance = frozenset(stance)
        self.allow_nouns = allow_nouns

    def settings(self) -> dict[str, Any]:
        return {
            "determiners": sorted(self.determiners), "reference_adjectives": sorted(self.reference_adjectives),
            "demonyms": sorted(self.demonyms), "adverbs": sorted(self.adverbs), "stance": sorted(self.stance),
            "allow_nouns": self.allow_nouns,
        }

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for it in items:
            rule = next((r for p, s in zip(it.positions, it.symbols) if (r := self._rule(it, p, s))), None)
            out.append(CheckResult(rule is None, 0.0 if rule else 1.0, rule))
        return out

    def _rule(self, it: CheckItem, p: int, sym: str) -> str | None:
        w = it.tokens[p].lower()
        if sym in ("NN", "NNS") and not self.allow_nouns:
            return "noun"
        if sym == "CC":
            return "conjunction"
        if sym in ("IN", "TO"):
            return None if w == "that" and p > 0 and it.tag(p - 1) in VERB_TAGS else "preposition"
        if sym in ("PRP$", "WP$"):
            return "possessive"
        if sym in ("DT", "PDT", "WDT"):
            if w not in self.determiners:
                return "determiner"
            before = [t.lower() for t in it.tokens[:p]]
            if w == "any" and not NPI_LICENSORS.intersection(before):
                return "npi"
            if len(before) >= 2 and before[-1] == "of" and before[-2] in QUANTITY_NOUNS:
                return "quantifier_stack"
        if sym.startswith("JJ") and (w in self.reference_adjectives or w in self.demonyms):
            return "adjective"
        if sym.startswith("RB"):
            if w in self.adverbs:
                return "adverb"
            if w in self.stance and any(0 <= q < len(it.tokens) and it.tokens[q].lower() in self.stance for q in (p - 1, p + 1)):
                return "adverb"
        return None


@fluency_checks.register("insertions")
def make_insertions(**settings: Any) -> Insertions:
    return Insertions(**settings)
