"""Canonical text forms of Rallyman GT: action strings, state JSON (exact round trip),
events and setups."""

from __future__ import annotations

import json
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.framework.events import event_to_dict
from heatcore.framework.plainjson import check_plain
from heatcore.rallyman.actions import (
    Action,
    Dice,
    Draw,
    Focus,
    Go,
    Keep,
    Lay,
    Pit,
    Relay,
    Roll,
    Side,
    Stop,
)
from heatcore.rallyman.components import DOUBLE_ZERO, TOKENS
from heatcore.rallyman.options import Options, options_from_dict
from heatcore.rallyman.setup import RaceSetup
from heatcore.rallyman.state import TEXT_FORMS, Car, RaceState, Step, Turn, car_name
from heatcore.rallyman.track import load_track

__all__ = [
    "event_to_dict",
    "format_action",
    "parse_action",
    "state_from_dict",
    "state_from_json",
    "state_to_dict",
    "state_to_json",
]

STATE_FORMAT = "heatcore.rallyman-gt.state/1"
_RULE = "rgt.turn.sequence"
_DICE = {"G1", "G2", "G3", "G4", "G5", "G6", "C", "B", "U"}


def _car(token: str) -> int:
    number = token[1:]
    if len(token) < 2 or token[0] != "P" or not (number.isascii() and number.isdigit()) \
            or token[1] == "0" or len(number) > 7:
        raise MalformedInput(_RULE, f"{token!r} is not a car name like P1")
    return int(token[1:]) - 1


def _die(token: str) -> str:
    if token.rstrip("!") not in _DICE or token.count("!") > 1:
        raise MalformedInput(
            _RULE, f"{token!r} is not a die (G1..G6, C, B, U, with ! for a warning)"
        )
    return token


def parse_action(text: Any) -> Action:
    """Read an action's canonical string, e.g. ``P1 lay G3 T2.L1.2``."""
    if not isinstance(text, str):
        raise MalformedInput(_RULE, "an action is a string")
    words = text.split()
    if len(words) < 2:
        raise MalformedInput(_RULE, f"cannot read action {text!r}")
    car, verb, rest = _car(words[0]), words[1], words[2:]
    simple: dict[str, Action] = {
        "focus": Focus(car),
        "roll": Roll(car),
        "stop": Stop(car),
        "keep": Keep(car),
    }
    if verb in simple and not rest:
        return simple[verb]
    if verb == "lay" and len(rest) == 2 and _die(rest[0]) and "!" not in rest[0]:
        return Lay(car, rest[0], rest[1])
    if verb == "go" and rest in (["one"], ["flat"]):
        return Go(car, rest[0])
    if verb == "dice" and len(rest) == 1 and set(rest[0]) <= set("-!/") and rest[0]:
        groups = tuple(tuple(c == "!" for c in g) for g in rest[0].split("/"))
        if all(groups):
            return Dice(car, groups)
    if verb == "relay" and len(rest) >= 2:
        return Relay(car, tuple(_die(t) for t in rest[:-1]), rest[-1])
    if verb == "off" and rest in (["1"], ["3"]):
        return Side(car, int(rest[0]))
    if verb == "draw" and len(rest) == 1 and rest[0] in TOKENS:
        return Draw(car, rest[0])
    if verb == "pit" and rest in (["none"], ["tyres"], ["repair"], ["both"]):
        return Pit(car, rest[0])
    raise MalformedInput(_RULE, f"cannot read action {text!r}")


def format_action(action: Action) -> str:
    """The canonical string of an action."""
    return str(action)


def _gear_out(gear: int) -> str:
    return "00" if gear == DOUBLE_ZERO else str(gear)


def _gear_in(value: Any) -> int:
    if value == "00":
        return DOUBLE_ZERO
    if isinstance(value, str) and value in {"0", "1", "2", "3", "4", "5", "6"}:
        return int(value)
    raise MalformedInput("rgt.round.marker-colour", f"gear marker {value!r} is not 00, 0..6")


def _step_out(s: Step) -> dict[str, Any]:
    return {
        "die": s.die,
        "gear": s.gear,
        "brakes": s.brakes,
        "boosts": s.boosts,
        "to": s.to,
        "track_warnings": s.track_warnings,
        "overspeed": s.overspeed,
        "finish": s.finish,
    }


def _flags(groups: tuple[tuple[bool, ...], ...]) -> list[str]:
    return ["".join("!" if w else "-" for w in g) for g in groups]


def _turn_out(t: Turn) -> dict[str, Any]:
    return {
        "car": car_name(t.car),
        "stage": t.stage,
        "start": t.start,
        "start_gear": _gear_out(t.start_gear),
        "start_laps": t.start_laps,
        "plan": [_step_out(s) for s in t.plan],
        "mode": t.mode,
        "results": _flags(t.results),
        "fixed": t.fixed,
        "fix_next": t.fix_next,
        "pool": list(t.pool),
        "relay": [_step_out(s) for s in t.relay],
        "relay_results": _flags(t.relay_results),
        "marker": _gear_out(t.marker),
        "loc_space": t.loc_space,
        "draws": t.draws,
    }


def _car_out(i: int, c: Car) -> dict[str, Any]:
    return {
        "id": car_name(i),
        "space": c.space,
        "laps": c.laps,
        "gear": _gear_out(c.gear),
        "colour": c.colour,
        "where": c.where,
        "tyres": c.tyres,
        "class": c.car_class,
        "focus": c.focus,
        "tokens": list(c.tokens),
        "side": c.side,
        "pit_lane": c.pit_lane,
    }


def state_to_dict(state: RaceState) -> dict[str, Any]:
    """The state as plain JSON data."""
    return {
        "format": STATE_FORMAT,
        "ruleset": "rallyman-gt",
        "track": state.track.id,
        "laps": state.laps,
        "options": state.options.as_dict(),
        "weather": state.weather,
        "round": state.round,
        "order": [car_name(i) for i in state.order],
        "cursor": state.cursor,
        "bag": dict(zip(TOKENS, state.bag, strict=True)),
        "yellow": [car_name(i) for i in state.yellow],
        "ranking": [car_name(i) for i in state.ranking],
        "over": state.over,
        "turn": None if state.turn is None else _turn_out(state.turn),
        "cars": [_car_out(i, c) for i, c in enumerate(state.cars)],
    }


def state_to_json(state: RaceState) -> str:
    """Canonical JSON: sorted keys, no spaces."""
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


class _R:
    """Typed reads from a JSON object; MalformedInput names the path."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise MalformedInput(_RULE, f"{path} must be an object")
        self.data, self.path = data, path

    def get_any(self, key: str) -> Any:
        if key not in self.data:
            raise MalformedInput(_RULE, f"{self.path}.{key} is missing")
        return self.data[key]

    def get_int(self, key: str) -> int:
        v = self.get_any(key)
        if not isinstance(v, int) or isinstance(v, bool) or not -(10**6) < v < 10**6:
            raise MalformedInput(_RULE, f"{self.path}.{key} must be an integer")
        return v

    def get_bool(self, key: str) -> bool:
        v = self.get_any(key)
        if not isinstance(v, bool):
            raise MalformedInput(_RULE, f"{self.path}.{key} must be true or false")
        return v

    def get_str(self, key: str, allowed: tuple[str, ...] = ()) -> str:
        v = self.get_any(key)
        if not isinstance(v, str) or (allowed and v not in allowed):
            raise MalformedInput(
                _RULE,
                f"{self.path}.{key} must be a string"
                + (f" among {', '.join(allowed)}" if allowed else ""),
            )
        return v

    def get_list(self, key: str) -> list[Any]:
        v = self.get_any(key)
        if not isinstance(v, list):
            raise MalformedInput(_RULE, f"{self.path}.{key} must be a list")
        return v


def _step_in(data: Any, path: str, spaces: dict[str, Any]) -> Step:
    r = _R(data, path)
    to = r.get_str("to")
    if to not in spaces:
        raise MalformedInput("rgt.move.forward", f"{path}.to names an unknown space")
    return Step(
        _die(r.get_str("die")),
        r.get_int("gear"),
        r.get_int("brakes"),
        r.get_int("boosts"),
        to,
        r.get_int("track_warnings"),
        r.get_bool("overspeed"),
        r.get_bool("finish"),
    )


def _space_in(r: _R, key: str, spaces: dict[str, Any], blank: bool) -> str:
    """A space of the track (or "" where ``blank`` allows it)."""
    space = r.get_str(key)
    if space not in spaces and not (blank and space == ""):
        raise MalformedInput("rgt.move.forward", f"{r.path}.{key} names an unknown space")
    return space


def _flags_in(values: list[Any], path: str) -> tuple[tuple[bool, ...], ...]:
    if not all(isinstance(v, str) and set(v) <= {"-", "!"} for v in values):
        raise MalformedInput(_RULE, f"{path} must list strings of - and !")
    return tuple(tuple(c == "!" for c in v) for v in values)


def _cars_in(values: list[Any], count: int, path: str) -> tuple[int, ...]:
    out = tuple(_car(v) if isinstance(v, str) else -1 for v in values)
    if any(not 0 <= i < count for i in out):
        raise MalformedInput(_RULE, f"{path} names an unknown car")
    return out


def state_from_dict(data: Any) -> RaceState:
    """Build a state from JSON data (MalformedInput on an unreadable field; use
    ``validity.validate`` for the rules' invariants)."""
    check_plain(data, "state", _RULE)
    r = _R(data, "state")
    if r.get_any("format") != STATE_FORMAT:
        raise MalformedInput(_RULE, f"state.format must be {STATE_FORMAT!r}")
    track = load_track(r.get_str("track"))
    cars = []
    for i, raw in enumerate(r.get_list("cars")):
        c = _R(raw, f"cars[{i}]")
        if c.get_str("id") != car_name(i):
            raise MalformedInput(_RULE, f"cars[{i}].id must be {car_name(i)}")
        space = c.get_str("space")
        if space not in track.spaces:
            raise MalformedInput("rgt.move.forward", f"cars[{i}].space is not on {track.id}")
        tokens = c.get_list("tokens")
        if not all(t in TOKENS for t in tokens):
            raise MalformedInput("rgt.ruling.damage-bag", f"cars[{i}].tokens: unknown token")
        cars.append(
            Car(
                space=space,
                laps=c.get_int("laps"),
                gear=_gear_in(c.get_any("gear")),
                colour=c.get_str("colour", ("white", "black")),
                where=c.get_str("where", ("track", "off", "pit", "finished")),
                tyres=c.get_str("tyres", ("asphalt", "rain")),
                car_class=c.get_str("class", ("GT6", "GT5", "GT4")),
                focus=c.get_int("focus"),
                tokens=tuple(tokens),
                side=c.get_int("side"),
                pit_lane=c.get_str("pit_lane", ("", "tyres", "repair", "both")),
            )
        )
    n = len(cars)
    bag = _R(r.get_any("bag"), "state.bag")
    turn = None
    raw_turn = r.get_any("turn")
    if raw_turn is not None:
        t = _R(raw_turn, "turn")
        car = _cars_in([t.get_str("car")], n, "turn.car")[0]
        turn = Turn(
            car=car,
            stage=t.get_str("stage", ("plan", "roll", "dice", "relay", "side", "draw", "pit")),
            start=_space_in(t, "start", track.spaces, False),
            start_gear=_gear_in(t.get_any("start_gear")),
            start_laps=t.get_int("start_laps"),
            plan=tuple(_step_in(s, "turn.plan", track.spaces) for s in t.get_list("plan")),
            mode=t.get_str("mode", ("", "one", "flat")),
            results=_flags_in(t.get_list("results"), "turn.results"),
            fixed=t.get_int("fixed"),
            fix_next=t.get_bool("fix_next"),
            pool=tuple(_die(str(d)) for d in t.get_list("pool")),
            relay=tuple(_step_in(s, "turn.relay", track.spaces) for s in t.get_list("relay")),
            relay_results=_flags_in(t.get_list("relay_results"), "turn.relay_results"),
            marker=_gear_in(t.get_any("marker")),
            loc_space=_space_in(t, "loc_space", track.spaces, True),
            draws=t.get_int("draws"),
        )
    return RaceState(
        track=track,
        laps=r.get_int("laps"),
        options=options_from_dict(r.get_any("options")),
        weather=r.get_str("weather", ("dry", "wet")),
        round=r.get_int("round"),
        order=_cars_in(r.get_list("order"), n, "state.order"),
        cursor=r.get_int("cursor"),
        cars=tuple(cars),
        bag=tuple(bag.get_int(t) for t in TOKENS),
        turn=turn,
        yellow=_cars_in(r.get_list("yellow"), n, "state.yellow"),
        ranking=_cars_in(r.get_list("ranking"), n, "state.ranking"),
        over=r.get_bool("over"),
    )


def state_from_json(text: str) -> RaceState:
    """Parse a state from JSON text (MalformedInput for text that is not JSON, nests too
    deeply or holds an integer of over 4,300 digits)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as error:  # JSONDecodeError, UnicodeDecodeError, digits
        raise MalformedInput(_RULE, f"not valid JSON: {error}") from None
    except RecursionError:
        raise MalformedInput(_RULE, "not valid JSON: nested too deeply") from None
    return state_from_dict(data)


def setup_to_dict(setup: RaceSetup) -> dict[str, Any]:
    """A setup as JSON data."""
    return {
        "ruleset": "rallyman-gt",
        "track": setup.track,
        "players": setup.players,
        "laps": setup.laps,
        "grid": [car_name(i) for i in setup.grid],
        "weather": setup.weather,
        "class": setup.car_class,
        "tyres": list(setup.tyres),
        "options": setup.options.as_dict(),
    }


def setup_from_dict(data: Any) -> RaceSetup:
    """Read a setup from JSON data."""
    check_plain(data, "setup", _RULE)
    r = _R(data, "setup")
    players = r.get_int("players")
    return RaceSetup(
        track=r.get_str("track"),
        players=players,
        laps=r.get_int("laps"),
        grid=_cars_in(r.get_list("grid"), players, "setup.grid"),
        weather=r.get_str("weather", ("dry", "wet")),
        car_class=r.get_str("class", ("GT6", "GT5", "GT4")),
        tyres=tuple(r.get_list("tyres")),
        options=options_from_dict(r.get_any("options")),
    )


def options_to_dict(options: Options) -> dict[str, str]:
    """Switches that differ from heatcore's rulings."""
    return options.as_dict()


TEXT_FORMS["json"] = state_to_json
