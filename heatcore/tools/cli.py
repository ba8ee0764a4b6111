"""The ``heatcore`` command line: one function per subcommand adds its arguments
(``add_NAME``) and one carries it out (``run_NAME``); the proofs, the fixtures, the
conformance kit and the golden files ship their own parsers, which ``main`` hands the rest
of the command line to."""

from __future__ import annotations

import argparse
import importlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from heatcore import __version__
from heatcore.framework.cliutil import (
    BAD_INPUT,
    CommandError,
    Parser,
    positive,
    seed,
    writable_dir,
)
from heatcore.framework.cluster import BackendError
from heatcore.framework.errors import MalformedInput, RulesError, UnsupportedModule
from heatcore.framework.files import write_atomic
from heatcore.framework.registry import GAMES
from heatcore.framework.terminal import progress
from heatcore.heat.batch import ENGINES
from heatcore.heat.driver import play
from heatcore.heat.modules.weather import MODULES
from heatcore.heat.racelog import read_json, replay_log, save_race, verify_result
from heatcore.heat.rulings import Rulings, make_rulings, parse_ruling_option
from heatcore.heat.setup import first_track, random_setup, start_race
from heatcore.heat.track import resolve_track, track_ids
from heatcore.tools.heat.outcomes import (
    POLICIES,
    ModuleChoice,
    observe_races,
    outcome_lines,
    policy_names,
    seated_policy,
)
from heatcore.tools.heat.report import play_by_play, upgrades_owned
from heatcore.tools.terminal import write_text

#: Subcommands with their own parser: the module whose ``main(argv)`` runs them.
DELEGATED = {
    "prove": "proofs.runner",
    "fixtures": "heatcore.heat.conformance.corpus",
    "conform": "heatcore.framework.conformance.harness",
    "serve": "heatcore.framework.conformance.serve",
    "golden": "heatcore.tools.heat.golden",
    "perft": "heatcore.tools.heat.perft_runs",
    "explore": "heatcore.tools.heat.explore_runs",
    "championship": "heatcore.tools.heat.championship_cli",
}

#: Every subcommand and its line in ``heatcore --help``.
SUMMARIES = {
    "race": "play a seeded race and print it round by round (--count N: many races, outcomes)",
    "replay": "replay a race log, a golden file or a fixture suite and check its result",
    "prove": "run the Z3 proofs and their negative controls, or mine rare situations",
    "fixtures": "generate or check the conformance fixture corpus in spec/fixtures",
    "conform": "check another Heat engine against heatcore over the conform/2 protocol",
    "serve": "speak the conform/2 and conform/1 protocols on stdin/stdout (heatcore as engine)",
    "golden": "check or regenerate the golden playthroughs in tests/golden",
    "perft": "count the action sequences of a depth from a seeded start (--divide, reference)",
    "explore": "visit every reachable state of a small race and check each transition",
    "championship": "play a Championship season (--season 1961) or replay its log",
}


def track(text: str) -> str:
    """A track id; common spellings are accepted (``gb``, ``GB``, ``Great Britain``)."""
    try:
        return resolve_track(text)
    except MalformedInput:
        raise argparse.ArgumentTypeError(
            f"unknown track {text!r} (tracks: {', '.join(track_ids())})") from None


def modules(text: str) -> tuple[str, ...]:
    """``weather,legends`` -> the modules in canonical order; unknown names refused."""
    names = {m.strip() for m in text.split(",") if m.strip()}
    unknown = sorted(names - set(MODULES))
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown module {unknown[0]!r} (modules: {', '.join(MODULES)})")
    return tuple(m for m in MODULES if m in names)


def policies(text: str) -> tuple[str, ...]:
    """One policy name, or several separated by commas (they take turns by seat)."""
    try:
        return policy_names(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


# --- race ------------------------------------------------------------------------------

def add_race(sub: Any) -> None:
    """``heatcore race``."""
    race = sub.add_parser("race", help=SUMMARIES["race"], description=SUMMARIES["race"])
    race.add_argument("--game", default="heat", choices=sorted(GAMES),
                      help="the ruleset to play")
    race.add_argument("--track", default=None,
                      help="heat: usa (default), italia, france or great-britain (also gb, GB, "
                           "italy, ...); rallyman-gt: albert-park (default) or proving-ground")
    race.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="2-6",
                      help="number of cars")
    race.add_argument("--seed", type=seed, default=0,
                      help="the seed (0 or more) that fixes the grid, the decks and choices")
    race.add_argument("--laps", type=positive, default=None,
                      help="override the track's laps (default: the track's own)")
    race.add_argument("--policy", type=policies, default="greedy", metavar="NAME[,NAME]",
                      help=f"how the drivers choose: {', '.join(POLICIES)}; several "
                           "(comma-separated) take turns by seat: P1 the first, P2 the next")
    race.add_argument("--no-legend", dest="legend", action="store_false",
                      help="leave out what the abbreviations mean")
    race.add_argument("--json", metavar="FILE",
                      help="write the action log here (with --count: the outcomes)")
    race.add_argument("--html", metavar="FILE",
                      help="write a page that steps through the race round by round")
    race.add_argument("--count", type=positive, default=1,
                      help="play N races (seeds seed..seed+N-1) and print their outcomes")
    race.add_argument("--workers", type=positive, default=1,
                      help="spread the races of --count over W processes (with --scheduler "
                           "local: a Dask LocalCluster of W workers)")
    race.add_argument("--scheduler", default=None, metavar="ADDRESS",
                      help="play the races of --count on the Dask cluster at ADDRESS "
                           "(tcp://host:8786), or 'local' to start a LocalCluster")
    race.add_argument("--engine", default="fast", choices=ENGINES,
                      help="engine of --count batches (both play the same races)")
    race.add_argument("--modules", type=modules, default=(), metavar="NAME[,NAME]",
                      help=f"modules to play: {', '.join(MODULES)}")
    race.add_argument("--legends", type=positive, default=0,
                      help="Legend cars added by the legends module, players + Legends <= 6 "
                           "(0: one Legend)")
    race.add_argument("--aggressive", action="store_true",
                      help="aggressive Legends (legends module)")
    race.add_argument("--ruling", action="append", default=[], metavar="ID=ALTERNATIVE",
                      help="play under this alternative of a switchable ruling "
                           "(spec/rulings.toml); repeat for several")
    race.add_argument("--draft", action="store_true",
                      help="garage module: draft the upgrades (three rounds, random picks) "
                           "instead of the quick start's three random basic upgrades")
    race.set_defaults(func=run_race)


def run_race(args: argparse.Namespace) -> int:
    """Play one race and print it, or a batch (``--count``) and print a summary."""
    if args.game != "heat":
        return run_race_other(args)
    try:
        args.track = track(args.track or first_track())
    except argparse.ArgumentTypeError as error:
        raise CommandError(str(error)) from None
    _check_module_options(args)
    if args.count > 1:
        return run_race_batch(args)
    rng = random.Random(args.seed)
    setup = random_setup(args.track, args.players, rng, args.laps, args.modules,
                         args.legends, args.aggressive, rulings=_rulings(args),
                         draft=args.draft)
    race = play(setup, seated_policy(args.policy, args.players), rng)
    if setup.upgrades:
        how = "drafted" if args.draft else "quick start"
        write_text(f"Upgrades ({how}): {upgrades_owned(race)}\n")
    write_text(play_by_play(race, legend=args.legend))
    if args.json:
        save_race(race, Path(args.json))
        print(f"Action log written to {args.json} ({len(race.actions)} actions)")
    if args.html:
        from heatcore.tools.heat.racepage import race_html

        write_atomic(Path(args.html), race_html(race))
        print(f"Race page written to {args.html}")
    return 0


def _check_module_options(args: argparse.Namespace) -> None:
    """A module's option needs its module (``--draft`` the garage, ``--legends`` and
    ``--aggressive`` the Legends); CommandError naming the missing ``--modules`` otherwise."""
    if args.draft and "garage" not in args.modules:
        raise CommandError("--draft deals the garage's upgrades: add --modules garage")
    for given, option in ((args.legends, "--legends"), (args.aggressive, "--aggressive")):
        if given and "legends" not in args.modules:
            raise CommandError(f"{option} sets the Legend cars: add --modules legends")
    if args.draft and args.count > 1:
        raise CommandError("--draft deals one race's upgrades; it cannot be used with --count")


def run_race_other(args: argparse.Namespace) -> int:
    """A race of another ruleset (``--game``), through that game's own package."""
    from heatcore.tools.rallyman import cli as rallyman_cli

    heat_only = {"--modules": args.modules, "--legends": args.legends,
                 "--aggressive": args.aggressive, "--draft": args.draft,
                 "--ruling": args.ruling, "--html": args.html}
    for option, given in heat_only.items():
        if given:
            raise CommandError(f"{option} is an option of heat races, not of {args.game}")
    if len(args.policy) > 1 or args.policy[0] not in ("greedy", "random"):
        raise CommandError(f"{args.game}'s drivers are greedy or random, "
                           f"not {','.join(args.policy)!r}")
    args.policy = args.policy[0]  # that game's drivers are chosen by one name
    return rallyman_cli.race(args)


def _rulings(args: argparse.Namespace) -> Rulings:
    """The ``--ruling ID=ALTERNATIVE`` options as a configuration (CommandError if wrong)."""
    try:
        return make_rulings(dict(parse_ruling_option(text) for text in args.ruling))
    except MalformedInput as error:  # one line, what is wrong (its rule ID is for programs)
        raise CommandError(f"--ruling: {error.detail}") from None


def run_race_batch(args: argparse.Namespace) -> int:
    """``--count N``: N independent races, seeds ``seed .. seed+N-1``, on ``--workers``;
    their outcomes, then the speed."""
    if args.html:
        raise CommandError("--html draws one race; it cannot be used with --count")
    if args.json:
        writable_dir(Path(args.json).resolve().parent)
    rulings = _rulings(args)
    # the first race's setup, checked before any work (one line naming the rule if wrong)
    start_race(random_setup(args.track, args.players, random.Random(args.seed), args.laps,
                            args.modules, args.legends, args.aggressive, rulings))
    seeds = list(range(args.seed, args.seed + args.count))
    with progress(len(seeds), "races") as advance:
        try:
            out = observe_races(args.track, args.players, seeds, args.laps, args.policy,
                                args.engine, args.workers, advance, rulings=rulings,
                                modules=ModuleChoice(args.modules, args.legends,
                                                     args.aggressive),
                                scheduler=args.scheduler)
        except BackendError as error:
            raise CommandError(str(error)) from None
        except UnsupportedModule as error:  # a module only the reference engine plays
            raise CommandError(f"{error.detail}: add --engine reference") from None
    write_text("\n".join(outcome_lines(out)) + "\n")
    print(f"engine: {out.engine}")
    print(f"races: {len(out.races)}")
    print(f"actions: {out.actions}")
    print(f"workers: {out.workers}")
    print(f"time: {out.seconds:.3f} s")
    rate = (lambda n: n / out.seconds) if out.seconds > 0 else (lambda n: float("inf"))
    print(f"races/s: {rate(len(out.races)):.1f}")
    print(f"actions/s: {rate(out.actions):.0f}")
    if args.json:
        write_atomic(Path(args.json), json.dumps(out.summary(), indent=1) + "\n")
        print(f"Outcomes written to {args.json}")
    return 0


# --- replay ----------------------------------------------------------------------------

def add_replay(sub: Any) -> None:
    """``heatcore replay``."""
    rep = sub.add_parser("replay", help=SUMMARIES["replay"], description=SUMMARIES["replay"])
    rep.add_argument("file", help="a race log (race --json), a golden file (tests/golden/"
                                  "*.json) or a fixture suite (spec/fixtures, prove --mine)")
    rep.add_argument("--until", type=positive, default=None, metavar="N",
                     help="stop after round N and print the standings there")
    rep.add_argument("--legend", action="store_true",
                     help="print what the abbreviations mean before the race")
    rep.set_defaults(func=run_replay)


def run_replay(args: argparse.Namespace) -> int:
    """Replay and print a race log or golden file, or every case of a fixture suite."""
    from heatcore.heat.conformance.witness import is_suite
    from heatcore.heat.modules.championship.log import is_championship_log, replay_championship
    from heatcore.heat.racelog import race_log_of

    path = Path(args.file)
    try:
        data = read_json(path)
    except MalformedInput as error:  # one line, what is wrong (its rule ID is for programs)
        raise CommandError(error.detail) from None
    if isinstance(data, dict) and str(data.get("format", "")).startswith("heatcore.rallyman-gt."):
        from heatcore.rallyman import racelog
        from heatcore.tools.rallyman import report

        write_text(report.play_by_play(racelog.load_race(path)))
        return 0
    if is_championship_log(data):
        from heatcore.tools.heat.championship_report import championship_lines

        champ = replay_championship(data)
        write_text("\n".join(championship_lines(champ)) + "\n")
        print(f"championship log verified: same results ({len(champ.races)} races)")
        return 0
    log = race_log_of(data, path)
    if log is not None:
        race = replay_log(log, args.until)
        write_text(play_by_play(race, legend=args.legend))
        if args.until is not None and not race.final.is_over():
            print(f"stopped after round {args.until}, as asked (--until)")
            return 0
        verify_result(race, log)
        _verify_golden_events(data, race)
        print(f"log verified: same result ({len(race.actions)} actions, "
              f"{race.final.round} rounds)")
        return 0
    if is_suite(data):
        return _replay_suite(data, args)
    raise CommandError(f"{path} is not a race log, a golden file or a fixture suite")


def _verify_golden_events(data: Any, race: Any) -> None:
    """A golden file records every action's events: the replay must cause the same."""
    from heatcore.framework.events import event_to_dict

    rounds = data.get("rounds") if isinstance(data, dict) else None
    if not isinstance(rounds, list):
        return
    recorded = [step.get("events") for r in rounds for step in r.get("steps", [])]
    replayed = [[event_to_dict(e) for e in evs] for evs in race.events]
    for number, (want, got) in enumerate(zip(recorded, replayed, strict=False), start=1):
        if want != got:
            raise CommandError(f"action {number}: the replay's events differ from the file's")


def _replay_suite(data: dict[str, Any], args: argparse.Namespace) -> int:
    from heatcore.heat.conformance.witness import case_lines, verify_suite

    if args.until is not None:
        raise CommandError("--until applies to race logs, not to fixture suites")
    failed = 0
    for case, why in verify_suite(data):
        write_text("\n".join(case_lines(case)) + "\n")
        print("  case verified: same result" if why is None else f"  DIFFERS: {why}")
        failed += why is not None
    total = len(data["cases"])
    if failed:
        print(f"{failed} of {total} case(s) differ")
        return 1
    print(f"suite verified: same result ({total} cases)")
    return 0


# --- the command -----------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every subcommand (delegated ones are listed, not parsed)."""
    parser = Parser("heatcore", description="The executable, model-checked rulebook of "
                    "Heat: Pedal to the Metal.\nRun `heatcore COMMAND --help` for a "
                    "command's options.")
    parser.add_argument("--version", action="version", version=f"heatcore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                parser_class=Parser)
    add_race(sub)
    add_replay(sub)
    for name in DELEGATED:
        sub.add_parser(name, help=SUMMARIES[name], add_help=False)
    return parser


def run(argv: list[str]) -> int:
    """Parse ``argv`` and run its command (raises the errors ``main`` reports)."""
    if argv and argv[0] in DELEGATED:
        main_of = importlib.import_module(DELEGATED[argv[0]]).main
        code: int = main_of(argv[1:])
        return code
    args = build_parser().parse_args(argv)
    code = args.func(args)
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``heatcore`` command: a bad input ends in one line on stderr
    and exit status 2, never a traceback."""
    argv = sys.argv[1:] if argv is None else argv
    command = f"heatcore {argv[0]}" if argv and not argv[0].startswith("-") else "heatcore"
    try:
        return run(argv)
    except RulesError as error:
        print(f"{command}: {error.kind}: {error}", file=sys.stderr)
    except CommandError as error:
        print(f"{command}: {error}", file=sys.stderr)
    except KeyboardInterrupt:
        print(f"{command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`heatcore race | head`)
        sys.stderr.close()
        return 0
    return BAD_INPUT


if __name__ == "__main__":
    raise SystemExit(main())
