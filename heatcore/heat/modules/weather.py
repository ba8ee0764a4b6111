"""Weather and Road Conditions module: the tokens as data, and the effects asked for by the
steps of a turn, each judged where the car is at that moment (``road.where-the-car-is``).

Every function here returns the core game's value when the race does not play the module,
so the steps call them unconditionally.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements, spec_dir
from heatcore.heat import hooks
from heatcore.heat.cards import HEAT, canonical, starting_deck
from heatcore.heat.rulings import COOLING_BONUS_COOLDOWN, FREE_BOOST_ENGINE, SLIPSTREAM_BONUS_PART
from heatcore.heat.state import NO_CHANGES, Changes, Conditions, RaceState
from heatcore.heat.track import Track

WEATHER = "weather"
LEGENDS = "legends"
GARAGE = "garage"
#: Every module heatcore knows, in canonical order.
MODULES: tuple[str, ...] = (WEATHER, LEGENDS, GARAGE)

#: Sector effects (the weather's, read through a Weather road token, and the sector tokens').
NO_COOLDOWN = "no-cooldown"
NO_SLIPSTREAM = "no-slipstream"
COOLING_BONUS = "cooling-bonus"
FREE_BOOST = "free-boost"
SLIPSTREAM_BONUS = {"slipstream-plus-1": 1, "slipstream-plus-2": 2}


@dataclass(frozen=True)
class WeatherToken:
    """One weather token: its setup change and its sector effect."""

    id: str
    name: str
    stress_in_deck: int
    heat_in_engine: int
    heat_to_deck: int
    heat_to_discard: int
    sector: str


@dataclass(frozen=True)
class RoadToken:
    """One kind of road-condition token: corner or sector, and how many the box holds."""

    id: str
    name: str
    placement: str
    count: int


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "modules" / "weather.json").read_text(
        encoding="utf-8"))
    return data


@cache
def weather_tokens() -> dict[str, WeatherToken]:
    """The 6 weather tokens by ID, in box order."""
    return {w["id"]: WeatherToken(w["id"], w["name"], w["setup"]["stress_in_deck"],
                                  w["setup"]["heat_in_engine"], w["setup"]["heat_to_deck"],
                                  w["setup"]["heat_to_discard"], w["sector"])
            for w in _data()["weather"]}


@cache
def road_tokens() -> dict[str, RoadToken]:
    """The 6 kinds of road-condition token by ID, in box order."""
    return {r["id"]: RoadToken(r["id"], r["name"], r["placement"], r["count"])
            for r in _data()["road"]}


def road_bag() -> tuple[str, ...]:
    """The 12 road-condition tokens of the box, sorted (the bag a setup draws from)."""
    return tuple(sorted(t.id for t in road_tokens().values() for _ in range(t.count)))


@implements("weather.draw", "road.draw")
def check_conditions(conditions: Conditions, track: Track) -> None:
    """Raise MalformedInput naming the rule unless the weather token exists and the road
    tokens are one per corner, drawn from the box's 12."""
    if conditions.weather not in weather_tokens():
        raise MalformedInput("weather.draw", f"unknown weather token {conditions.weather!r} "
                             f"(known: {', '.join(weather_tokens())})")
    if len(conditions.road) != len(track.corners):
        raise MalformedInput("road.draw", f"track {track.id} needs {len(track.corners)} road "
                             f"tokens, one per corner, not {len(conditions.road)}")
    unknown = [t for t in conditions.road if t not in road_tokens()]
    if unknown:
        raise MalformedInput("road.draw", f"unknown road token {unknown[0]!r} "
                             f"(known: {', '.join(road_tokens())})")
    drawn = Counter(conditions.road)
    for token, count in drawn.items():
        if count > road_tokens()[token].count:
            raise MalformedInput("road.draw", f"the box holds only {road_tokens()[token].count} "
                                 f"{token!r} tokens, not {count}")


@dataclass(frozen=True)
class StartingCards:
    """One player's cards at setup: the deck's cards (a multiset), engine and discard."""

    deck: tuple[str, ...]
    engine: int
    discard: tuple[str, ...]
    stress: int


@implements("weather.setup-change")
@implements("event.setup-changes")
def starting_cards(track: Track, weather: str | None,
                   changes: Changes = NO_CHANGES) -> StartingCards:
    """A player's starting cards on ``track`` under ``weather`` (None: the core race) and a
    Championship event's ``changes`` (Heat in the engine, Stress in the deck)."""
    if weather is None:
        stress = track.stress + changes.stress
        return StartingCards(starting_deck(stress), track.heat + changes.heat, (), stress)
    token = weather_tokens()[weather]
    stress = track.stress + token.stress_in_deck + changes.stress
    deck = starting_deck(stress) + (HEAT,) * token.heat_to_deck
    engine = (track.heat + token.heat_in_engine - token.heat_to_deck - token.heat_to_discard
              + changes.heat)
    return StartingCards(canonical(deck), engine, (HEAT,) * token.heat_to_discard, stress)


def heat_per_car(state: RaceState) -> int:
    """The Heat cards each car owns for the whole race (engine, deck, hand, discard, play)."""
    extra = 0 if state.conditions is None else weather_tokens()[
        state.conditions.weather].heat_in_engine
    return state.track.heat + 1 + extra + state.changes.heat


def stress_per_deck(state: RaceState) -> int:
    """The Stress cards each starting deck held."""
    extra = 0 if state.conditions is None else weather_tokens()[
        state.conditions.weather].stress_in_deck
    return state.track.stress + extra + state.changes.stress


@implements("road.where-the-car-is", "weather.sector-only", "road.placement")
def sector_effect(state: RaceState, position: int) -> str | None:
    """The sector effect in force on ``position``: the weather's sector effect where the
    road token is Weather, the token itself for the other sector tokens, else None."""
    conditions = state.conditions
    if conditions is None:
        return None
    token = conditions.road[state.track.sector_of(position)]
    if token == WEATHER:
        return weather_tokens()[conditions.weather].sector
    if road_tokens()[token].placement == "sector":
        return token
    return None


def _effect(state: RaceState, car: int) -> str | None:
    return sector_effect(state, state.cars[car].position)


@implements("weather.no-cooldown")
def cooldown_allowed(state: RaceState, car: int) -> bool:
    """Whether the car may cool down where it stands now (not in a Cloud sector)."""
    return _effect(state, car) != NO_COOLDOWN


@implements("weather.cooling-bonus", "ruling.cooling-bonus-own-cooldown")
def cooling_bonus(state: RaceState, car: int) -> bool:
    """Whether the car may take the sector cooldown (a cooldown of its own) where it stands
    now: in a Snow or Rain sector, unless the race plays the alternative "gear-plus-one"."""
    return (_effect(state, car) == COOLING_BONUS
            and not state.rulings.chose(COOLING_BONUS_COOLDOWN, "gear-plus-one"))


@implements("weather.cooling-bonus", "ruling.cooling-bonus-own-cooldown")
def gear_cooldown_bonus(state: RaceState, car: int) -> int:
    """What the sector adds to the gear's cooldown where the car stands now: 1 in a Snow or
    Rain sector under the alternative "gear-plus-one", else 0."""
    return int(_effect(state, car) == COOLING_BONUS
               and state.rulings.chose(COOLING_BONUS_COOLDOWN, "gear-plus-one"))


@implements("road.free-boost")
def free_boost(state: RaceState, car: int) -> bool:
    """Whether a boost costs no Heat where the car stands now."""
    return _effect(state, car) == FREE_BOOST


@implements("road.free-boost", "react.boost", "ruling.free-boost-empty-engine")
def boost_open(state: RaceState, car: int, engine: int) -> bool:
    """Whether an engine holding ``engine`` Heat may boost where the car stands now: with a
    Heat to pay, or for free in a Heat control sector (there too with a Heat in the engine
    under the alternative "needs-heat")."""
    if engine >= 1:
        return True
    return free_boost(state, car) and not state.rulings.chose(FREE_BOOST_ENGINE, "needs-heat")


@implements("weather.no-slipstream")
def slipstream_allowed(state: RaceState, car: int) -> bool:
    """Whether the car may slipstream from where it stands (not from a Fog sector)."""
    return _effect(state, car) != NO_SLIPSTREAM


@implements("weather.slipstream-boost", "road.slipstream-boost")
def slipstream_bonus(state: RaceState, car: int) -> int:
    """The optional extra slipstream spaces where the car stands (0, 1 or 2)."""
    effect = _effect(state, car)
    return SLIPSTREAM_BONUS.get(effect, 0) if effect is not None else 0


@implements("weather.slipstream-boost", "road.slipstream-boost",
            "ruling.slipstream-bonus-all-or-nothing")
def slipstream_extras(state: RaceState, car: int) -> tuple[int, ...]:
    """The extra spaces a slipstream may add where the car stands, ascending: the whole
    bonus, or under the alternative "any-part" every part of it."""
    bonus = slipstream_bonus(state, car)
    if not bonus:
        return ()
    if state.rulings.chose(SLIPSTREAM_BONUS_PART, "any-part"):
        return tuple(range(1, bonus + 1))
    return (bonus,)


def corner_token(state: RaceState, number: int) -> str | None:
    """The road token of corner ``number`` (1-based), or None without the module."""
    if state.conditions is None:
        return None
    return state.conditions.road[number - 1]


@implements("road.limit")
def corner_limit(state: RaceState, number: int, printed: int) -> int:
    """The speed limit of corner ``number`` with its road token's -1 / +1."""
    token = corner_token(state, number)
    if token == "limit-plus":
        return printed + 1
    if token == "limit-minus":
        return printed - 1
    return printed


@implements("road.overheat")
def corner_heat(state: RaceState, number: int, excess: int) -> int:
    """The Heat a car pays at corner ``number`` for ``excess`` speed over its limit."""
    if excess > 0 and corner_token(state, number) == "overheat":
        return excess + 1
    return max(0, excess)


# hook points filled (heatcore.heat.hooks)
hooks.cooldown_allowed.fill("weather", cooldown_allowed)
hooks.gear_cooldown_bonus.fill("weather", gear_cooldown_bonus)
hooks.cooling_bonus.fill("weather", cooling_bonus)
hooks.free_boost.fill("weather", free_boost)
hooks.boost_open.fill("weather", boost_open)
hooks.slipstream_allowed.fill("weather", slipstream_allowed)
hooks.slipstream_extras.fill("weather", slipstream_extras)
hooks.corner_limit.fill("weather", corner_limit)
hooks.corner_heat.fill("weather", corner_heat)
