"""``heatcore explore``: breadth-first exhaustion of a small configuration, each level cut
into parts that run on a backend (:mod:`heatcore.framework.cluster`) and merged in part order."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable

from heatcore.framework.cliutil import CommandError, Parser, positive
from heatcore.framework.cluster import Backend, BackendError, add_arguments, from_arguments
from heatcore.framework.errors import RulesError
from heatcore.heat.explore import Report, configuration, configurations, expand, start_state
from heatcore.heat.notation import state_to_json
from heatcore.heat.setup import RaceSetup

#: States per job when a level is cut into parts.
PART = 2000


def explore(setup: RaceSetup, seed: int, backend: Backend | None = None,
            part: int = PART, level: Callable[[int, int], None] | None = None) -> Report:
    """Every state reachable from the start of ``setup``; ``level`` is told each level's
    number and size."""
    backend = backend or Backend()
    began = time.perf_counter()
    start = state_to_json(start_state(setup, seed))
    seen = {start}
    frontier = [start]
    report = Report(states=1)
    while frontier:
        size = part if not backend.parallel else max(1, min(part, -(-len(frontier)
                                                                    // (backend.workers * 4))))
        jobs = [(frontier[k:k + size], seed) for k in range(0, len(frontier), size)]
        following: list[str] = []
        for found in backend.map(expand, jobs):
            report.transitions += found.transitions
            report.finished += found.finished
            report.longest = max(report.longest, found.longest)
            report.deadlocks += found.deadlock_count
            report.violations += found.violation_count
            for key, count in found.exercised.items():
                report.exercised[key] = report.exercised.get(key, 0) + count
            report.examples += [f"deadlock: {d}" for d in found.deadlocks]
            report.examples += [f"violation: {v}" for v in found.violations]
            for key in found.children:
                if key not in seen:
                    seen.add(key)
                    following.append(key)
        if following:
            report.depth += 1
        if level is not None:
            level(report.depth, len(following))
        frontier = following
    report.states = len(seen)
    report.seconds = time.perf_counter() - began
    return report


def main(argv: list[str]) -> int:
    """Entry point of ``heatcore explore``."""
    names = sorted(configurations())
    parser = Parser("heatcore explore", description="Visit every reachable state of a small "
                    "race (spec/explore.md), checking each transition against the race "
                    "checker and the validity flags.")
    parser.add_argument("--config", default=names[0], choices=names,
                        help="the configuration (spec/tracks/constructed/explore.json)")
    parser.add_argument("--part", type=positive, default=PART,
                        help="states per job when a level is cut into parts")
    add_arguments(parser, "parts of each level")
    args = parser.parse_args(argv)
    backend = from_arguments(args)
    try:
        setup, seed = configuration(args.config)
    except RulesError as error:
        raise CommandError(str(error)) from None
    print(f"exploring {args.config}: {setup.track}, {setup.players} cars, {setup.laps} lap "
          f"({backend.name})")
    began = time.perf_counter()

    def level(depth: int, size: int) -> None:
        print(f"  level {depth}: {size} new states ({time.perf_counter() - began:.1f} s)",
              file=sys.stderr, flush=True)
    try:
        report = explore(setup, seed, backend, args.part, level)
    except BackendError as error:
        raise CommandError(str(error)) from None
    for line in report.lines():
        print(line)
    return 0 if report.deadlocks == 0 and report.violations == 0 else 1
