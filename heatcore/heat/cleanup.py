"""Steps 8-9: discard and replenish; reshuffling the discard pile into the deck."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.actions import Discard, Shuffle
from heatcore.heat.cards import DISCARDABLE, HAND_SIZE, canonical, remove
from heatcore.heat.rulings import FINISHED_DISCARD_DRAW
from heatcore.heat.state import NO_CHANGES, RaceState, Stage, Turn


@implements("discard.optional", "sponsor.discard", "ruling.sponsor-discarded")
def discardable(state: RaceState, car: int) -> tuple[str, ...]:
    """The hand's cards that may be discarded (all but Heat and Stress)."""
    return tuple(c for c in state.cars[car].hand if c in DISCARDABLE)


@implements("discard.optional")
def discard_choices(state: RaceState, car: int) -> list[Discard]:
    """Every distinct set of cards the car may discard, smallest first (none included)."""
    cards = discardable(state, car)
    out = []
    for size in range(len(cards) + 1):
        for chosen in dict.fromkeys(combinations(cards, size)):
            out.append(Discard(car, chosen))
    return out


def check_discard(state: RaceState, action: Discard) -> None:
    """Raise IllegalAction naming the rule if the discard is not allowed."""
    if remove(discardable(state, action.car), action.cards) is None:
        raise IllegalAction("discard.optional",
                            "only basic cards and starting upgrades in hand may be discarded")
    if tuple(action.cards) != canonical(action.cards):
        raise IllegalAction("discard.optional", "cards must be listed in canonical order")


def apply_discard(state: RaceState, turn: Turn, action: Discard,
                  events: list[Event]) -> RaceState:
    """Put the chosen cards on the discard pile, then clean up for replenish."""
    car = state.cars[turn.car]
    hand = remove(car.hand, action.cards)
    assert hand is not None
    if action.cards:
        events.append(event("discarded", turn.car, cards=action.cards))
    state = state.with_car(turn.car, replace(car, hand=hand,
                                             discard=canonical(car.discard + action.cards)))
    return enter_replenish(state, turn, events)


@implements("replenish.cleanup", "replenish.discard-before-draw")
def enter_replenish(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """Played cards and the basic cards found by flips go to the discard pile."""
    if state.garage is not None:
        state = hooks.clear_refreshed(state, turn.car)
    car = state.cars[turn.car]
    replenish = replace(turn, stage=Stage.REPLENISH)
    if car.play_area:
        state, spent = spend_sponsors(state, turn.car, car.play_area, events)
        discard = canonical(car.discard + tuple(c for c in car.play_area if c not in spent))
        return state.with_car(turn.car, replace(car, discard=discard, played=(), flipped=()),
                              turn=replenish)
    return replace(state, turn=replenish)


@implements("sponsor.one-time")
def spend_sponsors(state: RaceState, car: int, area: tuple[str, ...], events: list[Event]
                   ) -> tuple[RaceState, tuple[str, ...]]:
    """The Sponsorship cards of the play area ``area`` used up: out of the car's cards into
    the race's used Sponsorship cards, not to its discard pile. Returns them too."""
    spent = canonical(c for c in area if hooks.is_sponsor(c))
    garage = state.garage
    if not spent or garage is None:
        return state, ()
    held = list(garage.sponsors)
    left = remove(held[car], spent)
    assert left is not None, "a played Sponsorship card is one the car holds"
    held[car] = left
    events.append(event("sponsor-used", car, cards=spent))
    return replace(state, garage=replace(garage, sponsors=tuple(held),
                                         spent=canonical((*garage.spent, *spent)))), spent


@implements("replenish.draw", "event.setup-changes")
def hand_size(state: RaceState) -> int:
    """The hand size: 7, unless a Championship event sets another."""
    changed = state.changes.hand
    return HAND_SIZE if changed == NO_CHANGES.hand else changed


@implements("replenish.draw", "deck.reshuffle", "ruling.replenish-empty",
            "ruling.hand-over-limit", "ruling.finished-car-discard-draw")
def draw_to_hand_size(state: RaceState, turn: Turn, events: list[Event]) -> tuple[RaceState, bool]:
    """Draw to the hand size (7 in the core race); returns (state, done). Not done means a
    shuffle is awaited.
    A car past the final finish line draws like any other (it draws nothing under the
    alternative "skip"); if deck and discard are both empty, the hand stays short."""
    car = state.cars[turn.car]
    if state.rulings.chose(FINISHED_DISCARD_DRAW, "skip") and state.has_finished(turn.car):
        return state, True
    size = hand_size(state)
    need = size - len(car.hand)
    if need <= 0:
        return state, True
    take = car.deck[:need]
    if take:
        events.append(event("drew", turn.car, count=len(take)))
        car = replace(car, hand=canonical(car.hand + take), deck=car.deck[len(take):])
        state = state.with_car(turn.car, car)
    if len(car.hand) >= size or not car.discard:
        return state, True
    events.append(event("deck-empty", turn.car, discard=len(car.discard)))
    return replace(state, shuffle=turn.car), False


def shuffled_cards(state: RaceState, car: int) -> tuple[str, ...]:
    """The cards the awaited shuffle of ``car`` orders: deck and discard pile, or the deck
    alone after a Salvage (``upgrade.salvage``)."""
    me = state.cars[car]
    if state.garage is not None and state.garage.salvage:
        return me.deck
    return me.deck + me.discard


def check_shuffle(state: RaceState, action: Shuffle) -> None:
    """Raise IllegalAction unless the shuffle is awaited for this car and is a permutation
    of its deck and discard pile."""
    if state.shuffle != action.car:
        raise IllegalAction("deck.reshuffle", "no shuffle is awaited for this car")
    car = state.cars[action.car]
    if state.garage is not None and state.garage.salvage:
        if Counter(action.order) != Counter(car.deck):
            raise IllegalAction("upgrade.salvage", "a Salvage shuffles the deck alone: the "
                                "order must hold exactly the deck's cards")
        return
    if Counter(action.order) != Counter(car.deck + car.discard):
        raise IllegalAction("deck.reshuffle",
                            "a shuffle must order exactly the cards of the deck and discard pile")


@implements("deck.reshuffle")
def apply_shuffle(state: RaceState, action: Shuffle, events: list[Event]) -> RaceState:
    """The discard pile (and whatever the deck held) becomes the deck, in the given order."""
    car = state.cars[action.car]
    events.append(event("shuffled", action.car, cards=len(action.order)))
    if state.garage is not None and state.garage.salvage:
        return state.with_car(action.car, replace(car, deck=tuple(action.order)), shuffle=None,
                              garage=replace(state.garage, salvage=False))
    new_car = replace(car, deck=tuple(action.order), discard=())
    return state.with_car(action.car, new_car, shuffle=None)
