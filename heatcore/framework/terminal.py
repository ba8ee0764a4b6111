"""Output for people at a terminal: progress bars (rich) on a terminal, silence when the
output is piped or redirected."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is an interactive terminal."""
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


class Ticker:
    """What :func:`progress` yields: call it with the items just done; ``stage(text)``
    names what is being done now."""

    def __init__(self, bar: Progress | None = None, task: TaskID | None = None) -> None:
        self._bar, self._task = bar, task

    def __call__(self, done: int = 1) -> None:
        if self._bar is not None and self._task is not None:
            self._bar.advance(self._task, done)

    def stage(self, text: str) -> None:
        """Show ``text`` as the bar's description."""
        if self._bar is not None and self._task is not None:
            self._bar.update(self._task, description=text)


@contextmanager
def progress(total: int, description: str, stream: TextIO | None = None) -> Iterator[Ticker]:
    """A progress bar on ``stream`` (stderr by default) while the block runs, when that is a
    terminal (else nothing is shown); yields a :class:`Ticker`."""
    stream = stream or sys.stderr
    if not is_terminal(stream) or total <= 0:
        yield Ticker()
        return
    bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn(), console=Console(file=stream), transient=True)
    with bar:
        yield Ticker(bar, bar.add_task(description, total=total))
