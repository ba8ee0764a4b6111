"""Pit stops: when a car may stop, the three pit lanes, and coming back to the track."""

from __future__ import annotations

from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.rallyman.components import DOUBLE_ZERO, TOKENS, tyres_suit
from heatcore.rallyman.state import IN_PIT, ON_TRACK, RaceState, Turn

LANES = ("tyres", "repair", "both")
DAMAGE = ("gear", "brake", "coast")
OTHER_TYRES = {"asphalt": "rain", "rain": "asphalt"}


@implements("rgt.pit.conditions")
def may_pit(state: RaceState, car: int) -> bool:
    """Whether the car, ending its turn, may stop in the pits."""
    me = state.cars[car]
    space = state.track.spaces[me.space]
    damaged = any(t in DAMAGE for t in me.tokens)
    return (me.where == ON_TRACK and space.corner is None and not space.middle and me.gear == 1
            and (damaged or not tyres_suit(me.tyres, state.weather)))


@implements("rgt.pit.tyres", "rgt.pit.repair", "rgt.pit.both", "rgt.ruling.pit-exit")
def pit_stop(state: RaceState, turn: Turn, lane: str, events: list[Event]) -> RaceState:
    """Stop in ``lane`` (or not, for ``none``); the caller then ends the turn."""
    if lane == "none":
        return state
    me = state.cars[turn.car]
    bag = state.bag
    tokens = me.tokens
    tyres = me.tyres
    if lane in ("repair", "both"):
        bag = tuple(n + tokens.count(t) for t, n in zip(TOKENS, bag, strict=True))
        tokens = ()
    if lane in ("tyres", "both"):
        tyres = OTHER_TYRES[tyres]
    gear = 0 if lane == "tyres" else DOUBLE_ZERO
    events.append(event("pit-stop", turn.car, lane=lane, tyres=tyres, repaired=len(me.tokens)
                        if lane != "tyres" else 0))
    state = state.with_car(turn.car, replace(me, where=IN_PIT, pit_lane=lane, tyres=tyres,
                                             tokens=tokens, gear=gear), bag=bag)
    return state
