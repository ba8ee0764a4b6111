"""Steps 3-9 of a car's turn: reveal, move, adrenaline, react, slipstream, corners,
discard and replenish, with the seed's worked examples."""

from __future__ import annotations

from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run

from heatcore import IllegalAction
from heatcore.heat.cards import canonical
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import parse_action
from heatcore.heat.state import Phase

FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put


def far_behind(position: int = -40) -> object:
    return make_car(position, hand=FILLER)


def moved_to(events, car: int = 0) -> int:
    return [e for e in kinds(events, "moved") if e.car == car][-1].get("position")


@pytest.mark.rules("reveal.speed", "reveal.stress-flip", "speed.turn-total")
def test_seed_example_three_three_and_a_stress_finding_a_two_is_speed_8() -> None:
    state = make_state(make_car(0, gear=2, hand="3 3 S 1 1 2 4", deck_top="2"), far_behind())
    after, events = run(state, "P1 gear 3 play 3 3 S")
    assert kinds(events, "speed")[0].get("speed") == 8
    assert moved_to(events) == 8
    assert after.cars[0].flipped == ("2",)


@pytest.mark.rules("reveal.stress-flip")
def test_stress_flip_skips_heat_stress_and_the_zero_and_five_upgrades() -> None:
    state = make_state(make_car(0, gear=1, hand="S 1 1 2 2 3 3", deck_top="U0 H U5 S 4"),
                       far_behind())
    after, events = run(state, "P1 gear 1 play S")
    flips = [(e.get("card"), e.get("kept")) for e in kinds(events, "flipped")]
    assert flips == [("U0", False), ("H", False), ("U5", False), ("S", False), ("4", True)]
    car = after.cars[0]
    assert car.flipped == ("4",) and set(car.discard) >= {"U0", "U5", "H", "S"}
    assert kinds(events, "speed")[0].get("speed") == 4


@pytest.mark.rules("reveal.stress-flip")
def test_each_stress_searches_for_its_own_basic_card() -> None:
    state = make_state(make_car(0, gear=2, hand="S S 1 1 2 2 3", deck_top="H 3 U0 1"),
                       far_behind())
    after, events = run(state, "P1 gear 2 play S S")
    assert after.cars[0].flipped == ("3", "1")
    assert kinds(events, "speed")[0].get("speed") == 4


@pytest.mark.rules("move.exact", "place.racing-line-first")
def test_car_moves_exactly_its_speed_past_other_cars_onto_the_racing_line() -> None:
    blocker_a = make_car(3, True, hand=STILL)
    blocker_b = make_car(3, False, hand=STILL)
    me = make_car(0, False, gear=2, hand="3 4 1 1 2 2 2")
    state = make_state(blocker_a, blocker_b, me)
    after, events = run(state, "P3 gear 2 play 3 4")
    mine = next(e for e in kinds(events, "moved") if e.car == 2)
    assert (mine.get("position"), mine.get("racing_line")) == (7, True)


@pytest.mark.rules("place.blocked", "place.speed-unchanged")
def test_full_final_space_puts_the_car_on_the_nearest_free_spot_behind() -> None:
    cars = [make_car(8, True, hand=STILL), make_car(8, False, hand=STILL),
            make_car(7, True, hand=STILL)]
    me = make_car(0, gear=2, hand="4 4 1 1 2 2 3")
    state = make_state(*cars, me)
    after, events = run(state, "P4 gear 2 play 4 4")
    assert (after.cars[3].position, after.cars[3].racing_line) == (7, False)
    assert [e.get("speed") for e in kinds(events, "speed") if e.car == 3] == [8]


@pytest.mark.rules("adrenaline.who", "adrenaline.effects")
def test_last_car_of_the_round_gets_adrenaline_and_its_plus_one_counts_for_speed() -> None:
    leader = make_car(20, hand=FILLER)
    me = make_car(0, gear=2, hand="3 4 1 1 2 2 2")
    state = make_state(leader, me)
    state, _ = run(state, "P2 gear 2 play 3 4")
    opts = [str(a) for a in legal_actions(state)]
    assert "P2 adrenaline move" in opts and "P1 adrenaline move" not in opts
    after, events = run(state, "P2 adrenaline move", "P2 end react")
    assert kinds(events, "adrenaline")[0].get("speed") == 8
    assert after.cars[1].position == 8


@pytest.mark.rules("adrenaline.who", "adrenaline.count-fixed")
def test_five_car_race_gives_adrenaline_to_the_last_two_even_after_cars_finish() -> None:
    cars = [make_car(p, hand=FILLER) for p in (10, 8, 6, 4, 2)]
    state = make_state(*cars)
    adrenaline = []
    for _ in range(5):
        state = apply(state, legal_actions(state)[0])[0]
    # walk the round and record who was offered adrenaline at turn start
    from heatcore.heat.rounds import has_adrenaline
    adrenaline = [i for i in state.order if has_adrenaline(state, i)]
    assert adrenaline == [3, 4]
    # with three cars already ranked, the two left both get it (count fixed at 2)
    state = replace(make_state(*cars), ranking=(0, 1, 2))
    state = replace(state, order=(3, 4), cars=tuple(
        replace(c, position=200 + i) if i < 3 else c for i, c in enumerate(state.cars)))
    assert [i for i in state.order if has_adrenaline(state, i)] == [3, 4]


@pytest.mark.rules("react.cooldown")
@pytest.mark.parametrize(("gear", "cooldown"), [(1, 3), (2, 1), (3, 0), (4, 0)])
def test_cooldown_by_gear_moves_heat_from_hand_to_engine(gear: int, cooldown: int) -> None:
    hand = "H H H 1 1 2 2"
    play = {1: "1", 2: "1 1", 3: "1 1 2", 4: "1 1 2 2"}[gear]
    state = make_state(make_car(0, gear=gear, hand=hand, engine=4), far_behind())
    state, _ = run(state, f"P1 gear {gear} play {play}")
    offered = [a.amount for a in legal_actions(state) if type(a).__name__ == "Cooldown"]
    assert offered == list(range(1, cooldown + 1))
    with pytest.raises(IllegalAction) as err:
        apply(state, parse_action(f"P1 cooldown {cooldown + 1}"))
    assert err.value.rule == "react.cooldown"
    if cooldown:
        after, _ = run(state, f"P1 cooldown {cooldown}")
        assert after.cars[0].engine == 4 + cooldown
        assert after.cars[0].hand.count("H") == 3 - cooldown


@pytest.mark.rules("react.cooldown")
def test_cooldown_never_takes_heat_from_the_discard_pile() -> None:
    state = make_state(make_car(0, gear=1, hand="1 1 1 2 2 2 3", engine=4), far_behind())
    state, _ = run(state, "P1 gear 1 play 1")
    assert state.cars[0].discard.count("H") == 2
    assert not [a for a in legal_actions(state) if "cooldown" in str(a)]


@pytest.mark.rules("react.boost", "react.any-order", "speed.turn-total")
def test_boost_pays_one_heat_flips_and_adds_to_speed_once_per_turn() -> None:
    state = make_state(make_car(0, gear=2, hand="3 4 1 1 2 H U5", deck_top="H 2"), far_behind())
    state, _ = run(state, "P1 gear 2 play 3 4")
    after, events = run(state, "P1 boost")
    car = after.cars[0]
    assert car.engine == 4 and car.position == 9 and car.flipped == ("2",)
    assert [a for a in legal_actions(after) if "boost" in str(a)] == []
    with pytest.raises(IllegalAction) as err:
        apply(after, parse_action("P1 boost"))
    assert err.value.rule == "react.boost"


@pytest.mark.rules("react.boost", "react.any-order")
def test_cooling_a_heat_then_boosting_with_it_is_legal() -> None:
    state = make_state(make_car(0, gear=1, hand="H 1 1 2 2 3 3", deck_top="4", engine=0),
                       far_behind())
    state, _ = run(state, "P1 gear 1 play 1")
    assert "P1 boost" not in [str(a) for a in legal_actions(state)]
    after, _ = run(state, "P1 cooldown 1", "P1 boost")
    assert after.cars[0].engine == 0 and after.cars[0].position == 5


@pytest.mark.rules("slipstream.eligible", "slipstream.move", "slipstream.speed-unchanged")
def test_slipstream_behind_a_car_adds_two_spaces_but_not_speed() -> None:
    state = make_state(make_car(9, hand=STILL), make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(state, "P2 gear 2 play 4 4", "P2 end react")
    assert [str(a) for a in legal_actions(state)] == ["P2 slipstream", "P2 no slipstream"]
    after, events = run(state, "P2 slipstream")
    assert after.cars[1].position == 10
    assert all(e.get("speed") == 8 for e in kinds(events, "corner"))


@pytest.mark.rules("slipstream.eligible")
def test_no_slipstream_two_spaces_behind_a_car() -> None:
    state = make_state(make_car(10, hand=STILL), make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(state, "P2 gear 2 play 4 4", "P2 end react")
    assert "P2 slipstream" not in [str(a) for a in legal_actions(state)]


@pytest.mark.rules("slipstream.not-past-finish", "slipstream.earlier-lap")
def test_slipstream_never_crosses_the_final_finish_line() -> None:
    finish = 138  # USA, 2 laps
    near = make_state(make_car(finish, hand=STILL),
                      make_car(finish - 9, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(near, "P2 gear 2 play 4 4", "P2 end react")
    assert state.cars[1].position == finish - 1
    assert "P2 slipstream" not in [str(a) for a in legal_actions(state)]
    early = make_state(make_car(69, hand=STILL), make_car(60, gear=2, hand="4 4 1 1 2 2 3"))
    state, _ = run(early, "P2 gear 2 play 4 4", "P2 end react")
    assert state.cars[1].position == 68
    after, _ = run(state, "P2 slipstream")
    assert after.cars[1].position == 70  # crosses the line after space 69 on lap 1


@pytest.mark.rules("corner.check", "corner.pay-heat")
def test_seed_example_speed_8_over_a_limit_of_6_costs_2_heat() -> None:
    state = make_state(make_car(25, gear=2, hand="4 4 1 1 2 2 3"), far_behind(),
                       track="great-britain")
    after, events = run(state, "P1 gear 2 play 4 4", "P1 end react")
    corner = kinds(events, "corner")[0]
    assert (corner.get("limit"), corner.get("heat")) == (6, 2)
    assert after.cars[0].engine == 4 and after.cars[0].discard.count("H") == 2


@pytest.mark.rules("corner.check")
def test_stopping_just_before_a_corner_line_checks_nothing() -> None:
    state = make_state(make_car(22, gear=2, hand="4 4 1 1 2 2 3"), far_behind(),
                       track="great-britain")
    after, events = run(state, "P1 gear 2 play 4 4", "P1 end react")
    assert after.cars[0].position == 30 and not kinds(events, "corner")


@pytest.mark.rules("corner.spin")
def test_seed_example_spin_with_one_heat_in_second_gear() -> None:
    state = make_state(make_car(25, gear=2, hand="4 4 1 1 2 2 3", engine=1), far_behind(),
                       track="great-britain")
    supply = state.supply
    after, events = run(state, "P1 gear 2 play 4 4", "P1 end react")
    spin = kinds(events, "spun-out")[0]
    car = after.cars[0]
    assert spin.get("heat") == 1 and spin.get("stress") == 1
    assert car.engine == 0 and car.gear == 1 and car.position == 30
    assert "S" in car.hand and after.supply == supply - 1
    assert kinds(events, "speed")[0].get("speed") == 8


@pytest.mark.rules("corner.spin")
def test_spin_in_gear_3_or_4_takes_two_stress() -> None:
    state = make_state(make_car(25, gear=3, hand="4 4 3 1 2 2 3", engine=1), far_behind(),
                       track="great-britain")
    after, events = run(state, "P1 gear 3 play 3 4 4", "P1 end react")
    assert kinds(events, "spun-out")[0].get("stress") == 2
    assert after.cars[0].hand.count("S") == 2


@pytest.mark.rules("corner.check", "corner.spin", "corner.pay-heat")
def test_two_corners_pay_in_order_and_spin_at_the_second_keeps_the_first_payment() -> None:
    # Great Britain corners 3 (after 37, limit 5) and 4 (after 43, limit 4)
    state = make_state(make_car(36, gear=2, hand="4 4 3 1 2 2 3", engine=4), far_behind(),
                       track="great-britain")
    after, events = run(state, "P1 gear 2 play 4 4", "P1 end react")
    paid = kinds(events, "corner")
    spin = kinds(events, "spun-out")
    assert [(e.get("corner"), e.get("heat")) for e in paid] == [(3, 3)]
    assert spin and spin[0].get("corner") == 4 and spin[0].get("heat") == 1
    assert after.cars[0].position == 43 and after.cars[0].engine == 0
    assert after.cars[0].discard.count("H") == 2 + 4  # 2 were there before the turn


@pytest.mark.rules("corner.after-finish-ignored", "finish.line")
def test_corners_after_the_final_finish_line_do_not_count() -> None:
    # USA corner 1 lies after space 12; the finish of 2 laps is after position 138
    state = make_state(make_car(135, gear=4, hand="4 4 4 3 1 1 2", engine=0), far_behind())
    after, events = run(state, "P1 gear 4 play 3 4 4 4")
    assert after.cars[0].position == 150
    assert not [e for e in kinds(events, "corner") + kinds(events, "spun-out") if e.car == 0]
    assert kinds(events, "crossed-finish")


@pytest.mark.rules("discard.optional")
def test_discard_any_cards_but_heat_and_stress() -> None:
    state = make_state(make_car(0, gear=1, hand="1 2 3 4 H S U0", engine=5), far_behind())
    state, _ = run(state, "P1 gear 1 play 1", "P1 end react")
    cards = {a.cards for a in legal_actions(state)}
    assert ("2", "3", "4", "U0") in cards and () in cards
    assert not any("H" in c or "S" in c for c in cards)
    with pytest.raises(IllegalAction) as err:
        apply(state, parse_action("P1 discard H"))
    assert err.value.rule == "discard.optional"
    after, _ = run(state, "P1 discard 2 U0")
    assert "U0" in after.cars[0].discard and "U0" not in after.cars[0].hand


@pytest.mark.rules("replenish.cleanup", "replenish.draw")
def test_played_and_flipped_cards_go_to_discard_and_the_hand_is_refilled_to_7() -> None:
    state = make_state(make_car(0, gear=2, hand="3 S 1 1 2 2 4", deck_top="2"),
                       far_behind())
    after, _ = run(state, "P1 gear 2 play 3 S", "P1 end react", "P1 discard nothing")
    car = after.cars[0]
    assert sorted(car.discard) == ["2", "3", "S"] and not car.play_area
    assert len(car.hand) == 7


@pytest.mark.rules("deck.reshuffle", "replenish.discard-before-draw")
def test_reshuffle_at_replenish_includes_the_cards_just_played() -> None:
    car = make_car(0, gear=2, hand="3 4 1 1 2 2 2", deck_top="")
    car = replace(car, deck=car.deck[:1], discard=canonical(car.discard + car.deck[1:]))
    state = make_state(car, far_behind())
    state, _ = run(state, "P1 gear 2 play 3 4", "P1 end react", "P1 discard nothing")
    assert state.is_chance() and state.shuffle == 0
    assert "3" in state.cars[0].discard and "4" in state.cars[0].discard
    assert legal_actions(state) == ()


@pytest.mark.rules("deck.reshuffle", "replenish.discard-before-draw")
def test_stress_flip_reshuffles_the_discard_but_never_the_cards_in_play() -> None:
    car = make_car(0, gear=2, hand="S 4 1 1 2 2 3", deck_top="")
    car = replace(car, deck=(), discard=canonical(car.deck))
    state = make_state(car, far_behind())
    state, _ = run(state, "P1 gear 2 play 4 S")
    assert state.is_chance()
    pool = state.cars[0].deck + state.cars[0].discard
    assert "S" not in pool or pool.count("S") == 2  # the played Stress stays in play
    assert state.cars[0].played == ("4", "S")
    order = tuple(sorted(pool, key=lambda c: c != "3"))
    after, events = run(state, "P1 shuffle " + " ".join(order))
    assert after.cars[0].flipped == ("3",) and kinds(events, "speed")[0].get("speed") == 7


@pytest.mark.rules("finish.line", "finish.ranking", "finish.removed")
def test_later_mover_that_ends_further_ahead_wins() -> None:
    first = make_car(136, gear=2, hand="3 3 1 1 2 2 4")
    second = make_car(130, gear=4, hand="4 4 4 3 1 1 2")
    third = make_car(50, hand=FILLER)
    state = make_state(first, second, third)
    state, events = run(state, "P1 gear 2 play 3 3", "P2 gear 4 play 3 4 4 4",
                        "P3 gear 1 play 1")
    while state.round == 1:
        state, evs = apply(state, legal_actions(state)[-1])
        events.extend(evs)
    assert state.ranking == (1, 0)
    assert [e.get("place") for e in kinds(events, "ranked")] == [1, 2]
    assert state.order == (2,) and state.on_track() == (2,)


@pytest.mark.rules("finish.removed")
def test_the_race_goes_on_until_every_car_has_finished() -> None:
    from heatcore.heat.driver import random_race

    race = random_race("usa", 3, seed=11, laps=1)
    assert race.final.phase is Phase.OVER and len(race.final.ranking) == 3


@pytest.mark.rules("example.opening-turn")
def test_seed_example_opening_turn_3_and_2_in_second_gear() -> None:
    state = make_state(make_car(0, gear=1, hand="3 2 1 1 4 4 U5"), far_behind())
    after, events = run(state, "P1 gear 2 play 2 3", "P1 end react", "P1 discard nothing")
    car = after.cars[0]
    assert kinds(events, "speed")[0].get("speed") == 5 and car.position == 5
    assert car.engine == 6 and car.gear == 2 and len(car.hand) == 7
    assert sorted(car.discard) == ["2", "3"]


@pytest.mark.rules("example.second-turn", "react.cooldown")
def test_seed_example_second_turn_1_and_2_cooling_the_starting_heat() -> None:
    state = make_state(make_car(5, gear=2, hand="1 2 H 3 4 4 U5"), far_behind())
    after, events = run(state, "P1 gear 2 play 1 2", "P1 cooldown 1", "P1 end react",
                        "P1 discard nothing")
    assert kinds(events, "speed")[0].get("speed") == 3
    assert after.cars[0].engine == 7 and after.cars[0].position == 8
