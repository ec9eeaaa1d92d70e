"""Keep third-party chatter off the terminal that s2lct's own progress bars and tables use.

transformers draws its own tqdm bar ("Loading weights") and logs on stderr while a model loads;
under a rich live display those lines are stranded or overwritten, so every loader calls this first.
benepar's torch-struct warns on every parse that its CRF lacks ``arg_constraints``, which says
nothing to a user.
"""

from __future__ import annotations

import warnings


def quiet_transformers() -> None:
    """transformers: errors only, no progress bars (idempotent)."""
    from transformers.utils import logging as hf_logging

    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()


def quiet_benepar() -> None:
    """The parser's model loads through transformers; torch-struct's per-parse warning is noise."""
    quiet_transformers()
    warnings.filterwarnings("ignore", message=r".*does not define `arg_constraints`", category=UserWarning)
