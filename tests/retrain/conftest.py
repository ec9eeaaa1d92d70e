"""Retraining fixtures: a hand-built two-capability suite and a tiny BERT built on the spot.

LCA is learnable: "... good ..." is positive and "... bad ..." negative, which a freshly
initialised model (p(positive) ≈ 0.5, so neutral through the band) fails. LCB expects
[neutral, positive] on neutral sentences the untrained model passes, so retraining on LCA can
only break them — the accounting must show it either way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from s2lct.suite import Case, Fragment, SeedRef, write_cases, write_manifest

NOUNS = [f"noun{i}" for i in range(40)]


def case(cid: str, cap: str, text: str, expected: list[str], seed_text: str, seed_case: str | None = None) -> Case:
    return Case(
        id=cid, capability=cap, text=text, expected=tuple(expected), template="t", transform="none",
        seeds=(SeedRef("s", seed_text, expected[0], "train", 0),),
        fragments=(Fragment(0, len(text), text, "seed", expected[0], "s"),),
        expansion=None if seed_case is None else {"seed_case": seed_case, "seed_text": seed_text, "checks": {}},
    )


def tiny_cases() -> list[Case]:
    cases = []
    for i, noun in enumerate(NOUNS):
        word, label = ("good", "positive") if i % 2 == 0 else ("bad", "negative")
        seed = f"the {noun} was {word}"
        cases.append(case(f"LCA-{i:03d}", "LCA", seed, [label], seed))
        cases.append(case(f"LCA-{i:03d}x", "LCA", f"the {noun} was very {word}", [label], seed, f"LCA-{i:03d}"))
    for i, noun in enumerate(NOUNS[:20]):
        seed = f"a {noun} is here"
        cases.append(case(f"LCB-{i:03d}", "LCB", seed, ["neutral", "positive"], seed))
    return cases


def write_suite(folder: Path, cases: list[Case]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for cap in sorted({c.capability for c in cases}):
        write_cases(folder / f"{cap}.jsonl", [c for c in cases if c.capability == cap])
    write_manifest(folder, {"format_version": 1, "capabilities": {
        "LCA": {"name": "good is positive, bad is negative"}, "LCB": {"name": "neutral stays non-negative"}}})
    return folder


def build_wordlevel_bert(folder: Path, texts: list[str], *, num_labels: int = 2, seed: int = 0) -> Path:
    """A randomly initialised 2-layer BERT (hidden 32) with a WordLevel tokenizer over ``texts``' words."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    specials = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    words = sorted({w for t in texts for w in t.lower().split()})
    vocab = {w: i for i, w in enumerate(specials + words)}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.post_processor = processors.TemplateProcessing(single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
                                   sep_token="[SEP]", model_max_length=32)
    folder.mkdir(parents=True, exist_ok=True)
    fast.save_pretrained(folder)
    id2label = {0: "negative", 1: "positive"} if num_labels == 2 else {0: "negative", 1: "neutral", 2: "positive"}
    torch.manual_seed(seed)
    cfg = BertConfig(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64, num_labels=num_labels, id2label=id2label,
                     label2id={v: k for k, v in id2label.items()})
    BertForSequenceClassification(cfg).save_pretrained(folder)
    return folder


@pytest.fixture(scope="session")
def tiny_suite(tmp_path_factory) -> Path:
    return write_suite(tmp_path_factory.mktemp("suite"), tiny_cases())


@pytest.fixture(scope="session")
def tiny_model(tmp_path_factory) -> Path:
    return build_wordlevel_bert(tmp_path_factory.mktemp("tiny-bert"), [c.text for c in tiny_cases()])
