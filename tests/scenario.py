"""Build hand-made, valid race states for rule tests."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from heatcore.heat.cards import BOX_STRESS, HEAT, STRESS, canonical, starting_deck
from heatcore.heat.rounds import standing
from heatcore.heat.state import Car, Phase, RaceState
from heatcore.heat.track import load_track


def make_car(position: int, racing_line: bool = True, gear: int = 1, hand: str = "",
             deck_top: str = "", discard: str = "", engine: int | None = None,
             track: str = "usa") -> Car:
    """A car whose hand and top of deck are as given (cards as a space-separated string).

    The rest of the 18-card starting deck follows in the deck; Heat beyond the starting
    upgrade comes out of the engine, and extra Stress out of the supply."""
    t = load_track(track)
    hand_cards, top, disc = hand.split(), deck_top.split(), discard.split()
    rest = Counter(starting_deck(t.stress))
    rest.subtract(hand_cards + top + disc)
    leftover = [c for c, n in rest.items() for _ in range(max(n, 0))]
    heat_outside = Counter(hand_cards + top + disc + leftover)[HEAT]
    engine_heat = t.heat + 1 - heat_outside if engine is None else engine
    deck = tuple(top) + canonical(leftover)
    if engine is not None:
        # keep heat conservation: move surplus or missing Heat through the discard pile
        missing = t.heat + 1 - heat_outside - engine
        disc = disc + [HEAT] * missing if missing > 0 else disc
        if missing < 0:
            raise ValueError("too much Heat for that engine")
    return Car(position=position, racing_line=racing_line, gear=gear, engine=engine_heat,
               hand=canonical(hand_cards), deck=deck, discard=canonical(disc))


def make_state(*cars: Car, track: str = "usa", laps: int | None = None,
               **changes: Any) -> RaceState:
    """A state at the start of a round's planning (round 1 by default) with these cars."""
    t = load_track(track)
    stress = sum(Counter(c.hand + c.deck + c.discard)[STRESS] for c in cars)
    state = RaceState(track=t, laps=t.laps if laps is None else laps, cars=tuple(cars),
                      supply=BOX_STRESS - stress, round=1, phase=Phase.PLAN, order=(),
                      cursor=0)
    state = replace(state, order=standing(state, state.on_track()))
    return replace(state, **changes)


def bot_choice(state: RaceState) -> Any:
    """A background car's choice: its first plan, otherwise the choice to do nothing."""
    from heatcore.heat.actions import DeclineSlipstream, Discard, EndReact
    from heatcore.heat.engine import legal_actions

    legal = legal_actions(state)
    for action in legal:
        if isinstance(action, EndReact | DeclineSlipstream) or (
                isinstance(action, Discard) and not action.cards):
            return action
    return legal[0]


def run(state: RaceState, *actions: str) -> tuple[RaceState, list[Any]]:
    """Apply actions given as canonical strings; return the final state and all events.

    Cars named by no action are background cars: whenever one of them must choose before
    the next listed action, it takes ``bot_choice``."""
    from heatcore.heat.engine import apply
    from heatcore.heat.notation import parse_action
    from heatcore.heat.validity import validate

    parsed = [parse_action(text) for text in actions]
    named = {a.car for a in parsed}
    validate(state)
    events: list[Any] = []
    for action in parsed:
        while not state.is_chance() and state.actor() not in named and not state.is_over():
            state, evs = apply(state, bot_choice(state))
            events.extend(evs)
        state, evs = apply(state, action)
        validate(state)
        events.extend(evs)
    while not state.is_chance() and state.actor() not in named and not state.is_over():
        state, evs = apply(state, bot_choice(state))
        events.extend(evs)
    return state, events


def kinds(events: list[Any], kind: str) -> list[Any]:
    """The events of one kind."""
    return [e for e in events if e.kind == kind]
