"""Rallyman GT race logs: setup plus every action (chance outcomes included), in JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.rallyman.driver import Race, replay
from heatcore.rallyman.notation import parse_action, setup_from_dict, setup_to_dict
from heatcore.rallyman.state import car_name

LOG_FORMAT = "heatcore.rallyman-gt.race/1"


def race_to_json(race: Race) -> str:
    """The race log's text."""
    data: dict[str, Any] = {
        "format": LOG_FORMAT, "setup": setup_to_dict(race.setup),
        "actions": [str(a) for a in race.actions],
        "result": {"ranking": [car_name(i) for i in race.final.ranking],
                   "rounds": race.final.round},
    }
    return json.dumps(data, indent=1) + "\n"


def load_race_data(data: Any, name: str) -> Race:
    """Replay a parsed race log; MalformedInput if unreadable or if the recorded ranking
    differs from the replay."""
    if not isinstance(data, dict) or data.get("format") != LOG_FORMAT:
        raise MalformedInput("rgt.turn.sequence", f"{name} is not a {LOG_FORMAT} race log")
    actions = data.get("actions")
    if not isinstance(actions, list):
        raise MalformedInput("rgt.turn.sequence", "race log: actions must be a list")
    race = replay(setup_from_dict(data.get("setup")), [parse_action(a) for a in actions])
    expected = (data.get("result") or {}).get("ranking")
    got = [car_name(i) for i in race.final.ranking]
    if expected is not None and expected != got:
        raise MalformedInput("rgt.finish.end", f"replay ranks {got}, the log says {expected}")
    return race


def load_race(path: Path) -> Race:
    """Read and replay a race log file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise MalformedInput("rgt.turn.sequence", f"cannot read race log {path}: {error}") from None
    return load_race_data(data, str(path))
