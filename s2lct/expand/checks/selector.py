"""A trained fluency selector (issue 22, deliverable 1): does this insertion read as real English?

Neither the masked LM's fill probability nor PLL separates fluent from non-fluent insertions
well on the annotated sets (``benchmarks/calibrate_fluency.py checks``). This check is a logistic
regression over the masked LM's own encoder (the MiniLM in ``Settings.mlm``, already loaded for
the fills): features are the encoder's last hidden state at the inserted word pieces, the change in the
sentence's [CLS] state between seed and expansion, and the log of the fill's probability. It is
trained on the hand-annotated candidates of tests/data/ (``benchmarks/train_selector.py``); its
threshold, 0.45, was set from blind reads of the suite's expansions around it (docs/expansion.md),
and the file records the cross-fitted precision and recall at it on the annotated sets.
Trained on self-supervised deletion pairs alone (real sentences minus an
optional word as positives, the engine's other fills as negatives) it scored AUC 0.55 there: it
learned to tell real text from masked-LM fills, not fluent fills from clumsy ones.

The weights are a small JSON file built here, never committed (they are a trained model):
``$S2LCT_SELECTOR``, else ``<cache dir>/selector.json``; a missing file names the command that
builds it (about a minute on 2 cores).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

BUILD_COMMAND = "python benchmarks/train_selector.py"


def default_path() -> Path:
    """Where the selector's weights are read from: ``$S2LCT_SELECTOR``, else the cache folder."""
    import os

    if os.environ.get("S2LCT_SELECTOR"):
        return Path(os.environ["S2LCT_SELECTOR"]).expanduser()
    from s2lct.config import Settings

    return Path(Settings().cache_dir) / "selector.json"


@functools.cache
def load_head(path: str) -> dict[str, Any]:
    from s2lct.errors import MissingResourceError

    p = Path(path)
    if not p.is_file():
        raise MissingResourceError(f"fluency selector model {p}", f"build it with `{BUILD_COMMAND} --out {p}`")
    return json.loads(p.read_text(encoding="utf-8"))


def features(items: Sequence[tuple[Sequence[str], Sequence[str], Sequence[int]]], mlm: Any, batch_size: int = 64) -> list[list[float]]:
    """Per (seed tokens, expanded tokens, fill positions): mean last hidden state over the fills'
    word pieces, then [CLS] of the expansion minus [CLS] of the seed (2 x hidden size floats)."""
    import torch

    from s2lct.expand.fillin import _UNESCAPE

    mlm._load()
    tok, model = mlm.tokenizer, mlm._model
    encoder = model.bert if hasattr(model, "bert") else model.base_model
    texts: dict[tuple[str, ...], None] = {}
    for seed, toks, _ in items:
        texts.setdefault(tuple(seed), None)
        texts.setdefault(tuple(toks), None)
    keys = sorted(texts, key=lambda t: (len(t), t))
    hidden: dict[tuple[str, ...], tuple[Any, list[int | None]]] = {}
    with torch.inference_mode():
        for b in range(0, len(keys), batch_size):
            batch = keys[b : b + batch_size]
            enc = tok([[_UNESCAPE.get(w, w) for w in t] for t in batch], is_split_into_words=True, truncation=True,
                      max_length=mlm.max_length, padding=True, return_tensors="pt")
            out = encoder(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]).last_hidden_state.float()
            for r, t in enumerate(batch):
                hidden[t] = (out[r], enc.word_ids(r))
    rows = []
    for seed, toks, positions in items:
        h, wid = hidden[tuple(toks)]
        pieces = [k for k, w in enumerate(wid) if w is not None and w in set(positions)] or [0]
        fill = h[pieces].mean(dim=0)
        delta = h[0] - hidden[tuple(seed)][0][0]
        rows.append([round(x, 5) for x in torch.cat([fill, delta]).tolist()])
    return rows


def with_score(rows: list[list[float]], scores: Sequence[float]) -> list[list[float]]:
    """Each feature row with the log of the masked LM's fill probability appended."""
    return [[*x, round(math.log(max(sc, 1e-9)), 5)] for x, sc in zip(rows, scores, strict=True)]


def score_rows(rows: list[list[float]], head: dict[str, Any]) -> list[float]:
    """The head's probability that each row is a fluent insertion."""
    mean, std, w, b = head["mean"], head["std"], head["w"], head["b"]
    out = []
    for x in rows:
        z = b + sum(wi * (xi - m) / s for wi, xi, m, s in zip(w, x, mean, std))
        out.append(round(1 / (1 + math.exp(-max(-30.0, min(30.0, z)))), 4))
    return out


class Selector:
    name = "selector"
    version = "1"

    def __init__(self, threshold: float | None = None, path: str | None = None) -> None:
        self.path = str(path or default_path())
        self._threshold = threshold

    @property
    def head(self) -> dict[str, Any]:
        return load_head(self.path)

    @property
    def threshold(self) -> float:
        return self._threshold if self._threshold is not None else float(self.head["threshold"])

    def settings(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "model": self.head.get("identity", Path(self.path).name)}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        if not items:
            return []
        rows = with_score(features([(it.seed, it.tokens, it.positions) for it in items], ctx.mlm), [it.score for it in items])
        probs = score_rows(rows, self.head)
        return [CheckResult(p >= self.threshold, p) for p in probs]


@fluency_checks.register("selector")
def make_selector(**settings: Any) -> Selector:
    return Selector(**settings)
