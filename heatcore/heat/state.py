"""Race state values: immutable, complete (deck orders included) and comparable."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any

from heatcore.framework.values import quick_init, replace
from heatcore.heat.cards import HAND_SIZE, Card
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.track import Track


class Phase(StrEnum):
    """Where the round is."""

    PLAN = "plan"  # steps 1-2: cars choose gear and cards, one at a time in turn order
    TURN = "turn"  # steps 3-9 of the car at ``cursor``
    OVER = "over"  # every car has finished


class Stage(StrEnum):
    """Where the acting car's turn (steps 3-9) is."""

    REVEAL = "reveal"  # flipping for the Stress cards played
    REACT = "react"  # waiting for a react choice
    BOOST = "boost"  # flipping for a boost
    SLIPSTREAM = "slipstream"  # waiting for the slipstream choice
    DISCARD = "discard"  # waiting for the discard choice
    REPLENISH = "replenish"  # drawing back to 7
    CHOOSE = "choose"  # garage module: the speeds of the revealed choose-speed cards awaited


@dataclass(frozen=True, slots=True)
class Car:
    """One player's car and cards. Hand and discard are multisets in canonical order;
    the deck is ordered, top card first."""

    position: int
    racing_line: bool
    gear: int
    engine: int
    hand: tuple[Card, ...]
    deck: tuple[Card, ...]
    discard: tuple[Card, ...]
    played: tuple[Card, ...] = ()
    flipped: tuple[Card, ...] = ()
    legend: str | None = None  # the colour of a Legend car (Legends module), else None

    @property
    def spot(self) -> tuple[int, bool]:
        """(position, on the racing line)."""
        return (self.position, self.racing_line)

    @property
    def play_area(self) -> tuple[Card, ...]:
        """Cards in front of the player: those played, then those found by flips."""
        return self.played + self.flipped


@quick_init  # one per turn
@dataclass(frozen=True, slots=True)
class Turn:
    """The acting car's progress through steps 3-9.

    ``speed`` is the turn's speed so far; ``to_move`` the spaces to move once the pending
    flips (``flips_left``) are resolved.
    """

    car: int
    stage: Stage
    start_position: int
    speed: int = 0
    to_move: int = 0
    flips_left: int = 0
    adrenaline: bool = False
    cooldown_used: bool = False
    adrenaline_move_used: bool = False
    adrenaline_cooldown_used: bool = False
    boosted: bool = False
    sector_cooldown_used: bool = False  # weather module: the cooling bonus was used
    #: ruling.setback-corner's alternative "checked" only: the farthest position a move of
    #: this turn aimed at, before placement (0 when the race plays the default).
    reach: int = 0


@dataclass(frozen=True, slots=True)
class Conditions:
    """Weather module: the race's weather token and each corner's road-condition token
    (in corner order)."""

    weather: str
    road: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LegendDeck:
    """Legends module: the Legend deck (top card first), this round's revealed card (None
    until the first Legend's turn of the round) and the aggressive-Legends option."""

    deck: tuple[int, ...]
    card: int | None = None
    aggressive: bool = False


@dataclass(frozen=True, slots=True)
class Garage:
    """Garage module: the upgrade cards each car owns (deck tokens, canonical; a Heat
    upgrade is ``H``), the symbols used this turn (``"G12 cooldown"``, sorted, one entry per
    use), whether the awaited shuffle is a Salvage's (the deck alone is shuffled), and the
    Championship's Sponsorship cards held and used."""

    owned: tuple[tuple[str, ...], ...]
    used: tuple[str, ...] = ()
    salvage: bool = False
    #: Championship: the Sponsorship cards each car holds (in any of its piles, canonical;
    #: ``()`` when no car holds any) and those used in this race (sponsor.one-time).
    sponsors: tuple[tuple[str, ...], ...] = ()
    spent: tuple[str, ...] = ()

    def held(self, car: int) -> tuple[str, ...]:
        """The Sponsorship cards ``car`` holds (sponsor.in-hand)."""
        return self.sponsors[car] if self.sponsors else ()


@dataclass(frozen=True, slots=True)
class Changes:
    """Championship events' changes to a race's core numbers (event.setup-changes): Heat
    cards more (or fewer) in each engine, Stress cards more (or fewer) in each starting
    deck, the hand size, and whether a spin eliminates the car (event.sponsor-withdraws).
    ``Changes()`` is the core race."""

    heat: int = 0
    stress: int = 0
    hand: int = HAND_SIZE
    eliminate: bool = False

    def is_core(self) -> bool:
        """Whether these are the core race's numbers."""
        return self is NO_CHANGES or self == NO_CHANGES


NO_CHANGES = Changes()


#: A state's text forms: ``json`` (canonical JSON, for ``repr``, which pastes back into a
#: test) and ``str`` (a summary for people). Filled by :mod:`heatcore.heat.notation` and
#: :mod:`heatcore.heat.summary` when imported (the :mod:`heatcore.heat` package imports
#: both), so that this module, which both read, imports neither.
TEXT_FORMS: dict[str, Callable[[RaceState], str]] = {}


@dataclass(frozen=True, slots=True)
class RaceState:
    """The whole race at one moment.

    ``order`` is this round's turn order (cars still racing); ``cursor`` indexes it: the car
    to plan next (phase PLAN) or the car acting (phase TURN). ``shuffle`` names the car whose
    discard pile must be shuffled into its deck before play goes on (a chance point).
    ``out`` names the cars eliminated and taken off the track (event.sponsor-withdraws).
    ``rulings`` is the alternative the race plays for each switchable ruling.
    """

    track: Track
    laps: int
    cars: tuple[Car, ...]
    supply: int
    round: int
    phase: Phase
    order: tuple[int, ...]
    cursor: int
    turn: Turn | None = None
    shuffle: int | None = None
    ranking: tuple[int, ...] = ()
    modules: tuple[str, ...] = ()
    conditions: Conditions | None = None
    legends: LegendDeck | None = None
    rulings: Rulings = DEFAULT_RULINGS
    garage: Garage | None = None
    changes: Changes = NO_CHANGES
    out: tuple[int, ...] = ()

    def __repr__(self) -> str:
        return f"state_from_json({TEXT_FORMS['json'](self)!r})"

    def __str__(self) -> str:
        return TEXT_FORMS["str"](self)

    @property
    def finish_position(self) -> int:
        """The last position before the final finish line."""
        return self.track.finish_position(self.laps)

    def has_finished(self, car: int) -> bool:
        """Whether the car has crossed the final finish line."""
        return self.cars[car].position > self.finish_position

    def on_track(self) -> tuple[int, ...]:
        """Cars still on the track (not yet ranked and removed, nor eliminated)."""
        gone = (*self.ranking, *self.out)
        return tuple(i for i in range(len(self.cars)) if i not in gone)

    def actor(self) -> int | None:
        """The car whose decision or chance outcome is awaited; None when the race is over."""
        if self.shuffle is not None:
            return self.shuffle
        if self.phase is Phase.PLAN:
            return self.order[self.cursor]
        if self.turn is not None:
            return self.turn.car
        return None

    def is_legend(self, car: int) -> bool:
        """Whether ``car`` is a Legend (Legends module)."""
        return self.cars[car].legend is not None

    def is_chance(self) -> bool:
        """Whether the next input is a chance outcome (a shuffle of a player's cards, or of
        the Legend deck when ``shuffle`` names a Legend)."""
        return self.shuffle is not None

    def is_over(self) -> bool:
        """Whether every car has finished."""
        return self.phase is Phase.OVER

    def with_car(self, index: int, car: Car, **changes: Any) -> RaceState:
        """This state with one car replaced (and any other ``changes`` to the state)."""
        cars = list(self.cars)
        cars[index] = car
        return replace(self, cars=tuple(cars), **changes)


@cache  # called for every car of every state written out
def car_name(index: int) -> str:
    """The public name of a car: P1, P2, ..."""
    return f"P{index + 1}"
