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
        # A finished bar leaves the display, so the live area stays shorter than the terminal
        # (a display taller than the screen cannot be redrawn in place and scrolls over output).
        self._progress.stop_task(self._id)
        self._progress.refresh()  # the finished count is drawn once, even for a job shorter than a frame
        self._progress.update(self._id, visible=False)


class Bars:
    """A ``ProgressFactory`` that also prints log lines on stderr.

    Messages must go through :meth:`log` while bars are shown: another rich console writes to the
    terminal behind the live display's back, and the next redraw overwrites or strands lines.
    """

    def __init__(self, console: Any, progress: Any = None) -> None:
        self.console = console
        self._progress = progress

    def __call__(self, description: str, total: int | None) -> ProgressTask:
        return ProgressTask() if self._progress is None else _RichTask(self._progress, description, total)

    def log(self, message: str) -> None:
        """One message on stderr, above the bars; never wrapped, so logs stay greppable."""
        self.console.print(message, markup=False, highlight=False, soft_wrap=True)


@contextmanager
def rich_progress(enabled: bool = True, force_terminal: bool = False) -> Iterator[Bars]:
    """Rich bars on stderr showing count, percentage, items/s (e.g. seeds/s), elapsed and ETA.

    The display is transient: it is erased when the block ends, so print tables after the block,
    never inside it (a redraw would overwrite what was printed below the bars).
    """
    from rich.console import Console

    console = Console(stderr=True, force_terminal=True if enabled and force_terminal else None)
    if not enabled:
        yield Bars(console)
        return
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
        console=console,
        transient=True,
    ) as progress:
        yield Bars(console, progress)


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
def progress_for(quiet: bool = False, force: bool = False) -> Iterator[Bars]:
    """The progress factory a command hands to library code (rich bars on stderr, or nothing);
    log lines go through its ``log`` and tables are printed after the block."""
    with rich_progress(enabled=progress_enabled(quiet, force), force_terminal=force) as factory:
        yield factory
