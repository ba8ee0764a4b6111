"""The race log: a setup plus every action as canonical strings, in JSON."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from heatcore.framework.errors import MalformedInput, RulesError
from heatcore.framework.events import Event
from heatcore.framework.files import write_atomic
from heatcore.framework.registry import implements
from heatcore.heat.actions import Action
from heatcore.heat.driver import Race
from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action, setup_from_dict, setup_to_dict
from heatcore.heat.rulings import UNREADABLE
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import car_name
from heatcore.heat.track import track_ids

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


@implements("ruling.unreadable-input")
def read_json(path: Path) -> Any:
    """The JSON data of a file; MalformedInput saying why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise MalformedInput(UNREADABLE,
                             f"cannot read {path}: {error.strerror or error}") from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise MalformedInput(UNREADABLE, f"{path} is not JSON: {error}") from None


def race_log_of(data: Any, path: Path) -> dict[str, Any] | None:
    """The race log in ``data``: a race log itself or the ``race`` of a golden file; None
    if ``data`` is neither."""
    if isinstance(data, dict) and data.get("format") == LOG_FORMAT:
        return data
    if isinstance(data, dict) and isinstance(data.get("race"), dict) \
            and data["race"].get("format") == LOG_FORMAT:
        race: dict[str, Any] = data["race"]
        return race
    return None


def replay_log(log: dict[str, Any], until: int | None = None) -> Race:
    """Replay a race log, stopping before round ``until + 1`` if ``until`` is given.

    An action that cannot be read or is not legal raises the same typed error, its message
    naming the action's number (from 1), its round and its text. A log whose actions fit
    another track (and only that one) is refused as a log of that track."""
    setup = setup_from_dict(log.get("setup"))
    texts = log.get("actions")
    if not isinstance(texts, list):
        raise MalformedInput("round.sequence", "race log: actions must be a list")
    try:
        return _replay_texts(setup, texts, until)
    except RulesError as error:
        home = _home_track(setup, texts, log)
        if home is not None:
            raise MalformedInput("setup.track-laps", f"this log was played on {home}, but its "
                                 f"setup names {setup.track}") from None
        raise error from None


def _replay_texts(setup: RaceSetup, texts: list[Any], until: int | None) -> Race:
    state, start_events = start_race(setup)
    actions: list[Action] = []
    events: list[tuple[Event, ...]] = []
    for number, text in enumerate(texts, start=1):
        if state.is_over() or (until is not None and state.round > until):
            break
        try:
            action = parse_action(text)
            state, evs = apply(state, action)
        except RulesError as error:
            where = f"round {state.round}" if not state.is_over() else "after the finish"
            raise type(error)(error.rule, f"action {number} of {len(texts)} ({where}), "
                              f"{text!r}: {error.detail}") from None
        actions.append(action)
        events.append(evs)
    return Race(setup, tuple(actions), tuple(events), start_events, state)


def _home_track(setup: RaceSetup, texts: list[Any], log: dict[str, Any]) -> str | None:
    """The one other track on which the whole log replays to its recorded ranking."""
    homes = []
    for track in track_ids():
        if track == setup.track:
            continue
        try:
            race = _replay_texts(replace(setup, track=track), texts, None)
        except RulesError:
            continue
        if race.final.is_over() and _ranking(race) == log.get("result", {}).get("ranking"):
            homes.append(track)
    return homes[0] if len(homes) == 1 else None


def _ranking(race: Race) -> list[str]:
    return [car_name(i) for i in race.final.ranking]


def verify_result(race: Race, log: dict[str, Any]) -> None:
    """MalformedInput unless the replayed race ends as the log records: cut short (over in
    the log, not in the replay) or a different ranking or number of rounds."""
    result = log.get("result")
    if not isinstance(result, dict):
        return
    if not race.final.is_over():
        raise MalformedInput("finish.ranking", f"the log is cut short: it ends after action "
                             f"{len(race.actions)} in round {race.final.round}, before the "
                             f"race is over")
    got = _ranking(race)
    if result.get("ranking") is not None and result["ranking"] != got:
        raise MalformedInput("finish.ranking",
                             f"replay ranks {' '.join(got)}, the log says "
                             f"{' '.join(map(str, result['ranking']))}")
    if result.get("rounds") is not None and result["rounds"] != race.final.round:
        raise MalformedInput("finish.ranking", f"replay takes {race.final.round} rounds, the "
                             f"log says {result['rounds']}")


def load_race(path: Path) -> Race:
    """Read a race log (or a golden file) and replay it; MalformedInput if it cannot be read
    or its recorded result differs from the replay."""
    data = read_json(path)
    log = race_log_of(data, path)
    if log is None:
        raise MalformedInput("round.sequence", f"{path} is not a {LOG_FORMAT} race log")
    race = replay_log(log)
    verify_result(race, log)
    return race
