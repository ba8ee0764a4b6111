"""Moving a car and placing it on a spot (step 3, and every later movement)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import quick_init, replace
from heatcore.heat.rulings import BLOCKED_OWN_SPACE, SETBACK_CORNER, ZERO_MOVE
from heatcore.heat.state import RaceState
from heatcore.heat.track import Track

Spot = tuple[int, bool]


@quick_init  # one per move
@dataclass(frozen=True, slots=True)
class Occupancy:
    """The board spots held by cars. ``(position, racing_line) in taken`` asks about the
    board spot of an unrolled position: it is held if a car on any lap stands there."""

    track: Track
    board: frozenset[Spot]

    def __contains__(self, spot: object) -> bool:
        if not isinstance(spot, tuple) or len(spot) != 2:
            return False
        position, racing = spot
        return self.track.board_spot(int(position), bool(racing)) in self.board


@implements("setup.board-space")
def occupied(state: RaceState, moving: int) -> Occupancy:
    """The board spots held by the cars on the track (neither ranked nor eliminated) other
    than ``moving``, whatever lap they are on."""
    gone = (*state.ranking, *state.out)
    board = state.track.board_spot
    return Occupancy(state.track, frozenset(
        board(car.position, car.racing_line) for i, car in enumerate(state.cars)
        if i != moving and i not in gone))


@implements("place.racing-line-first", "place.blocked")
def free_spot_from(position: int, taken: Occupancy) -> Spot:
    """The first free spot scanning back from ``position``: racing line, then the other."""
    while True:
        if (position, True) not in taken:
            return (position, True)
        if (position, False) not in taken:
            return (position, False)
        position -= 1


@implements("move.exact", "ruling.zero-move", "ruling.blocked-own-space")
def landing(state: RaceState, car: int, spaces: int) -> Spot | None:
    """Where a move of ``spaces`` puts ``car``: the first free spot scanning back from the
    space it reaches. None for a move of 0 (ruling.zero-move: no placement; its
    alternative "place" places the car again in its own space). Placement back into the car's
    own space ends on its racing-line spot if free (ruling.blocked-own-space; the alternative
    "stay" keeps the car's own spot)."""
    rulings = state.rulings
    if spaces <= 0 and not (spaces == 0 and rulings.chose(ZERO_MOVE, "place")):
        return None
    current = state.cars[car]
    spot = free_spot_from(current.position + spaces, occupied(state, car))
    if (spaces > 0 and spot[0] == current.position
            and rulings.chose(BLOCKED_OWN_SPACE, "stay")):
        return current.spot
    return spot


@implements("move.exact", "place.speed-unchanged", "ruling.zero-move", "finish.line")
def move_car(state: RaceState, car: int, spaces: int, why: str, events: list[Event],
             **changes: Any) -> RaceState:
    """Move ``car`` forward ``spaces`` spaces; cars passed never block, only the landing
    space matters. The speed is not touched. A move of 0 leaves the car where it is
    (see ``landing``). Any other ``changes`` to the state (such as the turn's next stage)
    are made with it."""
    spot = landing(state, car, spaces)
    if spot is None:
        return replace(state, **changes) if changes else state
    current = state.cars[car]
    turn = changes.get("turn", state.turn)
    if turn is not None and spaces > 0 and state.rulings.chose(SETBACK_CORNER, "checked"):
        # ruling.setback-corner "checked": remember the farthest space a move aimed at
        changes["turn"] = replace(turn, reach=max(turn.reach, current.position + spaces))
    position, racing = spot
    events.append(event("moved", car, by=why, spaces=spaces, position=position,
                        racing_line=racing))
    finish = state.finish_position
    if current.position <= finish < position:
        events.append(event("crossed-finish", car))
    return state.with_car(car, replace(current, position=position, racing_line=racing), **changes)
