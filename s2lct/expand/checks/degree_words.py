"""Degree words and what they may grade: the vocabulary and the tests that ``function_words``'
degree rules share ("[so] strictly routine", "pokes [quite] fun at", "as [very] hard to classify as
...", "such a debut that it's [so] hard ...", "[extremely] deadly dull"). Kept apart from the rules
themselves so that the check's module holds the rules and this one the English they stand on.
"""

from __future__ import annotations

from collections.abc import Sequence

from s2lct.expand.boosters import intensifiers
from s2lct.expand.checks.base import CheckItem
from s2lct.expand.checks.word_senses import gradable_adverb, has_adjective_sense, mostly_noun

#: degree words that the booster list lacks but the masked LM offers
DEGREE = frozenset({"so", "very", "quite", "too", "rather", "fairly", "pretty", "somewhat", "really"})
#: what ends the stretch a degree construction ("as ... as", "such ... that") can span
CLAUSE_BREAKS = frozenset({",", ";", ":", ".", "?", "!", "--", "-", "(", ")", "-LRB-", "-RRB-", "``", "''"})
#: scalar boosters: they grade a gradable adjective and clash with an extreme or absolute one
SCALAR_BOOSTERS = frozenset({"very", "extremely", "particularly", "remarkably", "incredibly", "highly", "hugely", "especially",
                             "exceptionally", "unusually", "fairly", "rather", "somewhat", "pretty", "greatly", "enormously",
                             "tremendously", "intensely", "considerably", "substantially", "decidedly", "amazingly", "unbelievably"})
#: extreme and absolute adjectives (specs/LC12.yaml leaves the same ones out of its intensified cases)
EXTREME_ADJECTIVES = frozenset(
    "perfect flawless ideal unique impeccable brilliant excellent superb outstanding magnificent fantastic amazing incredible "
    "extraordinary exceptional phenomenal spectacular marvelous wonderful awesome terrific stunning masterful masterly awful "
    "terrible horrible dreadful atrocious abysmal appalling horrendous unbearable unwatchable pointless worthless useless "
    "hopeless disastrous excruciating intolerable impossible essential complete total utter nonexistent priceless "
    "unforgettable unmistakable full first-rate top-notch irresistible hilarious astonishing astounding breathtaking sublime "
    "exquisite dazzling pure great negligible soulless lifeless joyless charmless witless humorless toothless".split()
)
#: adjectives that are or are not, with no degree between: a scalar booster does not grade them ("the
#: [incredibly] inexorable passage", read 38; "brought [very] new energy", read 48; "was [very] akin to", read 49); "quite" and "so" may ("quite inevitable")
NONGRADABLE_ADJECTIVES = frozenset({"inexorable", "inevitable", "infinite", "eternal", "entire", "whole", "mere", "sheer",
                                    "main", "principal", "chief", "sole", "unanimous", "fatal", "final", "initial", "unknowable",
                                    "unafraid", "incapable", "unable", "tantamount", "new", "akin"})
#: downtoners: after one, a booster in the next conjunct pulls the other way ("rather leaden and
#: [particularly] dull"); a template that inserts one softens its seed (``suite_expansion``)
DOWNTONERS = frozenset({"rather", "fairly", "somewhat", "slightly", "mildly", "moderately", "pretty"})
#: emphasis that stacks on a degree word of the same sense ("really very good", "truly very fine")
DEGREE_EMPHASIS = frozenset({"really", "truly", "very"})
#: quantifiers the tagger calls adjectives, which these degree words do modify ("so few chances")
QUANTIFIERS = frozenset({"few", "little", "many", "much"})
#: quantifiers a fill may be, and the nouns that say a quantity already ("a lot of [many] flags", read 42)
QUANTIFIER_FILLS = frozenset({"many", "much", "few", "several", "numerous"})
QUANTITY_NOUNS = frozenset({"lot", "lots", "plenty", "number", "bunch", "couple", "deal", "handful", "dozens", "hundreds"})
#: idioms whose first word takes no degree word: adjective + noun ("a [very] fair amount", read 42; "a [so] great
#: deal"), "tantamount to" ("[quite] tantamount to", read 46), "good old" ("[quite] good old-fashioned", read 47)
DEGREE_IDIOMS = frozenset({("fair", "amount"), ("fair", "share"), ("fair", "number"), ("fair", "bit"), ("good", "deal"), ("great", "deal"), ("tantamount", "to"),
                           ("good", "old"), ("good", "old-fashioned")})
#: a verb and its predicate that make one idiom: a degree word between them breaks it ("never rings [very] true", read 46)
VERB_IDIOMS = frozenset({(v, a) for v in ("ring", "rings", "rang", "rung", "ringing") for a in ("true", "false", "hollow")}
                        | {(v, "old") for v in ("get", "gets", "got", "gotten", "getting", "grow", "grows", "grew", "growing")})


def in_equative(toks: Sequence[str], p: int) -> bool:
    """Whether position ``p`` lies in an "as ... as" comparison: right after its first "as" with a
    second "as" ahead in the clause ("as [very] hard to classify as ..."), or after the copula of
    its second member ("... as it is [very] hard to resist") with a first "as" before."""
    n = len(toks)
    if p >= 1 and toks[p - 1] == "as":
        for q in range(p + 1, min(n, p + 9)):
            if toks[q] in CLAUSE_BREAKS:
                break
            if toks[q] == "as":
                return True
    return p >= 3 and toks[p - 1] in COPULAS and toks[p - 3] == "as" and "as" in toks[:p - 3]


#: adverbs that insist on the truth of what follows: two within two words say it twice
EMPHASIS_ADVERBS = frozenset({"really", "truly", "definitely", "certainly", "surely", "absolutely", "indeed"})


def in_result_clause(toks: Sequence[str], p: int) -> bool:
    """Whether ``p`` lies in the result clause of "such ... that" ("such a dazzling debut that it's [so]
    hard to know ...", read 35) or of "so ... that" ("so few movies explore religion that it's [so]
    disappointing", read 36): "such" or "so" already grades, and the clause states its result. The
    "so" must grade a word of its own ("so few", "so bad"); "so that" is a purpose clause. The rule
    takes it only on an adjective ("staring [so] hypnotically at her" in such a clause is fluent)."""
    before = toks[:p]
    for word in ("such", "so"):
        if word not in before:
            continue
        s = len(before) - 1 - before[::-1].index(word)
        if word == "so" and (s + 1 >= p or before[s + 1] == "that"):
            continue
        if "that" in before[s + 1:] and not any(t in CLAUSE_BREAKS for t in before[s + 1:]):
            return True
    return False


#: adjectives and adverbs that intensify the adjective after them without being degree words of
#: VADER's list: a degree word before them grades a phrase already graded ("[extremely] deadly dull")
ADJECTIVE_INTENSIFIERS = frozenset({"deadly", "dead", "downright", "plain", "plainly", "flat", "flat-out", "outright", "real",
                                    "damn", "damned", "darn", "awfully", "terribly", "horribly", "insanely", "wildly",
                                    "ridiculously", "impossibly", "painfully", "supremely"})


#: quantifiers a degree word does not grade, but for the fixed pairs ("very much", "very many")
NOUNLIKE_QUANTIFIERS = frozenset({"plenty", "lots", "much", "many"})


def is_degree_word(word: str) -> bool:
    """A degree word: VADER's boosters and the ones the masked LM offers that the list lacks."""
    return word in DEGREE or word in intensifiers()


def degree_before_noun(word: str, nxt: str, tag: str) -> bool:
    """A degree adverb right before a noun or a nominal quantifier ("pokes [quite] fun at",
    "there was [very] plenty to impress", "[quite] much of the cast", "had [so] lots of dancing"):
    it grades adjectives and adverbs only. "so" only before "plenty" and "lots" ("so much", "so
    many" and the colloquial "so fun" stay)."""
    if word == "so":
        return nxt in ("plenty", "lots")
    if nxt in NOUNLIKE_QUANTIFIERS:
        return not (word == "very" and nxt in ("much", "many"))
    return tag in ("NN", "NNS")


#: hedges that are themselves a degree ("kind of insulting")
HEDGED_DEGREE = frozenset({("kind", "of"), ("sort", "of")})


def adverbs_then_adjective(it: CheckItem, q: int) -> bool:
    """Whether the adverb at ``q`` starts a list of adverbs ("hilariously, gloriously") that ends
    in an adjective, or in a hyphenated compound, which after an adverb is one whatever the
    parser tags it ("unashamedly pro-Serbian", read 45)."""
    n = len(it.tokens)
    while q + 1 < n:
        nxt = it.tag(q + 1)
        if nxt == "JJ" or _hyphenated(it.tokens[q + 1]):
            return True
        if nxt == "RB":
            q += 1
        elif (it.tokens[q + 1] == "," or nxt == "CC") and q + 2 < n and it.tag(q + 2) == "RB":
            q += 2
        else:
            return False
    return False


def _hyphenated(word: str) -> bool:
    parts = word.split("-")
    return len(parts) > 1 and all(p.isalpha() for p in parts)


#: correlative coordinators: a degree word before them has nothing to grade ("was [quite] both inspiring and pure joy")
CORRELATIVES = frozenset({"both", "either", "neither"})
#: degree adverbs that grade nothing but adjectives, adverbs and quantifiers ("really", "quite",
#: "particularly" also modify verbs, phrases and noun phrases, so they are not here)
PURE_DEGREE = frozenset({"so", "very", "too", "extremely", "incredibly", "remarkably", "exceptionally", "unusually"})
#: verbs after which a noun is a predicate and "so" may grade it colloquially ("it's so fun")
COPULAS = frozenset({"is", "'s", "are", "'re", "was", "were", "be", "been", "being", "am", "'m", "seems", "seem", "seemed",
                     "looks", "look", "looked", "feels", "feel", "felt", "sounds", "sound", "sounded"})


def gradable(it: CheckItem, q: int) -> bool:
    """Whether a pure degree adverb right before token ``q`` has something to grade: an adjective,
    an adverb, a quantifier; a participle WordNet also lists as an adjective, with no particle
    after it ("so disappointed", not "so weighed down"); a noun only as a predicate ("is so fun"),
    also where the tagger calls it an adjective ("pokes [so] fun at")."""
    word, tag = it.tokens[q].lower(), it.tag(q)
    if verb_object_adjective(it, q):
        return False
    if tag.startswith("JJ") or word in QUANTIFIERS:
        return True
    if tag.startswith("RB"):
        if word in FOCUSING_ADVERBS and q + 1 < len(it.tokens) and it.tag(q + 1)[:2] in ("JJ", "NN", "DT", "CD"):
            return False  # it picks out what follows, it does not describe a manner: "the film is [so] strictly routine" (read 32)
        return gradable_adverb(word)
    if tag in ("VBN", "VBG", "VBD"):  # taggers confuse the past participle with the past tense
        return has_adjective_sense(word) and not (q + 1 < len(it.tokens) and it.tag(q + 1) == "RP")
    if tag in ("NN", "NNS"):
        return q >= 2 and it.tokens[q - 2].lower() in COPULAS
    return False


#: adverbs that single out what follows them ("strictly routine", "merely competent"); as such, not as
#: manner adverbs ("so simply told"), nothing grades them
FOCUSING_ADVERBS = frozenset({"strictly", "merely", "simply", "purely", "solely", "just", "only", "exclusively", "mainly",
                              "largely", "mostly", "chiefly", "primarily", "partly"})


def verb_object_adjective(it: CheckItem, q: int) -> bool:
    """Whether token ``q``, two tokens after a verb other than a copula (the degree word between), is
    a verb's object the tagger called an adjective: WordNet's sense counts meet the word mostly as a
    noun ("pokes [so] fun at")."""
    return it.tag(q).startswith("JJ") and q >= 2 and it.tag(q - 2).startswith("VB") \
        and it.tokens[q - 2].lower() not in COPULAS and mostly_noun(it.tokens[q].lower())


def extreme_adverb(word: str) -> bool:
    """The adverb of an extreme adjective ("brilliantly", "perfectly", "wonderfully"): a scalar
    booster grades it no better than the adjective ("works [very] brilliantly", a blind read)."""
    return word.endswith("ly") and (word[:-2] in EXTREME_ADJECTIVES or word[:-2] + "e" in EXTREME_ADJECTIVES
                                    or (word.endswith("ily") and word[:-3] + "y" in EXTREME_ADJECTIVES))
