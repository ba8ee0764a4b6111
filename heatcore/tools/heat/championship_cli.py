"""``heatcore championship``: play a season and print each race and the standings, write
its log, or replay a log and check it reproduces exactly."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from heatcore.framework.cliutil import BAD_INPUT, CommandError, Parser, seed, writable_dir
from heatcore.framework.errors import MalformedInput, RulesError
from heatcore.heat.modules.championship.data import seasons
from heatcore.heat.modules.championship.log import replay_championship, save_championship
from heatcore.heat.modules.championship.season import play_championship
from heatcore.heat.racelog import read_json
from heatcore.tools.heat.championship_report import championship_lines
from heatcore.tools.terminal import write_text


def parser() -> Parser:
    """The command's arguments."""
    p = Parser("heatcore championship", description="Play a Championship season (the Garage "
               "module, event cards, Sponsorship cards, press corners, points 9-6-4-3-2-1) "
               "and print each race and the standings; or replay a championship log.")
    p.add_argument("--season", type=int, default=1961,
                   help=f"the season: {', '.join(str(y) for y in seasons())}")
    p.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="2-6",
                   help="number of players")
    p.add_argument("--seed", type=seed, default=0,
                   help="the seed of every chance outcome and choice")
    p.add_argument("--weather", action="store_true",
                   help="play the weather module in every race (weather and road tokens "
                        "drawn per race)")
    p.add_argument("--log", metavar="FILE", help="write the championship log here")
    p.add_argument("--replay", metavar="FILE",
                   help="replay this championship log and check its results")
    return p


def run(args: argparse.Namespace) -> int:
    """Play or replay, print, and write the log."""
    if args.replay:
        try:
            data = read_json(Path(args.replay))
        except MalformedInput as error:  # a file that cannot be read breaks no rule: no rule ID
            raise CommandError(error.detail) from None
        champ = replay_championship(data)
        write_text("\n".join(championship_lines(champ)) + "\n")
        print(f"championship log verified: same results ({len(champ.races)} races)")
        return 0
    if args.season not in seasons():
        raise CommandError(f"no season {args.season} (seasons: "
                           f"{', '.join(str(y) for y in seasons())})")
    if args.log:
        writable_dir(Path(args.log).resolve().parent)
    champ = play_championship(args.season, args.players, args.seed, weather=args.weather)
    write_text("\n".join(championship_lines(champ)) + "\n")
    if args.log:
        save_championship(champ, Path(args.log))
        print(f"Championship log written to {args.log}")
    return 0


def main(argv: list[str]) -> int:
    """Entry point (``heatcore championship ...``): bad input is one line, exit 2."""
    args = parser().parse_args(argv)
    try:
        return run(args)
    except (RulesError, CommandError) as error:
        what = f"{error.kind}: {error}" if isinstance(error, RulesError) else str(error)
        print(f"heatcore championship: {what}", flush=True, file=sys.stderr)
        return BAD_INPUT

