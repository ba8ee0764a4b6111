"""Hidden information and its reveal points: what a player sees, and when (``observe``)."""

from __future__ import annotations

import pytest
from scenario import kinds, make_car, make_state

from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action
from heatcore.heat.observe import observation
from heatcore.heat.state import Phase, RaceState

FILLER = "1 1 1 2 2 2 3"


def step(state: RaceState, text: str) -> tuple[RaceState, list]:
    after, events = apply(state, parse_action(text))
    return after, list(events)


def _three() -> RaceState:
    """P1 leads in gear 1 and can shift two up; P2 and P3 follow."""
    return make_state(make_car(10, gear=1, hand="1 2 3 4 4 S U5"),
                      make_car(5, gear=2, hand=FILLER), make_car(0, gear=2, hand=FILLER))


@pytest.mark.rules("info.plan-simultaneous", "ruling.simultaneous-planning",
                   "gear.shift.two-costs-heat")
def test_a_later_planner_sees_nothing_of_an_earlier_plan() -> None:
    state = _three()
    before = observation(state, 1)
    after, events = step(state, "P1 gear 3 play 1 2 3")
    seen = observation(after, 1)
    assert seen["cars"][0] == before["cars"][0]  # gear, engine, hand size, nothing played
    assert seen["cars"][0]["gear"] == 1 and seen["cars"][0]["engine"] == 6
    assert not kinds(events, "paid-heat") and not kinds(events, "shifted")
    own = observation(after, 0)["cars"][0]
    assert own["played"] == ["1", "2", "3"]


@pytest.mark.rules("info.gears-shown", "gear.shift.two-costs-heat", "gear.shift.free",
                   "ruling.simultaneous-planning")
def test_gears_then_two_gear_shifts_are_shown_when_every_plan_is_in() -> None:
    state, _ = step(_three(), "P1 gear 3 play 1 2 3")
    state, _ = step(state, "P2 gear 3 play 1 1 1")
    state, events = step(state, "P3 gear 1 play 1")
    order = [(e.kind, e.car) for e in events if e.kind in ("shifted", "paid-heat")]
    assert order == [("shifted", 1), ("shifted", 2), ("paid-heat", 0), ("shifted", 0)]
    assert state.phase is Phase.TURN
    seen = observation(state, 2)["cars"]
    assert [c["gear"] for c in seen] == [3, 3, 1] and seen[0]["engine"] == 5
    assert seen[1]["played"] == 3  # face down: their number is the gear


@pytest.mark.rules("info.cards-revealed")
def test_cards_are_seen_from_the_cars_own_reveal_only() -> None:
    state, _ = step(_three(), "P1 gear 2 play 1 2")
    state, _ = step(state, "P2 gear 2 play 1 1")
    state, _ = step(state, "P3 gear 2 play 1 1")
    assert state.turn is not None and state.turn.car == 0
    seen = observation(state, 2)["cars"]
    assert seen[0]["played"] == ["1", "2"] and seen[1]["played"] == 2


@pytest.mark.rules("info.discard-top", "ruling.discard-pile-order", "info.hidden")
def test_a_discard_pile_is_shown_as_its_size_to_everyone() -> None:
    state = make_state(make_car(10, hand=FILLER, discard="U0"), make_car(5, hand=FILLER))
    for viewer in (0, 1):
        cars = observation(state, viewer)["cars"]
        assert cars[0]["discard"] == 1 and cars[1]["deck"] == len(state.cars[1].deck)
