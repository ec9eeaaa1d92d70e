"""Masked-LM fill-in of masked sentences (METHOD §1.3 step 5), through transformers.

Several masks in one sentence are filled *jointly from one forward pass*: the model predicts every
``[MASK]`` at once (as the paper uses BERT), each mask gets its top whole-word suggestions, and a
beam over the masks left to right keeps the ``top_n`` combinations with the highest product of
probabilities. One pass per masked sentence keeps the cost linear in the number of candidates;
iterative re-prediction would multiply it by the number of masks for a small gain in coherence
(incoherent combinations are mostly removed by the PoS check anyway).

Only whole words are offered: WordPiece continuations (``##s``), punctuation, ``[unused]`` and
special tokens are excluded before taking the top-n, but probabilities stay those of the full
vocabulary softmax. Probabilities are rounded to 6 significant digits so that tiny float
differences between batch compositions cannot change stored results.

Memory: logits are computed only at mask positions when the model exposes BERT's head
(``model.bert`` + ``model.cls``); otherwise batches are capped so that the full logits tensor
stays under ~256 MB.
"""

from __future__ import annotations

import hashlib
import heapq
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from s2lct.errors import MissingResourceError
from s2lct.quiet_libraries import quiet_transformers

Tokens = tuple[str, ...]

_WHOLE_WORD = re.compile(r"[^\W_]+")
_UNESCAPE = {"-LRB-": "(", "-RRB-": ")", "-LSB-": "[", "-RSB-": "]", "-LCB-": "{", "-RCB-": "}", "``": '"', "''": '"', "`": "'"}


def round_prob(p: float) -> float:
    return float(f"{p:.6g}")


def _capitalise(word: str) -> str:
    return word[:1].upper() + word[1:]


def fill_in(masked: Sequence[str], positions: Sequence[int], words: Sequence[str]) -> Tokens:
    """The masked sentence with the words exactly as the masked LM gave them."""
    toks = list(masked)
    for p, w in zip(positions, words):
        toks[p] = w
    return tuple(toks)


def place_fills(
    masked: Sequence[str], positions: Sequence[int], symbols: Sequence[str], words: Sequence[str], seed_tags: Sequence[str]
) -> Tokens:
    """The masked sentence with its fills in place, cased as written English.

    An uncased masked LM (bert-base-uncased, the default) offers "michael", "i" and "the" where the
    sentence needs "Michael", "I" and, before "Movies like this ...", "The movies like this ...":
    proper-noun fills (NNP/NNPS) and "i" are capitalised, and a fill that now starts the sentence
    is capitalised while the seed's first word loses its capital unless it keeps it mid-sentence
    (``transforms.keeps_capital``; ``seed_tags`` are the seed's PTB tags).

    Apply it after validation: the PoS check tags ``fill_in``'s sentence, as the LM filled it.
    Capitalising first would make the check self-fulfilling (the tagger reads "may" at an NNP mask,
    written "May", as a name).
    """
    from s2lct.text import keeps_capital

    toks = list(fill_in(masked, positions, words))
    for p, sym, w in zip(positions, symbols, words):
        if sym in ("NNP", "NNPS") or w == "i":
            toks[p] = _capitalise(w)
    if 0 in positions:
        toks[0] = _capitalise(toks[0])
        first_seed = next((i for i in range(len(toks)) if i not in positions), None)
        if first_seed is not None and seed_tags and not keeps_capital(toks[first_seed], seed_tags[0]):
            toks[first_seed] = toks[first_seed][:1].lower() + toks[first_seed][1:]
    return tuple(toks)


@dataclass(frozen=True, slots=True)
class Fill:
    """One joint fill of all masks of a sentence: a word and its probability per mask."""

    words: tuple[str, ...]
    probabilities: tuple[float, ...]
    score: float  # product of the mask probabilities


class MaskedLM:
    """A transformers masked LM (``bert-base-uncased`` by default; a hub name or a local folder)."""

    def __init__(self, model: str | None = None, *, batch_size: int = 64, max_length: int = 128, threads: int | None = None) -> None:
        from s2lct.config import get_settings

        self.model_name = model or get_settings().mlm
        self.batch_size = batch_size
        self.max_length = max_length
        self.threads = threads
        self._model = None
        self._tok = None
        self._word_ids: dict[tuple[str, ...], list[int]] = {}
        path = Path(self.model_name).expanduser()
        if path.is_dir():
            self.model_name = str(path.resolve())
            weights = sorted(p for p in path.iterdir() if p.suffix in (".safetensors", ".bin"))
            h = hashlib.sha256()
            for w in weights:
                h.update(w.name.encode())
                h.update(str(w.stat().st_size).encode())
                with open(w, "rb") as fh:
                    h.update(fh.read(1 << 20))  # name, size and first MiB: cheap and enough to tell models apart
            self.identity = f"mlm:{path.name}:{h.hexdigest()[:16]}"
        else:
            self.identity = f"mlm:{self.model_name}"

    def _load(self) -> None:
        if self._model is not None:
            return
        import torch
        from transformers import AutoModelForMaskedLM, AutoTokenizer

        if self.threads:
            torch.set_num_threads(self.threads)
        quiet_transformers()
        try:
            self._tok = AutoTokenizer.from_pretrained(self.model_name)
            self._model = AutoModelForMaskedLM.from_pretrained(self.model_name)
        except (OSError, ValueError) as exc:
            raise MissingResourceError(
                f"masked language model {self.model_name!r}",
                f"set --mlm, S2LCT_MLM or mlm = ... in s2lct.toml / [tool.s2lct] to a local model folder or a reachable hub name ({str(exc).splitlines()[0][:120]})",
            ) from None
        self._model.eval()
        tok = self._tok
        vocab = tok.convert_ids_to_tokens(list(range(len(tok))))
        special = set(tok.all_special_ids)
        allowed = torch.tensor([i not in special and bool(_WHOLE_WORD.fullmatch(t or "")) for i, t in enumerate(vocab)])
        if allowed.shape[0] < self._model.config.vocab_size:
            pad = torch.zeros(self._model.config.vocab_size - allowed.shape[0], dtype=torch.bool)
            allowed = torch.cat([allowed, pad])
        self._blocked = ~allowed[: self._model.config.vocab_size]
        self._vocab = vocab
        self._fast_bert = hasattr(self._model, "bert") and hasattr(self._model, "cls")

    @property
    def tokenizer(self):  # noqa: ANN201 - a transformers tokenizer
        self._load()
        return self._tok

    def text_for(self, tokens: Sequence[str], mask_positions: Sequence[int]) -> str:
        """The model's input: PTB escapes undone, masks as the tokenizer's mask token."""
        self._load()
        words = [_UNESCAPE.get(t, t) for t in tokens]
        for p in mask_positions:
            words[p] = self._tok.mask_token
        return " ".join(words)

    def word_ids(self, words: Sequence[str]) -> list[int]:
        """Vocabulary ids of those ``words`` that are one whole-word token of this model."""
        self._load()
        key = tuple(sorted(set(words)))
        if key not in self._word_ids:
            index = {w: i for i, w in enumerate(self._vocab)}
            self._word_ids[key] = sorted(index[w] for w in key if w in index and not self._blocked[index[w]])
        return self._word_ids[key]

    def fill(
        self,
        sentences: Sequence[tuple[Sequence[str], Sequence[int]]],
        top_n: int = 10,
        *,
        lexicon: Sequence[str] = (),
        lexicon_n: int = 0,
        lexicon_for: frozenset[int] = frozenset(),
        more_lexicons: Sequence[tuple[Sequence[str], int]] = (),
    ) -> list[list[Fill]]:
        """For each (tokens, mask positions), the ``top_n`` joint fills, best first.

        With ``lexicon``: the one-mask sentences whose index is in ``lexicon_for`` also get the
        ``lexicon_n`` most probable words of ``lexicon`` at their mask (from the same forward pass,
        with their full-vocabulary probabilities), after the ``top_n`` and without repeats: the
        masked LM ranks a maintained word list where its open top-n would spend the slot on
        other words. ``more_lexicons`` are further (words, n) lists ranked the same way, each on its
        own, so a short list is not crowded out by a long one. A sentence whose masks do not all
        survive truncation gets no fills."""
        import torch

        self._load()
        texts = [self.text_for(t, m) for t, m in sentences]
        order = sorted(range(len(texts)), key=lambda i: (len(texts[i]), i))  # similar lengths share a batch
        out: list[list[Fill]] = [[] for _ in texts]
        vocab_size = self._model.config.vocab_size
        i = 0
        with torch.inference_mode():
            while i < len(order):
                batch = order[i : i + self.batch_size]
                enc = self._tok([texts[j] for j in batch], padding=True, truncation=True, max_length=self.max_length, return_tensors="pt")
                if not self._fast_bert:
                    cap = max(1, (64 * 1024 * 1024) // (enc["input_ids"].shape[1] * vocab_size))
                    if len(batch) > cap:
                        batch = batch[:cap]
                        enc = {k: v[:cap] for k, v in enc.items()}
                i += len(batch)
                ids = enc["input_ids"]
                is_mask = ids == self._tok.mask_token_id
                if self._fast_bert:
                    hidden = self._model.bert(input_ids=ids, attention_mask=enc["attention_mask"],
                                              token_type_ids=enc.get("token_type_ids")).last_hidden_state
                    logits = self._model.cls(hidden[is_mask])
                else:
                    logits = self._model(**enc).logits[is_mask]
                probs = torch.softmax(logits.float(), dim=-1)
                probs[:, self._blocked] = -1.0
                lex_tops = []
                for words, n in ((lexicon, lexicon_n), *more_lexicons):
                    lex_ids = self.word_ids(words) if words and n else []
                    if lex_ids:
                        lex_p, lex_k = probs[:, lex_ids].topk(min(n, len(lex_ids)), dim=-1)
                        lex_tops.append((lex_p.tolist(), [[lex_ids[k] for k in row] for row in lex_k.tolist()]))
                top_p, top_i = probs.topk(top_n, dim=-1)
                top_p, top_i = top_p.tolist(), top_i.tolist()
                counts = is_mask.sum(dim=1).tolist()
                row = 0
                for j, n_masks in zip(batch, counts):
                    per_mask = [
                        [(self._vocab[w], round_prob(p)) for p, w in zip(top_p[row + q], top_i[row + q]) if p >= 0]
                        for q in range(n_masks)
                    ]
                    if lex_tops and n_masks == 1 and j in lexicon_for:
                        for lex_p, lex_w in lex_tops:
                            have = {w for w, _ in per_mask[0]}
                            per_mask[0] += [(self._vocab[w], round_prob(p)) for p, w in zip(lex_p[row], lex_w[row])
                                            if p >= 0 and self._vocab[w] not in have]
                    row += n_masks
                    if n_masks == len(sentences[j][1]) and n_masks:
                        out[j] = _beam(per_mask, len(per_mask[0]) if n_masks == 1 else top_n)
        return out


def _beam(per_mask: list[list[tuple[str, float]]], top_n: int) -> list[Fill]:
    """Top ``top_n`` combinations by product of probabilities (ties: words in order)."""
    beams: list[tuple[float, tuple[str, ...], tuple[float, ...]]] = [(1.0, (), ())]
    for cands in per_mask:
        grown = [(s * p, ws + (w,), ps + (p,)) for s, ws, ps in beams for w, p in cands]
        beams = heapq.nsmallest(top_n, grown, key=lambda b: (-b[0], b[1]))
    return [Fill(ws, ps, round_prob(s)) for s, ws, ps in beams if ws]
