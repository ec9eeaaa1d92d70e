"""Where a seed comes from: the search rules of a seed pool (words, patterns, phrase labels, shape,
person, tense, clauses) and the conditions a template's slot puts on the seeds it accepts."""

from __future__ import annotations

from pydantic import Field, field_validator, model_validator

from s2lct.constants import LABELS
from s2lct.spec.terms import (
    Label,
    Number,
    Person,
    Pronoun,
    PhraseLabel,
    SecondOpinion,
    Shape,
    StrictModel,
    Tense,
    TokenPattern,
    WordClass,
    check_regex,
    check_token_pattern,
)


class Length(StrictModel):
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


class PhraseRule(StrictModel):
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


class SeedFit(StrictModel):
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
    subject_pronoun: list[Pronoun] | None = Field(
        default=None,
        min_length=1,
        description=(
            "the pronoun a later clause would call the seed's main subject by: 'them' for a plural subject (as "
            "subject_number), 'him' or 'her' for a person whose gender the seed shows (a title, he/she, his/her...), "
            "'it' for a thing; a person of unknown gender ('Paul Bettany is cool.') and a seed without a subject have "
            "none, so a slot that lists pronouns does not take them ('..., but now I can't stand it' after a person's "
            "praise is about something else)"
        ),
    )
    sentiment_in_predicate: bool | None = Field(
        default=None,
        description=(
            "true: none of the seed's sentiment in the main clause's subject or before it (no opinion word of the seed's "
            "polarity in Hu & Liu's lexicon, no phrase the treebank labels with it ending there) nor between a demonstrative "
            "and its noun ('in this fascinating portrait') or in a relative clause after a comma (', which the director "
            "supplies with tremendous skill'), so a frame that denies "
            "the predicate denies all of the sentiment ('Do I agree that this overproduced piece of dreck is shockingly "
            "bad? No.' leaves the dreck standing)"
        ),
    )


def unmeetable(accepts: SeedFit, rule: SeedFit) -> str | None:
    """Why no seed of ``rule`` can meet a slot's ``accepts`` (a constraint that contradicts the
    pool's own), or None."""
    for name in ("person", "tense", "subject", "subject_number", "subject_pronoun"):
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

    _regex = field_validator("start", "end", "contains")(classmethod(lambda cls, v, info: check_regex(v, info.field_name)))
    _pattern = field_validator("token_pattern", "exclude_pattern")(classmethod(lambda cls, v: check_token_pattern(v)))

    def labels(self) -> tuple[str, ...]:
        if self.label is None:
            return LABELS
        return (self.label,) if isinstance(self.label, str) else tuple(self.label)


class SeedPool(StrictModel):
    """A named set of seeds: sentences matching any one of the rules."""

    any_of: list[SearchRule] = Field(min_length=1)
    max_seeds: int | None = Field(default=None, ge=1, description="sample at most this many seeds (fixed seed)")
