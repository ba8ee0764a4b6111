"""Heat's batches of independent seeded races, on either engine (``fast``, the default, or
``reference``), through the batch module both games share (:mod:`heatcore.framework.batching`).

Each race depends only on its seed, so races can run in any process and in any order;
the results are the same as running them one by one, and the same on either engine.
"""

from __future__ import annotations

from heatcore.framework.batching import BatchSummary, RaceResult, run_batch
from heatcore.heat.driver import greedy_policy, random_policy, random_race
from heatcore.heat.fast import FAST_POLICIES, CollectorPaused, fast_random_race
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings

__all__ = ["ENGINES", "POLICIES", "BatchSummary", "RaceResult", "one_race", "run_races"]

POLICIES = {"greedy": greedy_policy, "random": random_policy}
ENGINES = ("fast", "reference")


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
              pool: bool | None = None, rulings: Rulings = DEFAULT_RULINGS,
              scheduler: str | None = None) -> BatchSummary:
    """Play a race for each seed on ``workers`` processes of a pool (by default, ``pool``
    None, a single worker plays in this process instead) or, with ``scheduler``, on that
    Dask cluster."""
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    jobs = [(track, players, seed, laps, policy, engine, rulings) for seed in seeds]
    # fast races make no reference cycles: the collector rests for the whole batch
    with CollectorPaused(engine == "fast"):
        return run_batch(_race_job, jobs, engine, workers, scheduler, pool)
