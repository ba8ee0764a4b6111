"""Many independent seeded races, spread over a standard process pool.

Each race depends only on its seed, so races can run in any process and in any order;
the results are the same as running them one by one, and the same on either engine
(``fast``, the default, or ``reference``).
"""

from __future__ import annotations

import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from heatcore.driver import greedy_policy, random_policy, random_race
from heatcore.fast import FAST_POLICIES, fast_random_race
from heatcore.rulings import DEFAULT_RULINGS, Rulings

POLICIES = {"greedy": greedy_policy, "random": random_policy}
ENGINES = ("fast", "reference")


@dataclass(frozen=True)
class RaceResult:
    """What one race of a batch reports back: its seed, length and final ranking."""

    seed: int
    actions: int
    ranking: tuple[int, ...]


@dataclass(frozen=True)
class BatchSummary:
    """A batch of races: how many, how many actions in all, and the wall time taken."""

    races: int
    actions: int
    seconds: float
    workers: int
    engine: str
    results: tuple[RaceResult, ...]

    @property
    def races_per_second(self) -> float:
        return self.races / self.seconds if self.seconds > 0 else float("inf")

    @property
    def actions_per_second(self) -> float:
        return self.actions / self.seconds if self.seconds > 0 else float("inf")


def one_race(track: str, players: int, seed: int, laps: int | None = None,
             policy: str = "random", engine: str = "fast",
             rulings: Rulings = DEFAULT_RULINGS) -> RaceResult:
    """Play one seeded race to the end (runs in a worker process)."""
    if engine == "fast":
        fast = fast_random_race(track, players, seed, laps, FAST_POLICIES[policy], rulings)
        return RaceResult(seed, len(fast.actions), fast.final.ranking)
    race = random_race(track, players, seed, laps, POLICIES[policy], rulings)
    return RaceResult(seed, len(race.actions), race.final.ranking)


def _race_job(job: tuple[str, int, int, int | None, str, str, Rulings]) -> RaceResult:
    return one_race(*job)


def run_races(track: str, players: int, seeds: list[int], laps: int | None = None,
              policy: str = "random", workers: int = 1, engine: str = "fast",
              pool: bool | None = None, rulings: Rulings = DEFAULT_RULINGS) -> BatchSummary:
    """Play a race for each seed on ``workers`` processes of a pool; by default (``pool``
    None) a single worker plays in this process instead."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    jobs = [(track, players, seed, laps, policy, engine, rulings) for seed in seeds]
    start = time.perf_counter()
    use_pool = workers > 1 if pool is None else pool
    if use_pool:
        chunk = max(1, len(jobs) // (workers * 4))
        with ProcessPoolExecutor(max_workers=workers) as executor:
            results = list(executor.map(_race_job, jobs, chunksize=chunk))
    else:
        results = [_race_job(job) for job in jobs]
    seconds = time.perf_counter() - start
    return BatchSummary(len(results), sum(r.actions for r in results), seconds, workers,
                        engine, tuple(results))
