"""The wall time of ``heatcore prove`` as a user runs it (issue 12: under 60 s on this 2-core
machine), for ``python3 -m benchmarks``.

    python3 -m benchmarks.bench_prove

Runs the command in a new process (``python3 -m heatcore.tools.cli prove --progress off``: every
proof and its controls on the default tracks, 2 workers, the refinement turns) and reports
its wall time, the CPU time of the process and its workers, and whether it passed. The
benchmark's own "Proofs (Z3)" stage times each proof in this process; this is the command's
figure, start-up included.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from typing import Any

#: Issue 12's limit for ``heatcore prove`` (wall seconds on a quiet 2-core machine).
LIMIT_SECONDS = 60.0
COMMAND = [sys.executable, "-m", "heatcore.tools.cli", "prove", "--progress", "off"]
#: What a tiny benchmark run proves instead (seconds, not a minute).
TINY_ARGS = ["--proof", "turn-order", "--track", "usa@1", "--jobs", "1"]


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def measure(tiny: bool = False) -> dict[str, Any]:
    """Run ``heatcore prove`` (``tiny``: one proof on one track) once; its figures."""
    command = COMMAND + (TINY_ARGS if tiny else [])
    load = os.getloadavg()[0]
    cpu = _children_cpu()
    began = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - began
    return {"command": " ".join(["heatcore", *command[3:]]), "complete": not tiny,
            "wall_seconds": wall, "cpu_seconds": _children_cpu() - cpu,
            "exit_code": done.returncode, "load_average_before": load,
            "limit_seconds": LIMIT_SECONDS,
            "met": done.returncode == 0 and wall < LIMIT_SECONDS and not tiny}


def line(figures: dict[str, Any]) -> str:
    """One line of text."""
    verdict = ("passed" if figures["exit_code"] == 0
               else f"FAILED (exit {figures['exit_code']})")
    limit = (f"limit {figures['limit_seconds']:.0f} s: "
             f"{'met' if figures['met'] else 'NOT met'}" if figures["complete"]
             else "tiny run: one proof, not judged")
    return (f"`{figures['command']}`: {figures['wall_seconds']:.1f} s wall, "
            f"{figures['cpu_seconds']:.1f} s CPU, {verdict}, load "
            f"{figures['load_average_before']:.1f} before ({limit})")


if __name__ == "__main__":
    result = measure()
    print(line(result))
    print(json.dumps(result, indent=1))
