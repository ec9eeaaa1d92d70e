"""The ``ray`` engine: the same batches as the local engine, computed by pools of Ray actors.

Each stage is one Ray Data ``map_batches`` over a dataset with one row per batch (the batches
are cut by the caller exactly as the local engine cuts them) and an actor pool whose actors load
the stage's model once (tagger, shape parser, expander with its parser, masked LM and checks, or
the model under test). Results come back tagged with their batch index, so their order, and the
suite, never depend on which actor finished first or on how many there were.

Fault tolerance is Ray Data's: an actor that dies mid-batch is restarted and its batch retried
(Ray Data's actor pools restart without limit); the driver is the only writer of every store and commits
a batch only when its result has arrived, so a retried batch is never stored twice, and a driver
restarted with the same command skips what was committed.
"""

from __future__ import annotations

import functools
import pickle
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from s2lct.errors import S2LCTError
from s2lct.expand.expander import ExpansionStats, SeedExpander
from s2lct.scale.base import Engine
from s2lct.scale.cluster import RayOptions, connect, import_ray, local_threads, maybe_fault, set_threads, worker_count


class _BatchActor:
    """A Ray Data actor: one worker built once, then one pickled batch per row."""

    def __init__(self, make_worker: Callable[[], Callable[[Any], Any]], options: RayOptions, stage: str, threads: int) -> None:
        set_threads(threads)  # before any model loads (RayOptions.threads_per_worker)
        self.worker = make_worker()
        self.options = options
        self.stage = stage

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        out = []
        for index, payload in zip(batch["index"], batch["payload"]):
            if self.stage == self.options.fault_stage:
                maybe_fault(self.options, int(index))
            try:
                result: tuple[str, Any] = ("ok", self.worker(pickle.loads(payload)))
            except S2LCTError as exc:  # the user's error (a missing model, a bad table): its own line, no retry
                result = ("error", (str(exc), exc.exit_code))  # as text: its subclasses do not unpickle
            out.append(pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL))
        return {"index": list(batch["index"]), "payload": out}


class RayEngine(Engine):
    """Stages on a Ray cluster (local, or joined with ``address``)."""

    name = "ray"

    def __init__(self, options: RayOptions) -> None:
        import_ray()  # fail now, with the extra's name, not minutes later
        self.options = options
        self.threads = options.threads_per_worker or local_threads()
        self._ray: Any = None
        self._started_here = False

    def _connect(self) -> Any:
        if self._ray is None:
            ray = import_ray()
            self._started_here = not ray.is_initialized()
            self._ray = connect(self.options)
        return self._ray

    @property
    def workers(self) -> int:
        self._connect()
        return worker_count(self.options)

    def imap_batches(self, stage: str, make_worker: Callable[[], Callable[[Any], Any]], batches: Sequence[Any]) -> Iterator[tuple[int, Any]]:
        """``(index, make_worker()(batches[index]))`` for every batch, in the order they finish."""
        if not batches:
            return
        ray = self._connect()
        rows = [{"index": i, "payload": pickle.dumps(b, protocol=pickle.HIGHEST_PROTOCOL)} for i, b in enumerate(batches)]
        n = min(self.workers, len(rows))
        ds = ray.data.from_items(rows, override_num_blocks=len(rows))
        ds = ds.map_batches(
            _BatchActor,
            fn_constructor_kwargs={"make_worker": make_worker, "options": self.options, "stage": stage, "threads": self.threads},
            batch_size=1,
            batch_format="default",
            compute=ray.data.ActorPoolStrategy(size=n),
            num_cpus=self.options.cpus_per_worker,
            num_gpus=self.options.gpus_per_worker or None,
        )
        seen: set[int] = set()
        try:
            for row in ds.iter_rows():
                index = int(row["index"])
                if index in seen:  # cannot happen with Ray's exactly-once batch results; never store twice
                    continue
                seen.add(index)
                status, result = pickle.loads(row["payload"])
                if status == "error":
                    error = S2LCTError(result[0])
                    error.exit_code = result[1]
                    raise error
                yield index, result
        except S2LCTError:
            raise
        except Exception as exc:  # anything else is a bug in a worker: Ray's message says where
            first = next((line.strip() for line in str(exc).splitlines() if line.strip()), type(exc).__name__)
            raise S2LCTError(f"ray stage '{stage}' failed in a worker: {first[:300]} (the worker's traceback is in Ray's logs, /tmp/ray/session_latest/logs)") from exc
        missing = sorted(set(range(len(batches))) - seen)
        if missing:
            raise S2LCTError(f"ray stage '{stage}': no result for batches {missing[:10]}; run the same command again to resume")

    def expander(self, config: Any) -> SeedExpander:
        return RayExpander(config, engine=self)

    def close(self) -> None:
        if self._started_here and self._ray is not None:
            self._ray.shutdown()
        self._ray = None


class ExpandWorker:
    """One actor's expander: expands a chunk of seeds and says under which configuration."""

    def __init__(self, config: Any) -> None:
        self.expander = SeedExpander(config)
        self.config_hash: str | None = None

    def __call__(self, chunk: list[tuple[str, ...]]) -> tuple[str, dict[Any, Any], ExpansionStats]:
        if self.config_hash is None:
            self.config_hash = self.expander.config_hash
        self.expander.stats = ExpansionStats()
        results = self.expander.expand_chunk(chunk)
        save = getattr(self.expander.polarity, "save", None)
        if save is not None:
            save()
        return self.config_hash, results, self.expander.stats


class RayExpander(SeedExpander):
    """A ``SeedExpander`` whose chunks are computed by Ray actors. This process plans the chunks
    (the local engine's), checks that every worker runs the same configuration, and is the
    expansion store's single writer: each chunk is committed as its result arrives."""

    def __init__(self, config: Any = None, *, engine: RayEngine, **parts: Any) -> None:
        super().__init__(config, **parts)
        self.engine = engine

    def expand_results(self, seeds: Sequence[Sequence[str]], *, on_progress: Callable[[int], None] | None = None) -> dict[tuple[str, ...], Any]:
        distinct = list(dict.fromkeys(tuple(s) for s in seeds))
        todo = self.pending_chunks(distinct)
        n_done = len(distinct) - sum(len(c) for c in todo)
        if on_progress is not None and n_done:
            on_progress(n_done)
        mine = self.config_hash
        for index, (theirs, results, stats) in self.engine.imap_batches("expand", functools.partial(ExpandWorker, self.config), todo):
            if theirs != mine:
                raise S2LCTError(
                    f"a Ray worker expands under configuration {theirs}, this process under {mine}: the workers see other models, "
                    "data or settings (same S2LCT_* paths and versions on every node)"
                )
            self.stats.add(stats)
            self.commit(todo[index], results)
            if on_progress is not None:
                on_progress(len(todo[index]))
        return self.stored(distinct)
