"""The ``heatcore`` command line."""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from pathlib import Path

from heatcore.batch import ENGINES, POLICIES, run_races
from heatcore.driver import play
from heatcore.errors import RulesError
from heatcore.racelog import load_race, save_race
from heatcore.registry import GAMES
from heatcore.report import play_by_play
from heatcore.setup import random_setup
from heatcore.track import track_ids
from heatcore.weather import MODULES


def _race(args: argparse.Namespace) -> int:
    if args.game != "heat":
        return _race_other(args)
    args.track = args.track or "usa"
    if args.track not in track_ids():
        print(f"heatcore: unknown track {args.track!r} (tracks: {', '.join(track_ids())})",
              file=sys.stderr)
        return 2
    if args.count > 1:
        return _race_batch(args)
    rng = random.Random(args.seed)
    setup = random_setup(args.track, args.players, rng, args.laps, args.modules,
                         args.legends, args.aggressive)
    race = play(setup, POLICIES[args.policy], rng)
    sys.stdout.write(play_by_play(race))
    if args.json:
        save_race(race, Path(args.json))
        print(f"Action log written to {args.json} ({len(race.actions)} actions)")
    return 0


def _race_other(args: argparse.Namespace) -> int:
    """A race of another ruleset (``--game``), through that game's own package."""
    from heatcore.rallyman import cli as rallyman_cli

    return rallyman_cli.race(args)


def _race_batch(args: argparse.Namespace) -> int:
    """``--count N``: N independent races, seeds ``seed .. seed+N-1``, on ``--workers``."""
    if args.json:
        print("heatcore: --json writes one race; it cannot be used with --count",
              file=sys.stderr)
        return 2
    if args.modules:
        print("heatcore: --count plays core races only for now; drop --modules",
              file=sys.stderr)
        return 2
    seeds = list(range(args.seed, args.seed + args.count))
    summary = run_races(args.track, args.players, seeds, args.laps, args.policy,
                        args.workers, args.engine)
    print(f"engine: {summary.engine}")
    print(f"races: {summary.races}")
    print(f"actions: {summary.actions}")
    print(f"workers: {summary.workers}")
    print(f"time: {summary.seconds:.3f} s")
    print(f"races/s: {summary.races_per_second:.1f}")
    print(f"actions/s: {summary.actions_per_second:.0f}")
    return 0


def _replay(args: argparse.Namespace) -> int:
    path = Path(args.file)
    if _log_format(path).startswith("heatcore.rallyman-gt."):
        from heatcore.rallyman import racelog, report

        sys.stdout.write(report.play_by_play(racelog.load_race(path)))
        return 0
    race = load_race(path)
    sys.stdout.write(play_by_play(race))
    return 0


def _log_format(path: Path) -> str:
    """The ``format`` of a race log ("" when it cannot be read; the loader then says why)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return ""
    return str(data.get("format", "")) if isinstance(data, dict) else ""


def _delegate(module: str, argv: list[str]) -> int:
    """Run another part of heatcore (proofs, conformance kit) that ships its own CLI."""
    main = importlib.import_module(module).main
    code: int = main(argv)
    return code


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive whole number")
    return value


def _modules(text: str) -> tuple[str, ...]:
    """``weather,legends`` -> the modules in canonical order; unknown names refused."""
    names = {m.strip() for m in text.split(",") if m.strip()}
    unknown = sorted(names - set(MODULES))
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown module {unknown[0]!r} (modules: {', '.join(MODULES)})")
    return tuple(m for m in MODULES if m in names)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand."""
    parser = argparse.ArgumentParser(prog="heatcore", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    race = sub.add_parser("race", help="play a seeded race and print it")
    race.add_argument("--game", default="heat", choices=sorted(GAMES),
                      help="the ruleset to play (default heat)")
    race.add_argument("--track", default=None,
                      help="track ID (default: usa for heat, albert-park for rallyman-gt)")
    race.add_argument("--players", type=int, default=4)
    race.add_argument("--seed", type=int, default=0)
    race.add_argument("--laps", type=int, default=None, help="override the track's laps")
    race.add_argument("--policy", default="greedy", choices=sorted(POLICIES))
    race.add_argument("--json", metavar="FILE", help="write the action log here")
    race.add_argument("--count", type=_positive, default=1,
                      help="play N races (seeds seed..seed+N-1) and print a summary")
    race.add_argument("--workers", type=_positive, default=1,
                      help="spread the races over W processes")
    race.add_argument("--engine", default="fast", choices=ENGINES,
                      help="engine of --count batches (both play the same races)")
    race.add_argument("--modules", type=_modules, default=(),
                      help="comma-separated modules to play: weather, legends")
    race.add_argument("--legends", type=int, default=0,
                      help="Legend cars added by the legends module (players + Legends <= 6)")
    race.add_argument("--aggressive", action="store_true",
                      help="aggressive Legends (legends module)")
    race.set_defaults(func=_race)
    rep = sub.add_parser("replay", help="play back an action log written by race --json")
    rep.add_argument("file")
    rep.set_defaults(func=_replay)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``heatcore`` command."""
    argv = sys.argv[1:] if argv is None else argv
    delegated = {
        "prove": "proofs.runner",
        "golden": "heatcore.golden",
        "serve": "heatcore.conformance.serve",
        "conform": "heatcore.conformance.harness",
        "fixtures": "heatcore.conformance.fixtures",
    }
    if argv and argv[0] in delegated:
        return _delegate(delegated[argv[0]], argv[1:])
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except RulesError as error:
        print(f"heatcore: {error.kind}: {error}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    raise SystemExit(main())
