"""Step 6: slipstream."""

from __future__ import annotations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.actions import DeclineSlipstream, Slipstream
from heatcore.heat.placement import move_car, occupied
from heatcore.heat.react import extra_move_open
from heatcore.heat.state import RaceState, Stage, Turn

SLIPSTREAM_SPACES = 2


@implements("slipstream.eligible", "slipstream.not-past-finish", "setup.board-space",
            "slipstream.earlier-lap", "ruling.finished-car-turn", "ruling.blocked-extra-move")
def can_slipstream(state: RaceState, car: int) -> bool:
    """Beside a car, or one space behind a space with a car, on the board's spaces (cars
    on any lap count); never across the final finish line, nor after it. Earlier crossings
    of the line are allowed."""
    me = state.cars[car]
    if me.position + SLIPSTREAM_SPACES > state.finish_position:
        return False
    if not hooks.slipstream_allowed(state, car):
        return False
    taken = occupied(state, car)
    return ((me.position, not me.racing_line) in taken
            or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken) and extra_move_open(state, car,
                                                                      SLIPSTREAM_SPACES)


def slipstream_choices(state: RaceState, car: int) -> tuple[Slipstream | DeclineSlipstream, ...]:
    """Slipstream (then slipstream with the sector's bonus, if any, or each part of it),
    then no slipstream; with the Garage, every extra the cards and the sector allow."""
    if state.garage is not None:
        return (*(Slipstream(car, e) for e in hooks.card_slipstream_extras(state, car)),
                DeclineSlipstream(car))
    extras = hooks.slipstream_extras(state, car)
    return (Slipstream(car), *(Slipstream(car, n) for n in extras), DeclineSlipstream(car))


def check_slipstream(state: RaceState, action: Slipstream | DeclineSlipstream) -> None:
    """Raise IllegalAction unless the slipstream's extra spaces are the sector's bonus."""
    if isinstance(action, Slipstream) and state.garage is not None:
        if action.extra not in hooks.card_slipstream_extras(state, action.car):
            raise IllegalAction("upgrade.slipstream", f"no slipstream of +{action.extra}: the "
                                "extras are sums of the cards' Slipstream +N and the sector's")
    elif isinstance(action, Slipstream) and action.extra not in (0, *hooks.slipstream_extras(
            state, action.car)):
        raise IllegalAction("road.slipstream-boost",
                            f"no slipstream bonus of +{action.extra} where the car stands")


@implements("slipstream.move", "slipstream.speed-unchanged", "ruling.blocked-extra-move")
def apply_slipstream(state: RaceState, turn: Turn, action: Slipstream | DeclineSlipstream,
                     events: list[Event]) -> RaceState:
    """Move two more spaces (plus the sector's bonus if chosen; placement applies; the speed
    does not change), or not."""
    discard = replace(turn, stage=Stage.DISCARD)
    if isinstance(action, Slipstream):
        return move_car(state, turn.car, SLIPSTREAM_SPACES + action.extra, "slipstream", events,
                        turn=discard)
    return replace(state, turn=discard)
