"""Ctrl-C for commands that hand work to worker processes: the workers ignore SIGINT (a
terminal sends it to the whole process group, and each worker would print its own
traceback), and the parent, when interrupted, kills them at once instead of waiting for
their current job (a Z3 query can take minutes) before it exits."""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager, suppress
from typing import Any


def ignore_sigint(then: Callable[..., object] | None = None, *args: Any) -> None:
    """A worker's initializer: leave SIGINT to the parent; then run ``then(*args)``."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if then is not None:
        then(*args)


def kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill ``pool``'s worker processes now and drop its queued jobs."""
    processes = dict(getattr(pool, "_processes", None) or {})
    for pid in processes:
        with suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        process.join(timeout=1.0)


@contextmanager
def worker_pool(max_workers: int | None = None, **kwargs: Any) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` whose workers ignore SIGINT and are killed when the block
    ends with an exception (KeyboardInterrupt above all); otherwise shut down as usual."""
    then = kwargs.pop("initializer", None)
    initargs = tuple(kwargs.pop("initargs", ()))
    pool = ProcessPoolExecutor(max_workers=max_workers, initializer=ignore_sigint,
                               initargs=(then, *initargs), **kwargs)
    try:
        yield pool
    except BaseException:
        kill_workers(pool)
        raise
    pool.shutdown(wait=True)


#: How long the watchdog lets the usual KeyboardInterrupt path run before it ends the
#: process itself (that path cannot run while the main thread is inside one C call).
GRACE_SECONDS = 1.0

_reported = threading.Lock()
#: Set as soon as the watchdog has seen SIGINT: an exception after it is the interrupt's
#: (a KeyboardInterrupt raised inside a ctypes call comes out as ctypes.ArgumentError).
received = threading.Event()
_watching: list[str] = []


def report(command: str) -> None:
    """Print ``COMMAND: interrupted`` on stderr, once per process (the main path and the
    watchdog may both try)."""
    if not _watching or _reported.acquire(blocking=False):
        sys.stderr.write(f"{command}: interrupted\n")
        sys.stderr.flush()


def watch(command: str) -> None:
    """Make Ctrl-C end this process within about :data:`GRACE_SECONDS` even when the main
    thread is inside a long C call (a Z3 query, which holds no Python frame to raise
    KeyboardInterrupt in): the signal's byte reaches a pipe a watchdog thread reads; if the
    process has not ended after the grace time, the thread prints the one line, kills the
    worker processes and exits with status 130. For the real command line only (not for
    ``main`` called in a test); at most one watchdog per process."""
    if _watching or threading.current_thread() is not threading.main_thread():
        return
    _watching.append(command)
    read, write = os.pipe()
    os.set_blocking(write, False)
    signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    sys.unraisablehook = _quiet_interrupt
    threading.Thread(target=_watchdog, args=(read, command), daemon=True,
                     name="heatcore-interrupt").start()


def _quiet_interrupt(unraisable: Any) -> None:
    """A KeyboardInterrupt that hit a ``__del__`` is not printed (the watchdog ends the
    process); anything else is reported as usual."""
    if not issubclass(unraisable.exc_type, KeyboardInterrupt):
        sys.__unraisablehook__(unraisable)


def _watchdog(read: int, command: str) -> None:
    while True:
        got = os.read(read, 64)
        if not got:
            return
        if signal.SIGINT in got:
            break
    received.set()
    time.sleep(GRACE_SECONDS)
    report(command)
    for child in multiprocessing.active_children():
        with suppress(OSError):
            child.kill()
    os._exit(130)
