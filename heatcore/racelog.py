"""The race log: a setup plus every action as canonical strings, in JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from heatcore.driver import Race, replay
from heatcore.errors import MalformedInput
from heatcore.files import write_atomic
from heatcore.notation import parse_action, setup_from_dict, setup_to_dict
from heatcore.state import car_name

LOG_FORMAT = "heatcore.race/1"


def race_to_dict(race: Race) -> dict[str, Any]:
    """The race as JSON data: format, setup, actions, and the result for checking."""
    return {
        "format": LOG_FORMAT,
        "setup": setup_to_dict(race.setup),
        "actions": [str(a) for a in race.actions],
        "result": {"ranking": [car_name(i) for i in race.final.ranking],
                   "rounds": race.final.round},
    }


def save_race(race: Race, path: Path) -> None:
    """Write the race log (whole or not at all)."""
    write_atomic(path, json.dumps(race_to_dict(race), indent=1) + "\n")


def load_race(path: Path) -> Race:
    """Read a race log and replay it; MalformedInput if it cannot be read or its recorded
    result differs from the replay."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise MalformedInput("round.sequence", f"cannot read race log {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        raise MalformedInput("round.sequence", f"{path} is not a {LOG_FORMAT} race log")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise MalformedInput("round.sequence", "race log: actions must be a list")
    race = replay(setup_from_dict(data.get("setup")), [parse_action(a) for a in actions])
    expected = data.get("result", {}).get("ranking")
    got = [car_name(i) for i in race.final.ranking]
    if expected is not None and expected != got:
        raise MalformedInput("finish.ranking", f"replay ranks {got}, the log says {expected}")
    return race
