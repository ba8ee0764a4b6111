"""Edge cases of single rules, each in a test of its own: every refusal branch of react by the
rule it names, two-gear downshifts, the paid downshift that saves a cluttered hand, stopping
exactly on the last space, slipstream at the final line, adrenaline with a ranked car, the
turn's total speed, full landing spaces and finished cars leaving the track."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import bot_choice, kinds, make_car, make_state, run

from heatcore import IllegalAction
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import parse_action
from heatcore.heat.state import RaceState

FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put
FINISH = 138  # USA, 2 laps


def refused(state: RaceState, action: str) -> str:
    """The rule an illegal action is refused by (the state is a value: it stays as it was)."""
    with pytest.raises(IllegalAction) as err:
        apply(state, parse_action(action))
    return err.value.rule


def react_state(hand: str, engine: int | None = None, gear: int = 1,
                play: str = "1") -> RaceState:
    """P2 is the last car (adrenaline) and waits in react after playing ``play``."""
    lead = make_car(30, hand=FILLER)
    me = make_car(0, gear=gear, hand=hand, engine=engine)
    state, _ = run(make_state(lead, me), f"P2 gear {gear} play {play}")
    assert state.turn is not None and state.turn.car == 1
    return state


# ---------------------------------------------------------------- refusals of react


@pytest.mark.rules("react.cooldown")
def test_cooling_more_heat_than_the_hand_holds_is_refused_by_react_cooldown() -> None:
    state = react_state("1 H 2 2 3 3 4")
    assert "P2 cooldown 1" in map(str, legal_actions(state))
    assert refused(state, "P2 cooldown 2") == "react.cooldown"


@pytest.mark.rules("react.cooldown", "adrenaline.effects")
def test_adrenaline_cooldown_with_no_heat_in_hand_is_refused_by_react_cooldown() -> None:
    state = react_state("1 1 2 2 3 3 4")
    assert "P2 adrenaline cooldown" not in map(str, legal_actions(state))
    assert refused(state, "P2 adrenaline cooldown") == "react.cooldown"


@pytest.mark.rules("react.boost")
def test_boost_with_an_empty_engine_is_refused_by_react_boost() -> None:
    state = react_state("1 1 2 2 3 3 4", engine=0)
    assert "P2 boost" not in map(str, legal_actions(state))
    assert refused(state, "P2 boost") == "react.boost"


@pytest.mark.rules("react.any-order", "adrenaline.effects")
def test_each_adrenaline_effect_is_used_once() -> None:
    state = react_state("1 H H 2 3 3 4")
    moved, _ = run(state, "P2 adrenaline move")
    assert refused(moved, "P2 adrenaline move") == "react.any-order"
    cooled, _ = run(state, "P2 adrenaline cooldown")
    assert refused(cooled, "P2 adrenaline cooldown") == "react.any-order"


@pytest.mark.rules("react.any-order", "react.cooldown")
def test_the_gears_cooldown_is_used_once() -> None:
    state = react_state("1 H H 2 3 3 4")
    cooled, _ = run(state, "P2 cooldown 1")
    assert not [a for a in legal_actions(cooled) if str(a).startswith("P2 cooldown")]
    assert refused(cooled, "P2 cooldown 1") == "react.any-order"


@pytest.mark.rules("adrenaline.who")
def test_adrenaline_of_a_car_without_it_is_refused_by_adrenaline_who() -> None:
    state = make_state(make_car(0, gear=1, hand="1 H H 2 3 3 4"), make_car(-30, hand=FILLER))
    state, _ = run(state, "P1 gear 1 play 1")
    assert state.turn is not None and state.turn.car == 0 and not state.turn.adrenaline
    assert refused(state, "P1 adrenaline move") == "adrenaline.who"
    assert refused(state, "P1 adrenaline cooldown") == "adrenaline.who"


# ---------------------------------------------------------------- gears


@pytest.mark.rules("gear.shift.two-costs-heat")
@pytest.mark.parametrize(("gear", "down"), [(3, 1), (4, 2)])
def test_a_two_gear_downshift_pays_one_heat(gear: int, down: int) -> None:
    play = {1: "1", 2: "1 2"}[down]
    state = make_state(make_car(0, gear=gear, hand="1 2 3 4 4 S U5"),
                       make_car(-9, hand=FILLER))
    after, events = run(state, f"P1 gear {down} play {play}")
    car = after.cars[0]
    assert car.gear == down and car.engine == 5 and car.discard.count("H") == 1
    assert [(e.get("amount"), e.get("cause")) for e in kinds(events, "paid-heat")] == [
        (1, "shift")]
    broke = make_state(make_car(0, gear=gear, hand="1 2 3 4 4 S U5", engine=0),
                       make_car(-9, hand=FILLER))
    assert refused(broke, f"P1 gear {down} play {play}") == "gear.shift.two-costs-heat"


@pytest.mark.rules("ruling.cluttered-gear", "gear.shift.two-costs-heat")
def test_only_the_paid_downshift_saves_a_hand_from_clutter() -> None:
    # gear 4, two playable cards: the free gears 3 and 4 need 3 cards, the paid gear 2 needs 2
    state = make_state(make_car(0, gear=4, hand="3 4 H H H H H", engine=1),
                       make_car(-9, hand=FILLER))
    assert [str(a) for a in legal_actions(state)] == ["P1 gear 2 play 3 4"]
    after, events = run(state, "P1 gear 2 play 3 4")
    assert after.cars[0].engine == 0 and not kinds(events, "cluttered")
    assert kinds(events, "speed")[0].get("speed") == 7
    broke = make_state(make_car(0, gear=4, hand="3 4 H H H H H", engine=0),
                       make_car(-9, hand=FILLER))
    assert [str(a) for a in legal_actions(broke)] == ["P1 gear 3 play 3 4 H",
                                                      "P1 gear 4 play 3 4 H H"]


# ---------------------------------------------------------------- finish line


@pytest.mark.rules("finish.line")
def test_stopping_exactly_on_the_last_space_does_not_finish() -> None:
    state = make_state(make_car(FINISH - 4, hand="4 1 1 2 2 3 3"), make_car(-9, hand=FILLER))
    after, events = run(state, "P1 gear 1 play 4", "P1 end react")
    assert after.cars[0].position == FINISH
    assert not kinds(events, "crossed-finish") and not after.has_finished(0)
    one_more = make_state(make_car(FINISH - 3, hand="4 1 1 2 2 3 3"), make_car(-9, hand=FILLER))
    after, events = run(one_more, "P1 gear 1 play 4", "P1 end react")
    assert kinds(events, "crossed-finish") and after.has_finished(0)


@pytest.mark.rules("slipstream.not-past-finish")
def test_slipstream_up_to_the_last_space_but_not_across_the_line() -> None:
    # P2 stops one space behind P1; a slipstream from FINISH - 2 ends on the last space
    ok = make_state(make_car(FINISH - 1, hand=STILL), make_car(FINISH - 6, hand="4 1 1 2 2 3 3"))
    state, _ = run(ok, "P2 gear 1 play 4", "P2 end react")
    assert state.cars[1].position == FINISH - 2
    assert "P2 slipstream" in map(str, legal_actions(state))
    too_far = make_state(make_car(FINISH, hand=STILL), make_car(FINISH - 5, hand="4 1 1 2 2 3 3"))
    state, _ = run(too_far, "P2 gear 1 play 4", "P2 end react")
    assert state.cars[1].position == FINISH - 1
    assert "P2 slipstream" not in map(str, legal_actions(state))


@pytest.mark.rules("finish.removed")
def test_a_finished_car_leaves_the_track_at_the_end_of_its_round() -> None:
    # P1 finishes on FINISH + 2 in round 1; in round 2 P2 lands on that very spot
    state = make_state(make_car(FINISH - 2, hand="4 1 1 2 2 3 3"),
                       make_car(FINISH - 6, hand="4 4 4 1 2 3 3"), make_car(-30, hand=FILLER))
    state, _ = run(state, "P1 gear 1 play 4", "P2 gear 1 play 4", "P3 gear 1 play 1")
    while state.round == 1:
        state = apply(state, bot_choice(state))[0]
    assert state.cars[0].spot == (FINISH + 2, True) and state.cars[1].position == FINISH - 2
    assert state.ranking == (0,) and state.order == (1, 2)
    assert all(a.car != 0 for a in legal_actions(state))
    state, _ = run(state, "P2 gear 1 play 4", "P3 gear 1 play 1")
    assert state.cars[1].spot == (FINISH + 2, True)  # the finished car no longer holds it


# ---------------------------------------------------------------- adrenaline and speed


@pytest.mark.rules("adrenaline.count-fixed", "adrenaline.who")
@pytest.mark.parametrize("players", [5, 6])
def test_two_cars_get_adrenaline_after_a_car_of_a_big_field_is_ranked(players: int) -> None:
    cars = [make_car(60 - 10 * i, hand=FILLER) for i in range(players)]
    state = make_state(*cars)
    ranked = replace(state.cars[0], position=FINISH + 5)
    state = replace(state, cars=(ranked, *state.cars[1:]), ranking=(0,),
                    order=tuple(range(1, players)), round=30)
    events = []
    while state.round == 30:
        state, evs = apply(state, legal_actions(state)[0])
        events += evs
    flags = {e.car: e.get("adrenaline") for e in kinds(events, "turn-started")}
    assert flags == {i: i >= players - 2 for i in range(1, players)}


@pytest.mark.rules("adrenaline.effects", "speed.turn-total")
def test_adrenaline_gives_one_space_one_speed_and_one_cooldown_this_round_only() -> None:
    state = react_state("1 H H 2 3 3 4", play="1")
    after, events = run(state, "P2 adrenaline move", "P2 adrenaline cooldown")
    assert after.cars[1].position == 2 and after.turn is not None and after.turn.speed == 2
    assert after.cars[1].engine == state.cars[1].engine + 1
    assert after.cars[1].hand.count("H") == 1
    assert kinds(events, "adrenaline")[0].get("speed") == 2


@pytest.mark.rules("speed.turn-total", "corner.pay-heat", "react.boost", "adrenaline.effects")
def test_corners_compare_the_cards_stress_boost_and_adrenaline_total() -> None:
    # USA corner 1 lies after space 12 (limit 7): 4 + 3 (cards) + 2 (boost) + 1 = 10 -> 3 Heat
    lead = make_car(40, hand=FILLER)
    me = make_car(5, gear=2, hand="4 3 1 1 2 2 H", deck_top="2")
    state, _ = run(make_state(lead, me), "P2 gear 2 play 3 4")
    state, events = run(state, "P2 boost", "P2 adrenaline move", "P2 end react")
    corner = kinds(events, "corner")[0]
    assert (corner.get("speed"), corner.get("limit"), corner.get("heat")) == (10, 7, 3)
    assert state.cars[1].engine == 6 - 1 - 3


@pytest.mark.rules("place.blocked", "place.racing-line-first")
def test_two_full_spaces_send_the_car_back_to_the_first_free_spot() -> None:
    blockers = [make_car(p, r, hand=STILL) for p in (9, 8) for r in (True, False)]
    blockers.append(make_car(7, True, hand=STILL))
    me = make_car(0, gear=2, hand="4 4 1 1 2 2 3")
    state = make_state(*blockers, me)
    after, events = run(state, "P6 gear 2 play 4 4")
    assert after.cars[5].spot == (7, False)
    assert [e.get("speed") for e in kinds(events, "speed") if e.car == 5] == [8]


# ---------------------------------------------------------------- one rule each, sharpened


@pytest.mark.rules("round.sequence")
def test_an_action_of_another_step_is_refused_by_round_sequence() -> None:
    state = make_state(make_car(0, hand="1 H 2 2 3 3 4"), make_car(-9, hand=FILLER))
    assert refused(state, "P1 end react") == "round.sequence"
    assert refused(state, "P1 discard nothing") == "round.sequence"
    state, _ = run(state, "P1 gear 1 play 1")
    assert state.turn is not None and state.turn.stage.value == "react"
    assert refused(state, "P1 gear 1 play 2") == "round.sequence"
    assert refused(state, "P1 slipstream") == "round.sequence"


@pytest.mark.rules("place.speed-unchanged", "corner.pay-heat")
def test_a_blocked_car_checks_corners_with_its_full_speed() -> None:
    # USA corner 1 lies after space 12 (limit 7): speed 9 aims at 14, which is full
    blockers = [make_car(14, r, hand=STILL) for r in (True, False)]
    me = make_car(5, gear=2, hand="4 U5 1 1 2 2 3")
    state, events = run(make_state(*blockers, me), "P3 gear 2 play 4 U5", "P3 end react",
                        "P3 no slipstream")
    assert state.cars[2].spot == (13, True)
    corner = next(e for e in kinds(events, "corner") if e.car == 2)
    assert (corner.get("speed"), corner.get("heat")) == (9, 2)


@pytest.mark.rules("slipstream.speed-unchanged", "corner.check")
def test_a_slipstream_across_a_corner_is_checked_with_the_turns_speed() -> None:
    # P2 stops on 11 behind P1 on 12 and slipstreams over USA corner 1 (after 12, limit 7)
    state = make_state(make_car(12, hand=STILL), make_car(3, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(state, "P2 gear 2 play 4 4", "P2 end react")
    after, events = run(state, "P2 slipstream")
    assert after.cars[1].position == 13
    corner = next(e for e in kinds(events, "corner") if e.car == 1)
    assert (corner.get("speed"), corner.get("heat")) == (8, 1)
    assert after.cars[1].engine == state.cars[1].engine - 1


@pytest.mark.rules("corner.after-finish-ignored")
def test_a_corner_line_past_the_final_line_is_not_checked() -> None:
    # USA, 2 laps: the final line follows 138 and corner 1 of a third lap would follow 150
    state = make_state(make_car(135, gear=4, hand="4 4 4 U5 1 1 2", engine=0),
                       make_car(-40, hand=FILLER))
    after, events = run(state, "P1 gear 4 play 4 4 4 U5")
    assert after.cars[0].position == 152 and kinds(events, "crossed-finish")
    assert not [e for e in kinds(events, "corner") + kinds(events, "spun-out") if e.car == 0]
    assert after.cars[0].gear == 4


@pytest.mark.rules("ruling.hand-over-limit", "corner.spin")
def test_stress_from_a_spin_may_take_the_hand_over_seven() -> None:
    # great-britain: a corner of limit 6 follows space 25 (as in the seed's spin example)
    car = make_car(25, gear=2, hand="4 4 1 1 2 2 3", engine=0)
    car = replace(car, hand=tuple(sorted(car.hand + car.deck[:2])), deck=car.deck[2:])
    state = make_state(car, make_car(-40, hand=FILLER), track="great-britain")
    assert len(state.cars[0].hand) == 9
    after, events = run(state, "P1 gear 2 play 4 4")
    assert kinds(events, "spun-out")
    assert len(after.cars[0].hand) == 8 and after.cars[0].hand.count("S") >= 1


@pytest.mark.rules("react.cooldown")
def test_first_gear_cools_three_even_with_four_heat_in_hand() -> None:
    state = react_state("1 H H H H 2 3", engine=3)
    offered = [a for a in map(str, legal_actions(state)) if a.startswith("P2 cooldown")]
    assert offered == ["P2 cooldown 1", "P2 cooldown 2", "P2 cooldown 3"]
    assert refused(state, "P2 cooldown 4") == "react.cooldown"
    assert refused(state, "P2 cooldown 0") == "react.cooldown"


@pytest.mark.rules("setup.stress-supply", "ruling.stress-supply")
@pytest.mark.parametrize("players", [2, 5])
def test_the_supply_is_the_boxs_37_stress_less_three_per_deck(players: int) -> None:
    import random

    from heatcore import random_setup, start_race

    state, _ = start_race(random_setup("usa", players, random.Random(players)))
    assert state.supply == 37 - 3 * players  # the box holds 37 Stress cards


@pytest.mark.rules("deck.reshuffle")
def test_a_shuffle_of_another_car_or_other_cards_is_refused_by_deck_reshuffle() -> None:
    from heatcore.heat.actions import Shuffle

    car = make_car(0, gear=2, hand="S 4 1 1 2 2 3", deck_top="")
    car = replace(car, deck=(), discard=car.deck)
    for other in (make_car(-40, hand=FILLER), make_car(40, hand=FILLER)):
        state, _ = run(make_state(car, other), "P1 gear 2 play 4 S")
        assert state.shuffle == 0
        pool = state.cars[0].deck + state.cars[0].discard
        wrong_car = Shuffle(1, state.cars[1].deck + state.cars[1].discard)
        for action in (wrong_car, Shuffle(0, pool[1:]), Shuffle(0, (*pool, "1"))):
            with pytest.raises(IllegalAction) as err:
                apply(state, action)
            assert err.value.rule == "deck.reshuffle"


@pytest.mark.rules("play.card-count", "discard.optional")
def test_cards_out_of_the_canonical_order_are_refused_by_the_rule_of_the_step() -> None:
    from heatcore.heat.actions import Discard, Plan

    state = make_state(make_car(0, gear=2, hand="1 2 S U5 U0 4 4"), make_car(-9, hand=FILLER))
    for cards in (("S", "U5"), ("U5", "4")):
        with pytest.raises(IllegalAction) as err:
            apply(state, Plan(0, 2, cards))
        assert err.value.rule == "play.card-count"
    state, _ = run(state, "P1 gear 2 play 1 2", "P1 end react")
    assert state.turn is not None and state.turn.stage.value == "discard"
    for cards in (("U5", "4"), ("U0", "4")):
        with pytest.raises(IllegalAction) as err:
            apply(state, Discard(0, cards))
        assert err.value.rule == "discard.optional"


@pytest.mark.rules("slipstream.eligible")
def test_slipstream_behind_a_car_on_the_outside_spot_of_the_next_space() -> None:
    state = make_state(make_car(5, racing_line=False, hand=STILL),
                       make_car(0, hand="4 1 1 2 2 3 3"))
    state, _ = run(state, "P2 gear 1 play 4", "P2 end react")
    assert state.cars[1].spot == (4, True)
    assert "P2 slipstream" in map(str, legal_actions(state))


@pytest.mark.rules("ruling.flip-no-basic", "reveal.stress-flip")
def test_each_stress_flip_finds_nothing_when_no_basic_card_is_left() -> None:
    car = make_car(0, gear=2, hand="S S 1 1 2 2 3")
    car = replace(car, deck=("H", "U0"), discard=("U5",))
    state = make_state(car, make_car(-9, hand=STILL))  # (cards left out: one rule alone)
    state, events = apply(state, parse_action("P1 gear 2 play S S"))
    state, events = apply(state, parse_action("P2 gear 1 play U0"))
    assert len([e for e in kinds(events, "flip-found-nothing") if e.car == 0]) == 2
    assert [e.get("speed") for e in kinds(events, "speed") if e.car == 0] == [0]


@pytest.mark.rules("play.cluttered")
def test_a_cluttered_hand_plays_every_playable_card() -> None:
    state = make_state(make_car(0, gear=4, hand="2 U0 H H H H H", engine=0),
                       make_car(-9, hand=FILLER))
    assert "P1 gear 4 play 2 U0 H H" in map(str, legal_actions(state))
    assert refused(state, "P1 gear 4 play 2 H H H") == "play.cluttered"
    assert refused(state, "P1 gear 4 play U0 H H H") == "play.cluttered"


@pytest.mark.rules("play.cluttered", "ruling.cluttered-gear")
def test_a_short_cluttered_hand_plays_only_gears_its_heat_can_fill() -> None:
    car = make_car(0, gear=4, hand="1 H H", engine=0)
    state = make_state(car, make_car(-9, hand=FILLER))
    assert [str(a) for a in legal_actions(state)] == ["P1 gear 3 play 1 H H"]


@pytest.mark.rules("order.fixed-at-round-start")
def test_a_choice_of_another_car_is_refused_by_the_turn_order() -> None:
    state = make_state(make_car(0, hand="1 1 2 2 3 3 4"), make_car(-9, hand=FILLER),
                       make_car(-20, hand=FILLER))
    assert state.order == (0, 1, 2)
    assert refused(state, "P2 gear 1 play 1") == "order.fixed-at-round-start"
    state, _ = apply(state, parse_action("P1 gear 1 play 1"))
    assert state.actor() == 1
    assert refused(state, "P1 gear 1 play 2") == "order.fixed-at-round-start"
    assert refused(state, "P3 gear 1 play 1") == "order.fixed-at-round-start"


@pytest.mark.rules("finish.removed")
def test_a_finished_race_offers_no_action() -> None:
    from heatcore.heat.driver import random_race

    final = random_race("usa", 2, seed=3, laps=1).final
    assert final.is_over() and legal_actions(final) == ()
    assert refused(final, "P1 gear 1 play 1") == "finish.removed"


@pytest.mark.rules("deck.reshuffle")
def test_only_the_car_whose_deck_ran_out_shuffles() -> None:
    from heatcore.heat.actions import Shuffle

    car = make_car(0, gear=2, hand="S 4 1 1 2 2 3", deck_top="")
    car = replace(car, deck=(), discard=car.deck)
    state, _ = run(make_state(make_car(40, hand=FILLER), car), "P2 gear 2 play 4 S")
    assert state.shuffle == 1
    with pytest.raises(IllegalAction) as err:
        apply(state, Shuffle(0, state.cars[0].deck + state.cars[0].discard))
    assert err.value.rule == "deck.reshuffle"


@pytest.mark.rules("ruling.hand-over-limit", "replenish.draw")
def test_a_hand_over_seven_draws_nothing() -> None:
    from heatcore.heat.cleanup import draw_to_hand_size
    from heatcore.heat.state import Phase, Stage, Turn

    state = make_state(make_car(0, hand="1 1 1 2 2 2 3"), make_car(-9, hand=STILL))
    big = replace(state.cars[0], hand=("1", "1", "1", "2", "2", "2", "3", "S"))
    turn = Turn(car=0, stage=Stage.REPLENISH, start_position=0)
    state = replace(state.with_car(0, big), phase=Phase.TURN, turn=turn)
    after, done = draw_to_hand_size(state, turn, [])
    assert done and after.cars[0].hand == big.hand and after.cars[0].deck == big.deck
