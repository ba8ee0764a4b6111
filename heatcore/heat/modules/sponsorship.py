"""Championship: a Sponsorship card put into a car's hand during a race (the championship's
input, ``GainSponsor``); playing and spending one is the engine's ordinary play and
cleanup (sponsor.play, sponsor.one-time in :mod:`heatcore.heat.cleanup`)."""

from __future__ import annotations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.actions import GainSponsor
from heatcore.heat.cards import canonical
from heatcore.heat.modules.garage.data import is_sponsor
from heatcore.heat.state import RaceState


@implements("sponsor.given-at-once", "sponsor.in-hand")
def check_gain(state: RaceState, action: GainSponsor) -> None:
    """IllegalAction unless ``action`` gives a Sponsorship card to a player's car still in
    a race that plays the Garage module (the Championship's races)."""
    if state.garage is None:
        raise IllegalAction("sponsor.in-hand", "Sponsorship cards need module 'garage'")
    if not is_sponsor(action.card):
        raise IllegalAction("sponsor.in-hand", f"{action.card} is not a Sponsorship card")
    if not 0 <= action.car < len(state.cars) or state.is_legend(action.car):
        raise IllegalAction("sponsor.in-hand", "only a player's car gains Sponsorship cards")
    if action.car in state.out:
        raise IllegalAction("sponsor.in-hand", "an eliminated car gains no Sponsorship card")


@implements("sponsor.given-at-once", "sponsor.in-hand", "ruling.sponsor-gained-timing")
def gain_sponsor(state: RaceState, action: GainSponsor, events: list[Event]) -> RaceState:
    """The card into the car's hand at once; the car now holds it."""
    garage = state.garage
    assert garage is not None
    held = list(garage.sponsors or ((),) * len(state.cars))
    held[action.car] = canonical((*held[action.car], action.card))
    car = state.cars[action.car]
    events.append(event("sponsor-gained", action.car, card=action.card))
    return state.with_car(action.car, replace(car, hand=canonical((*car.hand, action.card))),
                          garage=replace(garage, sponsors=tuple(held)))


# hook points filled (heatcore.heat.hooks)
hooks.check_gain.fill("sponsorship", check_gain)
hooks.gain_sponsor.fill("sponsorship", gain_sponsor)
