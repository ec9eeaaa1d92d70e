"""Words that need something before them in the sentence to license them: "ever" a negation,
question, condition or comparison ("the best film I've [ever] seen"), "own" a person's possessive
("finds his [own] inspiration"). The masked LM offers both where nothing licenses them ("kids
would [ever] be delighted", "worth the [own] concentration": blind reads), and ``function_words``
refuses them there. Hand-written: the licensors are closed classes no library lists.
"""

from __future__ import annotations

from s2lct.expand.checks.base import CheckItem

#: words before it that let "ever" in: negations, questions and conditions, comparisons, "only"
EVER_LICENSERS = frozenset("not n't no never nothing nobody none nor without hardly barely scarcely if whether unless "
                           "only than any anyone anybody anything few before first last why unlikely doubt".split())


def licenses_ever(it: CheckItem, p: int) -> bool:
    """Whether "ever" at ``p`` stands where English lets it: after a negation, a condition, a
    comparison or a superlative in the sentence ("the best film I've [ever] seen", "if you [ever]
    wondered", "why anybody [ever] picked it up"), in a question, or before a comparative ("we'll
    [ever] see a better thriller"). "kids would [ever] be delighted" (a blind read) has none."""
    toks = [t.lower() for t in it.tokens]
    before = toks[:p]
    if any(t in EVER_LICENSERS for t in before) or any(it.tag(q) in ("JJS", "RBS") for q in range(p)):
        return True
    return "?" in toks or any(it.tag(q) in ("JJR", "RBR") for q in range(p + 1, len(toks))) \
        or (p + 1 < len(toks) and toks[p + 1] in ("since", "after", "so"))


def owner_before(it: CheckItem, q: int) -> bool:
    """Whether "own" at ``q`` follows a person's possessive ("finds his [own] inspiration"): not
    "its", a common noun's "'s", generic "your" ("its [own] lighting", "the film's [own] tone", band
    read 48), "out of her [own] depth" (read 44) or no possessive ("worth the [own] concentration")."""
    toks = [t.lower() for t in it.tokens]
    if q == 0 or toks[q - 1] in ("its", "your") or toks[max(0, q - 3):q - 1] == ["out", "of"]:
        return False
    if toks[q - 1] in ("'s", "'"):
        return not (q > 1 and it.tag(q - 2) in ("NN", "NNS"))
    return it.tag(q - 1) in ("PRP$", "POS") or toks[q - 1] in ("my", "his", "her", "our", "their")
