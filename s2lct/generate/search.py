"""Seed search: which annotated sentences meet a spec's search rules.

Sentences come annotated with the word classes they contain (``s2lct.corpus.annotate``), so
matching a rule is a few set operations and at most three regex searches. The clean-label and
shape conditions (``shape``, ``phrases``) are counted apart: for every pool, how many seeds that
meet a rule's other conditions each of them removes, so a spec author sees what a rule costs.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence

from s2lct.corpus.annotate import AnnotatedSentence
from s2lct.corpus.shape import CLAUSE_DASHES
from s2lct.errors import S2LCTError
from s2lct.spec import CapabilitySpec, SearchRule
from s2lct.spec.seed_rules import SeedFit
from s2lct.spec.terms import PHRASE_LABELS, anchored

# the 3-way class boundaries on SST's [0, 1] sentiment scale
CLASS_BOUNDARIES = (0.4, 0.6)


class MissingPhraseLabels(S2LCTError):
    """A rule needs a treebank's phrase labels and the seed's corpus has none."""


def root_score(fine_label: int) -> float:
    """The middle of a fine class's fifth of [0, 1]: SST trees give the class, not the score."""
    return (fine_label + 0.5) / 5


def root_margin(fine_label: int) -> float:
    score = root_score(fine_label)
    return round(min(abs(score - b) for b in CLASS_BOUNDARIES), 6)


#: per seed label, the fine phrase labels of the other side (a neutral seed has two)
OPPOSITE_FINE = {"positive": (0, 1), "negative": (3, 4), "neutral": (0, 1, 3, 4)}
#: per seed label, the fine phrase labels of its own side (a neutral seed: either side)
OWN_FINE = {"positive": (3, 4), "negative": (0, 1), "neutral": (0, 1, 3, 4)}


#: the SeedFit conditions judged on the seed's parse (person comes from its words)
_SYNTAX_FIT = tuple(name for name in SeedFit.model_fields if name != "person")


def fit_failures(fit: SeedFit, s: AnnotatedSentence) -> list[str]:
    """Names of the person/tense/clauses/subject/sentiment_in_predicate conditions of ``fit`` that ``s`` fails."""
    failed = []
    if fit.person is not None and not s.persons <= set(fit.person):
        failed.append("person")
    if not any(getattr(fit, name) for name in _SYNTAX_FIT):
        return failed
    syntax = s.syntax
    if syntax is None:
        raise S2LCTError(f"seed {s.sentence.source}:{s.sentence.split}:{s.sentence.index} has no parse; a tense/clauses/subject rule needs the annotated corpus")
    if fit.tense is not None and syntax.tense not in fit.tense:
        failed.append("tense")
    if fit.clauses is not None and not fit.clauses.admits(syntax.clauses):
        failed.append("clauses")
    if fit.subject is not None and (syntax.subject or "") not in {w.lower() for w in fit.subject}:
        failed.append("subject")
    if fit.subject_number is not None and subject_number(s) not in fit.subject_number:
        failed.append("subject_number")
    if fit.subject_pronoun is not None and subject_pronoun(s) not in fit.subject_pronoun:
        failed.append("subject_pronoun")
    if fit.sentiment_in_predicate and sentiment_a_denial_leaves(s):
        failed.append("sentiment_in_predicate")
    return failed


SINGULAR_VERBS = frozenset({"is", "was", "has", "does", "'s"})
PLURAL_VERBS = frozenset({"are", "were", "have", "do", "'re"})
PLURAL_PRONOUNS = frozenset({"they", "these", "those", "we", "both"})


def subject_number(s: AnnotatedSentence) -> str | None:
    """The main subject's number: from the agreement of the root's finite verb ("the action sequences
    were fun": plural; "Jones and Snipes are enthralling": plural, though the head is one name), else
    from the subject's own tag (NNS, NNPS) or pronoun; None where the seed has no subject."""
    syntax = s.syntax
    if syntax is None or syntax.subject is None or syntax.predicate is None:
        return None
    verb = next((q for q in syntax.finite if q >= syntax.predicate), None)
    if verb is not None:
        word, tag = s.tokens[verb].lower(), s.tags[verb]
        if word in SINGULAR_VERBS or tag == "VBZ":
            return "singular"
        if word in PLURAL_VERBS or tag == "VBP":
            return "plural"
    head = next((q for q in range(syntax.predicate - 1, -1, -1) if s.tokens[q].lower() == syntax.subject), None)
    plural = syntax.subject in PLURAL_PRONOUNS or (head is not None and s.tags[head] in ("NNS", "NNPS"))
    return "plural" if plural else "singular"


#: the object pronoun for a person the seed shows the gender of
_PERSON_PRONOUNS = {"he": "him", "she": "her"}


def subject_pronoun(s: AnnotatedSentence) -> str | None:
    """The pronoun a later clause would call the main subject by: "them" for a plural subject,
    "him"/"her" for a person whose gender the seed shows, "it" for a thing; None for a person of
    unknown gender or a seed without a subject (``s2lct.corpus.referent``)."""
    number = subject_number(s)
    if number is None:
        return None
    if number == "plural":
        return "them"
    referent = s.syntax.referent if s.syntax is not None else None
    if referent is None:
        return "it"
    return _PERSON_PRONOUNS.get(referent)


def sentiment_a_denial_leaves(s: AnnotatedSentence) -> list[str]:
    """The seed's sentiment that a denial of the predicate leaves standing: in its main subject or
    before it, opinion words of the seed's polarity (Hu & Liu's lexicon) and a phrase the treebank
    labels with the seed's polarity that ends there ("this overproduced piece of dreck", which the
    lexicon does not know); anywhere, opinion words inside a demonstrative noun phrase
    (``opinion_in_demonstratives``) or a non-restrictive relative clause
    (``opinion_in_nonrestrictive_relatives``). A seed without a subject has no predicate to deny:
    all of it counts."""
    from s2lct.corpus.opinion import opinion_words

    positive, negative = opinion_words()
    own = positive if s.label == "positive" else negative if s.label == "negative" else positive | negative
    end = s.syntax.predicate if s.syntax is not None and s.syntax.predicate is not None else len(s.tokens)
    found = [t for t in s.tokens[:end] if t.lower() in own]
    first_end = s.sentence.phrase_first_end
    if first_end is not None:
        found.extend(f"{s.tokens[e - 1]} (phrase {f})" for f in OWN_FINE[s.label] if 0 < (e := first_end[f]) <= end)
    found.extend(f"{w} (in '{d}')" for d, w in opinion_in_demonstratives(s, own))
    found.extend(f"{w} (in '{d}')" for d, w in opinion_in_nonrestrictive_relatives(s, own))
    return found


#: what may stand between a demonstrative and its noun ("this [remarkable and memorable] film")
_NOUN_MODIFIER_TAGS = frozenset({"JJ", "JJR", "JJS", "RB", "RBR", "RBS", "VBN", "VBG", "CC", ",", "HYPH"})


def opinion_in_demonstratives(s: AnnotatedSentence, own: frozenset[str] | set[str]) -> list[tuple[str, str]]:
    """Opinion words between a demonstrative and its noun, and the noun itself, anywhere in the seed
    ("in this fascinating portrait", "so is this adroitly minimalist movie", "strolls through this
    mess"): what a demonstrative describes is taken as given, so a denial of the clause leaves it
    standing (read 23: "I don't think ... that Scott delivers a terrific performance in this
    fascinating portrait ..." keeps the praise)."""
    out = []
    n = len(s.tokens)
    for i, (token, tag) in enumerate(zip(s.tokens, s.tags)):
        if tag != "DT" or token.lower() not in ("this", "these", "that", "those"):
            continue
        j = i + 1
        while j < n and s.tags[j] in _NOUN_MODIFIER_TAGS:
            j += 1
        if j < n and s.tags[j].startswith("NN"):  # the noun itself too: "strolls through this mess" (read 30)
            out.extend((f"{token} ... {s.tokens[j]}", w) for w in s.tokens[i + 1:j + 1] if w.lower() in own)
    return out


#: what opens a non-restrictive relative clause after its comma
_RELATIVE_PRONOUNS = frozenset({"which", "who", "whom", "whose"})
#: what ends one: the next comma, a dash, semicolon or colon, or the sentence's end
_CLAUSE_BREAKS = CLAUSE_DASHES | {",", "."}


def opinion_in_nonrestrictive_relatives(s: AnnotatedSentence, own: frozenset[str] | set[str]) -> list[tuple[str, str]]:
    """Opinion words in a relative clause set off by a comma (", which director Shekhar Kapur
    supplies with tremendous skill"): such a clause adds an assertion of its own, which a denial
    of the main clause does not reach (read 24: "I wouldn't say ... that the story gives ample
    opportunity for ... suspense, which director Shekhar Kapur supplies with tremendous skill")."""
    out = []
    n = len(s.tokens)
    for i in range(1, n):
        if s.tokens[i - 1] != "," or s.tokens[i].lower() not in _RELATIVE_PRONOUNS or not s.tags[i].startswith("W"):
            continue
        j = i + 1
        while j < n and s.tokens[j] not in _CLAUSE_BREAKS:
            j += 1
        out.extend((f", {s.tokens[i]} ...", w) for w in s.tokens[i + 1:j] if w.lower() in own)
    return out


def opinion_lexicon_disagrees(s: AnnotatedSentence) -> bool:
    """The second opinion (Hu & Liu's opinion lexicon): a neutral seed with an opinion word, or a
    polar seed with more opinion words of the other polarity than of its own."""
    from s2lct.corpus.opinion import opinion_words

    positive, negative = opinion_words()
    pos = sum(t.lower() in positive for t in s.tokens)
    neg = sum(t.lower() in negative for t in s.tokens)
    if s.label == "neutral":
        return pos + neg > 0
    return neg > pos if s.label == "positive" else pos > neg


def clean_label_failures(rule: SearchRule, s: AnnotatedSentence) -> list[str]:
    """Names of the shape, phrase-label, second-opinion and seed-fit conditions of ``rule`` that ``s`` fails."""
    failed = []
    if rule.shape is not None and s.shape not in rule.shape:
        if s.shape is None:
            raise S2LCTError(f"seed {s.sentence.source}:{s.sentence.split}:{s.sentence.index} has no parse; a 'shape' rule needs the annotated corpus")
        failed.append("shape")
    failed.extend(fit_failures(rule, s))
    if "opinion_lexicon" in rule.agree and opinion_lexicon_disagrees(s):
        failed.append("agree.opinion_lexicon")
    if rule.phrases is not None:
        counts, fine = s.sentence.phrase_labels, s.sentence.fine_label
        if counts is None or fine is None:
            raise MissingPhraseLabels(
                f"a 'phrases' rule needs phrase labels, and corpus {s.sentence.source!r} has none "
                "(only treebanks such as SST trees have them); remove the rule or use a treebank corpus"
            )
        if rule.phrases.forbid and any(counts[PHRASE_LABELS.index(name)] for name in rule.phrases.forbid):
            failed.append("phrases.forbid")
        if rule.phrases.root_margin is not None and root_margin(fine) < rule.phrases.root_margin:
            failed.append("phrases.root_margin")
        if rule.phrases.opposite_max_words is not None:
            longest = s.sentence.phrase_longest
            if longest is None:
                raise MissingPhraseLabels(f"'phrases.opposite_max_words' needs phrase spans, and corpus {s.sentence.source!r} has none")
            if any(longest[f] > rule.phrases.opposite_max_words for f in OPPOSITE_FINE[s.label]):
                failed.append("phrases.opposite_max_words")
    return failed


@functools.lru_cache(maxsize=1024)
def _compile(pattern: str, where: str) -> re.Pattern[str]:
    return re.compile(anchored(pattern, where))


def matches(rule: SearchRule, s: AnnotatedSentence) -> bool:
    return _matches_base(rule, s) and not clean_label_failures(rule, s)


def _matches_base(rule: SearchRule, s: AnnotatedSentence) -> bool:
    if rule.label is not None and s.label not in rule.labels():
        return False
    if rule.length is not None and not rule.length.admits(s.n_words):
        return False
    if rule.include and not s.word_classes.issuperset(rule.include):
        return False
    if rule.exclude and not s.word_classes.isdisjoint(rule.exclude):
        return False
    if rule.include_words and not s.words.issuperset(w.lower() for w in rule.include_words):
        return False
    if rule.exclude_words and not s.words.isdisjoint(w.lower() for w in rule.exclude_words):
        return False
    if rule.start is not None and not _compile(rule.start, "start").search(s.text):
        return False
    if rule.end is not None and not _compile(rule.end, "end").search(s.text):
        return False
    if rule.contains is not None and not _compile(rule.contains, "contains").search(s.text):
        return False
    if rule.token_pattern is not None or rule.exclude_pattern is not None:
        from s2lct.generate.patterns import contains_match

        if rule.token_pattern is not None and not contains_match(rule.token_pattern, s.tokens, s.tags):
            return False
        if rule.exclude_pattern is not None and contains_match(rule.exclude_pattern, s.tokens, s.tags):
            return False
    return True


def matches_any(rules: Sequence[SearchRule], s: AnnotatedSentence) -> bool:
    return any(matches(r, s) for r in rules)


def _fits(rule: SeedFit) -> bool:
    return any(getattr(rule, k) is not None for k in SeedFit.model_fields)


def search_pools(spec: CapabilitySpec, corpus: Sequence[AnnotatedSentence]) -> dict[str, list[AnnotatedSentence]]:
    """Seed pool name → matching sentences in corpus order, duplicates (same tokens) dropped."""
    return search_pools_counted(spec, corpus)[0]


def search_pools_counted(
    spec: CapabilitySpec, corpus: Sequence[AnnotatedSentence]
) -> tuple[dict[str, list[AnnotatedSentence]], dict[str, dict[str, int]]]:
    """``search_pools`` plus, per pool, how many distinct seeds each shape/phrase condition removed.

    A seed counts against a condition when some rule of the pool accepts it on its other
    conditions and every such rule fails it; a seed failing two conditions counts for both.
    """
    pools: dict[str, list[AnnotatedSentence]] = {}
    removed: dict[str, dict[str, int]] = {}
    for name, pool in spec.seeds.items():
        seen: set[tuple[str, ...]] = set()
        rejected: set[tuple[str, ...]] = set()
        found = []
        counts: Counter[str] = Counter()
        for s in corpus:
            if s.tokens in seen:
                continue
            base = [r for r in pool.any_of if _matches_base(r, s)]
            if not base:
                continue
            failures = [clean_label_failures(r, s) for r in base]
            if any(not f for f in failures):
                seen.add(s.tokens)
                found.append(s)
            elif s.tokens not in rejected:
                rejected.add(s.tokens)
                counts.update(set().union(*failures))
        pools[name] = found
        if any(r.shape is not None or r.phrases is not None or r.agree or _fits(r) for r in pool.any_of):
            removed[name] = {"candidates": len(seen | rejected), "kept": len(found), **dict(sorted(counts.items()))}
    return pools, removed
