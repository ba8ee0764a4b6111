"""Scale figures for ``python3 -m benchmarks``: perft nodes/s (growth with depth and cars),
explore states/s, and the same race batch on a process pool and on a Dask LocalCluster of
1 and 2 workers (cluster start included: what ``--scheduler local`` costs a run)."""

from __future__ import annotations

import time
from typing import Any

from heatcore.framework.cluster import LOCAL, LOCAL_THREADS
from heatcore.heat.explore import configuration
from heatcore.heat.perft import Counter, perft_setup, perft_start
from heatcore.tools.heat.explore_runs import explore
from heatcore.tools.heat.outcomes import observe_races


def perft_rate(players: int, depth: int, engine: str = "fast") -> dict[str, Any]:
    """perft of the seed-1 USA start: count, nodes expanded, seconds, nodes/s."""
    root = perft_start(perft_setup("usa", players, 1), 1)
    counter = Counter(1, engine)
    began = time.perf_counter()
    total = counter.count(root, depth)
    seconds = time.perf_counter() - began
    return {"players": players, "depth": depth, "engine": engine, "count": total,
            "nodes": counter.nodes, "seconds": seconds,
            "nodes_per_s": counter.nodes / seconds if seconds > 0 else 0.0,
            "leaves_per_s": total / seconds if seconds > 0 else 0.0}


def explore_rate(name: str) -> dict[str, Any]:
    """An exhausted configuration: states, transitions, seconds, states/s."""
    setup, seed = configuration(name)
    report = explore(setup, seed)
    return {"config": name, "states": report.states, "transitions": report.transitions,
            "seconds": report.seconds, "deadlocks": report.deadlocks,
            "violations": report.violations,
            "states_per_s": report.states / report.seconds if report.seconds else 0.0}


def backends(races: int, dask: str = LOCAL) -> list[dict[str, Any]]:
    """The same 6-player USA batch (fast engine) on each backend, wall time included
    (``dask``: the Dask scheduler to time, ``local`` or, in tiny runs, ``local:threads``)."""
    out = []
    seeds = list(range(70_000, 70_000 + races))
    for label, workers, scheduler in (("one process", 1, None), ("process pool", 2, None),
                                      ("Dask LocalCluster", 1, dask),
                                      ("Dask LocalCluster", 2, dask)):
        began = time.perf_counter()
        if scheduler is None and workers > 1:
            result = observe_races("usa", 6, seeds, None, ("random",), workers=workers)
        else:
            result = observe_races("usa", 6, seeds, None, ("random",), workers=workers,
                                   scheduler=scheduler)
        seconds = time.perf_counter() - began
        actions = sum(race.actions for race in result.races)
        out.append({"backend": label, "workers": workers, "races": len(result.races),
                    "actions": actions, "seconds": seconds,
                    "races_per_s": len(result.races) / seconds,
                    "us_per_action": seconds * 1e6 / actions if actions else 0.0})
    return out


def figures(tiny: bool) -> dict[str, Any]:
    """Every scale figure (``tiny``: the smallest sizes)."""
    depth2 = 3 if tiny else 6
    return {
        "perft": [perft_rate(2, d) for d in range(2, depth2 + 1)]
        + [perft_rate(p, 3 if tiny else 4) for p in (3, 4, 5, 6)]
        + [perft_rate(2, 3 if tiny else 5, "reference")],
        "explore": [explore_rate("stub-2")],
        "backends": backends(4, LOCAL_THREADS) if tiny else backends(300),
    }


def table(figures: dict[str, Any]) -> str:
    """The figures as plain text."""
    lines = ["perft (usa, seed 1): nodes expanded per second (bulk counting at the last ply)",
             f"  {'engine':<11}{'cars':>5}{'depth':>6}{'count':>14}{'nodes':>10}"
             f"{'seconds':>9}{'nodes/s':>10}{'leaves/s':>12}"]
    for row in figures["perft"]:
        lines.append(f"  {row['engine']:<11}{row['players']:>5}{row['depth']:>6}"
                     f"{row['count']:>14,}{row['nodes']:>10,}{row['seconds']:>9.2f}"
                     f"{row['nodes_per_s']:>10,.0f}{row['leaves_per_s']:>12,.0f}")
    lines.append("explore (every transition checked): states per second")
    for row in figures["explore"]:
        lines.append(f"  {row['config']}: {row['states']:,} states, {row['transitions']:,} "
                     f"transitions in {row['seconds']:.1f} s, {row['states_per_s']:,.0f} "
                     f"states/s, {row['deadlocks']} deadlocks, {row['violations']} violations")
    lines.append("backends: the same 6-player USA batch (fast engine), start-up included")
    for row in figures["backends"]:
        size = "" if row["backend"] == "one process" else f" of {row['workers']}"
        lines.append(f"  {row['backend']}{size}: {row['races']} races in "
                     f"{row['seconds']:.2f} s, {row['races_per_s']:.1f} races/s, "
                     f"{row['us_per_action']:.1f} us/action")
    return "\n".join(lines)


if __name__ == "__main__":
    print(table(figures(tiny=False)))
