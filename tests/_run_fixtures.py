"""Helpers for the run/plugin/report tests: tiny suites and tiny Hugging Face models built on the spot."""

from __future__ import annotations

import functools
from pathlib import Path

from s2lct.suite import Case, Fragment, SeedRef, write_cases, write_manifest


def make_case(cid: str, cap: str, text: str, expected: list[str], seed_case: str | None = None) -> Case:
    label = expected[0]
    return Case(
        id=cid,
        capability=cap,
        text=text,
        expected=tuple(sorted(expected)),
        template="t1",
        transform="none",
        seeds=(SeedRef("s", text, label, "train", 0),),
        fragments=(Fragment(0, len(text), text, "seed", label, "s"),),
        expansion=None if seed_case is None else {"seed_case": seed_case, "seed_text": "", "checks": {}},
    )


# Known VADER verdicts (compound score): good +0.44, terrible -0.48, "not good" -0.34,
# "not bad" +0.43, "I saw a movie." 0.0.
TINY_CASES = [
    make_case("LC1-0001", "LC1", "This movie is good.", ["positive"]),          # vader: positive -> pass
    make_case("LC1-0002", "LC1", "This movie is terrible.", ["negative"]),      # vader: negative -> pass
    make_case("LC1-0003", "LC1", "I saw a movie.", ["positive"]),               # vader: neutral  -> FAIL
    make_case("LC4-0001", "LC4", "This movie is not good.", ["negative"]),      # vader: negative -> pass
    make_case("LC4-0002", "LC4", "The food was not bad.", ["negative"]),        # vader: positive -> FAIL (seed)
    make_case("LC4-0003", "LC4", "The food was not bad at all.", ["negative"], seed_case="LC4-0002"),  # FAIL, seed failed
    make_case("LC4-0004", "LC4", "This film is not good.", ["negative"], seed_case="LC4-0001"),  # pass
    make_case("LC4-0005", "LC4", "This book is not good, I think.", ["positive"], seed_case="LC4-0001"),  # FAIL, seed passed
]
TINY_MANIFEST = {
    "format_version": 1,
    "capabilities": {
        "LC1": {"name": "Short sentences with sentiment words", "markers": []},
        "LC4": {"name": "Negated positive sentences", "markers": ["negation"]},
    },
}


def write_tiny_suite(folder: Path, cases: list[Case] | None = None, manifest: dict | None = None) -> Path:
    cases = TINY_CASES if cases is None else cases
    folder.mkdir(parents=True, exist_ok=True)
    by_cap: dict[str, list[Case]] = {}
    for c in cases:
        by_cap.setdefault(c.capability, []).append(c)
    for cap, cs in by_cap.items():
        write_cases(folder / f"{cap}.jsonl", sorted(cs, key=lambda c: c.id))
    write_manifest(folder, TINY_MANIFEST if manifest is None else manifest)
    return folder


TINY_WORDS = "this movie is good terrible not bad the food was at all film book i saw a think".split()


def build_tiny_hf_model(
    folder: Path,
    *,
    id2label: dict[int, str] | None = None,
    bias: list[float] | None = None,
    max_length: int = 16,
    seed: int = 0,
) -> Path:
    """A randomly initialised 1-layer BERT classifier with a 30-word WordPiece vocabulary.

    With ``bias`` the classification head's weights are zeroed and its bias set, so every input gets
    the same, known probabilities softmax(bias) — which makes label mapping checkable end to end.
    """
    import torch
    from transformers import BertConfig, BertForSequenceClassification, BertTokenizer

    id2label = id2label or {0: "LABEL_0", 1: "LABEL_1"}
    folder.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ","] + sorted(set(TINY_WORDS))
    (folder / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tok = BertTokenizer(vocab_file=str(folder / "vocab.txt"), model_max_length=max_length)
    tok.save_pretrained(folder)
    torch.manual_seed(seed)
    cfg = BertConfig(
        vocab_size=len(vocab), hidden_size=16, num_hidden_layers=1, num_attention_heads=2, intermediate_size=32,
        max_position_embeddings=64, num_labels=len(id2label), id2label=id2label,
        label2id={v: k for k, v in id2label.items()},
    )
    model = BertForSequenceClassification(cfg)
    if bias is not None:
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.copy_(torch.tensor(bias))
    model.save_pretrained(folder)
    return folder


@functools.cache
def minilm_model():
    """The offline minilm-sst2 classifier, loaded once per test process (S2LCT_MODELS_DIR from conftest)."""
    from s2lct.models import load_model

    model = load_model("minilm-sst2")
    model.load()
    return model
