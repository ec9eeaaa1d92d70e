"""Tiny models the explainer tests build: a bag-of-words linear classifier with known relevances,
and 2-layer BERT / RoBERTa / DistilBERT classifiers (hidden 32) with a small WordPiece vocabulary."""

from __future__ import annotations

import re
from typing import Any

import torch
from torch import nn

from s2lct.explain.adapters import Encoded, HFTokenClassifier, TokenClassifier

#: Each word's contribution to the positive-class score s(positive); s(negative) = -s(positive).
WEIGHTS = {"great": 1.0, "good": 0.6, "fine": 0.2, "dull": -0.4, "bad": -0.8, "not": -0.2,
           "the": 0.0, "movie": 0.0, "is": 0.0, "a": 0.0, "but": 0.0, "plot": 0.0, "was": 0.0}
SPECIALS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]


class BowClassifier(TokenClassifier):
    """logits = W · Σ_t E[x_t], with E[w] = (c_w,) and W = [[-1], [1]]: word t adds exactly c_t to
    s(positive) and −c_t to s(negative); special tokens embed to 0."""

    def __init__(self) -> None:
        self.vocab = {w: i for i, w in enumerate(SPECIALS + list(WEIGHTS))}
        self.name = "bow"
        self.classes = ["negative", "positive"]
        self.pad_id, self.replacement_id = 0, self.vocab["[MASK]"]
        emb = nn.Embedding(len(self.vocab), 1)
        head = nn.Linear(1, 2, bias=False)
        with torch.no_grad():
            emb.weight.zero_()
            for w, c in WEIGHTS.items():
                emb.weight[self.vocab[w], 0] = c
            head.weight.copy_(torch.tensor([[-1.0], [1.0]]))
        self.emb, self.head = emb, head

        class Head(nn.Module):  # embedding output -> logits, from layers Captum's LRP has rules for
            def __init__(self) -> None:
                super().__init__()
                self.linear = head

            def forward(self, e: Any, mask: Any) -> Any:  # the sum over tokens, then the linear layer (LRP's last)
                return self.linear((e * mask.unsqueeze(-1)).sum(dim=1))

        self._head = Head()
        self.model = nn.ModuleDict({"emb": emb, "head": self._head})

    def encode(self, text: str) -> Encoded:
        ids, spans = [self.vocab["[CLS]"]], [None]
        for m in re.finditer(r"\S+", text):
            ids.append(self.vocab.get(m.group().lower(), self.vocab["[UNK]"]))
            spans.append((m.start(), m.end()))
        return Encoded(ids + [self.vocab["[SEP]"]], spans + [None])

    @property
    def embeddings(self) -> Any:
        return self.emb

    def logits(self, input_ids: Any, attention_mask: Any) -> Any:
        return self._head(self.emb(input_ids), attention_mask)

    def lrp_module(self) -> Any:
        return self._head


def bow_score(text: str) -> float:
    """s(positive) of the bag-of-words model, computed from WEIGHTS directly."""
    return sum(WEIGHTS.get(w.lower(), 0.0) for w in text.split())


WORDS = ["the", "movie", "plot", "is", "was", "not", "a", "but", "great", "good", "fine", "dull", "bad", "un", "##watch", "##able", "##s"]


def _tokenizer(family: str) -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import PreTrainedTokenizerFast

    if family == "roberta":
        specials = {"cls": "<s>", "pad": "<pad>", "sep": "</s>", "unk": "<unk>", "mask": "<mask>"}
        order = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]  # RoBERTa: pad id 1, position ids start at 2
    else:
        specials = {"cls": "[CLS]", "pad": "[PAD]", "sep": "[SEP]", "unk": "[UNK]", "mask": "[MASK]"}
        order = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    vocab = {t: i for i, t in enumerate(order + WORDS + [",", ".", "'", "t", "isn"])}
    tok = Tokenizer(models.WordPiece(vocab, unk_token=specials["unk"]))
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single=f"{specials['cls']} $A {specials['sep']}",
        special_tokens=[(specials["cls"], vocab[specials["cls"]]), (specials["sep"], vocab[specials["sep"]])],
    )
    return PreTrainedTokenizerFast(tokenizer_object=tok, cls_token=specials["cls"], sep_token=specials["sep"],
                                   pad_token=specials["pad"], unk_token=specials["unk"], mask_token=specials["mask"])


def tiny_hf(family: str, seed: int = 0) -> HFTokenClassifier:
    """A randomly initialised 2-layer, hidden-32 classifier of one architecture family."""
    from transformers import (BertConfig, BertForSequenceClassification, DistilBertConfig,
                              DistilBertForSequenceClassification, RobertaConfig, RobertaForSequenceClassification)

    torch.manual_seed(seed)
    tok = _tokenizer(family)
    n = len(tok)
    if family == "bert":
        model = BertForSequenceClassification(BertConfig(vocab_size=n, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                                         intermediate_size=64, max_position_embeddings=64, num_labels=2))
    elif family == "roberta":
        model = RobertaForSequenceClassification(RobertaConfig(vocab_size=n, hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                                                               intermediate_size=64, max_position_embeddings=66, num_labels=2,
                                                               pad_token_id=1, bos_token_id=0, eos_token_id=2))
    else:
        model = DistilBertForSequenceClassification(DistilBertConfig(vocab_size=n, dim=32, n_layers=2, n_heads=2, hidden_dim=64,
                                                                     max_position_embeddings=64, num_labels=2, pad_token_id=0))
    model.eval()
    return HFTokenClassifier(model, tok, ["negative", "positive"], name=f"tiny-{family}", max_length=60)
