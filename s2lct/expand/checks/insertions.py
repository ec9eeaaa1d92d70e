"""Which kinds of word an expansion may insert at all (calibrated on tests/data/, see README there).

Read by a careful annotator, most masked-LM insertions that pass PoS, neutrality and the
function-word rules still change what the seed says or read oddly, and they do so by word class:
of 320 random candidates, a new noun was right 5 times in 72 ("This [series] is wild", "the
[movie] back"), a new conjunction, preposition or possessive 1 time in 48 ("sweet [and] [fun]",
"at [your] conception"), "a"/"the"/"this" 2 times in 60 ("captured on [a] film"). Version 1 kept
"some", "any" and most adverbs and scored precision 1.00 on that set but 0.29 on a blind held-out
draw: "some" was right about half the time with no cheap cue telling which ("some freshness" vs
"some masochism"), and adverbs stacked on adverbs ("It [ultimately] rapidly develops"). The
masked-LM score cannot tell these apart (AUC ≈ 0.65 on the set). Version 2 kept
adjectives and any adverb before a verb or adjective: 0.47 on a second blind draw ("sense of
[cultural] imagery", "should be [so] sincere"). Version 3 let through only what was right in
all three sets. Version 4 narrows it after a read of the 375 expanded seeds that
version 3 put in the committed suite ("was [so] vile enough", "serves [so] mostly", "Nothing is
[so] sacred", "is [so] shapelessly gratifying", "the hype is [so] quieter", "dare I say [that] it
twice", "any fan could [probably] want"). A blind draw (tests/data/expansions_held_out_3.jsonl)
put version 4 at 0.77: "so" was right 27 times in 39 ("the answer is [so] clear:", "gets [so]
recycled", "is [so] high on squaddie banter", "few are [so] familiar with"), "probably" 11 in
13, "that" 13 in 14. Version 5 kept "so" only where all of those were right; a fourth blind draw
(tests/data/expansions_held_out_4.jsonl) put it at 0.81: "so" 18 in 22 ("seems to realize [so]
intuitively", "is [so] adequate"), "probably" 9 in 13 ("If you can [probably] push on"), other
adverbs 3 in 5, "that" 12 in 12, "any" 2 in 2. Version 6 (this one) keeps the rules of version 5
but, by default, lets through only the kinds of insertion that held at least 0.95 in *both*
blind draws: the complementiser "that" (25 in 26) and "any" after "without" (4 in 4). The other
kinds stay available through the ``allowed`` setting (``intensifier``, ``adverb``) for users who
prefer more expansions at the measured precision. Every list is a setting (recorded in the
manifest). What each kind lets through:

- ``intensifier``: a degree adverb ("so", "very" ...) as an intensifier in a predicate: after a form of "be",
  "seem", "look" or "grow" that no adverb precedes ("sure is [so] funny"), right before a plain
  (not comparative or superlative) adjective or participle that ends the predicate: punctuation
  other than a colon, "and", "but" or "that" follows it ("is [so] pleasant.", "seemed [so]
  static, but", "is [so] unfortunate that"); or between a verb and the "-ly" manner adverb that
  modifies it ("treads [so] heavily"); never under a negation, "nothing" or "few" earlier in the
  sentence, where "so" turns a statement into a comparison ("never feels [so] derivative");
- ``adverb``: another adverb right before the verb, adjective or participle it modifies ("Decent but
  [sometimes] dull", "should [probably] stick"), not after another adverb, a preposition or a
  comma; "probably" not after "might"/"may"/"must", nor under a negation, a free-choice "any"
  ("anyone else could [probably] chew"), a superlative ("the most amazing ... any fan could
  [probably] want") or a verb of believing ("a subject you thought would [probably] leave you");
- ``any``: "any" right after a "without" that is not itself negated ("without [any] chills");
- ``complementiser``: a complementiser "that" after a verb of saying, knowing or showing, when a clause follows: a
  subject and then a finite verb with something after it before the next punctuation ("proves
  [that] you can"; not the aside "I think [that] his name was, uh,").

Nouns, adjectives, numbers, conjunctions, prepositions, possessives and other determiners are
refused: each adds a referent or a property the seed did not state (adjectives were right 2
times in 19 across the sets: "sense of [cultural] imagery", "[recent] films like Tremors").

Rules (the first that fires is recorded): ``noun``, ``number``, ``conjunction``, ``preposition``,
``possessive``, ``determiner``, ``npi``, ``adjective``, ``adverb``, ``adverb_position``,
``intensifier`` (a degree word where it does not intensify a plain predicate), ``negated``,
``complementiser`` ("that" with no clause after it), ``not_allowed`` (a kind left out of
``allowed``), ``other``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.corpus.shape import FINITE_TAGS
from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

DETERMINERS = ("any",)
REFERENCE_ADJECTIVES = (
    "few many only own much several other same certain initial entire whole main first last next final such various "
    "particular specific original previous former latter real actual very little more most less least new old human"
).split()
DEMONYMS = (
    "american british english french german italian spanish chinese japanese korean indian russian european african "
    "asian canadian australian mexican irish scottish hollywood oscar christian jewish muslim catholic"
).split()
ADVERBS = (
    "here there back again anyway anyhow ever also too then now still just even already yet once twice away out up down "
    "off on in around together instead else later today tonight ago almost thus hence therefore besides otherwise "
    "meanwhile finally eventually ultimately especially occasionally somewhere anywhere everywhere far likely simply "
    "merely only mostly largely partly mainly generally usually more most less least previously recently currently "
    "formerly originally initially"
).split()
DEGREE = ("so", "very", "really", "quite", "too", "pretty", "rather")
NEGATIONS = frozenset("not n't no never without nothing hardly barely nor".split())
CLAUSE_VERBS = frozenset(
    "know knows knew prove proves proved show shows showed say says said think thinks thought believe believes suggest "
    "suggests mean means realize realizes feel feels hope hopes argue argues claim claims find finds found admit admits "
    "guess bet insist insists".split()
)
MODIFIABLE = frozenset({"JJ", "VBN", "VBG", "VB", "VBD", "VBP", "VBZ"})
ADVERB_TAGS = frozenset({"RB", "RBR", "RBS"})
VERB_TAGS = frozenset({"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "MD"})
LINKING = frozenset(
    "is are was were 's 're 'm am seem seems seemed appear appears appeared look looks looked feel feels felt get gets "
    "got remain remains remained sound sounds sounded wear wears wore go goes gone went grow grows grew".split()
)
NOUN_TAGS = frozenset({"NN", "NNS", "NNP", "NNPS"})
#: "-ly" words that are not manner adverbs: "so" cannot intensify them ("serves [so] mostly")
NOT_MANNER = (
    "simply certainly clearly obviously definitely surely actually basically essentially really truly probably possibly "
    "apparently seemingly supposedly arguably admittedly fortunately unfortunately hopefully honestly frankly literally "
    "virtually nearly hardly barely merely entirely completely totally fully wholly utterly purely solely mainly partly "
    "roughly exactly directly immediately finally eventually ultimately recently currently previously originally "
    "initially newly early likely only mostly largely generally usually especially particularly relatively fairly "
    "slightly highly extremely incredibly remarkably increasingly equally similarly absolutely positively"
).split()
NEGATED_CONTEXT = NEGATIONS | {"nobody", "none", "neither", "n't", "few", "little"}
#: the verbs after which "so" may intensify a predicate adjective (not "gets [so] recycled", "feels [so] accidental")
INTENSIFIABLE_LINKING = frozenset(
    "is are was were 's 're 'm am seem seems seemed look looks looked grow grows grew".split()
)
#: what may follow an intensified predicate adjective ("is [so] pleasant .", "is [so] unfortunate that")
PREDICATE_END = frozenset({".", ",", ";", "!", "?", "--", "...", "and", "but", "that", "''", "'"})
#: an emphasis already on the verb leaves no room for "so" ("That sure is [so] funny!")
EMPHASIS = frozenset("sure really truly certainly definitely actually just so very".split())
BELIEF_VERBS = frozenset("think thinks thought believe believes believed guess guessed suppose supposed expect expected".split())
SUBJECT_TAGS = frozenset({"PRP", "DT", "NN", "NNS", "NNP", "NNPS", "EX", "PRP$", "JJ", "CD", "WP"})
PUNCT_TAGS = frozenset({",", ".", ":", "``", "''", "-LRB-", "-RRB-"})
NOMINAL = NOUN_TAGS | {"JJ", "JJR", "JJS"}


#: the kinds of insertion the rules above can let through
KINDS = ("complementiser", "any", "intensifier", "adverb")
#: those that held at least 0.95 in both blind draws (tests/data/README.md)
ALLOWED = ("complementiser", "any")


class Insertions:
    name = "insertions"
    version = "6"

    def __init__(
        self,
        determiners: Sequence[str] = DETERMINERS,
        reference_adjectives: Sequence[str] = REFERENCE_ADJECTIVES,
        demonyms: Sequence[str] = DEMONYMS,
        adverbs: Sequence[str] = ADVERBS,
        degree: Sequence[str] = DEGREE,
        clause_verbs: Sequence[str] = tuple(sorted(CLAUSE_VERBS)),
        not_manner: Sequence[str] = NOT_MANNER,
        allowed: Sequence[str] = ALLOWED,
    ) -> None:
        from s2lct.errors import S2LCTError

        unknown = sorted(set(allowed) - set(KINDS))
        if unknown:
            raise S2LCTError(f"insertions: unknown kind(s) {', '.join(unknown)} in allowed; valid: {', '.join(KINDS)}")
        self.allowed = frozenset(allowed)
        self.determiners = frozenset(determiners)
        self.reference_adjectives = frozenset(reference_adjectives)
        self.demonyms = frozenset(demonyms)
        self.adverbs = frozenset(adverbs)
        self.degree = frozenset(degree)
        self.clause_verbs = frozenset(clause_verbs)
        self.not_manner = frozenset(not_manner)

    def settings(self) -> dict[str, Any]:
        return {
            "determiners": sorted(self.determiners), "reference_adjectives": sorted(self.reference_adjectives),
            "demonyms": sorted(self.demonyms), "adverbs": sorted(self.adverbs), "degree": sorted(self.degree),
            "clause_verbs": sorted(self.clause_verbs), "not_manner": sorted(self.not_manner),
            "allowed": [k for k in KINDS if k in self.allowed],
        }

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for it in items:
            rule = next((r for p, s in zip(it.positions, it.symbols) if (r := self._allowed_rule(it, p, s))), None)
            out.append(CheckResult(rule is None, 0.0 if rule else 1.0, rule))
        return out

    def _allowed_rule(self, it: CheckItem, p: int, sym: str) -> str | None:
        """The rule that refuses this fill, or None; a kind the rules let through must also be allowed."""
        rule = self._rule(it, p, sym)
        if rule is not None:
            return rule
        return None if insertion_kind(it.tokens[p].lower(), sym, self.degree) in self.allowed else "not_allowed"

    def _rule(self, it: CheckItem, p: int, sym: str) -> str | None:
        toks = [t.lower() for t in it.tokens]
        w = toks[p]
        prev_tok = toks[p - 1] if p > 0 else None
        prev_tag = it.tag(p - 1) if p > 0 else None
        next_tag = it.tag(p + 1) if p + 1 < len(toks) else None
        if sym in ("NN", "NNS", "NNP", "NNPS"):
            return "noun"
        if sym == "CD":
            return "number"
        if sym == "CC":
            return "conjunction"
        if sym in ("IN", "TO"):
            if w != "that" or prev_tok not in self.clause_verbs:
                return "preposition"
            return None if self._clause_follows(it, p + 1) else "complementiser"
        if sym in ("PRP$", "WP$"):
            return "possessive"
        if sym in ("DT", "PDT", "WDT"):
            if w not in self.determiners:
                return "determiner"
            # only right after "without", itself not negated ("not without [any] style")
            ok = prev_tok == "without" and not NEGATIONS.intersection(toks[max(0, p - 3) : p - 1])
            return None if ok else "npi"
        if sym.startswith("JJ"):
            return "adjective"
        if sym in ADVERB_TAGS:
            if w in self.adverbs:
                return "adverb"
            if prev_tag in ADVERB_TAGS or prev_tag in ("IN", "TO") or prev_tok == ",":
                return "adverb_position"
            if w in self.degree:
                return self._intensifier_rule(it, toks, p)
            if w == "probably" and (
                prev_tok in ("might", "may", "must")
                or NEGATED_CONTEXT.intersection(toks[:p])
                or any(t.startswith("any") for t in toks[:p])
                or any(it.tag(i) == "JJS" or toks[i] == "most" for i in range(p))
                or BELIEF_VERBS.intersection(toks[:p])
            ):
                return "adverb_position"  # doubled modality, a negation, free-choice "any", a superlative, a belief
            return None if next_tag in MODIFIABLE else "adverb_position"
        return "other"

    def _intensifier_rule(self, it: CheckItem, toks: list[str], p: int) -> str | None:
        """A degree word intensifies a plain predicate adjective or a manner adverb, nothing else."""
        if NEGATED_CONTEXT.intersection(toks[:p]):
            return "negated"  # "Nothing is [so] sacred", "never feels [so] derivative"
        prev_tok = toks[p - 1] if p > 0 else ""
        prev_tag = it.tag(p - 1) if p > 0 else ""
        nxt = toks[p + 1] if p + 1 < len(toks) else ""
        next_tag = it.tag(p + 1) if p + 1 < len(toks) else ""
        after = toks[p + 2] if p + 2 < len(toks) else "."
        if prev_tok in LINKING:
            plain = next_tag in ("JJ", "VBN") and not is_graded_form(nxt) and not is_absolute(nxt)
            emphasis_before_verb = p >= 2 and toks[p - 2] in EMPHASIS  # "sure is [so] funny", "really get [so] weird"
            ok = prev_tok in INTENSIFIABLE_LINKING and plain and after in PREDICATE_END and not emphasis_before_verb
            return None if ok else "intensifier"
        manner = (
            next_tag == "RB" and nxt.endswith("ly") and nxt not in self.not_manner and nxt not in self.adverbs
            and is_adverb(nxt)  # the parser tags "unruly" RB: "be [so] unruly"
        )
        verb_before = (prev_tag in VERB_TAGS and prev_tag != "MD") or prev_tag == "RP"
        modifies_adjective = p + 2 < len(toks) and it.tag(p + 2) in ("JJ", "VBN")  # "[so] simply intoxicating"
        return None if manner and verb_before and not modifies_adjective else "intensifier"

    @staticmethod
    def _clause_follows(it: CheckItem, start: int) -> bool:
        """A subject, then a finite verb before the next punctuation: "proves [that] you can ..."."""
        if start >= len(it.tokens) or it.tag(start) not in SUBJECT_TAGS:
            return False
        for i in range(start + 1, len(it.tokens)):
            tag = it.tag(i)
            if tag in PUNCT_TAGS:
                return False
            if tag in FINITE_TAGS:  # and something after the verb: not the aside "I think [that] his name was ,"
                return i + 1 < len(it.tokens) and it.tag(i + 1) not in PUNCT_TAGS
        return False


def insertion_kind(word: str, symbol: str, degree: frozenset[str]) -> str:
    """Which kind of insertion a fill the rules let through is (see KINDS)."""
    if symbol in ("IN", "TO"):
        return "complementiser"
    if symbol in ("DT", "PDT", "WDT"):
        return "any"
    return "intensifier" if word in degree else "adverb"


ABSOLUTE = frozenset("perfect unique ideal impossible dead complete total utter entire infinite universal".split())


def is_absolute(word: str) -> bool:
    """An adjective that does not grade: "[so] all-powerful", "[so] perfect"."""
    return word in ABSOLUTE or word.startswith("all-")


def is_adverb(word: str) -> bool:
    from nltk.corpus import wordnet

    return bool(wordnet.synsets(word, wordnet.ADV))


def is_graded_form(word: str) -> bool:
    """A comparative or superlative ("quieter", "best"): WordNet maps it to another base form."""
    if word in ("more", "most", "less", "least", "better", "best", "worse", "worst"):
        return True
    if not word.endswith(("er", "est")):
        return False
    from nltk.corpus import wordnet

    base = wordnet.morphy(word, wordnet.ADJ)
    return base is not None and base != word


@fluency_checks.register("insertions")
def make_insertions(**settings: Any) -> Insertions:
    return Insertions(**settings)
