"""Hu & Liu's opinion lexicon (NLTK's ``opinion_lexicon``): the second opinion on a seed's label.

Chosen over the offline sentiment model because it is independent of every model a suite tests: a
seed filter that asks a sentiment model would remove exactly the sentences that model gets wrong
and so bias the failure rates it is meant to measure. It knows 6,789 words, none from SST.
"""

from __future__ import annotations

import functools


@functools.cache
def opinion_words() -> tuple[frozenset[str], frozenset[str]]:
    """(positive words, negative words), lower-cased."""
    from s2lct.config import configure_nltk, get_settings

    configure_nltk(get_settings())
    from nltk.corpus import opinion_lexicon

    try:
        return frozenset(w.lower() for w in opinion_lexicon.positive()), frozenset(w.lower() for w in opinion_lexicon.negative())
    except LookupError as exc:
        from s2lct.errors import S2LCTError

        raise S2LCTError(
            "NLTK's opinion_lexicon is missing (a spec asks for agree: [opinion_lexicon]); "
            "point NLTK_DATA at a folder holding corpora/opinion_lexicon, or run python -m nltk.downloader opinion_lexicon"
        ) from None
