"""Hand-made, valid race states with the Garage module, for the upgrade rule tests."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from heatcore.framework.events import Event
from heatcore.heat.actions import Plan
from heatcore.heat.cards import BASIC, BOX_STRESS, HEAT, STRESS, Card, canonical
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.garage.data import in_deck
from heatcore.heat.rounds import standing
from heatcore.heat.state import Car, Garage, Phase, RaceState
from heatcore.heat.track import load_track


def garage_car(position: int, upgrades: tuple[str, ...], hand: str = "", deck_top: str = "",
               discard: str = "", engine: int | None = None, gear: int = 1,
               racing_line: bool = True, track: str = "usa") -> Car:
    """A car owning 12 basic cards, ``upgrades`` (market names) and the track's Stress: hand,
    top of deck and discard as given, the rest in the deck. Heat is the engine's plus any
    Heat upgrade; ``engine`` moves the difference to the discard pile."""
    t = load_track(track)
    owned = [*(c for c in BASIC for _ in range(3)), *(in_deck(u) for u in upgrades),
             *([STRESS] * t.stress)]
    heat_total = t.heat + owned.count(HEAT)
    owned = [c for c in owned if c != HEAT]
    shown = hand.split() + deck_top.split() + discard.split()
    rest = Counter(owned)
    rest.subtract(c for c in shown if c != HEAT)
    assert all(n >= 0 for n in rest.values()), f"{shown} are not all this car's cards"
    heat_out = shown.count(HEAT)
    disc = discard.split()
    if engine is None:
        engine = heat_total - heat_out
    else:
        disc += [HEAT] * (heat_total - heat_out - engine)
    leftover = [c for c, n in rest.items() for _ in range(n)]
    return Car(position=position, racing_line=racing_line, gear=gear, engine=engine,
               hand=canonical(hand.split()), deck=tuple(deck_top.split()) + canonical(leftover),
               discard=canonical(disc))


def garage_state(cars: list[tuple[Car, tuple[str, ...]]], track: str = "usa",
                 laps: int | None = None) -> RaceState:
    """A round-1 planning state with the Garage module: each car with its upgrades."""
    t = load_track(track)
    stress = sum(Counter(c.hand + c.deck + c.discard)[STRESS] for c, _ in cars)
    state = RaceState(track=t, laps=t.laps if laps is None else laps,
                      cars=tuple(c for c, _ in cars), supply=BOX_STRESS - stress, round=1,
                      phase=Phase.PLAN, order=(), cursor=0, modules=("garage",),
                      garage=Garage(tuple(canonical(tuple(in_deck(u) for u in ups))
                                          for _, ups in cars)))
    return replace(state, order=standing(state, state.on_track()))


def to_turn(state: RaceState, gear: int, cards: str) -> tuple[RaceState, list[Event]]:
    """P1 (first in the order) plays ``cards`` in ``gear``; the others their first legal
    plan. Returns the state at P1's first decision of its turn and the events."""
    events: list[Event] = []
    while state.phase is Phase.PLAN:
        car = state.order[state.cursor]
        action = (Plan(car, gear, canonical(cards.split())) if car == 0
                  else legal_actions(state)[0])
        state, evs = apply(state, action)
        events += evs
    return state, events


def cards(text: str) -> tuple[Card, ...]:
    """A space-separated card list as a tuple."""
    return tuple(text.split())


P2_UPGRADES = ("G1", "G2", "G3")


def two_cars(ups: tuple[str, ...], hand: str, deck_top: str = "", discard: str = "",
             engine: int | None = None, position: int = 20, gear: int = 1) -> RaceState:
    """P1 (ahead, acting first) with upgrades ``ups`` and ``hand``; P2 far behind."""
    p1 = garage_car(position, ups, hand=hand, deck_top=deck_top, discard=discard,
                    engine=engine, gear=gear)
    p2 = garage_car(1, P2_UPGRADES, hand="1 1 1 2 2 2 3")
    return garage_state([(p1, ups), (p2, P2_UPGRADES)])
