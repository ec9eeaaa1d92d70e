"""The two architectures of Poerner et al. (2018, §4.1), as torch modules.

Both map word embeddings (B, T, E) to two class scores and keep that step a module of its own
(:meth:`TaskNetwork.head`), so Captum's LRP and DeepLIFT can start from the embedding output:

* :class:`CnnNetwork`: one convolution of width 5 over the sequence (``nn.Conv2d`` with a
  (5, E) kernel: Captum's LRP has a rule for Conv2d, none for Conv1d), ReLU, global max pooling
  over time, a fully connected layer. Every layer is **bias-free** and the tokenizer puts four pad
  tokens (zero embeddings) on each side of a text: relevance is then conserved from the class score
  down to the words (epsilon-LRP sums to s, DeepLIFT against the all-pad baseline to s − 0), which
  the explainers check, and a text scores the same alone or right-padded in a batch (a window over
  pads only is 0, and ReLU outputs are ≥ 0, so it never wins the max).
* :class:`GruNetwork`: a bidirectional GRU (75 units per direction), the final states of both
  directions concatenated, a fully connected layer. Padded batches go through
  ``pack_padded_sequence``, so padding never reaches the states.

Sizes follow the paper: 300-dimensional embeddings, a main layer of 150 (75 per direction).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

import torch
from torch import nn

ARCHITECTURES = ("cnn", "gru")
CNN_WIDTH = 5


@dataclass(frozen=True)
class NetworkConfig:
    architecture: str
    vocab_size: int
    embedding_dim: int = 300
    hidden: int = 150
    classes: int = 2
    dropout: float = 0.5

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class TaskNetwork(nn.Module):
    """Embedding → :attr:`head` → class scores."""

    head: nn.Module

    def __init__(self, config: NetworkConfig) -> None:
        super().__init__()
        self.config = config
        self.embedding = nn.Embedding(config.vocab_size, config.embedding_dim, padding_idx=0)

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        if attention_mask is None:
            attention_mask = (input_ids != 0).long()
        return self.head(self.embedding(input_ids), attention_mask)

    def features(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """The text representation the classifier reads (B, hidden): what a probe reads too."""
        return self.head.features(self.embedding(input_ids), attention_mask)  # type: ignore[operator]


class CnnHead(nn.Module):
    def __init__(self, config: NetworkConfig) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, config.hidden, (CNN_WIDTH, config.embedding_dim), bias=False)
        self.relu = nn.ReLU()
        self.dropout = nn.Dropout(config.dropout)
        self.out = nn.Linear(config.hidden, config.classes, bias=False)

    def features(self, embedded: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        conv = self.relu(self.conv(embedded.unsqueeze(1)))  # (B, H, T - 4, 1)
        return conv.squeeze(3).amax(dim=2)  # padding adds windows of 0 only: never above a ReLU output

    def forward(self, embedded: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.dropout(self.features(embedded, attention_mask)))


class GruHead(nn.Module):
    def __init__(self, config: NetworkConfig) -> None:
        super().__init__()
        self.gru = nn.GRU(config.embedding_dim, config.hidden // 2, batch_first=True, bidirectional=True)
        self.dropout = nn.Dropout(config.dropout)
        self.out = nn.Linear(config.hidden, config.classes)

    def features(self, embedded: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        lengths = attention_mask.sum(dim=1)
        if embedded.shape[1] == 0:  # every word deleted (omission, LIMSSE): the states of an empty input are h0 = 0
            return embedded.new_zeros((embedded.shape[0], self.gru.hidden_size * 2))
        packed = nn.utils.rnn.pack_padded_sequence(embedded, lengths.clamp(min=1).to("cpu"), batch_first=True, enforce_sorted=False)
        _out, h = self.gru(packed)  # h: (2, B, H/2), forward then backward final states
        states = torch.cat([h[0], h[1]], dim=1)
        return states * (lengths > 0).unsqueeze(1).to(states.dtype)  # an empty row in a batch: h0 = 0 as alone

    def forward(self, embedded: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        return self.out(self.dropout(self.features(embedded, attention_mask)))


def build_network(config: NetworkConfig) -> TaskNetwork:
    if config.architecture not in ARCHITECTURES:
        raise ValueError(f"unknown task architecture {config.architecture!r}; available: {', '.join(ARCHITECTURES)}")
    net = TaskNetwork(config)
    net.head = CnnHead(config) if config.architecture == "cnn" else GruHead(config)
    return net


def pad_margin(architecture: str) -> int:
    """Pad tokens the tokenizer puts on each side of a text (the CNN's width − 1; the GRU needs none)."""
    return CNN_WIDTH - 1 if architecture == "cnn" else 0
