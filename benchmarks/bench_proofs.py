"""Proof-suite benchmark: the time of each proof (and its controls) and of the whole run.

    python3 -m benchmarks.bench_proofs                 # heatcore prove: proofs + refinement
    python3 -m benchmarks.bench_proofs --jobs 1 --json out.json

Per proof: seconds spent proving it on the four base tracks and seconds spent on its
negative controls (summed over tracks, as measured inside the workers), and the bounds
found. The whole suite must finish in under 60 s of wall time on a 2-core machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

from heatcore.framework.files import write_atomic
from proofs.catalogue import PROOFS
from proofs.runner import REFINE_TURNS, run_all
from proofs.track_graph import PROOF_RUNS

LIMIT_SECONDS = 60.0


def measure(tracks: list[str], proof_ids: list[str], jobs: int,
            refine_turns: int = 0) -> dict[str, Any]:
    """Run the proofs (with their controls, and ``refine_turns`` turns of refinement as
    ``heatcore prove`` does) once; the figures as a JSON-ready dict."""
    start = time.perf_counter()
    rows = run_all(tracks, proof_ids, jobs, refine_turns=refine_turns)
    wall = time.perf_counter() - start
    proof_s: dict[str, float] = defaultdict(float)
    control_s: dict[str, float] = defaultdict(float)
    bounds: dict[str, dict[str, int | None]] = defaultdict(dict)
    extra = {r.proof: {"result": r.result, "seconds": r.seconds, "ok": r.ok}
             for r in rows if r.proof in ("refinement", "termination")}
    rows = [r for r in rows if r.proof not in extra]
    for r in rows:
        if r.control is None:
            proof_s[r.proof] += r.seconds
            if r.bound is not None:
                bounds[r.proof][r.track] = r.bound
        else:
            control_s[r.proof] += r.seconds
    failed = sum(not r.ok for r in rows) + sum(not e["ok"] for e in extra.values())
    shown = [p.id for p in PROOFS if p.id in proof_ids]
    return {"wall_seconds": wall, "limit_seconds": LIMIT_SECONDS, "jobs": jobs,
            "cpus": os.cpu_count(), "python": platform.python_version(),
            "tracks": list(tracks), "rows": len(rows), "failed": failed,
            "refine_turns": refine_turns, **extra,
            "proofs": {p: {"proof_seconds": proof_s[p], "control_seconds": control_s[p],
                           "bounds": bounds.get(p, {})} for p in shown}}


def table(figures: dict[str, Any]) -> str:
    """The time per proof as a plain-text table."""
    lines = [f"{'proof':<22} {'proof s':>8} {'controls s':>11}  bounds"]
    for pid, row in figures["proofs"].items():
        shown = " ".join(f"{t}={v}" for t, v in row["bounds"].items())
        lines.append(f"{pid:<22} {row['proof_seconds']:8.2f} {row['control_seconds']:11.2f}"
                     f"  {shown}".rstrip())
    for name in ("refinement", "termination"):
        if name in figures:
            lines.append(f"{name:<22} {figures[name]['seconds']:8.2f}  {figures[name]['result']}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the proof suite once and print the time per proof."""
    parser = argparse.ArgumentParser(prog="python3 -m benchmarks.bench_proofs")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", metavar="FILE", help="write the figures here")
    args = parser.parse_args(argv)
    figures = measure(list(PROOF_RUNS), [p.id for p in PROOFS], args.jobs, REFINE_TURNS)
    print(table(figures))
    wall, failed = figures["wall_seconds"], figures["failed"]
    ok = failed == 0 and wall < LIMIT_SECONDS
    print(f"\nwall {wall:.1f}s (limit {LIMIT_SECONDS:.0f}s, {args.jobs} workers, "
          f"{os.cpu_count()} CPUs); {figures['rows']} rows, {failed} failed"
          f"{'' if ok else '  <-- NOT OK'}")
    if args.json:
        write_atomic(Path(args.json), json.dumps(figures, indent=1, sort_keys=True) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
