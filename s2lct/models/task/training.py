"""Training a task model on SST-2 (the recipe of ``s2lct build-task-model``).

Word vectors are trained here from random initialisation (Kim 2014's "CNN-rand"), not GloVe as in
Poerner et al.: GloVe cannot be downloaded on the machines this runs on, and the offline spaCy md
copy on the package index needs Python ≥ 3.12. Adam (lr 1e-3), batches of 64, dropout 0.5, the
epoch with the best SST-2 dev accuracy kept. Deterministic for a seed on one machine (torch's
seeded generator shuffles, the thread count is fixed while training).

The folder written holds ``s2lct-task-model.json`` (architecture, sizes, classes, how it was
trained and how well), ``vocab.json`` and ``weights.pt`` (a state dict, loaded with
``weights_only=True``). It is written to a temporary folder and renamed into place, so an
interrupted build leaves nothing half-written.
"""

from __future__ import annotations

import shutil
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from s2lct.atomic import write_json
from s2lct.progress import ProgressFactory, no_progress

from .networks import ARCHITECTURES, NetworkConfig, build_network, pad_margin
from .vocabulary import TOKENIZER_VERSION, Vocabulary, tokenize

CONFIG_FILE = "s2lct-task-model.json"
FORMAT_VERSION = 1
CLASSES = ("negative", "positive")


@dataclass
class TrainingOptions:
    epochs: int = 4
    batch_size: int = 64
    learning_rate: float = 1e-3
    seed: int = 0
    embedding_dim: int = 300
    hidden: int = 150
    dropout: float = 0.5
    max_train: int | None = None  # first N training rows (tests); None: all of SST-2 train
    threads: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)


def encode_ids(vocab: Vocabulary, text: str, architecture: str) -> list[int]:
    margin = [vocab.pad_id] * pad_margin(architecture)
    return [*margin, *(vocab.id(t) for t, _s, _e in tokenize(text)), *margin]


def _batches(ids: Sequence[Sequence[int]], labels: Sequence[int], order: Sequence[int], batch_size: int) -> Any:
    import torch

    for start in range(0, len(order), batch_size):
        idx = order[start : start + batch_size]
        n = max(len(ids[i]) for i in idx)
        x = torch.zeros((len(idx), n), dtype=torch.long)
        mask = torch.zeros((len(idx), n), dtype=torch.long)
        for r, i in enumerate(idx):
            x[r, : len(ids[i])] = torch.tensor(ids[i], dtype=torch.long)
            mask[r, : len(ids[i])] = 1
        yield x, mask, torch.tensor([labels[i] for i in idx], dtype=torch.long)


def accuracy(net: Any, ids: Sequence[Sequence[int]], labels: Sequence[int], batch_size: int = 256) -> float:
    import torch

    net.eval()
    right = 0
    order = sorted(range(len(ids)), key=lambda i: len(ids[i]))
    with torch.inference_mode():
        for x, mask, y in _batches(ids, labels, order, batch_size):
            right += int((net(x, mask).argmax(dim=1) == y).sum())
    return right / len(ids) if ids else 0.0


def train_task_model(architecture: str, train: Sequence[tuple[str, int]], dev: Sequence[tuple[str, int]], out: Path,
                     opts: TrainingOptions | None = None, *, name: str | None = None,
                     progress: ProgressFactory | None = None, log: Any = None,
                     soft_targets: Sequence[Sequence[float]] | None = None, classes: Sequence[str] = CLASSES,
                     data: str = "SST-2 (GLUE) train; model selection on SST-2 dev") -> dict[str, Any]:
    """Train ``architecture`` on ``train`` (text, 0/1 label), keep the best epoch on ``dev``, write
    the model folder ``out`` atomically; returns the folder's config. ``soft_targets`` (one class
    distribution per training row, e.g. a teacher's): train on them with the soft cross-entropy
    instead of the labels (distillation); ``dev`` then holds the teacher's labels, so the epoch kept
    is the one that agrees with the teacher best."""
    import torch

    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown task architecture {architecture!r}; available: {', '.join(ARCHITECTURES)}")
    opts = opts or TrainingOptions()
    progress = progress or no_progress
    log = log or (lambda m: None)
    if opts.max_train is not None:
        train = train[: opts.max_train]
    threads_before = torch.get_num_threads()
    if opts.threads:
        torch.set_num_threads(opts.threads)
    try:
        torch.manual_seed(opts.seed)
        vocab = Vocabulary.build(t for t, _ in train)
        config = NetworkConfig(architecture, len(vocab), opts.embedding_dim, opts.hidden, len(classes), opts.dropout)
        net = build_network(config)
        train_ids = [encode_ids(vocab, t, architecture) for t, _ in train]
        train_y = [y for _, y in train]
        soft = torch.tensor([list(p) for p in soft_targets[: len(train)]], dtype=torch.float32) if soft_targets is not None else None
        dev_ids = [encode_ids(vocab, t, architecture) for t, _ in dev]
        dev_y = [y for _, y in dev]
        optimiser = torch.optim.Adam(net.parameters(), lr=opts.learning_rate)
        loss_fn = torch.nn.CrossEntropyLoss()
        gen = torch.Generator().manual_seed(opts.seed)
        best: tuple[float, int, dict[str, Any]] | None = None
        history = []
        t0 = time.perf_counter()
        for epoch in range(1, opts.epochs + 1):
            net.train()
            order = torch.randperm(len(train_ids), generator=gen).tolist()
            bar = progress(f"training {name or architecture}, epoch {epoch}/{opts.epochs}", len(order))
            total = 0.0
            for start, (x, mask, y) in zip(range(0, len(order), opts.batch_size), _batches(train_ids, train_y, order, opts.batch_size),
                                           strict=True):
                optimiser.zero_grad()
                if soft is None:
                    loss = loss_fn(net(x, mask), y)
                else:  # soft cross-entropy against the teacher's distribution
                    target = soft[order[start : start + opts.batch_size]]
                    loss = -(target * torch.log_softmax(net(x, mask), dim=1)).sum(dim=1).mean()
                loss.backward()
                optimiser.step()
                total += loss.item() * len(y)
                bar.advance(len(y))
            bar.close()
            dev_acc = accuracy(net, dev_ids, dev_y)
            history.append({"epoch": epoch, "train_loss": round(total / len(order), 4), "dev_accuracy": round(dev_acc, 4)})
            log(f"epoch {epoch}: train loss {total / len(order):.4f}, dev accuracy {dev_acc:.4f}")
            if best is None or dev_acc > best[0]:
                best = (dev_acc, epoch, {k: v.detach().clone() for k, v in net.state_dict().items()})
        assert best is not None
        info = {
            "format": FORMAT_VERSION, "name": name or architecture, "network": config.to_json(), "classes": list(classes),
            "tokenizer": TOKENIZER_VERSION, "training": {"data": data, "train_rows": len(train),
                         "dev_rows": len(dev), "epochs": opts.epochs, "best_epoch": best[1], "dev_accuracy": round(best[0], 4),
                         "batch_size": opts.batch_size, "learning_rate": opts.learning_rate, "seed": opts.seed,
                         "embeddings": "trained here from random initialisation", "history": history,
                         "seconds": round(time.perf_counter() - t0, 1), **opts.extra},
        }
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
        try:
            torch.save(best[2], tmp / "weights.pt")
            vocab.save(tmp / "vocab.json")
            write_json(tmp / CONFIG_FILE, info)
            if out.exists():
                shutil.rmtree(out)
            tmp.rename(out)
        except BaseException:
            shutil.rmtree(tmp, ignore_errors=True)
            raise
        return info
    finally:
        torch.set_num_threads(threads_before)


def distil_task_model(teacher: Any, texts: Sequence[str], dev_texts: Sequence[str], out: Path, opts: TrainingOptions | None = None,
                      *, progress: ProgressFactory | None = None, log: Any = None) -> dict[str, Any]:
    """A smaller network of the teacher's architecture (``opts``' sizes) trained on the teacher's
    output distribution over ``texts`` (Ding & Koehn's model consistency needs a student that
    learnt from the teacher, not from the labels); the epoch kept agrees best with the teacher on
    ``dev_texts``, and that agreement is recorded as ``training.dev_accuracy``."""
    import numpy as np

    from s2lct.explain.adapters import run_logits, softmax

    clf = teacher.token_classifier()
    probs = softmax(run_logits(clf, [clf.encode(t).ids for t in texts], batch_size=128)).tolist()
    dev_logits = run_logits(clf, [clf.encode(t).ids for t in dev_texts], batch_size=128)
    train = [(t, int(np.argmax(p))) for t, p in zip(texts, probs, strict=True)]
    dev = [(t, int(k)) for t, k in zip(dev_texts, dev_logits.argmax(axis=1), strict=True)]
    opts = opts or TrainingOptions()
    opts = TrainingOptions(**{**opts.__dict__, "extra": {**opts.extra, "distilled_from": teacher.identity,
                                                          "dev_accuracy_means": "agreement with the teacher's labels on SST-2 dev"}})
    return train_task_model(teacher.architecture, train, dev, out, opts, name=f"{teacher.name}-student", progress=progress, log=log,
                            soft_targets=probs)
