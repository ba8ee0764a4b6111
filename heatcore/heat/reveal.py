"""Step 3: reveal the cards, resolve Stress flips, and move. Flips also serve the boost."""

from __future__ import annotations

from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.cards import HEAT, STRESS, VALUE, canonical, is_basic
from heatcore.heat.placement import move_car
from heatcore.heat.state import RaceState, Stage, Turn


@implements("reveal.speed", "play.cluttered")
def reveal(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """Turn the played cards face up: speed is their sum; each Stress asks for one flip.
    A cluttered play does not move: gear 1, every played card to the discard, replenish.
    The returned state holds ``turn`` (at its next stage)."""
    car = state.cars[turn.car]
    events.append(event("revealed", turn.car, cards=car.played))
    if HEAT in car.played:
        events.append(event("cluttered", turn.car, gear=1))
        new_car = replace(car, gear=1, discard=canonical(car.discard + car.played), played=())
        return state.with_car(turn.car, new_car, turn=replace(turn, stage=Stage.REPLENISH))
    if state.garage is not None:
        return hooks.reveal_upgrades(state, turn, events)
    speed = sum(VALUE[c] for c in car.played)
    flips = car.played.count(STRESS)
    return replace(state, turn=replace(turn, stage=Stage.REVEAL, speed=speed, to_move=speed,
                                       flips_left=flips))


@implements("reveal.stress-flip", "react.boost", "deck.reshuffle", "ruling.flip-no-basic")
def flip_once(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """Turn over one card for the pending flip, or ask for a shuffle when the deck is empty.

    A basic card ends the flip: it joins the play area and adds its value to the speed
    and to the move. Any other card goes to the discard pile. If neither deck nor discard
    holds a basic card, the flip finds nothing."""
    car = state.cars[turn.car]
    if not any(is_basic(c) for c in car.deck) and not any(is_basic(c) for c in car.discard):
        events.append(event("flip-found-nothing", turn.car))
        return replace(state, turn=replace(turn, flips_left=turn.flips_left - 1))
    if not car.deck:
        events.append(event("deck-empty", turn.car, discard=len(car.discard)))
        return replace(state, shuffle=turn.car)
    top, deck = car.deck[0], car.deck[1:]
    if is_basic(top):
        events.append(event("flipped", turn.car, card=top, kept=True))
        new_car = replace(car, deck=deck, flipped=(*car.flipped, top))
        new_turn = replace(turn, flips_left=turn.flips_left - 1, speed=turn.speed + VALUE[top],
                           to_move=turn.to_move + VALUE[top])
        return state.with_car(turn.car, new_car, turn=new_turn)
    events.append(event("flipped", turn.car, card=top, kept=False))
    new_car = replace(car, deck=deck, discard=canonical((*car.discard, top)))
    return state.with_car(turn.car, new_car)


def finish_flips(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """All flips resolved: move the pending spaces and go on to (or back to) react."""
    if turn.stage is Stage.REVEAL:
        events.append(event("speed", turn.car, speed=turn.speed))
    why = "cards" if turn.stage is Stage.REVEAL else "boost"
    return move_car(state, turn.car, turn.to_move, why, events,
                    turn=replace(turn, stage=Stage.REACT, to_move=0))


