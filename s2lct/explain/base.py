"""The explainer interface, the explanation record and the explainer registry (catalogue).

An explainer answers: which words of a text drove a model towards a class? It takes a prepared
model (:class:`s2lct.explain.adapters.ModelHandle`), one text and the class to explain, and
returns one relevance per *word* of the text (subword relevances summed to words, word character
spans aligned to the text, so a case's fragments can be looked up). Positive relevance is
evidence for the class, negative relevance evidence against it.

Explainers register under the ``s2lct.explainers`` catalogue registry (``entry_points=True``: a
package can add its own through the ``s2lct_explainers`` entry-point group). The built-in ones are
registered by the modules :mod:`s2lct.explain.registry` imports.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import catalogue

from ..errors import S2LCTError

if TYPE_CHECKING:
    from .adapters import ModelHandle

explainers = catalogue.create("s2lct", "explainers", entry_points=True)


class ExplainError(S2LCTError):
    """Bad explainer input: an unknown name, or an explainer that does not apply to a model."""

    exit_code = 2


class NotApplicable(ExplainError):
    """The explainer cannot explain this model (gradients on a lexicon, LRP without rules)."""


class CaseNotApplicable(NotApplicable):
    """The explanation of this one input failed its completeness check (IG and DeepLIFT: the
    attributions do not add up to the output difference). Only that input goes unexplained: IG
    fails it on a few inputs whose two outputs nearly coincide, and dropping the explainer for the
    rest of a run after one of them hid IG from most capabilities of minilm-sst2. An explainer
    that fails the first ``CASE_FAILURES_BEFORE_GIVING_UP`` inputs it sees without one success
    (DeepLIFT on a transformer) is not applicable to the model."""


CASE_FAILURES_BEFORE_GIVING_UP = 3


class CaseFailures:
    """Counts each explainer's completeness failures until its first success."""

    def __init__(self) -> None:
        self._failed: dict[str, int] = {}
        self._succeeded: set[str] = set()

    def success(self, name: str) -> None:
        self._succeeded.add(name)

    def failure(self, name: str) -> bool:
        """Record one; True when the explainer should be given up on this model."""
        self._failed[name] = self._failed.get(name, 0) + 1
        return name not in self._succeeded and self._failed[name] >= CASE_FAILURES_BEFORE_GIVING_UP


@dataclass(frozen=True, slots=True)
class Explanation:
    """Word relevances of one text for one class, by one explainer."""

    explainer: str
    target: str  # the explained class (a label)
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]  # character spans of the words in the text
    relevances: tuple[float, ...]
    info: dict[str, Any] = field(default_factory=dict, hash=False)  # e.g. convergence delta, evaluations

    @property
    def rmax(self) -> int | None:
        """Index of the maximally relevant word for the class (first on ties); ``None`` when the
        explanation is flat (no words, or every word equally relevant: nothing is pointed at)."""
        if not self.relevances or max(self.relevances) == min(self.relevances):
            return None
        best = max(self.relevances)
        return self.relevances.index(best)

    def ranked(self) -> list[int]:
        """Word indices from most to least relevant (ties: earlier word first)."""
        return sorted(range(len(self.relevances)), key=lambda i: (-self.relevances[i], i))

    def to_json(self) -> dict[str, Any]:
        return {
            "explainer": self.explainer,
            "target": self.target,
            "words": [
                {"word": w, "start": s, "end": e, "relevance": round(float(r), 6)}
                for w, (s, e), r in zip(self.words, self.spans, self.relevances, strict=True)
            ],
            "info": self.info,
        }


class Explainer(ABC):
    """One explanation method. Subclasses set ``name`` and ``family`` and implement :meth:`explain`."""

    name: str = ""
    family: str = ""  # "gradient" (needs a torch model) or "perturbation" (any model)
    description: str = ""

    def not_applicable(self, handle: ModelHandle) -> str | None:
        """Why this explainer cannot explain ``handle``'s model, or ``None`` when it can."""
        if self.family == "gradient" and handle.torch is None:
            return f"{self.name} needs gradients, which the {handle.kind} model {handle.name!r} does not have"
        return None

    @abstractmethod
    def explain(self, handle: ModelHandle, text: str, target: str) -> Explanation:
        """Relevance of every word of ``text`` for class ``target``."""

    def __repr__(self) -> str:
        return f"<explainer {self.name}>"
