"""Benchmark: what does fine-tuning through ``s2lct retrain`` (transformers Trainer) cost over a plain loop?

In one process, alternating so both see the same machine load (repeated, best of each kept):

(a) a plain loop: AdamW over the same tokenized examples in batches, forward + the retrain loss
    (:func:`s2lct.retrain.targets.target_loss`) + backward + step — nothing else;
(b) :func:`s2lct.retrain.train.fine_tune` on the same examples: the Trainer with seeded shuffling,
    periodic validation on a small split, checkpoints (model + optimizer) and best-model reload.

Prints training examples/s of each and the ratio b/a, for the training loop alone (Trainer's
train begin → end) and for the whole ``fine_tune`` call (loading, tokenizing, saving included).
Target: loop ratio ≤ 1.2.

    python benchmarks/bench_retrain.py                              # minilm-sst2, LC8 cases
    python benchmarks/bench_retrain.py --steps 20 --threads 2 --max-length 64

Needs S2LCT_MODELS_DIR (for minilm-sst2) like every other command.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
TARGET_RATIO = 1.2


def plain_loop(source: str, classes, examples, batch_size: int, max_length: int, lr: float, seed: int) -> float:
    """Seconds for one epoch of forward+backward+step over ``examples`` (model load excluded)."""
    import torch
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from s2lct.retrain.targets import target_loss

    torch.manual_seed(seed)
    tok = AutoTokenizer.from_pretrained(source)
    model = AutoModelForSequenceClassification.from_pretrained(source).train()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    order = list(range(len(examples)))
    random.Random(seed).shuffle(order)
    t0 = time.perf_counter()
    for s in range(0, len(order), batch_size):
        batch = [examples[i] for i in order[s : s + batch_size]]
        enc = tok([e.text for e in batch], padding=True, truncation=True, max_length=max_length, return_tensors="pt")
        allowed = torch.tensor([e.allowed for e in batch])
        loss = target_loss(model(**enc).logits, allowed, classes)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)  # the Trainer clips too
        opt.step()
    return time.perf_counter() - t0


def trainer_run(source: str, classes, band, examples, val, batch_size: int, max_length: int, lr: float, seed: int) -> tuple[float, float]:
    """(training-loop seconds, whole fine_tune seconds) for one epoch of the retrain Trainer."""
    from transformers import TrainerCallback

    from s2lct.retrain.train import TrainConfig, fine_tune

    marks: dict[str, float] = {}

    class Clock(TrainerCallback):
        def on_train_begin(self, *a, **k):
            marks["begin"] = time.perf_counter()

        def on_train_end(self, *a, **k):
            marks["end"] = time.perf_counter()

    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        fine_tune(source, classes, band, examples, val, Path(tmp), Path(tmp) / "model",
                  TrainConfig(batch_size=batch_size, lr=lr, seed=seed, max_length=max_length), callbacks=[Clock()])
        total = time.perf_counter() - t0
    return marks["end"] - marks["begin"], total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--model", default="minilm-sst2")
    ap.add_argument("--suite", default=str(REPO / "generated"))
    ap.add_argument("--capability", default="LC8")
    ap.add_argument("--steps", type=int, default=40, help="training steps per measurement")
    ap.add_argument("--batch-size", type=int, default=16)
    ap.add_argument("--max-length", type=int, default=64)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()

    import torch

    torch.set_num_threads(args.threads)
    from s2lct.retrain.loop import load_trainable
    from s2lct.retrain.targets import allowed_vector
    from s2lct.retrain.train import Example
    from s2lct.suite import load_suite

    model = load_trainable(args.model)
    model.load()
    cases = [c for c in load_suite(args.suite, only=[args.capability])]
    random.Random(0).shuffle(cases)
    n = args.steps * args.batch_size
    examples = [Example(c.text, tuple(allowed_vector(c.expected))) for c in cases[:n]]
    val = [Example(c.text, tuple(allowed_vector(c.expected))) for c in cases[n : n + 32]]
    plain, loop, whole = [], [], []
    for r in range(args.repeats):
        plain.append(plain_loop(model.source, model.classes, examples, args.batch_size, args.max_length, 5e-5, r))
        lo, wh = trainer_run(model.source, model.classes, model.neutral_band, examples, val, args.batch_size, args.max_length, 5e-5, r)
        loop.append(lo)
        whole.append(wh)
        print(f"repeat {r + 1}: plain {plain[-1]:.1f} s, Trainer loop {lo:.1f} s, fine_tune {wh:.1f} s", flush=True)
    a, b, c = min(plain), min(loop), min(whole)
    print(f"{args.model}: {len(examples)} {args.capability} examples, batch {args.batch_size}, max_length {args.max_length}, "
          f"{args.threads} thread(s); validation {len(val)} cases x 4 evaluations and checkpoints")
    print(f"plain forward+backward loop: {len(examples) / a:.1f} examples/s")
    print(f"retrain Trainer loop:        {len(examples) / b:.1f} examples/s  ratio {b / a:.2f}x (target <= {TARGET_RATIO})")
    print(f"whole fine_tune call:        {len(examples) / c:.1f} examples/s  ratio {c / a:.2f}x (loading, tokenizing, saving included)")


if __name__ == "__main__":
    main()
