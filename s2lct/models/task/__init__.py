"""The papers' task models (Poerner et al. 2018 §4.1): a 1D CNN with global max pooling and a
bidirectional GRU over word embeddings, trained here on SST-2 by ``s2lct build-task-model``.

They exist so the trust card can be compared with the published tables on the published kind of
model; see :mod:`s2lct.models.task.networks` for the architectures, :mod:`.vocabulary` for the
tokenizer, :mod:`.training` for the recipe and :mod:`.adapter` for the model and explainer sides.
"""
