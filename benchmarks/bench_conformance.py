"""Conformance-kit benchmark: protocol throughput, a full conformance run, race workers.

    python3 -m benchmarks.bench_conformance            # 200 races (the issue's full run)
    python3 -m benchmarks.bench_conformance --races 20 --json out.json

Figures: steps per second through a ``heatcore serve`` subprocess (each step is a ``legal``
and an ``apply`` request, replies schema-checked and compared with the reference); the
wall time of ``heatcore conform --impl "heatcore serve"`` over the whole corpus plus N races,
which must stay under 120 s; and the seconds and steps/s of the N races alone on 1 and on 2
workers, with the speed-up (reported, not checked).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

from heatcore.framework.conformance.fixtures import load_cases
from heatcore.framework.conformance.harness import run
from heatcore.framework.files import write_atomic
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.corpus import fixtures_dir

SERVE = [sys.executable, "-m", "heatcore.tools.cli", "serve"]
LIMIT_SECONDS = 120.0


def throughput(races: int) -> dict[str, float]:
    """Steps/s of lock-step races only (no corpus), through one subprocess."""
    began = time.perf_counter()
    outcome = run(HeatBinding(), SERVE, races, None)
    seconds = time.perf_counter() - began
    assert outcome.ok, outcome.failures[:1]
    return {"races": races, "steps": outcome.steps, "seconds": round(seconds, 2),
            "steps_per_second": round(outcome.steps / seconds, 1)}


def full_run(races: int) -> dict[str, float]:
    """The corpus plus ``races`` races, as ``heatcore conform`` runs them."""
    began = time.perf_counter()
    outcome = run(HeatBinding(), SERVE, races, fixtures_dir())
    seconds = time.perf_counter() - began
    assert outcome.ok, outcome.failures[:1]
    return {"cases": len(load_cases(fixtures_dir())), "races": races, "steps": outcome.steps,
            "seconds": round(seconds, 2), "under_limit": seconds < LIMIT_SECONDS}


def race_workers(races: int, workers: int) -> dict[str, float]:
    """Seconds and steps/s of ``races`` races only (no corpus) spread over ``workers``."""
    began = time.perf_counter()
    outcome = run(HeatBinding(), SERVE, races, None, workers=workers)
    seconds = time.perf_counter() - began
    assert outcome.ok, outcome.failures[:1]
    return {"workers": workers, "races": races, "steps": outcome.steps,
            "seconds": round(seconds, 2), "steps_per_second": round(outcome.steps / seconds, 1)}


def scaling(races: int) -> list[dict[str, float]]:
    """``race_workers`` on 1 then 2 workers; the second row adds the speed-up (the ratio of the
    rows' seconds)."""
    one, two = race_workers(races, 1), race_workers(races, 2)
    two["speedup"] = round(one["seconds"] / two["seconds"], 2)
    return [one, two]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--throughput-races", type=int, default=20)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    figures = {
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(),
                    "load": os.getloadavg()[0]},
        "protocol_throughput": throughput(args.throughput_races),
        "full_conformance_run": full_run(args.races),
        "race_workers": scaling(args.races),
    }
    print(json.dumps(figures, indent=1))
    if args.json is not None:
        write_atomic(args.json, json.dumps(figures, indent=1) + "\n")
    return 0 if figures["full_conformance_run"]["under_limit"] else 1


if __name__ == "__main__":
    raise SystemExit(main())
