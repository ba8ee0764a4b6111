"""Rallyman GT throughput: seeded random races per second on both tracks, 2/4/6 cars.

``python3 -m benchmarks.bench_rallyman [--tiny]`` prints one line per cell. No timing is
asserted anywhere; the figures are for people.
"""

from __future__ import annotations

import argparse

from heatcore.rallyman.batch import measure
from heatcore.rallyman.driver import POLICIES


def main(argv: list[str] | None = None) -> int:
    """Print the throughput table."""
    parser = argparse.ArgumentParser(prog="benchmarks.bench_rallyman")
    parser.add_argument("--tiny", action="store_true", help="one 1-lap race per cell")
    parser.add_argument("--policy", default="sensible", choices=sorted(POLICIES))
    args = parser.parse_args(argv)
    races, laps = (1, 1) if args.tiny else (10, 2)
    print(f"Rallyman GT random-race throughput ({args.policy} policy, {laps} lap(s))")
    for track in ("albert-park", "proving-ground"):
        for players in (2, 4, 6):
            cell = measure(track, players, range(races), laps, args.policy)
            print(f"  {track:15} {players} cars: {cell.races_per_second:6.2f} races/s "
                  f"{cell.actions_per_second:8.0f} actions/s ({cell.races} races)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
