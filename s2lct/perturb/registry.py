"""The perturbation catalogue (built-in perturbations plus any registered through entry points),
and perturbing a batch of texts reproducibly."""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from . import contraction, degree, hedges, locations, names, numeric, phrases, protected, punctuation, typos, urls
from s2lct.suggest import unknown_names

from .base import Perturbation, PerturbError, Perturbed, default_nlp, perturbations

#: the modules of the built-in perturbations, imported so that they register themselves
BUILT_IN_MODULES = (contraction, degree, hedges, locations, names, numeric, phrases, protected, punctuation, typos, urls)

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc


def available() -> list[str]:
    """Registered perturbation names, sorted."""
    return sorted(perturbations.get_all())


def get_perturbation(name: str) -> Perturbation:
    valid = available()
    if name not in valid:
        raise PerturbError(unknown_names("perturbation", [name], valid))
    return perturbations.get(name)()


def perturb_all(name: str, texts: Iterable[str], seed: int | str, nlp: Language | None = None,
                batch_size: int = 256) -> tuple[list[Perturbed], list[int]]:
    """Perturb every text; returns the variants and the indices of the texts with nothing to change.

    Text ``i`` gets its own generator, ``random.Random(f"{seed}:{i}")``, so its variant does not
    depend on the other texts or on how spaCy batches them: it is what ``get_perturbation(name)``
    gives for that text and generator. ``nlp`` (only for perturbations that need a Doc) defaults to
    the configured spaCy pipeline.
    """
    perturbation = get_perturbation(name)
    texts = list(texts)
    docs: Iterable[Doc | None] = [None] * len(texts)
    if perturbation.needs_doc:
        docs = (nlp or default_nlp()).pipe(texts, batch_size=batch_size)
    out: list[Perturbed] = []
    skipped: list[int] = []
    for i, (text, doc) in enumerate(zip(texts, docs, strict=True)):
        result = perturbation(text, random.Random(f"{seed}:{i}"), doc)
        if result is None:
            skipped.append(i)
        else:
            out.append(result)
    return out, skipped
