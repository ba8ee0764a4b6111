"""Our rulings on the points the sources leave open (spec/rulings.toml): the default of each,
and every alternative a race setup can switch on."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore.framework.errors import IllegalAction
from heatcore.heat.cards import canonical
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import parse_action
from heatcore.heat.rulings import make_rulings
from heatcore.heat.state import RaceState, Stage

FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"


def step(state, text: str):
    return apply(state, parse_action(text))


def under(state: RaceState, ruling: str, choice: str) -> RaceState:
    """``state`` played under one alternative of one ruling."""
    return replace(state, rulings=make_rulings({ruling: choice}))


def legal(state: RaceState) -> list[str]:
    return [str(a) for a in legal_actions(state)]


def rejected_rule(state: RaceState, text: str) -> str:
    with pytest.raises(IllegalAction) as err:
        step(state, text)
    return err.value.rule


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


def _spin_with_supply(state: RaceState) -> tuple[RaceState, list]:
    state = replace(state, supply=1)  # (not a valid count: the test checks one rule alone)
    events = []
    for text in ("P1 gear 3 play 3 4 4", "P2 gear 1 play 1", "P1 end react"):
        state, evs = step(state, text)
        events.extend(evs)
    return state, events


def _spinner() -> RaceState:
    return make_state(make_car(25, gear=3, hand="4 4 3 1 2 2 3", engine=1),
                      make_car(-40, hand=FILLER), track="great-britain")


@pytest.mark.rules("ruling.stress-supply", "corner.spin")
def test_a_spin_takes_only_what_the_stress_supply_still_holds() -> None:
    state, events = _spin_with_supply(_spinner())
    spin = kinds(events, "spun-out")[0]
    assert spin.get("stress") == 1 and state.supply == 0


@pytest.mark.rules("ruling.stress-supply", "corner.spin")
def test_under_an_unlimited_supply_a_spin_takes_its_full_count() -> None:
    state, events = _spin_with_supply(under(_spinner(), "ruling.stress-supply", "unlimited"))
    spin = kinds(events, "spun-out")[0]
    assert spin.get("stress") == 2 and state.supply == -1


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
    from heatcore.heat.cleanup import draw_to_hand_size

    state = make_state(make_car(0, hand="1 1 1 2 2 2 3"), make_car(-9, hand=STILL))
    car = replace(state.cars[0], hand=("1", "2"), deck=(), discard=())
    state = state.with_car(0, car)
    from heatcore.heat.state import Phase, Turn

    turn = Turn(car=0, stage=Stage.REPLENISH, start_position=0)
    state = replace(state, phase=Phase.TURN, turn=turn)
    after, done = draw_to_hand_size(state, turn, [])
    assert done and after.cars[0].hand == ("1", "2") and not after.is_chance()
    big = state.with_car(0, replace(car, hand=canonical(["1", "2", "3", "4", "S", "S", "S", "U0"]),
                                    deck=("4",)))
    after, done = draw_to_hand_size(big, turn, [])
    assert done and len(after.cars[0].hand) == 8 and after.cars[0].deck == ("4",)


def _cluttered_in_fourth() -> RaceState:
    """The cluttered-paid-shift transcript's hand: gear 4, engine 1, one 3 and six Heat."""
    car = make_car(0, gear=4, hand="3 H H H H H H", engine=1)
    return make_state(car, make_car(-9, hand=FILLER))


@pytest.mark.rules("ruling.cluttered-gear", "play.cluttered", "gear.shift.two-costs-heat")
def test_a_cluttered_hand_may_take_the_paid_two_gear_shift() -> None:
    state = _cluttered_in_fourth()
    assert legal(state) == ["P1 gear 2 play 3 H", "P1 gear 3 play 3 H H",
                            "P1 gear 4 play 3 H H H"]
    after, events = step(state, "P1 gear 2 play 3 H")
    after, events2 = step(after, "P2 gear 1 play 1")
    events += events2
    me = after.cars[0]
    assert me.engine == 0 and kinds(events, "cluttered") and me.gear == 1
    assert [e.get("cause") for e in kinds(events, "paid-heat") if e.car == 0] == ["shift"]


@pytest.mark.rules("ruling.cluttered-gear", "play.cluttered")
def test_under_free_shifts_only_a_cluttered_hand_stays_or_shifts_one() -> None:
    state = under(_cluttered_in_fourth(), "ruling.cluttered-gear", "free-shifts-only")
    assert legal(state) == ["P1 gear 3 play 3 H H", "P1 gear 4 play 3 H H H"]
    assert rejected_rule(state, "P1 gear 2 play 3 H") == "ruling.cluttered-gear"


@pytest.mark.rules("ruling.cluttered-gear", "play.cluttered")
def test_with_no_engine_heat_a_cluttered_hand_has_the_free_shifts_only() -> None:
    car = make_car(0, gear=2, hand="H H H H H H H", engine=0)
    state = make_state(car, make_car(-9, hand=FILLER))
    assert [a.gear for a in legal_actions(state)] == [1, 2, 3]


def _zero_mover() -> RaceState:
    return make_state(make_car(5, racing_line=False, hand=STILL), make_car(-9, hand=FILLER))


@pytest.mark.rules("ruling.zero-move")
def test_a_move_of_zero_leaves_the_car_on_its_spot() -> None:
    after, events = run(_zero_mover(), "P1 gear 1 play U0", "P1 end react")
    assert after.cars[0].spot == (5, False)
    assert not [e for e in kinds(events, "moved") if e.car == 0]


@pytest.mark.rules("ruling.zero-move", "place.racing-line-first")
def test_under_place_a_move_of_zero_takes_the_free_racing_line_spot() -> None:
    state = under(_zero_mover(), "ruling.zero-move", "place")
    after, events = run(state, "P1 gear 1 play U0", "P1 end react")
    assert after.cars[0].spot == (5, True)
    assert [e.get("spaces") for e in kinds(events, "moved") if e.car == 0] == [0]


@pytest.mark.rules("ruling.zero-move", "ruling.blocked-own-space", "place.racing-line-first")
def test_under_place_and_stay_a_move_of_zero_still_takes_the_racing_line_spot() -> None:
    # 'stay' keeps the spot of a blocked move only (1 or more spaces); a 0-space move under
    # 'place' is placed by choice, racing line first
    state = replace(_zero_mover(), rulings=make_rulings(
        {"ruling.zero-move": "place", "ruling.blocked-own-space": "stay"}))
    after, events = run(state, "P1 gear 1 play U0", "P1 end react")
    assert after.cars[0].spot == (5, True)
    assert [e.get("spaces") for e in kinds(events, "moved") if e.car == 0] == [0]


def _blocked_adrenaline() -> RaceState:
    """P5 moves 8 to space 8: spaces 9 and 10 are full, so neither its adrenaline +1 nor a
    slipstream can take it anywhere."""
    blockers = [make_car(s, r, hand=STILL) for s in (10, 9) for r in (True, False)]
    state = make_state(*blockers, make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(state, "P5 gear 2 play 4 4")
    return state


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_blocked_adrenaline_move_is_legal_and_still_adds_one_speed() -> None:
    state = _blocked_adrenaline()
    assert "P5 adrenaline move" in legal(state)
    after, events = step(state, "P5 adrenaline move")
    assert after.cars[4].position == 8 and after.turn is not None and after.turn.speed == 9


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects", "slipstream.eligible")
def test_under_must_gain_a_move_that_gains_nothing_is_not_offered() -> None:
    state = under(_blocked_adrenaline(), "ruling.blocked-extra-move", "must-gain")
    assert "P5 adrenaline move" not in legal(state) and "P5 boost" in legal(state)
    assert rejected_rule(state, "P5 adrenaline move") == "ruling.blocked-extra-move"
    after, _ = step(state, "P5 end react")
    assert after.turn is not None and after.turn.stage is not Stage.SLIPSTREAM
    allowed, _ = step(_blocked_adrenaline(), "P5 end react")
    assert allowed.turn is not None and allowed.turn.stage is Stage.SLIPSTREAM


def _outer_blocked() -> RaceState:
    """P3 on the outer spot of space 5, the racing-line spot free, space 6 full; P3 plays 1."""
    state = make_state(make_car(6, True, hand=STILL), make_car(6, False, hand=STILL),
                       make_car(5, False, hand=FILLER))
    state, _ = run(state, "P3 gear 1 play 1")
    return state


@pytest.mark.rules("ruling.blocked-own-space", "place.blocked")
def test_a_blocked_move_may_end_on_the_racing_line_of_the_cars_own_space() -> None:
    state = _outer_blocked()
    assert state.cars[2].spot == (5, True)


@pytest.mark.rules("ruling.blocked-own-space", "place.blocked")
def test_under_stay_a_blocked_move_back_to_its_own_space_keeps_its_spot() -> None:
    state = make_state(make_car(6, True, hand=STILL), make_car(6, False, hand=STILL),
                       make_car(5, False, hand=FILLER))
    state, _ = run(under(state, "ruling.blocked-own-space", "stay"), "P3 gear 1 play 1")
    assert state.cars[2].spot == (5, False)


def _spin_then_discard(state: RaceState) -> RaceState:
    for text in ("P1 gear 3 play 3 4 4", "P2 gear 1 play 1", "P1 end react"):
        state, _ = step(state, text)
    return state


@pytest.mark.rules("ruling.spin-discard", "corner.spin", "discard.optional")
def test_a_car_that_spun_may_still_discard() -> None:
    after = _spin_then_discard(_spinner())
    assert after.turn is not None and after.turn.car == 0 and after.turn.stage is Stage.DISCARD
    assert after.cars[0].gear == 1


@pytest.mark.rules("ruling.spin-discard", "corner.spin")
def test_under_straight_to_replenish_a_car_that_spun_does_not_discard() -> None:
    state = under(_spinner(), "ruling.spin-discard", "straight-to-replenish")
    after = _spin_then_discard(state)
    assert after.turn is None or after.turn.car != 0
    assert len(after.cars[0].hand) >= 7


def _finisher() -> RaceState:
    finish = 138
    return make_state(make_car(finish - 5, gear=2, hand="4 4 1 1 2 H 3"),
                      make_car(finish + 6, False, hand=STILL), make_car(-9, hand=STILL))


@pytest.mark.rules("ruling.finished-car-turn", "finish.removed", "corner.after-finish-ignored")
def test_a_finished_car_reacts_keeps_its_spot_and_does_not_slipstream() -> None:
    state, _ = run(_finisher(), "P1 gear 2 play 4 4")
    assert state.has_finished(0)
    assert "P1 cooldown 1" in legal(state)
    after, _ = step(state, "P1 end react")
    assert after.turn is not None and after.turn.stage is Stage.DISCARD
    assert after.cars[0].spot in {c.spot for c in after.cars[1:]} | {after.cars[0].spot}
    assert after.ranking == ()


@pytest.mark.rules("ruling.finished-car-discard-draw", "discard.optional", "replenish.draw")
def test_a_finished_car_discards_and_draws_as_usual() -> None:
    state, _ = run(_finisher(), "P1 gear 2 play 4 4")
    after, _ = step(state, "P1 end react")
    assert "P1 discard 1" in legal(after)
    after, _ = step(after, "P1 discard 1")
    car = after.cars[0]
    assert not car.play_area and len(car.hand) == 7 and after.turn is not None
    assert after.turn.car != 0


@pytest.mark.rules("ruling.finished-car-discard-draw", "replenish.cleanup")
def test_under_skip_a_finished_car_neither_discards_nor_draws() -> None:
    state = under(_finisher(), "ruling.finished-car-discard-draw", "skip")
    state, _ = run(state, "P1 gear 2 play 4 4")
    after, _ = step(state, "P1 end react")
    car = after.cars[0]
    assert not car.play_area and len(car.hand) == 5 and after.turn is not None
    assert after.turn.car != 0


@pytest.mark.rules("ruling.adrenaline-order", "adrenaline.who", "play.cluttered")
def test_a_cluttered_last_car_does_not_use_adrenaline() -> None:
    lead = make_car(20, hand=FILLER)
    me = make_car(0, gear=2, hand="H H H H H H H", engine=0)
    state = make_state(lead, me)
    after, events = run(state, "P2 gear 1 play H")
    assert kinds(events, "cluttered")
    assert not kinds(events, "adrenaline") and after.cars[1].position == 0
    # its adrenaline is not passed on: the car before it in the order has none
    assert [e.get("adrenaline") for e in kinds(events, "turn-started") if e.car == 0] == [False]


def _corner_runner(blocked: bool) -> tuple[RaceState, list]:
    """P3 at 30 plays a 4 towards USA's corner line 2 (after space 33, limit 3); with
    ``blocked`` both spots of space 34 are taken."""
    ahead = [make_car(34, True, hand=STILL), make_car(34, False, hand=STILL)] if blocked else [
        make_car(40, True, hand=STILL), make_car(40, False, hand=STILL)]
    state = make_state(*ahead, make_car(30, hand="4 1 1 2 2 3 3"))
    state, events = run(state, "P3 gear 1 play 4", "P3 end react")
    if blocked:  # beside nobody, but just behind the blockers: decline the slipstream
        state, more = step(state, "P3 no slipstream")
        events += more
    return state, events


@pytest.mark.rules("ruling.setback-corner", "corner.check", "place.blocked")
def test_a_car_set_back_before_a_corner_line_does_not_check_it() -> None:
    after, events = _corner_runner(blocked=True)
    assert after.cars[2].position == 33 and after.turn is not None
    assert after.turn.stage is Stage.DISCARD  # step 7 is done
    assert not [e for e in kinds(events, "corner") if e.car == 2]
    free, events = _corner_runner(blocked=False)
    assert free.cars[2].position == 34
    assert [e.get("heat") for e in kinds(events, "corner") if e.car == 2] == [1]


@pytest.mark.rules("ruling.lap-count", "setup.track-laps", "finish.line")
@pytest.mark.parametrize("laps", [1, 3])
def test_races_of_other_lengths_than_the_board_play_to_the_end(laps: int) -> None:
    from heatcore.heat.driver import random_race

    race = random_race("usa", 3, seed=laps, laps=laps)
    assert race.final.is_over() and race.final.laps == laps
    assert race.final.finish_position == race.final.track.finish_position(laps)


@pytest.mark.rules("ruling.setback-corner", "corner.check")
def test_under_checked_a_setback_before_a_corner_line_still_checks_it() -> None:
    ahead = [make_car(34, True, hand=STILL), make_car(34, False, hand=STILL)]
    state = under(make_state(*ahead, make_car(30, hand="4 1 1 2 2 3 3")),
                  "ruling.setback-corner", "checked")
    state, events = run(state, "P3 gear 1 play 4", "P3 end react")
    assert state.turn is not None and state.turn.reach == 34
    after, more = step(state, "P3 no slipstream")
    assert after.cars[2].position == 33
    assert [e.get("heat") for e in kinds([*events, *more], "corner") if e.car == 2] == [1]


@pytest.mark.rules("ruling.setback-corner", "corner.check", "adrenaline.effects",
                   "place.blocked")
def test_under_checked_a_blocked_one_space_move_still_checks_the_line() -> None:
    # USA corner 2 follows space 33 (limit 3): P3 moves 3 to 33, then its adrenaline +1
    # (speed 4) aims at 34, which is full: set back to 33, the line is still checked
    ahead = [make_car(34, True, hand=STILL), make_car(34, False, hand=STILL)]
    me = make_car(30, hand="3 1 1 2 2 4 4")
    state = under(make_state(*ahead, me), "ruling.setback-corner", "checked")
    state, events = run(state, "P3 gear 1 play 3", "P3 adrenaline move")
    assert state.cars[2].position == 33
    assert state.turn is not None and state.turn.reach == 34 and state.turn.speed == 4
    state, more = run(state, "P3 end react", "P3 no slipstream")
    assert (state.cars[2].position, state.cars[2].engine) == (33, me.engine - 1)
    assert [e.get("heat") for e in kinds([*events, *more], "corner") if e.car == 2] == [1]


def _adrenaline_behind(spaces: tuple[int, ...]) -> RaceState:
    """P5 (adrenaline, last of 5) has moved to space 8; both spots of each of ``spaces``
    are held."""
    blockers = [make_car(s, r, hand=STILL) for s in spaces for r in (True, False)]
    state = make_state(*blockers, make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(state, "P5 gear 2 play 4 4")
    return under(state, "ruling.blocked-extra-move", "must-gain")


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_under_must_gain_a_move_that_gains_a_space_is_offered_and_taken() -> None:
    state = _adrenaline_behind((10, 11))
    assert "P5 adrenaline move" in legal(state)
    after, _ = step(state, "P5 adrenaline move")
    assert after.cars[4].spot == (9, True)


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_under_must_gain_the_check_asks_about_one_space_not_two() -> None:
    """Space 9 is full, space 10 free: the +1 move gains nothing (a +2 would)."""
    state = _adrenaline_behind((9, 20))
    assert "P5 adrenaline move" not in legal(state)
    assert rejected_rule(state, "P5 adrenaline move") == "ruling.blocked-extra-move"


@pytest.mark.rules("ruling.spin-discard", "corner.check", "discard.optional")
def test_under_straight_to_replenish_a_corner_taken_without_a_spin_still_discards() -> None:
    state = under(_spinner(), "ruling.spin-discard", "straight-to-replenish")
    for text in ("P1 gear 3 play 1 2 3", "P2 gear 1 play 1"):
        state, _ = step(state, text)
    after, events = step(state, "P1 end react")
    assert kinds(events, "corner") and not kinds(events, "spun-out")
    assert after.turn is not None and after.turn.car == 0 and after.turn.stage is Stage.DISCARD


@pytest.mark.rules("ruling.blocked-own-space", "move.exact")
def test_under_stay_a_move_that_is_not_blocked_still_advances() -> None:
    state = make_state(make_car(10, True, hand=STILL), make_car(10, False, hand=STILL),
                       make_car(5, False, hand=FILLER))
    state, _ = run(under(state, "ruling.blocked-own-space", "stay"), "P3 gear 1 play 1")
    assert state.cars[2].spot == (6, True)
