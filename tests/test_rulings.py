"""Our rulings on the points the sources leave open (spec/rulings.toml)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore.cards import canonical
from heatcore.engine import apply, legal_actions
from heatcore.notation import parse_action
from heatcore.state import Stage

FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"


def step(state, text: str):
    return apply(state, parse_action(text))


@pytest.mark.rules("ruling.flip-no-basic", "reveal.stress-flip")
def test_a_flip_with_no_basic_card_left_finds_nothing_and_moves_no_card() -> None:
    state = make_state(make_car(0, gear=1, hand="S 1 1 2 2 3 3"), make_car(-9, hand=STILL))
    me = state.cars[0]
    no_basic = replace(me, deck=("H", "U0"), discard=("U5",))
    state = state.with_car(0, no_basic)
    state, _ = step(state, "P1 gear 1 play S")
    state, events = step(state, "P2 gear 1 play U0")
    assert kinds(events, "flip-found-nothing")
    assert state.cars[0].deck == ("H", "U0") and state.cars[0].discard == ("U5",)
    assert [e.get("speed") for e in kinds(events, "speed") if e.car == 0] == [0]


@pytest.mark.rules("ruling.stress-supply", "corner.spin")
def test_a_spin_takes_only_what_the_stress_supply_still_holds() -> None:
    state = make_state(make_car(25, gear=3, hand="4 4 3 1 2 2 3", engine=1),
                       make_car(-40, hand=FILLER), track="great-britain")
    state = replace(state, supply=1)  # (not a valid count: the test checks one rule alone)
    events = []
    for text in ("P1 gear 3 play 3 4 4", "P2 gear 1 play 1", "P1 end react"):
        state, evs = step(state, text)
        events.extend(evs)
    spin = kinds(events, "spun-out")[0]
    assert spin.get("stress") == 1 and state.supply == 0


@pytest.mark.rules("ruling.replenish-empty")
def test_replenish_stops_when_deck_and_discard_are_both_empty() -> None:
    state = make_state(make_car(0, gear=2, hand="3 4 1 1 2 2 2"), make_car(-9, hand=STILL))
    state = state.with_car(0, replace(state.cars[0], deck=("1",), discard=()))
    state, _ = step(state, "P1 gear 2 play 3 4")
    state, _ = step(state, "P2 gear 1 play U0")
    state, _ = step(state, "P1 end react")
    assert state.turn is not None and state.turn.stage is Stage.DISCARD
    # the played 3 and 4 go to the discard first, so that is all the car can draw
    state, events = step(state, "P1 discard nothing")
    assert state.is_chance()
    state, events = step(state, "P1 shuffle 3 4")
    assert len(state.cars[0].hand) == 7


@pytest.mark.rules("ruling.replenish-empty", "ruling.hand-over-limit")
def test_draw_stops_short_when_nothing_is_left_and_never_over_seven() -> None:
    from heatcore.cleanup import draw_to_hand_size

    state = make_state(make_car(0, hand="1 1 1 2 2 2 3"), make_car(-9, hand=STILL))
    car = replace(state.cars[0], hand=("1", "2"), deck=(), discard=())
    state = state.with_car(0, car)
    from heatcore.state import Phase, Turn

    turn = Turn(car=0, stage=Stage.REPLENISH, start_position=0)
    state = replace(state, phase=Phase.TURN, turn=turn)
    after, done = draw_to_hand_size(state, turn, [])
    assert done and after.cars[0].hand == ("1", "2") and not after.is_chance()
    big = state.with_car(0, replace(car, hand=canonical(["1", "2", "3", "4", "S", "S", "S", "U0"]),
                                    deck=("4",)))
    after, done = draw_to_hand_size(big, turn, [])
    assert done and len(after.cars[0].hand) == 8 and after.cars[0].deck == ("4",)


@pytest.mark.rules("ruling.cluttered-gear", "play.cluttered")
def test_cluttered_gear_choice_is_among_the_free_shifts() -> None:
    car = make_car(0, gear=2, hand="H H H H H H H", engine=0)
    state = make_state(car, make_car(-9, hand=FILLER))
    assert [a.gear for a in legal_actions(state)] == [1, 2, 3]


@pytest.mark.rules("ruling.zero-move")
def test_a_move_of_zero_leaves_the_car_on_its_spot() -> None:
    state = make_state(make_car(5, racing_line=False, hand=STILL), make_car(-9, hand=FILLER))
    after, events = run(state, "P1 gear 1 play U0", "P1 end react")
    assert after.cars[0].spot == (5, False)
    assert not [e for e in kinds(events, "moved") if e.car == 0]


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_blocked_adrenaline_move_is_legal_and_still_adds_one_speed() -> None:
    blockers = [make_car(9, True, hand=STILL), make_car(9, False, hand=STILL)]
    me = make_car(0, gear=2, hand="4 4 1 1 2 2 3")
    state = make_state(*blockers, me)
    state, _ = run(state, "P3 gear 2 play 4 4")
    assert "P3 adrenaline move" in [str(a) for a in legal_actions(state)]
    after, events = step(state, "P3 adrenaline move")
    assert after.cars[2].position == 8 and after.turn is not None and after.turn.speed == 9


@pytest.mark.rules("ruling.finished-car-turn", "finish.removed")
def test_a_finished_car_reacts_but_skips_slipstream_discard_and_draw() -> None:
    finish = 138
    state = make_state(make_car(finish - 5, gear=2, hand="4 4 1 1 2 H 3"),
                       make_car(finish + 6, False, hand=STILL), make_car(-9, hand=STILL))
    state = replace(state, ranking=(), cars=state.cars)
    state, events = run(state, "P1 gear 2 play 4 4")
    assert state.cars[0].position > finish
    options = [str(a) for a in legal_actions(state)]
    assert "P1 cooldown 1" in options
    after, events = step(state, "P1 end react")
    car = after.cars[0]
    assert not car.play_area and len(car.hand) == 5 and after.turn is not None
    assert after.turn.car != 0
    assert car.spot in {c.spot for c in after.cars}


@pytest.mark.rules("ruling.simultaneous-planning", "gear.shift.two-costs-heat")
def test_two_step_shift_heat_is_paid_when_the_plan_is_taken() -> None:
    state = make_state(make_car(0, gear=1, hand="1 2 3 4 4 S U5"), make_car(-9, hand=FILLER))
    after, events = step(state, "P1 gear 3 play 1 2 3")
    assert after.cars[0].engine == 5 and after.turn is None and kinds(events, "paid-heat")


@pytest.mark.rules("ruling.adrenaline-order", "adrenaline.who", "play.cluttered")
def test_a_cluttered_last_car_does_not_use_adrenaline() -> None:
    lead = make_car(20, hand=FILLER)
    me = make_car(0, gear=2, hand="H H H H H H H", engine=0)
    state = make_state(lead, me)
    after, events = run(state, "P2 gear 1 play H")
    assert kinds(events, "cluttered")
    assert not kinds(events, "adrenaline") and after.cars[1].position == 0
