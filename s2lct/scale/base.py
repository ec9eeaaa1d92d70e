"""What every execution engine shares (``s2lct.scale.engine`` registers them).

An engine only says how batches are computed (``imap_batches``: ``(index, result)`` as each
finishes) and which expander expands seeds under it; putting results back in batch order, the
progress of a stage and the engine's life as a context manager are the same for all, here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from s2lct.progress import ProgressTask

#: a batch worker: built once per process (or actor), called once per batch
WorkerFactory = Callable[[], Callable[[Any], Any]]


class Engine:
    """Base class of engines; subclasses implement ``imap_batches`` and ``expander``."""

    name: str = ""

    def imap_batches(self, stage: str, make_worker: WorkerFactory, batches: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """``(index, make_worker()(batches[index]))`` per batch as each finishes (callers commit results as they come)."""
        raise NotImplementedError

    def expander(self, config: Any) -> Any:
        """The ``SeedExpander`` (or a subclass) that expands seeds under this engine."""
        raise NotImplementedError

    def map_batches(self, stage: str, make_worker: WorkerFactory, batches: Sequence[Any], task: ProgressTask | None = None,
                    weight: Callable[[Any], int] = len) -> list[Any]:
        """``[make_worker()(b) for b in batches]``, wherever it runs, in batch order; ``task`` advances
        by ``weight(batch)`` as each batch finishes (the sentences in it; ``lambda _: 1`` for a file)."""
        out: dict[int, Any] = {}
        for index, result in self.imap_batches(stage, make_worker, batches):
            out[index] = result
            if task is not None:
                task.advance(weight(batches[index]))
        return [out[i] for i in range(len(batches))]

    def close(self) -> None:
        """Give back what the engine started (a local Ray cluster); nothing by default."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
