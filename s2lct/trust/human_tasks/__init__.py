"""Human-grounded task kit (Lertvittayakumjorn & Toni 2019, §3): three tasks that people answer to
judge an explainer, exported as CSV + a printable form, and scored against a hidden key.

* Task 1 (§3.1, revealing model behaviour): the same input, top-m evidence of a well-trained and a
  worse model; which model is more reasonable?
* Task 2 (§3.2, justifying predictions): only the top-m evidence words of a confident prediction;
  which class did the model predict?
* Task 3 (§3.3, investigating uncertain predictions): a low-confidence prediction, its probability,
  top-m evidence and counter-evidence, no text; which class is the text really?

Modules: :mod:`.kit` (the paper's parameters, questions, answer vocabularies and points),
:mod:`.evidence` (top-m evidence from an explanation), :mod:`.selection` (which inputs each task
gets), :mod:`.questions` (:func:`build_questions`), :mod:`.export` (CSV files, the answer key, atomic
writing), :mod:`.form` (the printable HTML form), :mod:`.scoring` (:func:`score_answers`) and
:mod:`.command` (``s2lct export-human-tasks`` / ``s2lct score-human-tasks``).
"""

from __future__ import annotations

from .export import load_key, write_kit
from .kit import Evidence, Kit, Question
from .questions import build_questions
from .scoring import AnswersError, score_answers

__all__ = ["AnswersError", "Evidence", "Kit", "Question", "build_questions", "load_key", "score_answers", "write_kit"]
