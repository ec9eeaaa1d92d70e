"""Progress reporting for long jobs (tagging, expansion): a tiny sink interface and rich bars.

Library code reports through a ``ProgressFactory`` (``factory(description, total) -> task``);
the API default does nothing and the CLI plugs in rich bars on stderr.
"""

from __future__ import annotations

import sys

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any


class ProgressTask:
    """Progress sink of one job; this base class ignores everything."""

    def advance(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


ProgressFactory = Callable[[str, "int | None"], ProgressTask]


class _RichTask(ProgressTask):
    def __init__(self, progress: Any, description: str, total: int | None) -> None:
        self._progress = progress
        self._id = progress.add_task(description, total=total)

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._id, n)

    def close(self) -> None:
        self._progress.stop_task(self._id)


@contextmanager
def rich_progress(enabled: bool = True, force_terminal: bool = False) -> Iterator[ProgressFactory]:
    """Rich bars on stderr showing count, percentage, items/s (e.g. seeds/s), elapsed and ETA."""
    if not enabled:
        yield lambda description, total: ProgressTask()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class RateColumn(TextColumn):
        def __init__(self) -> None:
            super().__init__("")

        def render(self, task):  # type: ignore[no-untyped-def]
            return Text(f"{task.speed:.1f}/s" if task.speed else "", style="progress.data.speed")

    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True, force_terminal=True if force_terminal else None),
        transient=False,
    ) as progress:
        yield lambda description, total: _RichTask(progress, description, total)


def no_progress(description: str, total: int | None) -> ProgressTask:
    """The API default: library calls report nowhere unless a caller plugs a sink in."""
    return ProgressTask()


def progress_enabled(quiet: bool = False, force: bool = False, stream: Any = None) -> bool:
    """Bars are shown on a terminal unless ``--quiet``; ``--progress`` forces them (e.g. in CI logs)."""
    if quiet:
        return False
    if force:
        return True
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


@contextmanager
def progress_for(quiet: bool = False, force: bool = False) -> Iterator[Callable[[str, int | None], Any]]:
    """The progress factory a command hands to library code (rich bars on stderr, or nothing)."""
    with rich_progress(enabled=progress_enabled(quiet, force), force_terminal=force) as factory:
        yield factory
