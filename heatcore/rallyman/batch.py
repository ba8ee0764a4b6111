"""Batches of Rallyman GT races: seeded races one after another or spread over a standard
process pool (each race depends only on its seed, so the results are the same), with their
throughput."""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from heatcore.rallyman.driver import POLICIES, random_race


@dataclass(frozen=True)
class Cell:
    """Throughput of one track and player count."""

    track: str
    players: int
    races: int
    actions: int
    seconds: float
    workers: int = 1
    rankings: tuple[tuple[int, ...], ...] = ()

    @property
    def races_per_second(self) -> float:
        """Races per second."""
        return self.races / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions (choices and chance outcomes) per second."""
        return self.actions / self.seconds if self.seconds else 0.0


def one_race(job: tuple[str, int, int, int | None, str]) -> tuple[int, tuple[int, ...]]:
    """(actions, final ranking) of one seeded race (runs in a worker process)."""
    track, players, seed, laps, policy = job
    race = random_race(track, players, seed, laps, POLICIES[policy])
    return len(race.actions), race.final.ranking


def measure(track: str, players: int, seeds: range, laps: int | None, policy: str,
            workers: int = 1, tick: Callable[[], None] | None = None) -> Cell:
    """Play the seeded races (on ``workers`` processes when more than one) and time them;
    ``tick`` is called after each race."""
    jobs = [(track, players, seed, laps, policy) for seed in seeds]
    start = time.perf_counter()
    results = []
    if workers > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            for result in pool.map(one_race, jobs, chunksize=max(1, len(jobs) // (workers * 4))):
                results.append(result)
                if tick is not None:
                    tick()
    else:
        for job in jobs:
            results.append(one_race(job))
            if tick is not None:
                tick()
    return Cell(track, players, len(jobs), sum(n for n, _ in results),
                time.perf_counter() - start, workers, tuple(r for _, r in results))
