"""The batch module both games share (``heatcore.framework.batching``): the same races, in seed
order,
in this process, on a process pool and on a Dask cluster (in this process:
``local:threads``), for Heat and for Rallyman GT, from the API and from the command line."""

from __future__ import annotations

import pytest

from heatcore.framework.batching import map_races
from heatcore.framework.cluster import LOCAL_THREADS
from heatcore.heat.batch import run_races
from heatcore.rallyman.batch import measure
from heatcore.rallyman.driver import POLICIES, random_race
from heatcore.tools.cli import main


def _double(n: int) -> int:
    return 2 * n


def test_map_races_keeps_job_order_and_ticks_every_race() -> None:
    jobs = list(range(9))
    for where in ({}, {"workers": 2}, {"workers": 1, "pool": True},
                  {"workers": 2, "scheduler": LOCAL_THREADS}):
        ticks: list[int] = []
        assert map_races(_double, jobs, tick=ticks.append, **where) == [2 * j for j in jobs]
        assert sum(ticks) == len(jobs), where


def test_heat_batch_on_dask_equals_one_process() -> None:
    seeds = [7, 8, 9]
    one = run_races("italia", 3, seeds, laps=1)
    dask = run_races("italia", 3, seeds, laps=1, workers=2, scheduler=LOCAL_THREADS)
    assert dask.results == one.results and dask.actions == one.actions


def test_rallyman_batch_plays_the_races_of_one_by_one_wherever_it_runs() -> None:
    seeds = range(3, 6)
    alone = [random_race("proving-ground", 2, seed, 1, POLICIES["sensible"]) for seed in seeds]
    want = [(seed, len(race.actions), race.final.ranking)
            for seed, race in zip(seeds, alone, strict=True)]
    for where in ({}, {"workers": 2}, {"workers": 2, "scheduler": LOCAL_THREADS}):
        batch = measure("proving-ground", 2, seeds, 1, "sensible", **where)
        assert [(r.seed, r.actions, r.ranking) for r in batch.results] == want, where
        assert batch.races == 3 and batch.engine == "reference"


def test_rallyman_race_count_runs_on_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["race", "--game", "rallyman-gt", "--track", "proving-ground", "--players", "2",
            "--laps", "1", "--count", "2", "--workers", "2", "--scheduler", LOCAL_THREADS]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "races: 2" in out and "workers: 2" in out

