"""Rallyman GT throughput: seeded random races per second on both tracks, 2/4/6 cars.

``python3 -m benchmarks.bench_rallyman [--tiny]`` prints one line per cell;
``python3 -m benchmarks`` includes the same cells (:func:`figures`, :func:`table`). No timing
is asserted anywhere; the figures are for people.
"""

from __future__ import annotations

import argparse
from typing import Any

from heatcore.rallyman.batch import measure
from heatcore.rallyman.driver import POLICIES

TRACKS = ("albert-park", "proving-ground")


def figures(races: int, laps: int, policy: str = "sensible") -> list[dict[str, Any]]:
    """One row per track and car count: races, actions, seconds, races/s, us per action."""
    rows = []
    for track in TRACKS:
        for players in (2, 4, 6):
            cell = measure(track, players, range(races), laps, policy)
            rows.append({"track": track, "players": players, "laps": laps, "policy": policy,
                         "races": cell.races, "actions": cell.actions,
                         "seconds": cell.seconds, "races_per_s": cell.races_per_second,
                         "actions_per_s": cell.actions_per_second,
                         "us_per_action": 1e6 * cell.seconds / cell.actions
                         if cell.actions else 0.0})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    """The rows as a plain-text table."""
    lines = [f"{'track':<16}{'cars':>5}{'laps':>5}{'races':>7}{'actions/race':>14}"
             f"{'races/s':>10}{'actions/s':>11}{'us/action':>11}"]
    for row in rows:
        lines.append(f"{row['track']:<16}{row['players']:>5}{row['laps']:>5}{row['races']:>7}"
                     f"{row['actions'] / max(1, row['races']):>14.0f}"
                     f"{row['races_per_s']:>10.2f}{row['actions_per_s']:>11.0f}"
                     f"{row['us_per_action']:>11.1f}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Print the throughput table."""
    parser = argparse.ArgumentParser(prog="benchmarks.bench_rallyman")
    parser.add_argument("--tiny", action="store_true", help="one 1-lap race per cell")
    parser.add_argument("--policy", default="sensible", choices=sorted(POLICIES))
    args = parser.parse_args(argv)
    races, laps = (1, 1) if args.tiny else (10, 2)
    print(f"Rallyman GT random-race throughput ({args.policy} policy, {laps} lap(s))")
    for row in figures(races, laps, args.policy):
        print(f"  {row['track']:15} {row['players']} cars: {row['races_per_s']:6.2f} races/s "
              f"{row['actions_per_s']:8.0f} actions/s {row['us_per_action']:6.1f} us/action "
              f"({row['races']} races)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
