"""Steps 1-2: shifting gears and playing cards, the cluttered hand, and turn order."""

from __future__ import annotations

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore import IllegalAction
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import parse_action
from heatcore.heat.planning import is_cluttered, reachable_gears


def _rejects(state, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        apply(state, parse_action(text))
    return err.value.rule


BEHIND = make_car(-5, hand="1 1 1 2 2 2 3")


@pytest.mark.rules("gear.shift.free", "gear.range")
def test_free_shifts_are_stay_up_or_down_one_within_one_to_four() -> None:
    assert reachable_gears(make_car(0, gear=1, engine=0)) == (1, 2)
    assert reachable_gears(make_car(0, gear=3, engine=0)) == (2, 3, 4)
    assert reachable_gears(make_car(0, gear=4, engine=0)) == (3, 4)
    state = make_state(make_car(0, gear=2, hand="1 2 3 4 4 S U5"), BEHIND)
    after, events = run(state, "P1 gear 3 play 1 2 3")
    assert after.cars[0].gear == 3 and after.cars[0].engine == 6
    assert not kinds(events, "paid-heat")


@pytest.mark.rules("gear.shift.two-costs-heat")
def test_two_step_shift_pays_one_engine_heat_to_the_discard() -> None:
    state = make_state(make_car(0, gear=1, hand="1 2 3 4 4 S U5"), BEHIND)
    after, events = run(state, "P1 gear 3 play 1 2 3")
    car = after.cars[0]
    assert car.gear == 3 and car.engine == 5 and car.discard.count("H") == 1
    assert [e.get("amount") for e in kinds(events, "paid-heat")] == [1]


@pytest.mark.rules("gear.shift.two-costs-heat")
def test_two_step_shift_needs_heat_in_the_engine() -> None:
    state = make_state(make_car(0, gear=1, hand="1 2 3 4 4 S U5", engine=0), BEHIND)
    assert _rejects(state, "P1 gear 3 play 1 2 3") == "gear.shift.two-costs-heat"


@pytest.mark.rules("gear.shift.no-three", "gear.range")
def test_three_step_shift_and_gear_five_are_illegal() -> None:
    state = make_state(make_car(0, gear=1, hand="1 2 3 4 4 S U5"), BEHIND)
    assert _rejects(state, "P1 gear 4 play 1 2 3 4") == "gear.shift.no-three"
    four = make_state(make_car(0, gear=4, hand="1 2 3 4 4 S U5"), BEHIND)
    assert _rejects(four, "P1 gear 5 play 1 2 3 4 4") == "gear.range"
    assert all(a.gear <= 4 for a in legal_actions(four))


@pytest.mark.rules("play.card-count")
def test_exactly_as_many_cards_as_the_gear() -> None:
    state = make_state(make_car(0, gear=2, hand="1 2 3 4 4 S U5"), BEHIND)
    assert _rejects(state, "P1 gear 2 play 1") == "play.card-count"
    assert _rejects(state, "P1 gear 2 play 1 2 3") == "play.card-count"
    assert all(len(a.cards) == a.gear for a in legal_actions(state))


@pytest.mark.rules("play.playable-cards")
def test_stress_and_starting_upgrades_are_playable_and_count_zero_and_five() -> None:
    state = make_state(make_car(0, gear=2, hand="1 2 3 S U0 U5 4", deck_top="4"), BEHIND)
    after, events = run(state, "P1 gear 3 play U0 U5 S")
    assert kinds(events, "played")[0].get("cards") == ("U0", "U5", "S")
    assert _rejects(state, "P1 gear 2 play 4 4") == "play.playable-cards"


@pytest.mark.rules("play.heat-not-playable")
def test_heat_cannot_be_played_while_a_legal_play_exists() -> None:
    state = make_state(make_car(0, gear=2, hand="1 2 3 4 H S U5"), BEHIND)
    assert _rejects(state, "P1 gear 2 play 1 H") == "play.heat-not-playable"
    assert all("H" not in a.cards for a in legal_actions(state))


@pytest.mark.rules("play.cluttered", "ruling.cluttered-gear")
def test_cluttered_hand_plays_all_playable_cards_plus_heat_and_does_not_move() -> None:
    car = make_car(0, gear=4, hand="1 H H H H H H", engine=1)
    other = make_car(-3, hand="1 1 1 2 2 2 3")
    state = make_state(car, other)
    assert is_cluttered(state.cars[0])
    legal = [str(a) for a in legal_actions(state)]
    assert legal == ["P1 gear 2 play 1 H", "P1 gear 3 play 1 H H", "P1 gear 4 play 1 H H H"]
    after, events = run(state, "P1 gear 4 play 1 H H H", "P2 gear 1 play 1")
    me = after.cars[0]
    assert me.position == 0 and me.gear == 1
    assert kinds(events, "cluttered") and not [e for e in kinds(events, "moved") if e.car == 0]
    assert me.discard.count("H") == 3 and "1" in me.discard
    assert len(me.hand) == 7
    assert _rejects(state, "P1 gear 1 play 1") == "gear.shift.no-three"


@pytest.mark.rules("play.cluttered-only-when-forced")
def test_not_cluttered_when_a_two_step_downshift_allows_a_play() -> None:
    car = make_car(0, gear=4, hand="1 2 H H H H H", engine=1)
    assert not is_cluttered(car)
    state = make_state(car, make_car(-3, hand="1 1 1 2 2 2 3"))
    assert [str(a) for a in legal_actions(state)] == ["P1 gear 2 play 1 2"]
    assert _rejects(state, "P1 gear 4 play 1 2 H H") == "play.heat-not-playable"
    broke = make_car(0, gear=4, hand="1 2 H H H H H", engine=0)
    assert is_cluttered(broke)


@pytest.mark.rules("order.fixed-at-round-start", "round.sequence")
def test_leader_acts_first_and_racing_line_first_within_a_space() -> None:
    a = make_car(10, racing_line=False, hand="1 1 1 2 2 2 3")
    b = make_car(10, racing_line=True, hand="1 1 1 2 2 2 3")
    c = make_car(12, hand="1 1 1 2 2 2 3")
    state = make_state(a, b, c)
    assert state.order == (2, 1, 0)
    assert _rejects(state, "P1 gear 1 play 1") == "order.fixed-at-round-start"


@pytest.mark.rules("order.fixed-at-round-start")
def test_passing_during_the_round_does_not_change_the_order() -> None:
    ahead = make_car(5, hand="1 1 1 2 2 2 3")
    behind = make_car(3, gear=2, hand="3 4 1 1 2 2 2")
    state = make_state(ahead, behind)
    after, events = run(state, "P1 gear 1 play 1", "P2 gear 2 play 3 4", "P1 end react",
                        "P1 discard nothing", "P2 end react", "P2 discard nothing")
    turns = [e.car for e in kinds(events, "turn-started")]
    assert turns == [0, 1]
    assert after.cars[1].position > after.cars[0].position
    assert after.order == (1, 0)  # the next round uses the new standing
