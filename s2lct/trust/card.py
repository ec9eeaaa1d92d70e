"""The report card: every explainer scored on the model under test, per paradigm, ranked.

``build_card`` runs the paradigms (hybrid documents, agreement on the encoder + probe, the suite's
failing cases), scores every explainer against its baselines with intervals, ranks them and marks
those that beat random by the card's stated margin. Cards are cached per model identity under
``<cache_dir>/trust/<hash of the identity>/``: ``card.json`` (the last completed card, which
``s2lct explain`` reads) and ``card-<options hash>.json`` (a rerun with the same options returns it
without recomputing). Work in progress is appended to ``.partial/<options hash>.jsonl`` as each
explanation finishes, so an interrupted card resumes where it stopped; the final card is written
atomically and does not depend on whether the run was interrupted.

The paradigms live in ``paradigm_*.py``, what they share (records, the explaining loop, the margin)
in :mod:`.explaining`, the ranking in :mod:`.ranking`.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from ..atomic import short_hash, write_json
from ..explain.adapters import prepare_model
from ..explain.registry import available, parse_explainers
from ..progress import ProgressFactory, ProgressTask
from . import defaults
from . import metrics as M
from .agreement import SOURCES as AGREEMENT_SOURCES
from .explaining import MARGIN, Recorder, TrustError, run_context
from .paradigm_agreement import run_agreement
from .paradigm_composite import run_composite
from .paradigm_faithfulness import run_faithfulness
from .paradigm_hybrid import run_hybrid
from .ranking import HEADLINE, disagreements, rank

__all__ = ["FORMAT_VERSION", "CardOptions", "TrustError", "build_card", "card_dir", "load_cached_card"]

FORMAT_VERSION = 2  # 2: the faithfulness paradigm


@dataclass
class CardOptions:
    """What a card is computed from (its hash names the cached card)."""

    explainers: list[str] | None = None  # None: every registered explainer that applies
    documents: int = defaults.DOCUMENTS
    fragments: int = defaults.FRAGMENTS
    table: str | None = None  # labelled table instead of SST test+dev
    agreement_items: int = defaults.AGREEMENT_ITEMS
    agreement_sources: list[str] = field(default_factory=lambda: list(AGREEMENT_SOURCES))
    probe_items: int = defaults.PROBE_ITEMS
    suite: str | None = "generated"
    composite_cases: int | None = defaults.SUITE_CASES
    faithfulness_texts: int = defaults.FAITHFULNESS_TEXTS
    seed: int = 0

    def key(self) -> str:
        return short_hash(json.dumps({"format": FORMAT_VERSION, **asdict(self)}, sort_keys=True))


def card_dir(cache_dir: str | Path, identity: str) -> Path:
    return Path(cache_dir) / "trust" / short_hash(identity)


def load_cached_card(cache_dir: str | Path, identity: str) -> dict[str, Any] | None:
    """The last completed card of this model identity, or None."""
    path = card_dir(cache_dir, identity) / "card.json"
    if not path.is_file():
        return None
    try:
        card = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return card if card.get("identity") == identity else None


def build_card(model: str | Any, opts: CardOptions | None = None, *, cache_dir: str | Path | None = None,
               data_root: str | Path | None = None, models_dir: str | Path | None = None, use_cache: bool = True,
               progress: ProgressFactory | None = None, log: Callable[[str], None] | None = None,
               workers: int | None = None) -> dict[str, Any]:
    """Compute (or read from the cache) the report card of ``model`` (a name or a SentimentModel).
    ``workers``: processes explaining items, sharing this process's torch threads (None: one per
    thread for a torch model on the CPU, see :func:`~s2lct.trust.workers.auto_workers`); the card
    does not depend on it."""
    from ..config import get_settings
    from ..models import load_model

    opts = opts or CardOptions()
    log = log or (lambda m: None)
    progress = progress or (lambda d, t: ProgressTask())
    settings = get_settings(cache_dir=cache_dir, data_root=data_root)
    if isinstance(model, str):
        model = load_model(model, models_dir=models_dir)
    explainers = parse_explainers(opts.explainers if opts.explainers is not None else available())
    identity = model.identity
    work = card_dir(settings.cache_dir, identity)
    cached = work / f"card-{opts.key()}.json"
    if use_cache and cached.is_file():
        log(f"card cached for this model identity: {cached}")
        card = json.loads(cached.read_text(encoding="utf-8"))
        write_json(work / "card.json", card)
        return card
    handle = prepare_model(model)
    if opts.explainers is not None:
        from ..explain.command import check_applicable

        check_applicable(explainers, handle, explicit=True)
    t0 = time.perf_counter()
    rec = Recorder(work / ".partial" / f"{opts.key()}.jsonl" if use_cache else None)
    run = run_context(handle, rec, progress, log, workers)
    stages: dict[str, Callable[[], dict[str, Any]]] = {
        "hybrid": lambda: run_hybrid(model, handle, explainers, opts, run, settings.data_root),
        "agreement": lambda: run_agreement(handle, explainers, opts, run, work if use_cache else None, settings.data_root),
        "composite": lambda: run_composite(model, handle, explainers, opts, run),
        "faithfulness": lambda: run_faithfulness(model, handle, explainers, opts, run, settings.cache_dir, settings.data_root),
    }
    paradigms: dict[str, dict[str, Any]] = {}
    try:
        for name, stage in stages.items():
            t_stage = time.perf_counter()
            paradigms[name] = stage()
            paradigms[name]["wall_seconds"] = round(time.perf_counter() - t_stage, 1)  # data, model runs and explanations
    finally:
        rec.close()
    card: dict[str, Any] = {
        "format": FORMAT_VERSION, "model": handle.name, "identity": identity, "options": asdict(opts), "options_key": opts.key(),
        "margin": MARGIN, "confidence": M.CONFIDENCE, "bootstrap_resamples": M.BOOTSTRAP,
        "rule": (f"ranked by the mean lift over the random baseline of the headline metrics "
                 f"({', '.join(f'{p}.{m}' for p, m in HEADLINE)}); trusted = the lower end of the {M.CONFIDENCE:.0%} interval is at "
                 f"least {MARGIN:.2f} above random on every headline metric scored"),
        "paradigms": paradigms,
    }
    card["ranking"] = rank(card)
    card["disagreement"] = disagreements(card)
    card["not_applicable"] = {k: v for p in paradigms.values() for k, v in p.get("not_applicable", {}).items()}
    card["compute_seconds"] = round(time.perf_counter() - t0, 1)
    if use_cache:
        write_json(cached, card)
        write_json(work / "card.json", card)
        partial = work / ".partial" / f"{opts.key()}.jsonl"
        if partial.is_file():
            partial.unlink()
    return card
