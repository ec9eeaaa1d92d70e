"""Execution engines: where the batch stages of ``generate`` and ``run`` compute.

A stage is a picklable *worker factory* (a class whose instances load a model once and map one
batch to one result) and a list of batches. The ``local`` engine builds one worker in this process
and maps the batches in order; the ``ray`` engine (``s2lct.scale.ray_engine``) hands the same
batches to a pool of Ray actors and puts the results back in batch order. The batches, not the
engine, decide every result, which is why both engines write byte-identical suites.

Engines are a registry (``catalogue``, like the parsers'), so a Dask or Spark engine can be added
by a plug-in without touching the pipeline.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import catalogue

from s2lct.errors import S2LCTError
from s2lct.scale.base import Engine, WorkerFactory

engines = catalogue.create("s2lct", "engines", entry_points=True)


class LocalEngine(Engine):
    """This process, one batch after another (the default; Ray is never imported)."""

    name = "local"

    def imap_batches(self, stage: str, make_worker: WorkerFactory, batches: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        if not batches:
            return
        worker = make_worker()
        for i, b in enumerate(batches):
            yield i, worker(b)

    def expander(self, config: Any) -> Any:
        from s2lct.expand.expander import SeedExpander

        return SeedExpander(config)


@engines.register("local")
def make_local(**options: Any) -> LocalEngine:
    if any(v is not None for v in options.values()):
        given = ", ".join(f"--{k.replace('_', '-')}" for k, v in options.items() if v is not None)
        raise S2LCTError(f"{given}: only apply with --engine ray")
    return LocalEngine()


@engines.register("ray")
def make_ray(**options: Any) -> Engine:
    from s2lct.scale.cluster import RayOptions
    from s2lct.scale.ray_engine import RayEngine

    return RayEngine(RayOptions(**{k: v for k, v in options.items() if v is not None}))


def get_engine(name: str | None = None, **options: Any) -> Engine:
    """The engine called ``name`` (default ``local``), or a one-line error listing the valid ones."""
    name = name or "local"
    try:
        factory = engines.get(name)
    except catalogue.RegistryError:
        raise S2LCTError(f"--engine: unknown engine {name!r}; valid: {', '.join(sorted(engines.get_all()))}") from None
    return factory(**options)
