"""Penn Treebank PoS tags from spaCy, for pre-tokenised sentences.

Seeds come from SST as PTB token lists and fill-ins are single tokens inserted between them, so we
tag token lists (``Doc(words=...)``) rather than raw text: one tag per given token, no
re-tokenisation mismatch. Only the components needed for ``tag_`` run.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from s2lct.corpus.spacy_pipeline import load_pipeline

_TAG_COMPONENTS = ("tok2vec", "tagger", "attribute_ruler")


class PosTagger:
    def __init__(self, model: str) -> None:
        self.nlp = load_pipeline(model, exclude=["parser", "ner", "lemmatizer", "senter"])
        meta = self.nlp.meta
        self.identity = f"spacy:{meta.get('lang', 'xx')}_{meta.get('name', model)}=={meta.get('version', '?')}"
        self._components = [(n, p) for n, p in self.nlp.pipeline if n in _TAG_COMPONENTS]

    def tag(self, sentences: Sequence[Sequence[str]], batch_size: int = 256) -> list[list[str]]:
        """PTB tags (spaCy ``tag_``), one per token of each pre-tokenised sentence."""
        from spacy.tokens import Doc

        docs = (Doc(self.nlp.vocab, words=list(words)) for words in sentences)
        for _name, proc in self._components:
            docs = proc.pipe(docs, batch_size=batch_size)
        return [[t.tag_ for t in doc] for doc in docs]


@functools.cache
def get_tagger(model: str | None = None) -> PosTagger:
    if model is None:
        from s2lct.config import get_settings

        model = get_settings().spacy_model
    return PosTagger(model)
