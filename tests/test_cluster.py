"""Every volume command on a Dask LocalCluster (in this process: ``local:threads``) gives
the result of one process: race --count, conform's races, prove --refine, perft, explore."""

from __future__ import annotations

import sys
from dataclasses import asdict

import pytest

from heatcore.framework.cluster import LOCAL_THREADS, Backend, BackendError
from heatcore.framework.conformance.harness import run as conform_run
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.explore import configuration
from heatcore.tools.heat.explore_runs import explore
from heatcore.tools.heat.outcomes import observe_races
from heatcore.tools.heat.perft_runs import count

DASK = Backend(2, LOCAL_THREADS)


def test_backend_map_keeps_job_order_everywhere() -> None:
    jobs = list(range(12))
    want = [j * j for j in jobs]
    assert Backend().map(_square, jobs) == want
    assert Backend(2).map(_square, jobs) == want
    assert DASK.map(_square, jobs) == want


def _square(n: int) -> int:
    return n * n


def test_race_count_on_dask_equals_one_process() -> None:
    seeds = list(range(40, 52))
    one = observe_races("usa", 3, seeds, 1, ("random",))
    dask = observe_races("usa", 3, seeds, 1, ("random",), workers=2, scheduler=LOCAL_THREADS)
    assert [asdict(r) for r in dask.races] == [asdict(r) for r in one.races]


def test_perft_on_dask_equals_one_process() -> None:
    one = count("italia", 3, 5, 3)
    dask = count("italia", 3, 5, 3, backend=DASK)
    assert (dask.count, dask.divide, dask.nodes) == (one.count, one.divide, one.nodes)


def test_explore_on_dask_equals_one_process() -> None:
    setup, seed = configuration("stub-2")
    one = explore(setup, seed)
    dask = explore(setup, seed, DASK, part=300)
    figures = ("states", "transitions", "depth", "finished", "longest", "deadlocks",
               "violations")
    assert [getattr(dask, f) for f in figures] == [getattr(one, f) for f in figures]


def test_conform_races_on_dask_equal_one_process() -> None:
    argv = [sys.executable, "-m", "heatcore", "serve"]
    one = conform_run(HeatBinding(), argv, 4, None, seed_base=300)
    dask = conform_run(HeatBinding(), argv, 4, None, seed_base=300, workers=2,
                       scheduler=LOCAL_THREADS)
    assert (dask.races_passed, dask.races_failed, dask.steps) == (
        one.races_passed, one.races_failed, one.steps)
    assert dask.ok and one.ok


def test_prove_refine_on_dask_equals_one_process() -> None:
    from proofs.refine import refine_part, refine_reports

    one = refine_part(40, 0, 1)
    dask = refine_reports(40, 1, LOCAL_THREADS)
    assert (dask.turns, dask.decisions, dask.disagreements, dict(dask.coverage)) == (
        one.turns, one.decisions, one.disagreements, dict(one.coverage))


def test_an_unreachable_scheduler_is_one_clear_error() -> None:
    with pytest.raises(BackendError, match="cannot reach the Dask scheduler"):
        Backend(1, "tcp://127.0.0.1:9").map(_square, [1])
