"""The generation pipeline: spec → seeds and template cases → expansions → suite files.

This is the one place that calls both stages in order, so generation never needs to know that
expansion exists and expansion only consumes generation's results.

The whole suite is computed in memory before any file is touched; each file is then replaced
atomically and the manifest is written last, so an interrupted run leaves the previous suite in
place. Randomness comes from ``random.Random`` seeded with strings derived from ``--seed``, so the
same inputs and seed give byte-identical files regardless of ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from s2lct.atomic import sha256_file
from s2lct.config import Settings
from s2lct.constants import GENERATION_VERSION, __version__
from s2lct.corpus.annotate import load_annotated_corpus
from s2lct.errors import S2LCTError
from s2lct.expand.tally import ExpansionTally, expansion_off
from s2lct.generate.cases import NO_SAMPLING, build_capability
from s2lct.progress import ProgressFactory, no_progress
from s2lct.scale.base import Engine
from s2lct.spec import load_specs, spec_hash
from s2lct.suggest import unknown_names
from s2lct.suite import (
    MANIFEST_NAME,
    SUITE_FORMAT_VERSION,
    CapabilityResult,
    load_manifest,
    natural_key,
    suite_files,
    write_cases,
    write_manifest,
)


@dataclass
class GenerateReport:
    out_dir: Path
    results: list[CapabilityResult]
    manifest: dict[str, Any]
    expansion: dict[str, ExpansionTally] = field(default_factory=dict)  # capability → its expansion funnel
    expansion_stats: dict[str, int] = field(default_factory=dict)  # seeds asked, computed in this run (not from the store), ...


def generate(
    specs_dir: Path | Sequence[Path],
    out_dir: Path,
    settings: Settings,
    seed: int = 0,
    only: Sequence[str] | None = None,
    expand: bool = True,
    compress: bool = False,
    max_cases: int | None = None,
    progress: ProgressFactory = no_progress,
    expander: Callable[[list[CapabilityResult], ProgressFactory], dict[str, Any]] | None = None,
    engine: Engine | None = None,
) -> GenerateReport:
    """Generate suites for the specs (all, or ``only`` these ids) into ``out_dir``.

    ``engine`` (``s2lct.scale.engine``) computes the corpus annotation and the expansion; the
    suite does not depend on it."""
    blocked = next((p for p in (Path(out_dir), *Path(out_dir).parents) if p.exists() and not p.is_dir()), None)
    if blocked is not None:  # checked before minutes of work, not when writing
        raise S2LCTError(f"--out: {out_dir} cannot be a suite folder ({blocked} is a file); give a folder path")
    spec_paths = [Path(specs_dir)] if isinstance(specs_dir, (str, Path)) else [Path(p) for p in specs_dir]
    specs = load_specs(spec_paths)
    if only:
        known = {s.id for s in specs}
        unknown = [o for o in only if o not in known]
        if unknown:
            raise S2LCTError("--only: " + unknown_names("capability", unknown, [s.id for s in specs], valid_label="known"))
        specs = [s for s in specs if s.id in set(only)]
    corpus, provenance = load_annotated_corpus(settings, progress, engine)
    task = progress("searching seeds and applying templates", len(specs))
    results = []
    for spec in specs:
        if spec.test is None:
            result = build_capability(spec, corpus, seed, max_cases)
        else:  # every candidate seed case, sampled down among those the perturbation applies to
            from s2lct.generate.perturbed import apply_test

            result = build_capability(spec, corpus, seed, NO_SAMPLING)
            apply_test(result, seed, max_cases if max_cases is not None else spec.sampling.max_cases)
        results.append(result)
        task.advance()
    task.close()
    expansion_info: dict[str, Any] = {}
    tallies = {r.spec.id: ExpansionTally(off=expansion_off(r.spec, expand)) for r in results}
    if expand:
        if expander is None:
            from s2lct.expand.suite_expansion import expand_results, pipeline_expander

            def expander(results: list[CapabilityResult], progress: ProgressFactory) -> dict[str, Any]:
                return expand_results(results, progress, expander=pipeline_expander(engine))
        expansion_info = expander(results, progress)
        tallies.update(expansion_info.pop("tallies", {}))
    manifest = _write_suite(Path(out_dir), results, provenance, seed, expand, compress, only is not None and len(only) > 0, expansion_info)
    return GenerateReport(Path(out_dir), results, manifest, tallies, dict(expansion_info.get("stats", {})))


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
                **({"min_pass_rate": r.spec.min_pass_rate} if r.spec.min_pass_rate is not None else {}),
                **({"checklist_tests": list(r.spec.checklist)} if r.spec.checklist else {}),
                **({"test_type": r.spec.test.type} if r.spec.test is not None else {}),
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
            "generation_version": GENERATION_VERSION,
            "seed": seed,
            "specs": dict(sorted(specs.items(), key=lambda kv: natural_key(kv[0]))),
            "data": provenance["data"],
            "resources": {**provenance["resources"], **expansion_info.get("resources", {})},
            "capabilities": dict(sorted(capabilities.items(), key=lambda kv: natural_key(kv[0]))),
            "expanded": "mixed" if old and old.get("expanded") != expanded else expanded,
        }
        if expansion_info.get("checks"):
            manifest["expansion_checks"] = expansion_info["checks"]
        write_manifest(staging, manifest)
        for name in written:
            os.replace(staging / name, out_dir / name)
        for path in stale:
            path.unlink(missing_ok=True)
        os.replace(staging / MANIFEST_NAME, out_dir / MANIFEST_NAME)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return manifest
