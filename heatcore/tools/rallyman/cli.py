"""``heatcore race --game rallyman-gt``: a seeded Rallyman GT race and its play-by-play."""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

from heatcore.framework.cliutil import CommandError
from heatcore.framework.cluster import BackendError
from heatcore.framework.files import write_atomic
from heatcore.framework.terminal import progress
from heatcore.rallyman.batch import measure
from heatcore.rallyman.driver import POLICIES, play
from heatcore.rallyman.racelog import race_to_json
from heatcore.rallyman.setup import MAX_PLAYERS, MIN_PLAYERS, random_setup
from heatcore.rallyman.track import track_ids
from heatcore.tools.rallyman.report import play_by_play

DEFAULT_TRACK = "albert-park"


def _batch(args: argparse.Namespace, track: str) -> int:
    """``--count N``: N races (seeds seed..seed+N-1), on ``--workers`` processes (with
    ``--scheduler``, on that Dask cluster), and a summary."""
    if args.json:
        print("heatcore: --json writes one race; it cannot be used with --count",
              file=sys.stderr)
        return 2
    policy = "random" if args.policy == "random" else "sensible"
    with progress(args.count, "races") as advance:
        try:
            cell = measure(track, args.players, range(args.seed, args.seed + args.count),
                           args.laps, policy, args.workers, advance,
                           getattr(args, "scheduler", None))
        except BackendError as error:
            raise CommandError(str(error)) from None
    print("game: rallyman-gt")
    print(f"races: {cell.races}")
    print(f"actions: {cell.actions}")
    print(f"workers: {cell.workers}")
    print(f"time: {cell.seconds:.3f} s")
    print(f"races/s: {cell.races_per_second:.1f}")
    print(f"actions/s: {cell.actions_per_second:.0f}")
    return 0


def race(args: argparse.Namespace) -> int:
    """Play one race from ``args`` (track, players, seed, laps, policy, json) and print it."""
    track = args.track or DEFAULT_TRACK
    if track not in track_ids():
        print(f"heatcore: unknown rallyman-gt track {track!r} (tracks: {', '.join(track_ids())})",
              file=sys.stderr)
        return 2
    if not MIN_PLAYERS <= args.players <= MAX_PLAYERS:
        print(f"heatcore: rallyman-gt takes {MIN_PLAYERS} to {MAX_PLAYERS} players, "
              f"not {args.players}", file=sys.stderr)
        return 2
    if args.count > 1:
        return _batch(args, track)
    rng = random.Random(args.seed)
    setup = random_setup(track, args.players, rng, args.laps)
    policy = POLICIES["random" if args.policy == "random" else "sensible"]
    result = play(setup, policy, rng)
    sys.stdout.write(play_by_play(result))
    if args.json:
        write_atomic(Path(args.json), race_to_json(result))
        print(f"Action log written to {args.json} ({len(result.actions)} actions)")
    return 0
