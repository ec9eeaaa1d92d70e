"""Top-m evidence and counter-evidence of one explanation (the paper's §2 and §4.3: "words with the
highest and the lowest scores are selected as evidence for and counter-evidence against the
predicted class").

Only words whose relevance has the right sign count: a word with relevance 0 is neither evidence nor
counter-evidence (a lexicon model's occlusion gives 0 to every word outside its lexicon), so fewer
than m words are shown when the explainer finds fewer. Ties keep the earlier word first, as
:meth:`~s2lct.explain.base.Explanation.ranked` does. Punctuation is kept when the explainer ranks it:
the paper's LRP evidence showed ':' and '-' too, and what the explainer points at is what is judged.
Relevances are kept to 6 decimals, as the key stores them, so a kit read back from its key is equal.
"""

from __future__ import annotations

from collections.abc import Callable

from ...explain.base import Explanation
from .kit import Evidence


def _pick(exp: Explanation, order: list[int], keep: Callable[[float], bool], m: int) -> Evidence:
    idx = [i for i in order if keep(exp.relevances[i])][:m]
    return Evidence(tuple(exp.words[i] for i in idx), tuple(exp.spans[i] for i in idx), tuple(round(float(exp.relevances[i]), 6) for i in idx))


def top_evidence(exp: Explanation, m: int) -> Evidence:
    """The m most relevant words for the explained class (positive relevance only)."""
    return _pick(exp, exp.ranked(), lambda r: r > 0, m)


def top_counter_evidence(exp: Explanation, m: int) -> Evidence:
    """The m words most relevant *against* the explained class (negative relevance only), strongest first."""
    order = sorted(range(len(exp.relevances)), key=lambda i: (exp.relevances[i], i))
    return _pick(exp, order, lambda r: r < 0, m)
