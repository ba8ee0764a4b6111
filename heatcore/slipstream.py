"""Step 6: slipstream."""

from __future__ import annotations

from heatcore.events import Event
from heatcore.placement import move_car, occupied
from heatcore.registry import implements
from heatcore.state import RaceState, Stage, Turn
from heatcore.values import replace

SLIPSTREAM_SPACES = 2


@implements("slipstream.eligible", "slipstream.not-past-finish",
            "ruling.slipstream-earlier-lap", "ruling.finished-car-turn")
def can_slipstream(state: RaceState, car: int) -> bool:
    """Beside a car, or one space behind a space with a car; never across the final
    finish line, nor after it. Earlier crossings of the line are allowed."""
    me = state.cars[car]
    if me.position + SLIPSTREAM_SPACES > state.finish_position:
        return False
    taken = occupied(state, car)
    return ((me.position, not me.racing_line) in taken
            or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken)


@implements("slipstream.move", "slipstream.speed-unchanged", "ruling.blocked-extra-move")
def apply_slipstream(state: RaceState, turn: Turn, take: bool, events: list[Event]) -> RaceState:
    """Move two more spaces (placement applies; the speed does not change), or not."""
    discard = replace(turn, stage=Stage.DISCARD)
    if take:
        return move_car(state, turn.car, SLIPSTREAM_SPACES, "slipstream", events, turn=discard)
    return replace(state, turn=discard)
