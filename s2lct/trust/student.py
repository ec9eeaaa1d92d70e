"""The student of the model-consistency test (Ding & Koehn 2021, §3.2 and §5.1): a shallower copy
of the model under test, distilled from it, so it has a different architecture but mimics the
teacher's decisions.

Following the DistilBERT recipe Ding & Koehn cite (depth reduced, width kept), the student of a
Hugging Face teacher is the same encoder cut to its first ``layers`` layers (default 2): the
teacher's configuration with ``num_hidden_layers = layers``, and the teacher's embeddings, first
layers and classification head copied in (:func:`cut_encoder`). It is then trained on the teacher's
output distribution (:func:`distil`: KL divergence from the teacher's class probabilities at
temperature T, times T², Hinton et al. 2015) over a seeded subset of SST-2 train, and measured on
SST-2 dev: its agreement with the teacher (share of texts with the same predicted class) and the
accuracy of both.

:func:`build_student` saves the student as a Hugging Face folder under
``<cache_dir>/students/<hash of the teacher's identity, the options and the training data>/``
(written to a temporary folder beside it, then renamed: an interrupted run leaves nothing half
written) with ``student.json`` (how it was made, its measurements), and reuses it when present.

A teacher that is not a Hugging Face model (a CNN or GRU :class:`~s2lct.explain.adapters.TokenClassifier`)
brings its own student: its owner builds a smaller network with the same classes and calls
:func:`distil` (the same loop, on any two token classifiers and the torch module holding the
student's parameters), or passes any student as ``student=`` to :func:`student_handle`; the
model-consistency test (:func:`s2lct.trust.faithfulness.model_consistency`) takes any two handles.

Deterministic: the subset, the batch order and dropout are drawn from the seed (CPU; the same
torch thread count gives the same weights).
"""

from __future__ import annotations

import copy
import json
import math
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..atomic import sha256_file, short_hash, write_json
from ..errors import S2LCTError
from ..explain.adapters import HFTokenClassifier, ModelHandle, TokenClassifier, prepare_model, run_logits, softmax

FORMAT_VERSION = 1
INFO_FILE = "student.json"
#: SST-2's label ids (GLUE): 0 negative, 1 positive.
SST2_CLASSES = ("negative", "positive")


class StudentError(S2LCTError):
    """No student can be built for this teacher (a model kind without an automatic student)."""

    exit_code = 2


@dataclass
class StudentOptions:
    """How a student is made (its hash names the cached student).

    ``train_examples``: 8,000 of SST-2 train's 67,349 texts (phrases and sentences), at learning
    rate 3e-4, give minilm-sst2 a student that agrees with it on 86.1 % of SST-2 dev in 159 s on 2
    idle CPU cores (878 s while another training job held them); 16,000 texts gave the same
    agreement in twice the time, and 1e-4 gave 84.5 % (docs/faithfulness.md)."""

    layers: int = 2
    train_examples: int = 8000
    epochs: int = 1
    batch_size: int = 32
    learning_rate: float = 3e-4
    weight_decay: float = 0.01
    warmup_ratio: float = 0.06
    temperature: float = 1.0
    max_length: int = 64  # tokens; SST-2 sentences are shorter
    seed: int = 0

    def key(self) -> str:
        return short_hash(json.dumps({"format": FORMAT_VERSION, **asdict(self)}, sort_keys=True))


@dataclass
class Student:
    folder: Path
    model: Any  # s2lct.models.huggingface.HuggingFaceModel
    info: dict[str, Any]
    cached: bool

    def handle(self) -> ModelHandle:
        return prepare_model(self.model)


# ------------------------------------------------------------------------------------ the cut copy
def cut_encoder(model: Any, layers: int) -> Any:
    """A copy of a Hugging Face model with only its first ``layers`` layers: the same class and
    configuration except ``num_hidden_layers``, and every weight the copy has taken from ``model``
    (embeddings, layers 0..layers-1, pooler and classification head)."""
    import torch

    have = int(model.config.num_hidden_layers)
    if not 1 <= layers < have:
        raise StudentError(f"a student needs 1 to {have - 1} layers (the teacher has {have}), not {layers}")
    config = copy.deepcopy(model.config)
    config.num_hidden_layers = layers
    student = type(model)(config)
    theirs = model.state_dict()
    mine = student.state_dict()
    missing = [k for k in mine if k not in theirs]
    if missing:
        raise StudentError(f"cannot cut {type(model).__name__}: the copy has weights the teacher lacks ({', '.join(missing[:3])})")
    with torch.no_grad():
        student.load_state_dict({k: theirs[k].detach().clone() for k in mine}, strict=True)
    return student.to(next(model.parameters()).device)


def parameter_count(module: Any) -> int:
    return int(sum(p.numel() for p in module.parameters()))


# ------------------------------------------------------------------------------------ distillation
def _ids(clf: TokenClassifier, text: str, max_length: int) -> list[int]:
    enc = clf.encode(text)
    ids = list(enc.ids)
    if len(ids) > max_length:  # keep a final special token (SEP, </s>) where there is one
        ids = ids[: max_length - 1] + ids[-1:] if enc.spans[-1] is None else ids[:max_length]
    return ids


def teacher_probabilities(teacher: TokenClassifier, texts: Sequence[str], temperature: float = 1.0, max_length: int = 64,
                          batch_size: int = 64) -> np.ndarray:
    """The teacher's class probabilities at ``temperature`` (rows in ``texts`` order)."""
    logits = run_logits(teacher, [_ids(teacher, t, max_length) for t in texts], batch_size)
    return softmax(logits / temperature)


def distil(teacher: TokenClassifier, student: TokenClassifier, texts: Sequence[str], options: StudentOptions | None = None, *,
           module: Any = None, log: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Train ``student`` in place on ``teacher``'s output distribution over ``texts``.

    Any two token classifiers with the same class names work (the student's logits are matched to the
    teacher's classes by name): ``module`` is the torch module holding the student's trainable
    parameters (default: ``student.model``, as for :class:`HFTokenClassifier`). Loss: T²·KL(p_T(teacher)
    ‖ p_T(student)), AdamW with linear warm-up and decay, gradients clipped at norm 1; one pass per
    epoch in a seeded order. Returns what was done (examples, steps, seconds, the mean loss of the
    first and last 50 steps)."""
    import torch

    o = options or StudentOptions()
    module = module if module is not None else getattr(student, "model", None)
    if module is None or not hasattr(module, "parameters"):
        raise StudentError(f"distil: pass module=, the torch module holding the parameters of student {student.name!r}")
    if sorted(student.classes) != sorted(teacher.classes):
        raise StudentError(f"distil: the student's classes {student.classes} are not the teacher's {teacher.classes}")
    order_t = [teacher.classes.index(c) for c in student.classes]
    t0 = time.perf_counter()
    torch.manual_seed(o.seed)
    rng = np.random.default_rng(o.seed)
    targets = torch.tensor(teacher_probabilities(teacher, texts, o.temperature, o.max_length)[:, order_t], dtype=torch.float32)
    seqs = [_ids(student, t, o.max_length) for t in texts]
    t_teacher = time.perf_counter() - t0
    params = [p for p in module.parameters() if p.requires_grad]
    decay = [p for p in params if p.ndim >= 2]
    no_decay = [p for p in params if p.ndim < 2]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": o.weight_decay}, {"params": no_decay, "weight_decay": 0.0}],
                            lr=o.learning_rate)
    per_epoch = math.ceil(len(seqs) / o.batch_size)
    total = max(1, per_epoch * o.epochs)
    warm = int(o.warmup_ratio * total)
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: (s + 1) / max(1, warm) if s < warm else max(0.0, (total - s) / max(1, total - warm)))
    device = getattr(student, "device", "cpu")
    pad = student.pad_id
    losses: list[float] = []
    module.train()
    try:
        for epoch in range(o.epochs):
            order = rng.permutation(len(seqs))
            for start in range(0, len(order), o.batch_size):
                idx = order[start : start + o.batch_size]
                n = max(len(seqs[i]) for i in idx)
                ids = torch.full((len(idx), n), pad, dtype=torch.long)
                mask = torch.zeros((len(idx), n), dtype=torch.long)
                for r, i in enumerate(idx):
                    ids[r, : len(seqs[i])] = torch.tensor(seqs[i], dtype=torch.long)
                    mask[r, : len(seqs[i])] = 1
                logits = student.logits(ids.to(device), mask.to(device)).float()
                logp = torch.log_softmax(logits / o.temperature, dim=-1)
                loss = torch.nn.functional.kl_div(logp, targets[idx].to(device), reduction="batchmean") * o.temperature**2
                opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(params, 1.0)
                opt.step()
                sched.step()
                losses.append(float(loss.detach()))
                if log is not None and len(losses) % max(1, total // 10) == 0 and len(losses) < total:
                    log(f"distillation step {len(losses)}/{total}: mean loss {np.mean(losses[-max(1, total // 10):]):.4f} "
                        f"({time.perf_counter() - t0:.0f} s)")
            if log is not None:
                log(f"distillation epoch {epoch + 1}/{o.epochs}: mean loss {np.mean(losses[-per_epoch:]):.4f}")
    finally:
        module.eval()
    return {"examples": len(seqs), "epochs": o.epochs, "steps": len(losses), "teacher_seconds": round(t_teacher, 1),
            "seconds": round(time.perf_counter() - t0, 1), "loss_first": round(float(np.mean(losses[:50])), 5) if losses else None,
            "loss_last": round(float(np.mean(losses[-50:])), 5) if losses else None}


def predict(clf: TokenClassifier, texts: Sequence[str], max_length: int = 512) -> list[str]:
    """The argmax class of every text."""
    logits = run_logits(clf, [_ids(clf, t, max_length) for t in texts])
    return [clf.classes[int(i)] for i in logits.argmax(axis=1)]


def agreement(teacher: TokenClassifier, student: TokenClassifier, rows: Sequence[tuple[str, int]],
              label_names: Sequence[str] = SST2_CLASSES) -> dict[str, Any]:
    """On labelled ``rows`` (text, label id into ``label_names``): the share of texts the student
    gives the teacher's class, and the accuracy of both."""
    texts = [t for t, _ in rows]
    gold = [label_names[y] for _, y in rows]
    pt, ps = predict(teacher, texts), predict(student, texts)
    n = len(rows)
    share = lambda xs: round(float(np.mean(xs)), 4) if n else None  # noqa: E731
    return {"n": n, "agreement": share([a == b for a, b in zip(pt, ps, strict=True)]),
            "teacher_accuracy": share([a == g for a, g in zip(pt, gold, strict=True)]),
            "student_accuracy": share([b == g for b, g in zip(ps, gold, strict=True)])}


# --------------------------------------------------------------------------------- the HF student
def students_dir(cache_dir: str | Path) -> Path:
    return Path(cache_dir) / "students"


def _rows_id(rows: Sequence[tuple[str, int]]) -> str:
    return short_hash(json.dumps(list(map(list, rows)), ensure_ascii=False), length=16)


def build_student(teacher: str | Any, options: StudentOptions | None = None, *, cache_dir: str | Path | None = None,
                  data_root: str | Path | None = None, models_dir: str | Path | None = None,
                  train: Sequence[tuple[str, int]] | None = None, dev: Sequence[tuple[str, int]] | None = None,
                  use_cache: bool = True, log: Callable[[str], None] | None = None) -> Student:
    """The distilled student of a Hugging Face ``teacher`` (a model name or a loaded
    :class:`~s2lct.models.huggingface.HuggingFaceModel`), built or read from the cache.

    ``train`` / ``dev``: (text, label id) rows instead of SST-2 train / dev (label ids index
    :data:`SST2_CLASSES`; the training uses only the texts). The student is a
    ``HuggingFaceModel`` named ``<teacher>-student<layers>``."""
    from ..config import get_settings
    from ..models import load_model
    from ..models.huggingface import HuggingFaceModel

    o = options or StudentOptions()
    log = log or (lambda m: None)
    settings = get_settings(cache_dir=cache_dir, data_root=data_root)
    if isinstance(teacher, str):
        teacher = load_model(teacher, models_dir=models_dir)
    if not isinstance(teacher, HuggingFaceModel):
        raise StudentError(f"no automatic student for the {getattr(teacher, 'kind', type(teacher).__name__)} model "
                           f"{getattr(teacher, 'name', teacher)!r}: only Hugging Face models are cut and distilled here; build a "
                           f"smaller network, train it with s2lct.trust.student.distil and pass it to model_consistency")
    if train is None or dev is None:
        from ..corpus.sst2 import load_sst2

        root = Path(settings.data_root) / "sst2_glue"
    if train is None:
        train_all = load_sst2(root / "train.tsv")
        train_id = f"sst2-train:{sha256_file(root / 'train.tsv')[:16]}"
    else:
        train_all, train_id = list(train), f"rows:{_rows_id(train)}"
    if dev is None:
        dev = load_sst2(root / "dev.tsv")
        dev_id = f"sst2-dev:{sha256_file(root / 'dev.tsv')[:16]}"
    else:
        dev, dev_id = list(dev), f"rows:{_rows_id(dev)}"
    identity = teacher.identity
    name = f"{teacher.name}-student{o.layers}"
    folder = students_dir(settings.cache_dir) / short_hash(identity, o.key(), train_id, dev_id)
    if use_cache and (folder / INFO_FILE).is_file():
        info = json.loads((folder / INFO_FILE).read_text(encoding="utf-8"))
        log(f"student of {teacher.name} read from {folder}")
        return Student(folder, HuggingFaceModel(folder, name=name, cache_dir=settings.cache_dir), info, cached=True)

    t0 = time.perf_counter()
    teacher.load()
    t_clf = HFTokenClassifier.from_model(teacher)
    s_model = cut_encoder(teacher._model, o.layers)
    s_clf = HFTokenClassifier(s_model, teacher._tokenizer, t_clf.classes, name=name, max_length=t_clf.max_length)
    rng = np.random.default_rng(o.seed)
    pick = rng.permutation(len(train_all))[: o.train_examples]
    texts = [train_all[int(i)][0] for i in sorted(pick)]
    log(f"distilling a {o.layers}-layer student of {teacher.name} on {len(texts)} texts")
    training = distil(t_clf, s_clf, texts, o, module=s_model, log=log)
    dev_scores = agreement(t_clf, s_clf, dev)
    info = {
        "format": FORMAT_VERSION, "name": name, "teacher": {"name": teacher.name, "identity": identity},
        "options": asdict(o), "train": {"source": train_id, "examples": len(texts)}, "dev": {"source": dev_id, **dev_scores},
        "training": training, "parameters": {"teacher": parameter_count(teacher._model), "student": parameter_count(s_model)},
        "layers": {"teacher": int(teacher._model.config.num_hidden_layers), "student": o.layers},
        "versions": _versions(), "wall_seconds": round(time.perf_counter() - t0, 1),
    }
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{folder.name}.", dir=folder.parent))
    try:
        s_model.save_pretrained(tmp)
        teacher._tokenizer.save_pretrained(tmp)
        write_json(tmp / INFO_FILE, info)
        if folder.exists():  # another process finished the same student first: keep its folder
            shutil.rmtree(tmp)
        else:
            os.rename(tmp, folder)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    log(f"student saved to {folder} (dev agreement {dev_scores['agreement']}, {info['wall_seconds']} s)")
    return Student(folder, HuggingFaceModel(folder, name=name, cache_dir=settings.cache_dir), info, cached=False)


def _versions() -> dict[str, str]:
    import torch
    import transformers

    return {"torch": torch.__version__, "transformers": transformers.__version__}


def student_handle(teacher: Any, *, student: Any = None, options: StudentOptions | None = None,
                   **kwargs: Any) -> tuple[ModelHandle, dict[str, Any]]:
    """The student's handle and what is known about it, for :func:`~s2lct.trust.faithfulness.model_consistency`.

    ``student`` (a :class:`ModelHandle`, a :class:`TokenClassifier`, a ``SentimentModel``, or a
    callable that takes the teacher and returns one of those) is the hook for teachers without an
    automatic student; without it, a Hugging Face teacher gets :func:`build_student` (``kwargs`` go
    there) and any other model a :class:`StudentError` saying what to pass."""
    if student is None:
        built = build_student(teacher, options, **kwargs)
        return built.handle(), {**built.info, "folder": str(built.folder), "cached": built.cached}
    if callable(student) and not isinstance(student, (ModelHandle, TokenClassifier)) and not hasattr(student, "predict"):
        student = student(teacher)
    if isinstance(student, ModelHandle):
        return student, {"name": student.name, "given": True}
    handle = prepare_model(student)
    return handle, {"name": handle.name, "given": True}
