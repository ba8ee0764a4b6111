"""Rallyman GT race states: immutable values, complete and comparable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from heatcore.framework.values import replace
from heatcore.rallyman.options import Options
from heatcore.rallyman.track import Track

WHITE, BLACK = "white", "black"

# where a car is
ON_TRACK, OFF_TRACK, IN_PIT, FINISHED = "track", "off", "pit", "finished"

# stages of a turn
PLAN, ROLL, DICE, RELAY, SIDE, DRAW, PIT = "plan", "roll", "dice", "relay", "side", "draw", "pit"
#: stages that await a chance outcome rather than a choice
CHANCE_STAGES = (DICE, DRAW)


def other_colour(colour: str) -> str:
    """White <-> black."""
    return BLACK if colour == WHITE else WHITE


@dataclass(frozen=True, slots=True)
class Car:
    """One car: where it is, its gear marker (value and colour), dashboard and tokens.

    ``space`` is the space it stands on; off the track or in the pits, the space it will
    return to. ``laps`` counts finish lines crossed. ``tokens`` are the tokens on its
    dashboard (sorted)."""

    space: str
    laps: int
    gear: int
    colour: str
    where: str = ON_TRACK
    tyres: str = "asphalt"
    car_class: str = "GT6"
    focus: int = 0
    tokens: tuple[str, ...] = ()
    side: int = 0  # off the track: the edge lane (1 or 3) it left on; 0 otherwise
    pit_lane: str = ""  # in the pits: tyres | repair | both


@dataclass(frozen=True, slots=True)
class Step:
    """One laid die: the die (``G3`` or ``C``), the gear it drives the space in, the brake
    and boost dice rolled with it, and the space it moves to. ``track_warnings`` and
    ``overspeed`` are what the track does to a car arriving this way; ``finish`` whether the
    move crosses the start/finish line."""

    die: str
    gear: int
    brakes: int
    boosts: int
    to: str
    track_warnings: int = 0
    overspeed: bool = False
    finish: bool = False

    @property
    def dice(self) -> tuple[str, ...]:
        """Every die rolled for this space, main die first."""
        return (self.die, *("B",) * self.brakes, *("U",) * self.boosts)


@dataclass(frozen=True, slots=True)
class Turn:
    """The acting car's turn so far.

    ``plan`` are the dice laid; ``mode`` "one" (one at a time) or "flat" once chosen;
    ``results`` the warning flags of each rolled space (dice order of ``Step.dice``);
    ``fixed`` dice fixed by focus this turn and ``fix_next`` whether the next space's dice are
    fixed. After a loss of control, ``pool`` holds the rolled dice (``G3``, ``G3!``, ``C!``,
    ``B``...) still to re-lay, ``relay`` the re-laid steps and ``relay_results`` their flags;
    ``loc`` is the index in the final path of the space where control is lost, ``marker``
    the gear marker it gives and ``draws`` the damage tokens still to draw."""

    car: int
    stage: str
    start: str
    start_gear: int
    start_laps: int = 0
    plan: tuple[Step, ...] = ()
    mode: str = ""
    results: tuple[tuple[bool, ...], ...] = ()
    fixed: int = 0
    fix_next: bool = False
    pool: tuple[str, ...] = ()
    relay: tuple[Step, ...] = ()
    relay_results: tuple[tuple[bool, ...], ...] = ()
    marker: int = 0
    loc_space: str = ""
    draws: int = 0


#: A state's canonical JSON, for ``repr`` (it pastes back into a test): filled by
#: :mod:`heatcore.rallyman.notation` when imported (the :mod:`heatcore.rallyman` package
#: imports it), so that this module, which it reads, does not import it.
TEXT_FORMS: dict[str, Callable[[RaceState], str]] = {}


@dataclass(frozen=True, slots=True)
class RaceState:
    """A Rallyman GT race at one moment.

    ``round`` counts rounds from 1 (odd rounds white); ``order`` is the round's turn order
    and ``cursor`` the acting car's index in it. ``bag`` holds the damage tokens' counts
    (``components.TOKENS`` order), ``yellow`` the cars whose yellow flag is on the track."""

    track: Track
    laps: int
    options: Options
    weather: str
    round: int
    order: tuple[int, ...]
    cursor: int
    cars: tuple[Car, ...]
    bag: tuple[int, ...]
    turn: Turn | None = None
    yellow: tuple[int, ...] = ()
    ranking: tuple[int, ...] = ()
    over: bool = False

    def __repr__(self) -> str:
        return f"state_from_json({TEXT_FORMS['json'](self)!r})"

    @property
    def colour(self) -> str:
        """The current round's colour (the round marker)."""
        return WHITE if self.round % 2 == 1 else BLACK

    def is_chance(self) -> bool:
        """Whether a chance outcome (dice or a damage token) is awaited."""
        return self.turn is not None and self.turn.stage in CHANCE_STAGES

    def is_over(self) -> bool:
        """Whether the race has ended."""
        return self.over

    def actor(self) -> int | None:
        """The car whose choice or chance outcome is awaited."""
        return None if self.turn is None else self.turn.car

    def racing(self) -> tuple[int, ...]:
        """Cars that have not finished."""
        return tuple(i for i, c in enumerate(self.cars) if c.where != FINISHED)

    def occupant(self, space: str) -> int | None:
        """The car standing on ``space`` (on the track), if any."""
        for i, car in enumerate(self.cars):
            if car.where == ON_TRACK and car.space == space:
                return i
        return None

    def with_car(self, index: int, car: Car, **changes: Any) -> RaceState:
        """This state with one car replaced (and other changes)."""
        cars = list(self.cars)
        cars[index] = car
        return replace(self, cars=tuple(cars), **changes)


def car_name(index: int) -> str:
    """P1, P2, ..."""
    return f"P{index + 1}"
