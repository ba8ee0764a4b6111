"""Garage module: what an unpaid card takes with it (ruling.garage-unpaid-heat).

Seed 003 (5.反應 <3>) discards an upgrade card whose Heat the engine cannot pay and replaces
it by one flip "the same as (+)". By the default reading ("speed-removed", also the online
adaptation's) the card's speed leaves with it: the turn's speed loses it and the car is
placed again from the space where its turn started; "speed-out-car-stays" takes the speed
out but leaves the car; "speed-kept" (heatcore's reading before issue 26) keeps both.
"""

from __future__ import annotations

from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat.cards import VALUE, Card
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.placement import free_spot_from, occupied
from heatcore.heat.rulings import GARAGE_UNPAID, SETBACK_CORNER
from heatcore.heat.state import RaceState, Turn


def card_speed(car_played: tuple[Card, ...], chosen: tuple[int, ...],
               card: Card) -> tuple[int, tuple[int, ...]]:
    """The speed an unpaid copy of ``card`` gave the turn (its printed speed; for a
    choose-speed card the lowest speed chosen for a copy of it) and the chosen speeds left
    for the copies still in play (``chosen`` is in the play-area order of the choose-speed
    cards of ``car_played``)."""
    if not sy.chooses_speed(card):
        return VALUE[card], chosen
    choosers = [c for c in car_played if sy.chooses_speed(c)]
    mine = [k for k, c in enumerate(choosers) if c == card and k < len(chosen)]
    if not mine:
        return 0, chosen
    drop = min(mine, key=lambda k: chosen[k])
    return chosen[drop], chosen[:drop] + chosen[drop + 1:]


@implements("upgrade.heat-unpayable", GARAGE_UNPAID)
def take_speed_out(state: RaceState, turn: Turn, card: Card,
                   details: dict[str, object]) -> tuple[RaceState, Turn]:
    """Before the replacement flip: under the default, the turn's speed without the card
    and the car placed again that far from its turn's start (placement scanning back); under
    "speed-out-car-stays" the speed only; under "speed-kept" nothing. ``card`` is still in
    the play area. ``details`` gets the event's ``speed``, ``position``, ``racing_line``."""
    rulings = state.rulings
    if rulings.chose(GARAGE_UNPAID, "speed-kept"):
        return state, turn
    car = state.cars[turn.car]
    speed, chosen = card_speed(car.played, turn.chosen, card)
    turn = replace(turn, speed=turn.speed - speed, chosen=chosen)
    details["speed"] = turn.speed
    if rulings.chose(GARAGE_UNPAID, "speed-out-car-stays"):
        return state, turn
    position, racing = free_spot_from(turn.start_position + turn.speed,
                                      occupied(state, turn.car))
    if rulings.chose(SETBACK_CORNER, "checked"):
        turn = replace(turn, reach=turn.start_position + turn.speed)
    details["position"], details["racing_line"] = position, racing
    return state.with_car(turn.car, replace(car, position=position, racing_line=racing)), turn
