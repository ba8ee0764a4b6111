"""Ctrl-C and worker processes (heatcore.framework.interrupt): a pool's workers ignore SIGINT,
and an exception in the pool's block (KeyboardInterrupt above all) kills them at once instead of
waiting for their jobs. Independent of: any command (the pool is driven directly)."""

from __future__ import annotations

import os
import signal
import time

import pytest

from heatcore.framework.interrupt import worker_pool


def _sigint_handler() -> int:
    """What SIGINT does in this (worker) process: SIG_IGN is 1."""
    handler = signal.getsignal(signal.SIGINT)
    return int(handler) if isinstance(handler, int) else -1


def _sleep(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def test_workers_ignore_sigint() -> None:
    with worker_pool(max_workers=1) as pool:
        assert pool.submit(_sigint_handler).result() == int(signal.SIG_IGN)


def test_an_interrupt_kills_the_workers_instead_of_waiting_for_their_jobs() -> None:
    processes = {}
    with pytest.raises(KeyboardInterrupt), worker_pool(max_workers=3) as pool:
        futures = [pool.submit(_sleep, 600) for _ in range(2)]
        pool.submit(_sleep, 0).result()  # the third worker is free: the workers are up
        processes = dict(pool._processes)  # type: ignore[attr-defined]
        raise KeyboardInterrupt
    assert processes
    for process in processes.values():
        process.join(timeout=60)  # a bound, so that a worker left alive fails, not hangs
        # killed: its status says so, or another waiter in this process (a child watcher
        # of an earlier test) reaped it first and the pid is gone (exitcode stays None)
        assert process.exitcode == -signal.SIGKILL or _gone(process.pid)
    assert all(f.cancelled() or f.done() for f in futures)


def _gone(pid: int | None) -> bool:
    """Whether no process has ``pid`` any more (ended and reaped)."""
    try:
        os.kill(pid or 0, 0)
    except ProcessLookupError:
        return pid is not None
    return False
