"""Batches of independent seeded races, shared by every ruleset (a framework part, like
:mod:`heatcore.framework.playing`).

A ruleset plugs in with a picklable function that plays one race from a job (its track,
players, seed, ...) and returns the race's result; :func:`map_races` runs the jobs in this
process, on a process pool or on a Dask cluster (:mod:`heatcore.framework.cluster`) and
returns the results in job order wherever they ran: each race depends only on its job, so
the results are the same everywhere. :func:`run_batch` times a batch whose results are
:class:`RaceResult`. Each game's batch module plays its batches through it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from heatcore.framework.cluster import Backend

J = TypeVar("J")
R = TypeVar("R")

#: Races per task on a Dask cluster (a task costs about a millisecond of scheduling).
DASK_BATCH = 50
#: The most races a pool worker takes at once.
POOL_CHUNK = 20


@dataclass(frozen=True)
class RaceResult:
    """What one race of a batch reports back: its seed, length and final ranking."""

    seed: int
    actions: int
    ranking: tuple[int, ...]


@dataclass(frozen=True)
class BatchSummary:
    """A batch of races: how many, how many actions in all, the wall time taken, where they
    ran and each race's result (in job order)."""

    races: int
    actions: int
    seconds: float
    workers: int
    engine: str
    results: tuple[RaceResult, ...]

    @property
    def races_per_second(self) -> float:
        """Races per second."""
        return self.races / self.seconds if self.seconds > 0 else float("inf")

    @property
    def actions_per_second(self) -> float:
        """Actions (choices and chance outcomes) per second."""
        return self.actions / self.seconds if self.seconds > 0 else float("inf")


def map_races(play: Callable[[J], R], jobs: Sequence[J], workers: int = 1,
              scheduler: str | None = None, pool: bool | None = None,
              tick: Callable[[int], None] | None = None) -> list[R]:
    """``[play(job) for job in jobs]``: with ``scheduler`` on that Dask cluster (``local``:
    one of ``workers`` workers) in tasks of up to :data:`DASK_BATCH` races; else on a pool
    of ``workers`` processes when ``pool`` says so (None: when ``workers`` > 1), else in
    this process. ``tick`` is called with the number of races just finished."""
    if scheduler is not None:
        return _on_dask(play, jobs, Backend(workers, scheduler), tick)
    if not (workers > 1 if pool is None else pool) or not jobs:
        return Backend().map(play, jobs, tick)  # in this process
    chunk = max(1, min(POOL_CHUNK, len(jobs) // (workers * 4)))
    results = []
    with ProcessPoolExecutor(max_workers=workers) as executor:
        for result in executor.map(play, jobs, chunksize=chunk):
            results.append(result)
            if tick is not None:
                tick(1)
    return results


def _on_dask(play: Callable[[J], R], jobs: Sequence[J], backend: Backend,
             tick: Callable[[int], None] | None) -> list[R]:
    """The jobs on a Dask cluster, cut into parts of consecutive races, results in job
    order."""
    size = max(1, min(DASK_BATCH, -(-len(jobs) // (4 * backend.workers))))
    parts = [list(jobs[k:k + size]) for k in range(0, len(jobs), size)]
    left = [len(jobs)]

    def done(parts_done: int) -> None:
        if tick is not None:
            races = min(left[0], size * parts_done)
            left[0] -= races
            tick(races)

    results: list[R] = []
    for part in backend.map(partial(_play_part, play), parts, done):
        results.extend(part)
    return results


def _play_part(play: Callable[[J], R], jobs: list[J]) -> list[R]:
    """The races of one part, in order (one Dask task)."""
    return [play(job) for job in jobs]


def run_batch(play: Callable[[J], RaceResult], jobs: Sequence[J], engine: str,
              workers: int = 1, scheduler: str | None = None, pool: bool | None = None,
              tick: Callable[[int], None] | None = None) -> BatchSummary:
    """:func:`map_races` of races that report a :class:`RaceResult`, timed and summed up
    (``engine`` names the engine that played them)."""
    start = time.perf_counter()
    results = map_races(play, jobs, workers, scheduler, pool, tick)
    seconds = time.perf_counter() - start
    return BatchSummary(len(results), sum(r.actions for r in results), seconds, workers,
                        engine, tuple(results))
