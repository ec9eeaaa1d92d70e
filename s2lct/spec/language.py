"""The spec language: pydantic models of a linguistic-capability spec and its JSON Schema.

The models are the single source of truth; ``specs/schema.json`` is generated from them
(``s2lct schema``) and a test keeps the two identical, so editors that understand JSON Schema and
our own validator agree. Reading YAML files into these models is ``s2lct.spec.loader``.
"""

from __future__ import annotations

import math
import re
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, field_validator, model_validator

from s2lct.constants import LABELS

Label = Literal["negative", "neutral", "positive"]
WORD_CLASS_PATTERN = r"^(positive|negative|neutral) (adj|noun|verb|adv)$"
WordClass = Annotated[str, Field(pattern=WORD_CLASS_PATTERN, description="'<polarity> <word class>', e.g. 'neutral adj'")]
IDENT = r"^[A-Za-z][A-Za-z0-9_\-]*$"
# Every combination of a template's literal alternatives is enumerated for every seed before
# sampling, so an unbounded product would exhaust memory; real templates use tens.
MAX_TEMPLATE_COMBINATIONS = 10_000
SeedOp = Literal["negate_copula", "strip_final_punct", "lowercase_first", "strip_leading_conjunction", "backshift", "full_stop"]
Person = Literal["first", "second", "third"]
Tense = Literal["present", "past", "modal"]
Number = Literal["singular", "plural"]
#: second opinions on a seed's label, besides the treebank's (docs/specs.md, "Seed quality")
SecondOpinion = Literal["opinion_lexicon"]
Shape = Literal["clause", "question", "exclamation", "imperative", "noun_phrase", "fragment", "sentences"]
PhraseLabel = Literal["very negative", "negative", "neutral", "positive", "very positive"]
# SST's fine labels, in order 0..4
PHRASE_LABELS: tuple[str, ...] = ("very negative", "negative", "neutral", "positive", "very positive")
#: Token attributes a token pattern may test (plus the quantifier key ``OP``); sentences are tagged,
#: not parsed, so dependency attributes and lemmas are not available.
PATTERN_ATTRS = (
    "ORTH", "TEXT", "LOWER", "LENGTH", "TAG", "POS", "IS_ALPHA", "IS_ASCII", "IS_DIGIT", "IS_LOWER",
    "IS_UPPER", "IS_TITLE", "IS_PUNCT", "IS_STOP", "LIKE_NUM", "OP",
)


PATH_TAG = re.compile(r"^@([^@]*)@ ")


def at_path(path: tuple[Any, ...], message: str) -> str:
    """Tag a model-level validation message with the path it concerns, so the loader finds its line."""
    return "@" + ".".join(map(str, path)) + "@ " + message


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_GLOBAL_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


def anchored(pattern: str, where: str) -> str:
    """The regex a ``start``/``end`` rule runs: anchored at that end, leading global flags such as
    ``(?i)`` kept in front (Python refuses them anywhere else)."""
    flags = m.group(0) if (m := _GLOBAL_FLAGS.match(pattern)) else ""
    body = pattern[len(flags):]
    if where == "start":
        return pattern if body.startswith("^") else f"{flags}^(?:{body})"
    if where == "end":
        return pattern if body.endswith("$") else f"{flags}(?:{body})$"
    return pattern


def _check_regex(value: str | None, where: str = "contains") -> str | None:
    if value is not None:
        try:
            re.compile(anchored(value, where))
        except re.error as exc:
            raise ValueError(f"invalid regular expression {value!r}: {exc}") from None
    return value


def _check_token_pattern(pattern: list[dict[str, Any]] | None) -> list[dict[str, Any]] | None:
    """Attributes we can provide, then spaCy's own Matcher validation (one line)."""
    if pattern is None:
        return None
    if not pattern:
        raise ValueError("a token pattern needs at least one token dict, e.g. [{POS: ADJ}]")
    import difflib

    for i, token in enumerate(pattern):
        for key in token:
            if key not in PATTERN_ATTRS:
                close = difflib.get_close_matches(str(key).upper(), PATTERN_ATTRS, n=1)
                hint = f"did you mean {close[0]!r}? " if close and close[0] != key else ""
                raise ValueError(f"token {i}: attribute {key!r} is not available ({hint}usable: {', '.join(PATTERN_ATTRS)}; sentences are tagged, not parsed)")
    try:
        from spacy.matcher import Matcher
        from spacy.vocab import Vocab

        Matcher(Vocab(), validate=True).add("p", [pattern])
    except ImportError:  # pragma: no cover - spaCy is a dependency
        pass
    except Exception as exc:  # noqa: BLE001 - spaCy's MatchPatternError is multi-line
        raise ValueError("invalid token pattern: " + " ".join(str(exc).split())[:300]) from None
    return pattern


TokenPattern = Annotated[
    list[dict[str, Any]],
    Field(description="a spaCy Matcher token pattern over words and PoS tags, e.g. [{LOWER: very}, {POS: ADJ}] (docs/specs.md)"),
]


class Length(_Strict):
    """Bounds on the number of words (tokens with a letter or digit), inclusive."""

    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)

    def admits(self, n: int) -> bool:
        """``n`` lies within the bounds."""
        return (self.min is None or n >= self.min) and (self.max is None or n <= self.max)

    @model_validator(mode="after")
    def _ordered(self) -> Length:
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError(f"min ({self.min}) is greater than max ({self.max})")
        return self


class Count(Length):
    """Bounds on a count, inclusive."""


class PhraseRule(_Strict):
    """Conditions on the labels a treebank gives a seed's sub-phrases and root (SST: fine labels 0..4).

    Needs a corpus with phrase labels (SST trees); a spec using it on a corpus without them is an error.
    """

    forbid: list[PhraseLabel] = Field(
        default_factory=list,
        description="no sub-phrase (any tree node below the root, single words included) may carry one of these labels",
    )
    root_margin: float | None = Field(
        default=None,
        ge=0,
        le=0.5,
        description=(
            "minimum distance of the root's sentiment score from the 3-way class boundaries 0.4 and 0.6; "
            "SST trees give a fine class, whose score is the middle of its fifth of [0, 1] "
            "(0.1, 0.3, 0.5, 0.7, 0.9), so 0.1 keeps every seed and 0.2 keeps only very negative/very positive ones"
        ),
    )
    opposite_max_words: int | None = Field(
        default=None,
        ge=0,
        description=(
            "one-sidedness: no sub-phrase of the polarity opposite to the seed's label may span more than this many "
            "words (for a neutral seed: no positive or negative sub-phrase may); 0 forbids any, 1 lets single words "
            "through ('avoids [cliché]'), which a negation or a contrast inside the phrase usually explains"
        ),
    )


class SeedFit(_Strict):
    """What a frame needs of the seed it embeds (from the seed's spaCy parse; docs/specs.md, "Seed quality")."""

    person: list[Person] | None = Field(
        default=None,
        min_length=1,
        description=(
            "who the seed may speak as or to: 'first' (it has I/me/my/we/us/our...), 'second' (you/your...), "
            "'third' (neither); a seed with both first- and second-person words needs both listed"
        ),
    )
    tense: list[Tense] | None = Field(
        default=None, min_length=1, description="tense of the seed's main verb (present, past, or modal: will/would/can...)"
    )
    clauses: Count | None = Field(
        default=None,
        description="bounds on the seed's clauses that carry an opinion of their own (the main clause and those coordinated, juxtaposed or adverbial to it)",
    )
    subject: list[str] | None = Field(
        default=None, min_length=1, description="the head word of the seed's main subject must be one of these (case-insensitive), e.g. [it, film, movie]"
    )
    subject_number: list[Number] | None = Field(
        default=None,
        min_length=1,
        description=(
            "grammatical number of the seed's main subject (singular, plural), read from the main verb's agreement "
            "(is/are, was/were, VBZ/VBP) or, for a verb that shows none, the subject's tag: a frame that refers back "
            "to the seed ('..., but now I don't like it/them') must agree with it"
        ),
    )
    sentiment_in_predicate: bool | None = Field(
        default=None,
        description=(
            "true: none of the seed's sentiment in the main clause's subject or before it (no opinion word of the seed's "
            "polarity in Hu & Liu's lexicon, no phrase the treebank labels with it ending there) nor between a demonstrative "
            "and its noun ('in this fascinating portrait'), so a frame that denies "
            "the predicate denies all of the sentiment ('Do I agree that this overproduced piece of dreck is shockingly "
            "bad? No.' leaves the dreck standing)"
        ),
    )


def unmeetable(accepts: SeedFit, rule: SeedFit) -> str | None:
    """Why no seed of ``rule`` can meet a slot's ``accepts`` (a constraint that contradicts the
    pool's own), or None."""
    for name in ("person", "tense", "subject", "subject_number"):
        want, have = getattr(accepts, name), getattr(rule, name)
        if want is not None and have is not None:
            if name == "subject":
                want, have = [w.lower() for w in want], [w.lower() for w in have]
            if not set(want) & set(have):  # (a seed's persons, never empty, must lie in both)
                return f"{name} {sorted(want)}, but the pool's rule allows only {sorted(have)}"
    if accepts.clauses is not None:
        lo = max(accepts.clauses.min or 0, (rule.clauses.min or 0) if rule.clauses else 0)
        his = [c.max for c in (accepts.clauses, rule.clauses) if c is not None and c.max is not None]
        if his and lo > min(his):
            return f"clauses {accepts.clauses.model_dump(exclude_none=True)}, but the pool's rule allows {rule.clauses.model_dump(exclude_none=True) if rule.clauses else {}}"
        if accepts.clauses.max == 0 and rule.shape is not None and set(rule.shape) <= {"clause", "question"}:
            return "clauses {'max': 0}, but the pool's rule takes only clauses (one clause at least)"
    return None


class SearchRule(SeedFit):
    """Conditions a seed sentence must meet; all given conditions must hold."""

    label: Label | list[Label] | None = Field(default=None, description="3-way label(s) of the seed")
    length: Length | None = None
    include: list[WordClass] = Field(default_factory=list, description="word classes that must all occur")
    exclude: list[WordClass] = Field(default_factory=list, description="word classes that must not occur")
    include_words: list[str] = Field(default_factory=list, description="words that must all occur (case-insensitive)")
    exclude_words: list[str] = Field(default_factory=list, description="words that must not occur (case-insensitive)")
    start: str | None = Field(default=None, description="regex matched at the start of the detokenised sentence")
    end: str | None = Field(default=None, description="regex matched at the end of the detokenised sentence")
    contains: str | None = Field(default=None, description="regex found anywhere in the detokenised sentence")
    shape: list[Shape] | None = Field(
        default=None,
        description=(
            "allowed seed shapes from a dependency parse: clause (one statement whose root has a subject and a finite verb), "
            "question (the same, ending in a question mark or with the auxiliary before the subject), "
            "exclamation (opened by 'what a'/'how' + adjective or an interjection: 'Look, ...'), "
            "imperative (opened by a verb in its base form: 'Leave these Flowers unpicked'), "
            "noun_phrase (one root, a noun, no subject), fragment (any other single root without a subject, "
            "e.g. a verb phrase), sentences (more than one root)"
        ),
    )
    phrases: PhraseRule | None = Field(default=None, description="rules over the treebank's phrase labels")
    agree: list[SecondOpinion] = Field(
        default_factory=list,
        description=(
            "second opinions the seed's label must not contradict: 'opinion_lexicon' (Hu & Liu's opinion words, NLTK): "
            "a neutral seed has none, a polar seed has no more words of the opposite polarity than of its own"
        ),
    )
    token_pattern: TokenPattern | None = Field(default=None, description="spaCy Matcher token pattern that must match somewhere in the sentence, e.g. [{LOWER: very}, {POS: ADJ}]")
    exclude_pattern: TokenPattern | None = Field(
        default=None,
        description="spaCy Matcher token pattern that must match nowhere in the sentence, e.g. [{TAG: {IN: [NNP, NNPS]}}]: no proper noun",
    )

    _regex = field_validator("start", "end", "contains")(classmethod(lambda cls, v, info: _check_regex(v, info.field_name)))
    _pattern = field_validator("token_pattern", "exclude_pattern")(classmethod(lambda cls, v: _check_token_pattern(v)))

    def labels(self) -> tuple[str, ...]:
        if self.label is None:
            return LABELS
        return (self.label,) if isinstance(self.label, str) else tuple(self.label)


class SeedPool(_Strict):
    """A named set of seeds: sentences matching any one of the rules."""

    any_of: list[SearchRule] = Field(min_length=1)
    max_seeds: int | None = Field(default=None, ge=1, description="sample at most this many seeds (fixed seed)")


class Insert(_Strict):
    """Insert a word or phrase (one case per entry) before or after where a token pattern matches."""

    insert: list[Annotated[str, Field(min_length=1, pattern=r"\S")]] = Field(min_length=1, description="words or phrases to insert; one variant each")
    before: TokenPattern | None = Field(default=None, description="insert before the match of this token pattern")
    after: TokenPattern | None = Field(default=None, description="insert after the match of this token pattern")
    which: Literal["first", "last"] = Field(default="first", description="which match when the pattern matches several times")
    token: int | None = Field(default=None, ge=0, description="insert before/after this token of the match (0-based; default: its first token for before, its last for after)")
    tag: str = Field(default="RB", pattern=r"^[A-Z$]+$", description="PTB tag of the inserted words (RB: adverb)")

    _pattern = field_validator("before", "after")(classmethod(lambda cls, v: _check_token_pattern(v)))

    @model_validator(mode="after")
    def _one_position(self) -> Insert:
        if (self.before is None) == (self.after is None):
            raise ValueError("insert needs exactly one of 'before' or 'after' (a token pattern)")
        pattern = self.before if self.before is not None else self.after
        if self.token is not None and self.token >= len(pattern) or self.token is not None and any("OP" in t for t in pattern):
            raise ValueError(f"token {self.token} must index a token of a pattern without OP quantifiers (the pattern has {len(pattern)} tokens)")
        return self


class SeedSlot(_Strict):
    seed: str = Field(pattern=IDENT, description="name of a seed pool")
    slot: str | None = Field(default=None, pattern=IDENT, description="slot name (defaults to the pool name)")
    ops: list[SeedOp | Insert] = Field(default_factory=list, description="applied to the seed in order: negate_copula, strip_final_punct, lowercase_first, strip_leading_conjunction, full_stop (a final '!' becomes '.'), backshift (first only: present main verbs to past, after a past frame) or {insert: [...], before|after: <token pattern>}")
    accepts: SeedFit | None = Field(
        default=None,
        description="what this slot's frame needs of the seed (person, tense, clauses, subject); seeds of the pool that do not fit are not used here",
    )
    label: Label | list[Label] | None = Field(
        default=None,
        description=(
            "the polarity this slot's seed must have (e.g. the past opinion of LC3 is positive before "
            "'but now I don't like it'); every rule of the pool must search only these labels"
        ),
    )

    @field_validator("ops")
    @classmethod
    def _backshift_first(cls, ops: list[Any]) -> list[Any]:
        if "backshift" in ops[1:]:
            raise ValueError("backshift must be the first operation: it finds the main verbs where the seed's parse put them")
        return ops

    @property
    def name(self) -> str:
        return self.slot or self.seed

    def labels(self) -> tuple[str, ...] | None:
        if self.label is None:
            return None
        return (self.label,) if isinstance(self.label, str) else tuple(self.label)


class SeedLabel(_Strict):
    seed_label: str = Field(pattern=IDENT, description="the expected label is the label of the seed in this slot")


TemplatePart = Annotated[
    str | list[str] | SeedSlot,
    Field(description="literal text, a list of alternatives (one case per alternative), or a seed slot"),
]


class Template(_Strict):
    id: str = Field(pattern=IDENT)
    parts: list[TemplatePart] = Field(min_length=1)
    expected: list[Label] | SeedLabel
    primary: str | None = Field(
        default=None,
        pattern=IDENT,
        description=(
            "the slot whose seeds the cases are drawn for (each of its seeds in every frame, sampled and spread); "
            "the other slots get a partner seed per case. Default: the first slot. LC7 names its second: its "
            "neutral asides are few, and the cases should be as many as its positive opinions"
        ),
    )

    @model_validator(mode="after")
    def _primary_is_a_slot(self) -> Template:
        if self.primary is not None and self.primary not in (names := [s.name for s in self.slots()]):
            raise ValueError(at_path(("primary",), f"template {self.id!r}: primary {self.primary!r} is not one of its slots {names}"))
        return self

    @field_validator("parts")
    @classmethod
    def _parts(cls, parts: list[Any]) -> list[Any]:
        for i, part in enumerate(parts):
            if isinstance(part, list) and not part:
                raise ValueError(f"part {i} is an empty list of alternatives; give at least one text")
            if isinstance(part, list) and any(not p.strip() for p in part):
                raise ValueError(f"part {i} has an empty alternative")
            if isinstance(part, str) and not part.strip():
                raise ValueError(f"part {i} is empty text")
        if not any(isinstance(p, SeedSlot) for p in parts):
            raise ValueError("a template needs at least one seed slot ({seed: <pool>}); templates of literal text only are refused: every case is built from a real corpus sentence (docs/specs.md, 'Templates')")
        names = [p.name for p in parts if isinstance(p, SeedSlot)]
        if len(names) != len(set(names)):
            raise ValueError(f"slot names must be unique within a template, got {names}; set 'slot:' to tell them apart")
        sizes = [len(p) for p in parts if isinstance(p, list)]
        combinations = math.prod(sizes)
        if combinations > MAX_TEMPLATE_COMBINATIONS:
            raise ValueError(
                f"the lists of alternatives give {combinations:,} combinations ({' × '.join(map(str, sizes))}); "
                f"the limit is {MAX_TEMPLATE_COMBINATIONS:,} per template: split it into several templates or shorten the lists"
            )
        return parts

    def slots(self) -> list[SeedSlot]:
        return [p for p in self.parts if isinstance(p, SeedSlot)]

    def drawn(self) -> list[SeedSlot]:
        """The slots in the order cases draw them: the primary slot, then its partners."""
        slots = self.slots()
        first = next((s for s in slots if s.name == self.primary), slots[0])
        return [first, *(s for s in slots if s is not first)]


#: the slot kinds of s2lct.expand.slots.SLOT_KINDS (a test keeps the two equal)
SlotKind = Literal["adverb", "adjective", "complementiser", "pp", "determiner", "noun", "name", "conjunction", "other"]


class Expansion(_Strict):
    """Syntax-based expansion: grow each seed case with neutral words where its parse allows (docs/specs.md)."""

    enabled: bool = True
    word_rule: Literal["neutral"] = Field(default="neutral", description="fill-ins must be pure neutral words")
    max_per_seed: int = Field(default=2, ge=0, description="expanded cases kept per seed case")
    kinds: list[SlotKind] | None = Field(
        default=None, description="slot kinds an expansion may fill (default: every kind the engine fills; docs/expansion.md)"
    )
    exclude_fills: list[Annotated[str, Field(min_length=1, pattern=r"^\S+$")]] = Field(
        default_factory=list,
        description="words the capability's frames cannot take as a fill (e.g. hedges under \"Do I think that ...?\"); compared lower-cased",
    )


class DirectionSpec(_Strict):
    label: Literal["negative", "neutral", "positive", "predicted", "polarity"] = Field(
        description="the class whose probability must move; predicted: the original's label; polarity: p(positive) - p(negative)")
    change: Literal["up", "down"]


class TestSection(_Strict):
    """An INV or DIR capability: every case is a seed case and its perturbation (docs/specs.md, Test types)."""

    type: Literal["inv", "dir"] = Field(description="inv: the prediction must not change; dir: a probability must move one way")
    perturbation: str = Field(min_length=1, description="a registered perturbation (s2lct.perturb): typo, names, intensifiers, ...")
    direction: DirectionSpec | None = Field(default=None, description="dir: which probability moves which way (default: the perturbation's own)")
    margin: float = Field(default=0.0, ge=0, description="dir: it must move at least this much")
    tolerance: float | None = Field(default=None, ge=0, description="inv: a changed label passes when p(label) moved at most this; dir: it may move back at most this")
    unless_original: list[Label] = Field(default_factory=list, description="dir: originals predicted as these labels make a case not applicable")

    @model_validator(mode="after")
    def _fits(self) -> TestSection:
        from s2lct.perturb.registry import get_perturbation

        try:
            kind = get_perturbation(self.perturbation).kind
        except Exception as exc:  # the registry's own one-line message names the valid ones
            raise ValueError(at_path(("perturbation",), str(exc))) from None
        if kind != self.type:
            why = " (a perturbation that should change the label is DIR or MFT, never INV)" if kind == "dir" else ""
            raise ValueError(at_path(("type",), f"perturbation {self.perturbation!r} is {kind.upper()}, the test is {self.type.upper()}{why}"))
        if self.type == "inv" and (self.direction is not None or self.margin or self.unless_original):
            raise ValueError(at_path(("type",), "an INV test takes no direction, margin or unless_original"))
        if self.margin and self.tolerance:
            raise ValueError(at_path(("margin",), "give margin (it must move at least this much) or tolerance (it may move back this much), not both"))
        return self


#: verdicts of a seed review (docs/specs.md, "Seed review"); ``clean`` is the one a review never excludes
ReviewVerdict = Literal["clean", "mixed", "descriptive", "wrong_label", "off_target", "needs_context", "not_fluent", "presupposed"]


class SeedReview(_Strict):
    """A committed blind read of seed sentences: cases built on a seed it marks with one of
    ``exclude`` are left out. The rules above cannot see whether a sentence is an opinion at all
    ("He allows his cast members to make creative contributions.") or leans on a sentence before
    it ("In other words, ..."); a reader can. Loaded and checked by ``s2lct.spec.review``."""

    file: str = Field(
        min_length=1,
        description="JSON Lines file of verdicts, relative to the spec file; one row per seed: {source, split, index, text, verdict, note}",
    )
    exclude: list[ReviewVerdict] = Field(
        min_length=1,
        description=(
            "verdicts whose seeds are left out: mixed, descriptive, wrong_label, off_target, needs_context, not_fluent, "
            "presupposed (a clean opinion that a denial does not reach: for the capabilities that deny or negate a seed)"
        ),
    )
    #: the file as read (``s2lct.spec.review.ReviewFile``), set when the loader resolves ``file``
    _loaded: Any = PrivateAttr(default=None)

    @field_validator("exclude")
    @classmethod
    def _not_clean(cls, v: list[str]) -> list[str]:
        if "clean" in v:
            raise ValueError("'clean' marks the seeds a review keeps; exclude lists the others (mixed, descriptive, ...)")
        return v


class Sampling(_Strict):
    max_cases: int | None = Field(default=None, ge=1, description="sample at most this many seed cases (fixed seed)")
    seed_review: SeedReview | None = Field(
        default=None,
        description=(
            "leave out the cases built on seeds a committed review marks with one of exclude; where the spec samples, "
            "their places go to the next cases of the same draw, so every other case stays"
        ),
    )


class CapabilitySpec(_Strict):
    id: str = Field(pattern=r"^[A-Za-z][A-Za-z0-9_]*$")
    name: str = Field(min_length=1)
    description: str = ""
    markers: list[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")]] = Field(default_factory=list)
    expected_labels: list[Label] = Field(min_length=1, description="every case's expected labels lie in this set")
    seeds: dict[Annotated[str, Field(pattern=IDENT)], SeedPool] = Field(min_length=1)
    templates: list[Template] = Field(min_length=1)
    sampling: Sampling = Field(default_factory=Sampling)
    expansion: Expansion = Field(default_factory=Expansion)
    test: TestSection | None = Field(default=None, description="INV/DIR capability: the perturbation applied to every seed case (absent: MFT)")
    checklist: list[Annotated[str, Field(min_length=1)]] | None = Field(
        default=None,
        description="names of the CheckList sentiment tests this capability covers (`s2lct compare` matches on them; docs/checklist.md)",
    )
    min_pass_rate: float | None = Field(
        default=None, ge=0, le=1,
        description="CI gate: `s2lct run` and pytest --model fail when the share of this capability's cases that pass is below this",
    )

    @model_validator(mode="after")
    def _references(self) -> CapabilitySpec:
        ids = [t.id for t in self.templates]
        if len(ids) != len(set(ids)):
            raise ValueError(at_path(("templates",), f"template ids must be unique, got {ids}"))
        allowed = set(self.expected_labels)
        for ti, t in enumerate(self.templates):
            for pi, slot in enumerate(t.parts):
                if isinstance(slot, SeedSlot) and slot.seed not in self.seeds:
                    raise ValueError(at_path(("templates", ti, "parts", pi, "seed"), f"template {t.id!r} uses seed pool {slot.seed!r}; defined pools: {sorted(self.seeds)}"))
                if isinstance(slot, SeedSlot) and slot.labels() is not None:
                    found = {lab for rule in self.seeds[slot.seed].any_of for lab in rule.labels()}
                    if not found <= set(slot.labels() or ()):
                        raise ValueError(at_path(
                            ("templates", ti, "parts", pi, "label"),
                            f"template {t.id!r}: slot {slot.name!r} must hold {sorted(slot.labels() or ())} seeds, "
                            f"but pool {slot.seed!r} can give {sorted(found)}; add 'label:' to the pool's rules",
                        ))
                if isinstance(slot, SeedSlot) and slot.accepts is not None:
                    reasons = [unmeetable(slot.accepts, rule) for rule in self.seeds[slot.seed].any_of]
                    if all(reasons):
                        raise ValueError(at_path(
                            ("templates", ti, "parts", pi, "accepts"),
                            f"template {t.id!r}: slot {slot.name!r} accepts no seed of pool {slot.seed!r}: {reasons[0]}",
                        ))
            if isinstance(t.expected, SeedLabel):
                names = [s.name for s in t.slots()]
                if t.expected.seed_label not in names:
                    raise ValueError(at_path(("templates", ti, "expected"), f"template {t.id!r}: seed_label names slot {t.expected.seed_label!r}; slots: {names}"))
                labels: set[str] = set()
                for s in t.slots():
                    if s.name == t.expected.seed_label:
                        for rule in self.seeds[s.seed].any_of:
                            labels.update(rule.labels())
            else:
                labels = set(t.expected)
            if not labels <= allowed:
                raise ValueError(at_path(
                    ("templates", ti, "expected"),
                    f"template {t.id!r} can expect {sorted(labels - allowed)}, outside expected_labels {sorted(allowed)}",
                ))
        return self


def json_schema() -> dict[str, Any]:
    schema = CapabilitySpec.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://s2lct.invalid/specs/schema.json"
    schema["title"] = "s2lct linguistic capability spec"
    return schema
