"""Canonical text forms: action strings, and state / event JSON (round-trips exactly).

Malformed input raises ``MalformedInput`` naming what is wrong.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.framework.plainjson import check_plain
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    ChooseSpeed,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    GainSponsor,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
    UseSymbol,
)
from heatcore.heat.cards import ALL_CARDS, KNOWN_CARDS, Card, canonical
from heatcore.heat.modules.garage.data import card_types, is_sponsor
from heatcore.heat.modules.garage.data import symbols as garage_symbols
from heatcore.heat.modules.legends import check_deck_order, colours, legend_cards
from heatcore.heat.modules.weather import GARAGE, LEGENDS, MODULES, WEATHER, check_conditions
from heatcore.heat.rulings import DEFAULT_RULINGS, SETBACK_CORNER, Rulings, make_rulings
from heatcore.heat.setup import RaceSetup
from heatcore.heat.state import (
    NO_CHANGES,
    TEXT_FORMS,
    Car,
    Changes,
    Conditions,
    Garage,
    LegendDeck,
    Phase,
    RaceState,
    Stage,
    Turn,
    car_name,
)
from heatcore.heat.track import load_track

STATE_FORMAT = "heatcore.state/1"
_CARDS = frozenset(KNOWN_CARDS)
_MAX_INT = 10**6


def _is_number(token: str) -> bool:
    """A plain decimal number of sane size: ``int`` reads it (not ``²``, not 5,000 digits)."""
    return token.isascii() and token.isdigit() and len(token) <= 7


# ---------------------------------------------------------------- actions

def parse_car(token: str) -> int:
    """``P3`` -> 2."""
    if len(token) < 2 or token[0] != "P" or not _is_number(token[1:]) or token[1] == "0":
        raise MalformedInput("round.sequence", f"{token!r} is not a car name like P1")
    return int(token[1:]) - 1


def parse_cards(tokens: list[str], rule: str) -> tuple[Card, ...]:
    """Card tokens, each checked."""
    for token in tokens:
        if token not in _CARDS:
            raise MalformedInput(rule, f"unknown card {token!r} (cards: {' '.join(ALL_CARDS)})")
    return tuple(tokens)


def parse_action(text: str) -> Action:
    """Read an action's canonical string, e.g. ``P1 gear 3 play 1 3 S``."""
    if not isinstance(text, str):
        raise MalformedInput("round.sequence", f"an action is a string, not {type(text).__name__}")
    words = text.split()
    if len(words) < 2:
        raise MalformedInput("round.sequence", f"cannot read action {text!r}")
    car, verb, rest = parse_car(words[0]), words[1], words[2:]
    if verb == "gear" and len(rest) >= 2 and _is_number(rest[0]) and rest[1] == "play":
        return Plan(car, int(rest[0]), parse_cards(rest[2:], "play.playable-cards"))
    if verb == "cooldown" and len(rest) == 1 and _is_number(rest[0]):
        return Cooldown(car, int(rest[0]))
    simple: dict[tuple[str, ...], Action] = {
        ("adrenaline", "move"): AdrenalineMove(car),
        ("adrenaline", "cooldown"): AdrenalineCooldown(car),
        ("sector", "cooldown"): SectorCooldown(car),
        ("slipstream", "+1"): Slipstream(car, 1),
        ("slipstream", "+2"): Slipstream(car, 2),
        ("boost",): Boost(car),
        ("end", "react"): EndReact(car),
        ("slipstream",): Slipstream(car),
        ("no", "slipstream"): DeclineSlipstream(car),
        ("discard", "nothing"): Discard(car, ()),
    }
    key = (verb, *rest)
    if key in simple:
        return simple[key]
    if verb == "discard" and rest:
        return Discard(car, parse_cards(rest, "discard.optional"))
    if verb == "shuffle":
        return Shuffle(car, parse_cards(rest, "deck.reshuffle"))
    if verb == "legend" and rest[:1] == ["shuffle"] and all(map(_is_number, rest[1:])):
        return LegendShuffle(car, tuple(int(w) for w in rest[1:]))
    if verb == "slipstream" and len(rest) == 1 and rest[0][:1] == "+" and \
            _is_number(rest[0][1:]):
        return Slipstream(car, int(rest[0][1:]))
    if verb == "speeds" and rest and all(map(_is_number, rest)):
        return ChooseSpeed(car, tuple(int(w) for w in rest))
    if verb in card_types() and rest:
        return _symbol_action(car, verb, rest, text)
    if verb == "sponsor" and len(rest) == 1:
        card = parse_cards(rest, "sponsor.in-hand")[0]
        if not is_sponsor(card):
            raise MalformedInput("sponsor.in-hand", f"{card!r} is not a Sponsorship card")
        return GainSponsor(car, card)
    raise MalformedInput("round.sequence", f"cannot read action {text!r}")


def _symbol_action(car: int, card: str, rest: list[str], text: str) -> UseSymbol:
    """``P1 G12 cooldown 2``, ``P1 G22 salvage 1 S``, ``P1 G24 direct`` ..."""
    symbol, more = rest[0], rest[1:]
    if symbol not in garage_symbols():
        raise MalformedInput("garage.symbols-any-order", f"unknown symbol {symbol!r} in {text!r} "
                             f"(symbols: {', '.join(garage_symbols())})")
    if symbol == "salvage":
        return UseSymbol(car, card, symbol, 0, parse_cards(more, "upgrade.salvage"))
    if len(more) == 1 and _is_number(more[0]) and int(more[0]) <= _MAX_INT:
        return UseSymbol(car, card, symbol, int(more[0]))
    if more:
        raise MalformedInput("garage.symbols-any-order", f"cannot read action {text!r}")
    return UseSymbol(car, card, symbol)


def format_action(action: Action) -> str:
    """The canonical string of an action."""
    return str(action)


# ---------------------------------------------------------------- state JSON

def car_to_dict(index: int, car: Car) -> dict[str, Any]:
    """Car ``index`` as JSON data."""
    out = {
        "id": car_name(index), "position": car.position, "racing_line": car.racing_line,
        "gear": car.gear, "engine": car.engine, "hand": list(car.hand),
        "deck": list(car.deck), "discard": list(car.discard), "played": list(car.played),
        "flipped": list(car.flipped),
    }
    if car.legend is not None:
        out["legend"] = car.legend
    return out


def _turn_to_dict(turn: Turn, weather: bool, reach: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {
        "car": car_name(turn.car), "stage": turn.stage.value,
        "start_position": turn.start_position, "speed": turn.speed, "to_move": turn.to_move,
        "flips_left": turn.flips_left, "adrenaline": turn.adrenaline,
        "cooldown_used": turn.cooldown_used, "adrenaline_move_used": turn.adrenaline_move_used,
        "adrenaline_cooldown_used": turn.adrenaline_cooldown_used, "boosted": turn.boosted,
    }
    if weather:
        out["sector_cooldown_used"] = turn.sector_cooldown_used
    if reach:  # ruling.setback-corner "checked"
        out["reach"] = turn.reach
    if turn.chosen:  # Garage: the speeds chosen at the reveal
        out["chosen"] = list(turn.chosen)
    return out


def cars_to_dicts(cars: tuple[Car, ...]) -> list[dict[str, Any]]:
    """The cars as JSON data (``car_to_dict`` of each)."""
    return [car_to_dict(i, c) for i, c in enumerate(cars)]


def state_to_dict(state: RaceState,
                  cars_json: Callable[[tuple[Car, ...]], list[dict[str, Any]]] = cars_to_dicts,
                  rulings_json: Callable[[Rulings], dict[str, str]] = Rulings.as_dict,
                  ) -> dict[str, Any]:
    """The state as plain JSON data (its cars by ``cars_json``, its rulings by
    ``rulings_json``). A module's fields appear only when the race plays it (``weather``,
    the turn's ``sector_cooldown_used``), so a core state reads as before."""
    out = {
        "format": STATE_FORMAT,
        "track": state.track.id,
        "laps": state.laps,
        "modules": list(state.modules),
        "rulings": rulings_json(state.rulings),
        "round": state.round,
        "phase": state.phase.value,
        "order": list(map(car_name, state.order)),
        "cursor": state.cursor,
        "supply": state.supply,
        "shuffle": None if state.shuffle is None else car_name(state.shuffle),
        "ranking": list(map(car_name, state.ranking)),
        "turn": None if state.turn is None else _turn_to_dict(
            state.turn, state.conditions is not None,
            state.rulings.chose(SETBACK_CORNER, "checked")),
        "cars": cars_json(state.cars),
    }
    if state.conditions is not None:
        out["weather"] = {"token": state.conditions.weather, "road": list(state.conditions.road)}
    if state.legends is not None:
        out["legends"] = {"deck": list(state.legends.deck), "card": state.legends.card,
                          "aggressive": state.legends.aggressive}
    if state.garage is not None:
        garage: dict[str, Any] = {"owned": [list(o) for o in state.garage.owned],
                                  "used": list(state.garage.used),
                                  "salvage": state.garage.salvage}
        if state.garage.sponsors or state.garage.spent:  # sponsor.in-hand, sponsor.one-time
            garage["sponsors"] = [list(h) for h in state.garage.sponsors]
            garage["spent"] = list(state.garage.spent)
        out["garage"] = garage
    if not state.changes.is_core():
        out["changes"] = changes_to_dict(state.changes)
    if state.out:
        out["out"] = [car_name(i) for i in state.out]
    return out


def changes_to_dict(changes: Changes) -> dict[str, int | bool]:
    """A Championship event's changes as JSON data (``eliminate`` only when true)."""
    out: dict[str, int | bool] = {"heat": changes.heat, "stress": changes.stress,
                                  "hand": changes.hand}
    if changes.eliminate:
        out["eliminate"] = True
    return out


def changes_from(data: Any, where: str) -> Changes:
    """Read event changes (absent: the core race); MalformedInput naming the field."""
    if data is None:
        return NO_CHANGES
    r = _Reader(data, where)
    if not {"heat", "stress", "hand"} <= set(r.data) <= {"heat", "stress", "hand", "eliminate"}:
        raise MalformedInput("event.setup-changes", f"{where} has exactly the fields heat, "
                             "stress and hand (and eliminate, optionally)")
    return Changes(r.get_int("heat", "event.setup-changes"),
                   r.get_int("stress", "event.setup-changes"),
                   r.get_int("hand", "event.setup-changes"),
                   r.get_bool("eliminate") if "eliminate" in r.data else False)


def state_to_json(state: RaceState) -> str:
    """Canonical JSON: sorted keys, no spaces."""
    return json.dumps(state_to_dict(state), sort_keys=True, separators=(",", ":"))


class _Reader:
    """Typed access to a JSON object, raising MalformedInput with the path on error."""

    def __init__(self, data: Any, path: str) -> None:
        if not isinstance(data, dict):
            raise MalformedInput("round.sequence", f"{path} must be an object")
        self.data, self.path = data, path

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise MalformedInput("round.sequence", f"{self.path}.{key} is missing")
        return self.data[key]

    def get_int(self, key: str, rule: str = "round.sequence") -> int:
        value = self.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > _MAX_INT:
            raise MalformedInput(rule, f"{self.path}.{key} must be an integer of sane size")
        return value

    def get_bool(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            raise MalformedInput("round.sequence", f"{self.path}.{key} must be true or false")
        return value

    def get_str(self, key: str) -> str:
        value = self.get(key)
        if not isinstance(value, str):
            raise MalformedInput("round.sequence", f"{self.path}.{key} must be a string")
        return value

    def get_cards(self, key: str, rule: str = "setup.deck") -> tuple[Card, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise MalformedInput(rule, f"{self.path}.{key} must be a list of card tokens")
        return parse_cards(value, rule)

    def get_cars(self, key: str, count: int) -> tuple[int, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise MalformedInput("round.sequence", f"{self.path}.{key} must be a list of cars")
        out = tuple(parse_car(c) for c in value)
        if any(i >= count for i in out):
            raise MalformedInput("round.sequence", f"{self.path}.{key} names an unknown car")
        return out


def rulings_from(data: Any, path: str) -> Rulings:
    """The ``rulings`` object of a state or setup (ruling ID -> chosen alternative); a
    missing object (None), or a ruling left out, takes the default."""
    if data is None:
        return DEFAULT_RULINGS
    if not isinstance(data, dict):
        raise MalformedInput("round.sequence", f"{path} must be an object of ruling -> choice")
    return make_rulings(data)


def _car_from(data: Any, index: int) -> Car:
    r = _Reader(data, f"cars[{index}]")
    if r.get_str("id") != car_name(index):
        raise MalformedInput("round.sequence", f"cars[{index}].id must be {car_name(index)}")
    legend = r.get_str("legend") if "legend" in r.data else None
    if legend is not None and legend not in colours():
        raise MalformedInput("legend.setup", f"cars[{index}].legend: unknown colour {legend!r}")
    return Car(legend=legend, position=r.get_int("position"), racing_line=r.get_bool("racing_line"),
               gear=r.get_int("gear", "gear.range"), engine=r.get_int("engine", "setup.engine"),
               hand=canonical(r.get_cards("hand")), deck=r.get_cards("deck"),
               discard=canonical(r.get_cards("discard")), played=canonical(r.get_cards("played")),
               flipped=r.get_cards("flipped"))


def _turn_from(data: Any, count: int, weather: bool, reach: bool = False) -> Turn:
    r = _Reader(data, "turn")
    car = parse_car(r.get_str("car"))
    if car >= count:
        raise MalformedInput("round.sequence", "turn.car names an unknown car")
    try:
        stage = Stage(r.get_str("stage"))
    except ValueError:
        raise MalformedInput("round.sequence", "turn.stage is not a known stage") from None
    return Turn(car=car, stage=stage, start_position=r.get_int("start_position"),
                speed=r.get_int("speed"), to_move=r.get_int("to_move"),
                flips_left=r.get_int("flips_left"),
                adrenaline=r.get_bool("adrenaline"), cooldown_used=r.get_bool("cooldown_used"),
                adrenaline_move_used=r.get_bool("adrenaline_move_used"),
                adrenaline_cooldown_used=r.get_bool("adrenaline_cooldown_used"),
                boosted=r.get_bool("boosted"),
                sector_cooldown_used=r.get_bool("sector_cooldown_used") if weather else False,
                reach=r.get_int("reach") if reach else 0,
                chosen=_chosen_from(r.data.get("chosen", [])))


def _chosen_from(data: Any) -> tuple[int, ...]:
    """turn.chosen (optional, Garage): the speeds chosen at the reveal, each 0-20."""
    if not isinstance(data, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 20 for v in data):
        raise MalformedInput("garage.choose-speed", "turn.chosen must be a list of speeds")
    return tuple(data)


def _modules_from(r: _Reader) -> tuple[str, ...]:
    value = r.get("modules")
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise MalformedInput("weather.module", "state.modules must be a list of module names")
    if tuple(m for m in MODULES if m in value) != tuple(value):
        raise MalformedInput("weather.module", f"state.modules must list known modules once "
                             f"each, in the order {', '.join(MODULES)}")
    return tuple(value)


def _legends_from(r: _Reader, modules: tuple[str, ...]) -> LegendDeck | None:
    if LEGENDS not in modules:
        if "legends" in r.data:
            raise MalformedInput("weather.module",
                                 "state.legends given but module 'legends' is off")
        return None
    g = _Reader(r.get("legends"), "state.legends")
    deck = g.get("deck")
    if not isinstance(deck, list) or not all(
            isinstance(c, int) and not isinstance(c, bool) for c in deck):
        raise MalformedInput("legend.deck", "state.legends.deck must be a list of card numbers")
    card = g.get("card")
    if card is not None and (not isinstance(card, int) or card not in legend_cards()):
        raise MalformedInput("legend.deck", "state.legends.card must be a card number or null")
    if len(set(deck)) != len(deck) or not set(deck) <= set(legend_cards()) or card in deck:
        raise MalformedInput("legend.deck", "state.legends.deck holds each card at most once")
    return LegendDeck(tuple(deck), card, g.get_bool("aggressive"))


def _conditions_from(r: _Reader, modules: tuple[str, ...]) -> Conditions | None:
    if WEATHER not in modules:
        if "weather" in r.data:
            raise MalformedInput("weather.module",
                                 "state.weather given but module 'weather' is off")
        return None
    w = _Reader(r.get("weather"), "state.weather")
    road = w.get("road")
    if not isinstance(road, list) or not all(isinstance(t, str) for t in road):
        raise MalformedInput("road.draw", "state.weather.road must be a list of token names")
    return Conditions(w.get_str("token"), tuple(road))


def _garage_from(r: _Reader, modules: tuple[str, ...], count: int) -> Garage | None:
    if GARAGE not in modules:
        if "garage" in r.data:
            raise MalformedInput("garage.module", "state.garage given but module 'garage' is off")
        return None
    g = _Reader(r.get("garage"), "state.garage")
    owned = g.get("owned")
    if not isinstance(owned, list) or len(owned) != count:
        raise MalformedInput("garage.module", "state.garage.owned lists each car's upgrades")
    used = g.get("used")
    if not isinstance(used, list) or not all(
            isinstance(u, str) and len(u.split()) == 2 and u.split()[0] in card_types()
            and u.split()[1] in garage_symbols() for u in used):
        raise MalformedInput("garage.symbols-any-order",
                             "state.garage.used lists 'CARD SYMBOL' entries")
    return Garage(tuple(canonical(_Reader({"o": o}, f"state.garage.owned[{i}]").get_cards(
        "o", "garage.module")) for i, o in enumerate(owned)), tuple(sorted(used)),
        g.get_bool("salvage"), *_sponsors_from(g, count))


def _sponsors_from(g: _Reader, count: int
                   ) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """The Sponsorship cards held by each car and those used (sponsor.in-hand,
    sponsor.one-time); none when the state names none."""
    if "sponsors" not in g.data and "spent" not in g.data:
        return (), ()
    held = g.get("sponsors")
    if not isinstance(held, list) or len(held) != count:
        raise MalformedInput("sponsor.in-hand", "state.garage.sponsors lists each car's "
                             "Sponsorship cards")
    out = tuple(canonical(_Reader({"h": h}, f"state.garage.sponsors[{i}]").get_cards(
        "h", "sponsor.in-hand")) for i, h in enumerate(held))
    spent = canonical(g.get_cards("spent", "sponsor.one-time"))
    if not all(is_sponsor(c) for c in (*spent, *(c for h in out for c in h))):
        raise MalformedInput("sponsor.in-hand", "state.garage.sponsors and spent list "
                             "Sponsorship cards only")
    return out, spent


def state_from_dict(data: Any) -> RaceState:
    """Build a state from JSON data. Raises MalformedInput on any unreadable field; use
    ``validity.validate`` to check the rules' invariants."""
    check_plain(data, "state", "round.sequence")
    r = _Reader(data, "state")
    if r.get("format") != STATE_FORMAT:
        raise MalformedInput("round.sequence", f"state.format must be {STATE_FORMAT!r}")
    track = load_track(r.get_str("track"))
    raw_cars = r.get("cars")
    if not isinstance(raw_cars, list):
        raise MalformedInput("round.sequence", "state.cars must be a list")
    cars = tuple(_car_from(c, i) for i, c in enumerate(raw_cars))
    try:
        phase = Phase(r.get_str("phase"))
    except ValueError:
        raise MalformedInput("round.sequence", "state.phase is not a known phase") from None
    modules = _modules_from(r)
    conditions = _conditions_from(r, modules)
    if conditions is not None:
        check_conditions(conditions, track)
    legends = _legends_from(r, modules)
    shuffle = r.get("shuffle")
    if shuffle is not None and not isinstance(shuffle, str):
        raise MalformedInput("deck.reshuffle", "state.shuffle must be a car name or null")
    raw_turn = r.get("turn")
    rulings = rulings_from(r.data.get("rulings"), "state.rulings")
    reach = rulings.chose(SETBACK_CORNER, "checked")
    return RaceState(
        track=track, laps=r.get_int("laps", "setup.track-laps"), cars=cars,
        supply=r.get_int("supply", "setup.stress-supply"), round=r.get_int("round"), phase=phase,
        order=r.get_cars("order", len(cars)), cursor=r.get_int("cursor"),
        turn=None if raw_turn is None else _turn_from(raw_turn, len(cars),
                                                      conditions is not None, reach),
        shuffle=None if shuffle is None else parse_car(shuffle),
        ranking=r.get_cars("ranking", len(cars)), modules=modules, conditions=conditions,
        legends=legends, garage=_garage_from(r, modules, len(cars)),
        rulings=rulings, changes=changes_from(r.data.get("changes"), "state.changes"),
        out=r.get_cars("out", len(cars)) if "out" in r.data else (),
    )


def state_from_json(text: str) -> RaceState:
    """Parse a state from JSON text (MalformedInput for text that is not JSON, nests too
    deeply or holds an integer of over 4,300 digits)."""
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as error:  # JSONDecodeError, UnicodeDecodeError, digits
        raise MalformedInput("round.sequence", f"not valid JSON: {error}") from None
    except RecursionError:
        raise MalformedInput("round.sequence", "not valid JSON: nested too deeply") from None
    return state_from_dict(data)


# ---------------------------------------------------------------- events, setup

def setup_to_dict(setup: RaceSetup) -> dict[str, Any]:
    """A race setup as JSON data."""
    out: dict[str, Any] = {"track": setup.track, "players": setup.players, "laps": setup.laps,
                           "grid": [car_name(i) for i in setup.grid],
                           "decks": [list(d) for d in setup.decks],
                           "rulings": setup.rulings.as_dict()}
    if setup.modules:
        out["modules"] = list(setup.modules)
    if setup.weather is not None:
        out["weather"] = {"token": setup.weather, "road": list(setup.road)}
    if setup.legends:
        out["legends"] = {"cars": setup.legends, "deck": list(setup.legend_deck),
                          "aggressive": setup.aggressive}
    if setup.upgrades:
        out["upgrades"] = [list(u) for u in setup.upgrades]
    if setup.sponsors:
        out["sponsors"] = [list(h) for h in setup.sponsors]
    if not setup.changes.is_core():
        out["changes"] = changes_to_dict(setup.changes)
    return out


def setup_from_dict(data: Any) -> RaceSetup:
    """Read a race setup from JSON data."""
    check_plain(data, "setup", "round.sequence")
    r = _Reader(data, "setup")
    players = r.get_int("players", "setup.grid")
    decks = r.get("decks")
    if not isinstance(decks, list):
        raise MalformedInput("setup.deck", "setup.decks must be a list")
    modules = _modules_from(_Reader({"modules": r.data.get("modules", [])}, "setup"))
    conditions = _conditions_from(r, modules)
    legends = _setup_legends(r, modules)
    return RaceSetup(track=r.get_str("track"), players=players,
                     laps=r.get_int("laps", "setup.track-laps"),
                     grid=r.get_cars("grid", players + legends.get("legends", 0)),
                     decks=tuple(_Reader({"d": d}, f"setup.decks[{i}]").get_cards("d")
                                 for i, d in enumerate(decks)),
                     modules=modules, weather=conditions.weather if conditions else None,
                     road=conditions.road if conditions else (), **legends,
                     rulings=rulings_from(r.data.get("rulings"), "setup.rulings"),
                     upgrades=_setup_upgrades(r, modules),
                     sponsors=_setup_sponsors(r, players),
                     changes=changes_from(r.data.get("changes"), "setup.changes"))


def _setup_sponsors(r: _Reader, players: int) -> tuple[tuple[str, ...], ...]:
    """Each player's Sponsorship cards drawn into the hand at the start (sponsor.in-hand)."""
    if "sponsors" not in r.data:
        return ()
    raw = r.get("sponsors")
    if not isinstance(raw, list) or len(raw) != players:
        raise MalformedInput("sponsor.in-hand", "setup.sponsors must list each player's cards")
    return tuple(_Reader({"h": h}, f"setup.sponsors[{i}]").get_cards("h", "sponsor.in-hand")
                 for i, h in enumerate(raw))


def _setup_upgrades(r: _Reader, modules: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    if GARAGE not in modules:
        return ()
    raw = r.get("upgrades")
    if not isinstance(raw, list) or not all(
            isinstance(u, list) and all(isinstance(c, str) for c in u) for u in raw):
        raise MalformedInput("garage.module", "setup.upgrades must list each player's cards")
    return tuple(tuple(u) for u in raw)


def _setup_legends(r: _Reader, modules: tuple[str, ...]) -> dict[str, Any]:
    if LEGENDS not in modules:
        return {}
    g = _Reader(r.get("legends"), "setup.legends")
    deck = g.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, int) for c in deck):
        raise MalformedInput("legend.deck", "setup.legends.deck must be a list of card numbers")
    return {"legends": g.get_int("cars", "legend.setup"), "legend_deck": check_deck_order(deck),
            "aggressive": g.get_bool("aggressive")}


TEXT_FORMS["json"] = state_to_json
