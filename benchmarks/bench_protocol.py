"""Protocol throughput: steps per second through a ``heatcore serve`` subprocess, server side.

    python3 -m benchmarks.bench_protocol [--races N]

The requests of N seeded races (the conformance kit's random races, recorded on the
reference engine beforehand) are written to the server as fast as it reads them while a
thread reads its replies; a step is one ``legal`` and one ``apply`` request, as in
``heatcore conform``. Every reply must be ``ok`` and each race's last state must be the
recorded one. This is the server's rate: the kit's own lock-step run (``heatcore conform``,
``benchmarks.bench_conformance``) also plays the reference races and compares every reply,
in the client.

Two figures: steps per second of wall time (the server shares the machine with whatever
else runs), and steps per CPU-second of the server process (its user + system time, less
that of a server that only starts and stops: Python's start-up and imports), which other
work on the machine hardly changes.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from typing import Any

from heatcore.framework.conformance import PROTOCOL
from heatcore.heat.conformance.binding import HeatBinding

SERVE = [sys.executable, "-m", "heatcore.tools.cli", "serve"]


def requests(races: int, first_seed: int = 0) -> tuple[list[bytes], int, list[Any]]:
    """The request lines of ``races`` recorded races, their step count, and each race's last
    state (as recorded)."""
    binding = HeatBinding()
    start = {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"}
    lines = [json.dumps(start)]
    finals = []
    steps = 0
    for seed in range(first_seed, first_seed + races):
        race = binding.random_race(seed)
        lines.append(json.dumps({"op": "load", "state": race.start}))
        for step in race.steps:
            lines.append('{"op":"legal"}')
            lines.append(json.dumps({"op": "apply", "action": step.action}))
        steps += len(race.steps)
        finals.append(race.steps[-1].after)
    lines.append('{"op":"stop"}')
    return [(line + "\n").encode() for line in lines], steps, finals


def _children_cpu() -> float:
    """User + system seconds of this process's finished children."""
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def startup_cpu(argv: list[str] | None = None) -> float:
    """CPU seconds of a server that answers ``start`` and ``stop`` only."""
    before = _children_cpu()
    start = json.dumps({"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})
    subprocess.run(argv or SERVE, input=(start + '\n{"op":"stop"}\n').encode(),
                   capture_output=True, check=True, timeout=120)
    return _children_cpu() - before


def throughput(races: int, argv: list[str] | None = None) -> dict[str, Any]:
    """Steps/s of ``races`` races' requests through one ``heatcore serve`` process. The
    requests are read by the server from a file (no client thread to wait for); the clock
    runs from the reply to ``start`` (the server is up) to the last reply. Also the steps
    per CPU-second of the server (its CPU time less :func:`startup_cpu`)."""
    lines, steps, finals = requests(races)
    startup = startup_cpu(argv)
    cpu_before = _children_cpu()
    with tempfile.TemporaryFile() as feed:
        feed.write(b"".join(lines))
        feed.seek(0)
        proc = subprocess.Popen(argv or SERVE, stdin=feed, stdout=subprocess.PIPE)
        assert proc.stdout is not None
        first = proc.stdout.readline()
        began = time.perf_counter()
        raw = proc.stdout.readlines()
        seconds = time.perf_counter() - began
        proc.wait(timeout=60)
    server_cpu = _children_cpu() - cpu_before
    assert json.loads(first).get("ok") is True, first[:200]
    replies = [json.loads(line) for line in raw]
    assert len(replies) == len(lines) - 1, (len(replies), len(lines))
    failed = [r for r in replies if r.get("ok") is not True]
    assert not failed, failed[:1]
    # the state after each race's last step, just before the next race's load
    ends = [replies[i - 1]["state"] for i, line in enumerate(lines[1:])
            if line.startswith(b'{"op": "load"') and i > 0] + [replies[-2]["state"]]
    assert ends == finals, "a race ended in another state than the recorded one"
    working = server_cpu - startup
    return {"races": races, "steps": steps, "requests": len(lines) - 1,
            "seconds": round(seconds, 3), "steps_per_second": round(steps / seconds, 1),
            "server_cpu_seconds": round(server_cpu, 3), "startup_cpu_seconds": round(startup, 3),
            "steps_per_server_cpu_second": round(steps / working, 1) if working > 0 else None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=40)
    args = parser.parse_args(argv)
    print(json.dumps(throughput(args.races), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
