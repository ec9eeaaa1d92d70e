"""Check (b): the masked LM's pseudo-log-likelihood (PLL) of the expanded seed against the seed's.

PLL (Salazar et al. 2020): mask each word piece in turn and sum the log-probabilities the model
gives the original piece. A fill that breaks grammar makes itself *and its neighbours* improbable
("an [few] inferior": "an" becomes unlikely before "few"). We compare per word piece, so length
does not count:

    score = mean PLL of the expanded seed's pieces in the window  −  mean PLL of the seed's pieces in the same window

Cost bound: only the pieces within ``window`` words of a fill are scored (both sentences keep
their full context as input), so a candidate costs ~``2·window+1`` forward rows instead of one
per piece of the sentence; the seed is scored once per seed. All rows of one seed's candidates go
through the model in length-sorted batches that depend on that seed alone (results do not change
with the other seeds of a run); scores are rounded to 4 decimals. transformers gives the model;
the PLL loop is ours because no maintained library scores a chosen subset of positions in batch.

Threshold: −0.1 (a candidate may lose at most 0.1 nats per word piece around the fill). On the
annotated set (tests/data/expansions_annotated.jsonl) the score alone separates valid from invalid
expansions poorly (AUC ≈ 0.64 with the small offline MLM; full-sentence PLL or the neighbours'
change alone do no better), so it runs after the word-class rules and removes what they leave
("fosters moments of [some] spontaneous intimacy": −0.29; "pop up frequently [quickly]": −0.29).
The BLiMP minimal pairs in ../shared/data/agreement were not used for the threshold: they compare
two sentences of equal length, not an insertion against its seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from s2lct.expand.checks.base import CheckContext, CheckItem, CheckResult, fluency_checks

METRICS = ("mean_delta", "context_delta")


class PseudoLogLikelihood:
    name = "pll"
    version = "1"

    def __init__(self, threshold: float = -0.1, window: int = 2, metric: str = "mean_delta", batch_size: int = 128) -> None:
        if metric not in METRICS:
            raise ValueError(f"pll metric {metric!r}; valid: {', '.join(METRICS)}")
        self.threshold, self.window, self.metric, self.batch_size = threshold, window, metric, batch_size

    def settings(self) -> dict[str, Any]:
        return {"threshold": self.threshold, "window": self.window, "metric": self.metric}

    def check(self, items: Sequence[CheckItem], ctx: CheckContext) -> list[CheckResult]:
        out = []
        for t in self.terms(items, ctx.mlm):
            s = t[self.metric]
            out.append(CheckResult(s >= self.threshold, s))
        return out

    def terms(self, items: Sequence[CheckItem], mlm: Any) -> list[dict[str, float]]:
        """Per item: ``mean_delta`` (the score), ``context_delta`` (mean change of the log-probability
        of the seed's own pieces in the window), ``fill`` (mean PLL of the fills' pieces)."""
        if not items:
            return []
        from s2lct.expand.fillin import _UNESCAPE

        mlm._load()
        tok = mlm.tokenizer
        sentences: dict[tuple[str, ...], tuple[list[int], list[int | None]]] = {}

        def encode(words: tuple[str, ...]) -> tuple[list[int], list[int | None]]:
            hit = sentences.get(words)
            if hit is None:
                enc = tok([_UNESCAPE.get(w, w) for w in words], is_split_into_words=True, truncation=True, max_length=mlm.max_length)
                hit = sentences[words] = (enc["input_ids"], enc.word_ids())
            return hit

        wanted: dict[tuple[tuple[str, ...], int], None] = {}  # (sentence, piece index) rows
        plans = []
        for it in items:
            n = len(it.tokens)
            win = sorted({i for p in it.positions for i in range(max(0, p - self.window), min(n, p + self.window + 1))})
            seed_win = [j for i in win if (j := it.seed_index(i)) is not None]
            _, wid_e = encode(it.tokens)
            _, wid_s = encode(it.seed)
            exp_pieces = {i: [k for k, w in enumerate(wid_e) if w == i] for i in win}
            seed_pieces = {j: [k for k, w in enumerate(wid_s) if w == j] for j in seed_win}
            for ks in exp_pieces.values():
                wanted.update(((it.tokens, k), None) for k in ks)
            for ks in seed_pieces.values():
                wanted.update(((it.seed, k), None) for k in ks)
            plans.append((it, win, exp_pieces, seed_pieces))
        logp = self._score(list(wanted), encode, mlm)
        out = []
        for it, win, exp_pieces, seed_pieces in plans:
            e = [logp[(it.tokens, k)] for ks in exp_pieces.values() for k in ks]
            s = [logp[(it.seed, k)] for ks in seed_pieces.values() for k in ks]
            fills = [logp[(it.tokens, k)] for i in it.positions for k in exp_pieces.get(i, ())]
            ctx_d = [
                logp[(it.tokens, ke)] - logp[(it.seed, ks)]
                for i in win if (j := it.seed_index(i)) is not None
                for ke, ks in zip(exp_pieces[i], seed_pieces[j])
            ]
            mean = lambda xs: sum(xs) / len(xs) if xs else 0.0  # noqa: E731
            out.append({
                "mean_delta": round(mean(e) - (mean(s) if s else mean(e)), 4),
                "context_delta": round(mean(ctx_d), 4),
                "fill": round(mean(fills), 4),
            })
        return out

    def _score(self, rows: list[tuple[tuple[str, ...], int]], encode, mlm) -> dict[tuple[tuple[str, ...], int], float]:
        import torch

        tok, model = mlm.tokenizer, mlm._model
        order = sorted(range(len(rows)), key=lambda r: (len(encode(rows[r][0])[0]), r))
        out: dict[tuple[tuple[str, ...], int], float] = {}
        with torch.inference_mode():
            for b in range(0, len(order), self.batch_size):
                batch = [rows[r] for r in order[b : b + self.batch_size]]
                width = max(len(encode(s)[0]) for s, _ in batch)
                ids = torch.full((len(batch), width), tok.pad_token_id, dtype=torch.long)
                att = torch.zeros((len(batch), width), dtype=torch.long)
                targets = []
                for r, (s, k) in enumerate(batch):
                    seq = encode(s)[0]
                    ids[r, : len(seq)] = torch.tensor(seq)
                    att[r, : len(seq)] = 1
                    targets.append(seq[k])
                    ids[r, k] = tok.mask_token_id
                pos = torch.tensor([k for _, k in batch])
                rows_idx = torch.arange(len(batch))
                if getattr(mlm, "_fast_bert", False):
                    hidden = model.bert(input_ids=ids, attention_mask=att).last_hidden_state
                    logits = model.cls(hidden[rows_idx, pos])
                else:
                    logits = model(input_ids=ids, attention_mask=att).logits[rows_idx, pos]
                lp = torch.log_softmax(logits.float(), dim=-1)[rows_idx, torch.tensor(targets)].tolist()
                for key, v in zip(batch, lp):
                    out[key] = v
        return out


@fluency_checks.register("pll")
def make_pll(**settings: Any) -> PseudoLogLikelihood:
    return PseudoLogLikelihood(**settings)
