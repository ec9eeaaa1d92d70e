"""spec → seeds → cases → (expansions) → suite files.

The whole suite is computed in memory before any file is touched; each file is then replaced
atomically and the manifest is written last, so an interrupted run leaves the previous suite in
place. Randomness (sampling seeds and cases, choosing partner seeds) comes from
``random.Random`` seeded with strings derived from ``--seed``, so the same inputs and seed give
byte-identical files regardless of ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import itertools
import os
import random
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import __version__
from .atomic import sha256_file, short_hash
from .cache import cached_json
from .config import Settings, configure_nltk
from .corpus import Sentence, load_sst, sst_files
from .errors import S2LCTError
from .polarity import get_polarity
from .progress import ProgressFactory, ProgressTask
from .search import AnnotatedSentence, annotate, search_pools
from .spec import CapabilitySpec, SeedLabel, SeedSlot, Template, load_specs, spec_hash
from .suite import (
    MANIFEST_NAME,
    SUITE_FORMAT_VERSION,
    Case,
    SeedRef,
    load_manifest,
    natural_key,
    suite_files,
    write_cases,
    write_manifest,
)
from .tagging import get_tagger
from .transforms import Piece, TransformError, Variant, apply_ops, join_pieces, variant_text

def _no_progress(description: str, total: int | None) -> ProgressTask:
    return ProgressTask()


# --- corpus ---------------------------------------------------------------------------------


def data_hashes(data_root: Path) -> dict[str, str]:
    root = Path(data_root)
    return {str(p.relative_to(root)): sha256_file(p) for p in sst_files(root).values()}


def load_annotated_corpus(
    settings: Settings, progress: ProgressFactory = _no_progress
) -> tuple[list[AnnotatedSentence], dict[str, Any]]:
    """SST sentences with PoS tags and word classes; tagging is cached on disk (once per corpus+tagger)."""
    configure_nltk(settings)
    hashes = data_hashes(settings.data_root)
    tagger_name = settings.spacy_model

    def compute_sentences() -> list[list[Any]]:
        return [[list(s.tokens), s.text, s.label, s.split, s.index, s.fine_label] for s in load_sst(settings.data_root)]

    rows, _ = cached_json(settings.cache_dir, "corpus", ["sst", *sorted(hashes.values())], compute_sentences)
    sentences = [Sentence(tuple(t), text, label, split, idx, "sst", fine) for t, text, label, split, idx, fine in rows]

    def compute_tags() -> dict[str, Any]:
        tagger = get_tagger(tagger_name)
        task = progress("tagging corpus", len(sentences))
        out = []
        batch = 512
        for i in range(0, len(sentences), batch):
            chunk = sentences[i : i + batch]
            out.extend(" ".join(tags) for tags in tagger.tag([s.tokens for s in chunk]))
            task.advance(len(chunk))
        task.close()
        return {"identity": tagger.identity, "tags": out}

    tagged, _ = cached_json(settings.cache_dir, "tags", ["sst-tags-v2", tagger_name, *sorted(hashes.values())], compute_tags)
    polarity = get_polarity()
    corpus = [annotate(s, tags.split(" "), polarity) for s, tags in zip(sentences, tagged["tags"], strict=True)]
    polarity.save()
    return corpus, {"data": hashes, "resources": {"tagger": tagged["identity"], "polarity": polarity.identity}}


# --- cases ----------------------------------------------------------------------------------


@dataclass
class CapabilityResult:
    spec: CapabilitySpec
    cases: list[Case]
    pools: dict[str, list[AnnotatedSentence]]
    candidates: int
    skipped_seeds: int = 0
    extra: dict[str, Any] = field(default_factory=dict)
    # case id → how it was built (template, literal options, slot → (seed, variant)), for expansion
    origins: dict[str, tuple[Template, tuple[str, ...], dict[str, tuple[AnnotatedSentence, Variant]]]] = field(default_factory=dict)


def _options(part: Any) -> list[str]:
    return [part] if isinstance(part, str) else list(part)


@dataclass(frozen=True, slots=True)
class _SeedVariants:
    seed: AnnotatedSentence
    variants: tuple[Variant, ...]


def _pool_variants(pool: Sequence[AnnotatedSentence], slot: SeedSlot) -> tuple[list[_SeedVariants], int]:
    out, skipped = [], 0
    for s in pool:
        try:
            out.append(_SeedVariants(s, tuple(apply_ops(s.tokens, s.tags, slot.ops))))
        except TransformError:
            skipped += 1
    return out, skipped


def _rng(*parts: object) -> random.Random:
    return random.Random("|".join(map(str, parts)))


def sample_pools(spec: CapabilitySpec, pools: dict[str, list[AnnotatedSentence]], seed: int) -> dict[str, list[AnnotatedSentence]]:
    out = {}
    for name, found in pools.items():
        limit = spec.seeds[name].max_seeds
        if limit is not None and len(found) > limit:
            keep = sorted(_rng(seed, spec.id, "pool", name).sample(range(len(found)), limit))
            found = [found[i] for i in keep]
        out[name] = found
    return out


def seed_ref(slot: str, s: AnnotatedSentence) -> SeedRef:
    return SeedRef(slot, s.text, s.label, s.sentence.split, s.sentence.index, s.sentence.source)


def case_id(capability: str, *parts: str) -> str:
    return f"{capability}-{short_hash(capability, *parts)}"


def build_case(
    spec: CapabilitySpec,
    template: Template,
    option_choice: Sequence[str],
    bound: dict[str, tuple[AnnotatedSentence, Variant]],
    texts: dict[str, str] | None = None,
    expansion: dict[str, Any] | None = None,
) -> Case:
    """Assemble one case from chosen literal options and bound seed variants (slot → seed, variant)."""
    pieces, opts = [], iter(option_choice)
    for part in template.parts:
        if isinstance(part, SeedSlot):
            seed, variant = bound[part.name]
            text = texts[part.name] if texts and part.name in texts else variant_text(variant)
            pieces.append(Piece(text, "seed", seed.label, part.name))
        else:
            pieces.append(Piece(next(opts), "template"))
    text, fragments = join_pieces(pieces)
    if isinstance(template.expected, SeedLabel):
        expected: tuple[str, ...] = (bound[template.expected.seed_label][0].label,)
    else:
        expected = tuple(sorted(set(template.expected)))
    seeds = tuple(seed_ref(name, s) for name, (s, _) in bound.items())
    transform = "+".join(v.name for _, v in bound.values() if v.name != "none") or "none"
    key = [template.id, transform, text, *(f"{r.slot}:{r.source}:{r.split}:{r.index}" for r in seeds)]
    if expansion is not None:
        key.append(expansion.get("seed_case", ""))
    return Case(case_id(spec.id, *key), spec.id, text, expected, template.id, transform, seeds, fragments, expansion)


def build_capability(spec: CapabilitySpec, corpus: Sequence[AnnotatedSentence], seed: int, max_cases: int | None = None) -> CapabilityResult:
    """Search seeds and apply the templates; sample at most ``max_cases`` cases (spec value if None)."""
    pools = sample_pools(spec, search_pools(spec, corpus), seed)
    limit = max_cases if max_cases is not None else spec.sampling.max_cases
    variants: dict[tuple[str, str], list[_SeedVariants]] = {}
    skipped = 0
    keys: list[tuple[int, int, int, int]] = []  # (template, primary seed, option combo, variant)
    combos: list[list[tuple[str, ...]]] = []
    for t_index, template in enumerate(spec.templates):
        for slot in template.slots():
            if (slot.seed, slot.name) not in variants:
                variants[(slot.seed, slot.name)], n_skip = _pool_variants(pools[slot.seed], slot)
                skipped += n_skip if slot is template.slots()[0] else 0
        literal = [_options(p) for p in template.parts if not isinstance(p, SeedSlot)]
        combos.append(list(itertools.product(*literal)))
        primary = template.slots()[0]
        for i, sv in enumerate(variants[(primary.seed, primary.name)]):
            for c in range(len(combos[-1])):
                for v in range(len(sv.variants)):
                    keys.append((t_index, i, c, v))
    candidates = len(keys)
    if limit is not None and len(keys) > limit:
        keys = sorted(_rng(seed, spec.id, "cases").sample(keys, limit))
    cases: dict[str, Case] = {}
    origins = {}
    for t_index, i, c, v in keys:
        template = spec.templates[t_index]
        slots = template.slots()
        primary = variants[(slots[0].seed, slots[0].name)][i]
        bound = {slots[0].name: (primary.seed, primary.variants[v])}
        for other in slots[1:]:
            pool = variants[(other.seed, other.name)]
            if not pool:
                break
            rng = _rng(seed, spec.id, template.id, other.name, primary.seed.sentence.split, primary.seed.sentence.index)
            partner = pool[rng.randrange(len(pool))]
            bound[other.name] = (partner.seed, partner.variants[rng.randrange(len(partner.variants))])
        else:
            case = build_case(spec, template, combos[t_index][c], bound)
            if case.id not in cases:
                cases[case.id] = case
                origins[case.id] = (template, combos[t_index][c], bound)
    ordered = [cases[k] for k in sorted(cases)]
    return CapabilityResult(spec, ordered, pools, candidates, skipped, origins=origins)


# --- writing ---------------------------------------------------------------------------------


@dataclass
class GenerateReport:
    out_dir: Path
    results: list[CapabilityResult]
    manifest: dict[str, Any]


def generate(
    specs_dir: Path | Sequence[Path],
    out_dir: Path,
    settings: Settings,
    seed: int = 0,
    only: Sequence[str] | None = None,
    expand: bool = True,
    compress: bool = False,
    max_cases: int | None = None,
    progress: ProgressFactory = _no_progress,
    expander: Callable[[list[CapabilityResult], ProgressFactory], dict[str, Any]] | None = None,
) -> GenerateReport:
    """Generate suites for the specs (all, or ``only`` these ids) into ``out_dir``."""
    spec_paths = [Path(specs_dir)] if isinstance(specs_dir, (str, Path)) else [Path(p) for p in specs_dir]
    specs = load_specs(spec_paths)
    if only:
        known = {s.id for s in specs}
        unknown = [o for o in only if o not in known]
        if unknown:
            raise S2LCTError(f"--only: unknown capability {', '.join(unknown)}; known: {', '.join(s.id for s in specs)}")
        specs = [s for s in specs if s.id in set(only)]
    corpus, provenance = load_annotated_corpus(settings, progress)
    task = progress("searching seeds and applying templates", len(specs))
    results = []
    for spec in specs:
        results.append(build_capability(spec, corpus, seed, max_cases))
        task.advance()
    task.close()
    expansion_info: dict[str, Any] = {}
    if expand:
        if expander is None:
            from .expand_suite import expand_results

            expander = expand_results
        expansion_info = expander(results, progress)
    manifest = _write_suite(Path(out_dir), results, provenance, seed, expand, compress, only is not None and len(only) > 0, expansion_info)
    return GenerateReport(Path(out_dir), results, manifest)


def _write_suite(
    out_dir: Path,
    results: list[CapabilityResult],
    provenance: dict[str, Any],
    seed: int,
    expanded: bool,
    compress: bool,
    partial: bool,
    expansion_info: dict[str, Any],
) -> dict[str, Any]:
    """Write every file into a staging folder first, then move them into place, manifest last.

    A failure or interrupt while writing leaves ``out_dir`` exactly as it was; only the final
    renames (microseconds) touch it.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    old = load_manifest(out_dir) if partial and (out_dir / MANIFEST_NAME).is_file() else None
    existing = suite_files(out_dir)
    capabilities = dict(old["capabilities"]) if old else {}
    specs = dict(old["specs"]) if old else {}
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=out_dir))
    try:
        written = []
        for r in results:
            name = f"{r.spec.id}.jsonl" + (".gz" if compress else "")
            write_cases(staging / name, r.cases)
            written.append(name)
            specs[r.spec.id] = spec_hash(r.spec)
            seed_cases = sum(1 for c in r.cases if c.expansion is None)
            capabilities[r.spec.id] = {
                "name": r.spec.name,
                "markers": list(r.spec.markers),
                "file": name,
                "sha256": sha256_file(staging / name),
                "cases": len(r.cases),
                "seed_cases": seed_cases,
                "expansion_cases": len(r.cases) - seed_cases,
                "seeds": len({(s.source, s.split, s.index) for c in r.cases if c.expansion is None for s in c.seeds}),
                "seed_pool_sizes": {k: len(v) for k, v in r.pools.items()},
                "candidates": r.candidates,
                "max_cases": r.spec.sampling.max_cases,
                **r.extra,
            }
        produced = {r.spec.id for r in results}
        stale = [p for cap, p in existing.items() if p.name not in written and (cap in produced or not partial)]
        if not partial:
            for cap in set(capabilities) - produced:
                capabilities.pop(cap)
                specs.pop(cap, None)
        manifest = {
            "format_version": SUITE_FORMAT_VERSION,
            "tool_version": __version__,
            "seed": seed,
            "specs": dict(sorted(specs.items(), key=lambda kv: natural_key(kv[0]))),
            "data": provenance["data"],
            "resources": {**provenance["resources"], **expansion_info.get("resources", {})},
            "capabilities": dict(sorted(capabilities.items(), key=lambda kv: natural_key(kv[0]))),
            "expanded": "mixed" if old and old.get("expanded") != expanded else expanded,
        }
        write_manifest(staging, manifest)
        for name in written:
            os.replace(staging / name, out_dir / name)
        for path in stale:
            path.unlink(missing_ok=True)
        os.replace(staging / MANIFEST_NAME, out_dir / MANIFEST_NAME)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest
