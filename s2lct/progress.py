"""Rich progress bars on stderr for long jobs (tagging, expansion)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from .generate import ProgressFactory, ProgressTask


class _RichTask(ProgressTask):
    def __init__(self, progress: Progress, description: str, total: int | None) -> None:
        self._progress = progress
        self._id = progress.add_task(description, total=total)

    def advance(self, n: int = 1) -> None:
        self._progress.advance(self._id, n)

    def close(self) -> None:
        self._progress.update(self._id, visible=True)
        self._progress.stop_task(self._id)


class _RateColumn(TextColumn):
    """Items per second, e.g. seeds/s during expansion."""

    def __init__(self) -> None:
        super().__init__("")

    def render(self, task):  # type: ignore[no-untyped-def]
        from rich.text import Text

        return Text(f"{task.speed:.1f}/s" if task.speed else "", style="progress.data.speed")


@contextmanager
def rich_progress(enabled: bool = True) -> Iterator[ProgressFactory]:
    console = Console(stderr=True)
    if not enabled:
        yield lambda description, total: ProgressTask()
        return
    with Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        _RateColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=console,
        transient=False,
    ) as progress:
        yield lambda description, total: _RichTask(progress, description, total)
