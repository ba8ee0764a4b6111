"""Rallyman GT's batches of seeded races, through the batch module both games share
(:mod:`heatcore.framework.batching`): one after another, on a process pool or on a Dask cluster
(each
race depends only on its seed, so the results are the same), with their throughput."""

from __future__ import annotations

from collections.abc import Callable

from heatcore.framework.batching import BatchSummary, RaceResult, run_batch
from heatcore.rallyman.driver import POLICIES, random_race

#: The engine that plays Rallyman GT's batches (it has no other yet).
ENGINE = "reference"


def one_race(job: tuple[str, int, int, int | None, str]) -> RaceResult:
    """One seeded race's result (runs in a worker process)."""
    track, players, seed, laps, policy = job
    race = random_race(track, players, seed, laps, POLICIES[policy])
    return RaceResult(seed, len(race.actions), race.final.ranking)


def measure(track: str, players: int, seeds: range, laps: int | None, policy: str,
            workers: int = 1, tick: Callable[[int], None] | None = None,
            scheduler: str | None = None) -> BatchSummary:
    """Play the seeded races (on ``workers`` processes when more than one; with
    ``scheduler`` on that Dask cluster) and time them; ``tick`` is called with the races
    just finished."""
    jobs = [(track, players, seed, laps, policy) for seed in seeds]
    return run_batch(one_race, jobs, ENGINE, workers, scheduler, tick=tick)
