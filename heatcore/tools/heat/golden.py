"""Golden playthroughs: one seeded race per base track for 2, 4 and 6 players.

Each race is saved under ``tests/golden/`` as readable text (every round: the actions, the
events each caused, and the positions at the end of the round) and as JSON (the race log of
``heatcore.heat.racelog`` plus the events of every action and the positions after every round).
``tests/test_golden.py`` regenerates them in memory and fails on any difference.

When a rule change is intended, regenerate and review the diff::

    heatcore golden --regenerate      # rewrite tests/golden/
    heatcore golden --check           # exit 1 if any file differs (the default)
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from heatcore.framework.cliutil import Parser
from heatcore.framework.events import event_to_dict
from heatcore.framework.files import write_atomic
from heatcore.heat.driver import Race, greedy_policy, play
from heatcore.heat.engine import apply
from heatcore.heat.racelog import race_to_dict
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.state import RaceState, car_name
from heatcore.heat.summary import where
from heatcore.heat.track import load_track, track_ids
from heatcore.tools.heat.report import pack_line, play_by_play
from heatcore.tools.heat.svg import readme_picture

#: The player counts of the golden races.
PLAYER_COUNTS = (2, 4, 6)
#: The seed of every golden race (with the track and player count it fixes the race).
SEED = 3
GOLDEN_FORMAT = "heatcore.golden/1"


def golden_dir() -> Path:
    """``tests/golden`` of the repository this package lives in."""
    return Path(__file__).resolve().parents[3] / "tests" / "golden"


def golden_race(track: str, players: int) -> Race:
    """The golden race: the track's own laps, the greedy policy, seeded by ``SEED``."""
    rng = random.Random(f"{SEED}-{track}-{players}")
    return play(random_setup(track, players, rng), greedy_policy, rng)


def _positions(state: RaceState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, car in enumerate(state.cars):
        if i in state.ranking:
            out[car_name(i)] = {"finished": state.ranking.index(i) + 1}
        else:
            out[car_name(i)] = {"position": car.position, "racing_line": car.racing_line,
                                "gear": car.gear, "engine": car.engine}
    return out


def _rounds(race: Race) -> list[dict[str, Any]]:
    """Per round: the actions with their events, and every car's place when it ends."""
    state, _ = start_race(race.setup)
    rounds: list[dict[str, Any]] = [{"round": 1, "steps": []}]
    for action, recorded in zip(race.actions, race.events, strict=True):
        after, events = apply(state, action)
        assert events == recorded, "the race does not replay"
        current = rounds[-1]
        current["steps"].append({"action": str(action),
                                 "events": [event_to_dict(e) for e in events]})
        if after.round != state.round or after.is_over():
            current["positions"] = _positions(after)
            if not after.is_over():
                rounds.append({"round": after.round, "steps": []})
        state = after
    return rounds


def golden_json(race: Race) -> str:
    """The JSON file of a golden race."""
    head = json.dumps({"golden": GOLDEN_FORMAT, "race": race_to_dict(race)}, sort_keys=True,
                      separators=(",", ":"))
    rounds = ",\n".join(json.dumps(r, sort_keys=True, separators=(",", ":"))
                         for r in _rounds(race))
    return head[:-1] + ',\n"rounds":[\n' + rounds + "\n]}\n"


def golden_text(race: Race) -> str:
    """The text file of a golden race: the play-by-play summary, then every round in full."""
    track = load_track(race.setup.track)
    lines = [f"# Golden race: {track.name}, {race.setup.players} cars, seed {SEED}, greedy",
             "# Regenerate with: heatcore golden --regenerate", "", play_by_play(race).rstrip(),
             "", "# Every action and its events"]
    for entry in _rounds(race):
        lines.append(f"== Round {entry['round']}")
        for step in entry["steps"]:
            lines.append(f"> {step['action']}")
            for ev in step["events"]:
                rest = " ".join(f"{k}={_show(v)}" for k, v in ev.items() if k != "kind")
                lines.append(f"    {ev['kind']} {rest}".rstrip())
        spots = []
        for name, info in entry.get("positions", {}).items():
            if "finished" in info:
                spots.append(f"{name} finished #{info['finished']}")
            else:
                lane = "racing line" if info["racing_line"] else "outside"
                spots.append(f"{name} {where(track, info['position'])} ({lane}), gear "
                             f"{info['gear']}, engine {info['engine']}")
        lines += pack_line("  positions:", spots, "; ", 4)
    return "\n".join(lines) + "\n"


def _show(value: Any) -> str:
    if isinstance(value, list):
        return ",".join(str(v) for v in value) or "-"
    return str(value)


def golden_files() -> dict[str, str]:
    """Every golden file name and its expected content."""
    out: dict[str, str] = {}
    for track in track_ids():
        for players in PLAYER_COUNTS:
            race = golden_race(track, players)
            stem = f"{track}-{players}p"
            out[f"{stem}.txt"] = golden_text(race)
            out[f"{stem}.json"] = golden_json(race)
    return out


def picture_path() -> Path:
    """The race picture of the README and the site (``heatcore.tools.heat.svg.readme_picture``)."""
    return golden_dir().parent.parent / "docs" / "_static" / "race.svg"


def differences(directory: Path | None = None) -> list[str]:
    """Names of the golden files missing or different from a fresh regeneration."""
    directory = directory or golden_dir()
    out = []
    for name, text in golden_files().items():
        path = directory / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    """``heatcore golden [--regenerate | --check] [--dir DIR]``."""
    parser = Parser("heatcore golden", description=__doc__)
    parser.add_argument("--regenerate", action="store_true",
                        help="rewrite the golden files (after an intended rule change)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if any golden file differs (the default)")
    parser.add_argument("--dir", type=Path, default=None,
                        help="golden folder (default: tests/golden)")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    directory: Path = args.dir or golden_dir()
    if args.regenerate:
        files = golden_files()
        for name, text in files.items():
            write_atomic(directory / name, text)
        print(f"golden: wrote {len(files)} files to {directory}")
        if args.dir is None:
            write_atomic(picture_path(), readme_picture())
            print(f"golden: drew {picture_path()}")
        return 0
    changed = differences(directory)
    if args.dir is None and (not picture_path().exists()
                             or picture_path().read_text(encoding="utf-8") != readme_picture()):
        changed.append(str(picture_path()))
    for name in changed:
        print(f"golden: {name} differs (run `heatcore golden --regenerate` if intended)")
    return 1 if changed else 0
