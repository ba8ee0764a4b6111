"""Race setup: track, cars, grid, weather, tyres and switches; the starting state."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from heatcore.framework.errors import MalformedInput
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.rallyman.components import CLASSES, TYRES, WEATHERS, full_bag
from heatcore.rallyman.options import Options
from heatcore.rallyman.order import turn_order
from heatcore.rallyman.rounds import advance
from heatcore.rallyman.state import WHITE, Car, RaceState
from heatcore.rallyman.track import load_track

MIN_PLAYERS, MAX_PLAYERS = 2, 6


@dataclass(frozen=True)
class RaceSetup:
    """Everything fixed before the first turn. ``grid[k]`` is the car on the k-th grid
    space (pole first)."""

    track: str
    players: int
    laps: int
    grid: tuple[int, ...]
    weather: str = "dry"
    car_class: str = "GT6"
    tyres: tuple[str, ...] = ()
    options: Options = field(default_factory=Options)


def check_setup(setup: RaceSetup) -> None:
    """Raise MalformedInput naming the first problem of a setup."""
    if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
        raise MalformedInput("rgt.round.alternate",
                             f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {setup.players}")
    if setup.laps < 1:
        raise MalformedInput("rgt.finish.end", "laps must be at least 1")
    if sorted(setup.grid) != list(range(setup.players)):
        raise MalformedInput("rgt.order.speed", "grid must list every car once")
    if setup.weather not in WEATHERS or setup.car_class not in CLASSES:
        raise MalformedInput("rgt.ruling.dashboards", "unknown weather or car class")
    if setup.tyres and (len(setup.tyres) != setup.players
                        or any(t not in TYRES for t in setup.tyres)):
        raise MalformedInput("rgt.ruling.dashboards", "tyres: one of asphalt/rain per car")


@implements("rgt.round.alternate")
def start_race(setup: RaceSetup) -> tuple[RaceState, tuple[Event, ...]]:
    """The state before the first choice: cars on the grid in gear 0 (white markers)."""
    check_setup(setup)
    track = load_track(setup.track)
    tyres = setup.tyres or ("asphalt" if setup.weather == "dry" else "rain",) * setup.players
    spots = {car: track.grid[k] for k, car in enumerate(setup.grid)}
    cars = tuple(Car(space=spots[i], laps=0, gear=0, colour=WHITE, tyres=tyres[i],
                     car_class=setup.car_class) for i in range(setup.players))
    state = RaceState(track=track, laps=setup.laps, options=setup.options,
                      weather=setup.weather, round=1, order=(), cursor=0, cars=cars,
                      bag=full_bag())
    order = turn_order(state, state.racing())
    state = RaceState(track=track, laps=setup.laps, options=setup.options,
                      weather=setup.weather, round=1, order=order, cursor=0, cars=cars,
                      bag=full_bag())
    events: list[Event] = [event("round-started", None, round=1, colour=WHITE,
                                 order=tuple(f"P{i + 1}" for i in order))]
    return advance(state, events), tuple(events)


def random_setup(track: str, players: int, rng: random.Random, laps: int | None = None,
                 options: Options | None = None) -> RaceSetup:
    """A setup with the grid drawn by ``rng``."""
    grid = list(range(players))
    rng.shuffle(grid)
    default_laps = load_track(track).laps
    return RaceSetup(track, players, default_laps if laps is None else laps, tuple(grid),
                     options=options or Options())
