"""Explainer trust: which explainers deserve belief on *this* model (METHOD.md §3; issue 13).

Two annotation-free paradigms score every explainer on the model under test, and a report card
ranks them:

* :mod:`.hybrid` — hybrid documents (Poerner et al. §2.1): labelled sentences concatenated, the
  pointing game asks whether rmax for the predicted class lies in a fragment of that label;
* :mod:`.agreement` + :mod:`.probe` — morphosyntactic agreement (Poerner §2.2, Ding & Koehn §3.1):
  number-agreement prefixes from the PTB sample (Ding & Koehn's A.1 filters) and the shared
  agreement sets, scored on the user's encoder with a linear probe for verb number;
* :mod:`.composite` — the suite's failing cases read as hybrid documents (suite-level pointing game);
* :mod:`.metrics` — hits, baselines (random, last word, last noun) and bootstrap intervals;
* :mod:`.card` — the report card (JSON, cached per model identity), :mod:`.html` its page,
  :mod:`.command` ``s2lct trust`` and the one-line verdict ``s2lct explain`` prints.
* :mod:`.human_tasks` — the human-grounded task kit (Lertvittayakumjorn & Toni 2019, §3): questions
  people answer about an explainer's evidence, exported with a hidden key, and their answers scored.

Stage package above ``explain`` (imports it; nothing below imports this package).
"""
