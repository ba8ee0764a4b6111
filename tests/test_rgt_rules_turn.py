"""Rallyman GT rules of rolling, focus, loss of control, damage, pit stops and the end."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rgt_scenario import car, dice_of, lays, legal, position, run

from heatcore.rallyman.actions import Draw
from heatcore.rallyman.components import DOUBLE_ZERO, dashboard, full_bag, loss_of_control
from heatcore.rallyman.engine import chance_outcomes
from heatcore.rallyman.options import Options
from heatcore.rallyman.pits import may_pit
from heatcore.rallyman.state import (
    DICE,
    DRAW,
    FINISHED,
    IN_PIT,
    OFF_TRACK,
    ON_TRACK,
    PIT,
    PLAN,
    RELAY,
    ROLL,
    SIDE,
)
from heatcore.rallyman.validity import status

STRAIGHT = ("P1 lay G3 T1.L2.2", "P1 lay G4 T1.L2.3", "P1 lay G5 T2.L2.1")


def _kinds(events):  # type: ignore[no-untyped-def]
    return [e.kind for e in events]


# -------------------------------------------------------------- rolling


@pytest.mark.rules("rgt.roll.one-by-one", "rgt.end.marker")
def test_one_at_a_time_move_each_roll_and_stop_when_wanted() -> None:
    s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    s, _ = run(s, *STRAIGHT, "P1 go one", "P1 roll", "P1 dice !")
    assert s.cars[0].space == "T1.L2.2" and s.turn is not None and s.turn.stage == ROLL
    s, _ = run(s, "P1 roll", "P1 dice -")
    assert s.cars[0].space == "T1.L2.3"
    s, ev = run(s, "P1 stop")
    assert s.cars[0].gear == 4 and "turn-ended" in _kinds(ev)  # last gear die rolled: 4


@pytest.mark.rules("rgt.roll.one-by-one-loc")
def test_one_at_a_time_control_lost_where_the_limit_is_reached() -> None:
    s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    s, _ = run(s, *STRAIGHT, "P1 go one", "P1 roll", "P1 dice !", "P1 roll", "P1 dice !")
    assert s.turn is not None and s.turn.stage == ROLL  # 2 warnings: still in control
    s, ev = run(s, "P1 roll", "P1 dice !")
    assert "control-lost" in _kinds(ev) and s.cars[0].space == "T2.L2.1"
    assert s.turn is not None and s.turn.stage == RELAY


@pytest.mark.rules("rgt.roll.track-warnings")
def test_corner_warnings_count_with_the_dice() -> None:
    s = position(car("T4.L1.3", 3), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G3 T5.L1.1", "P1 lay G4 T5.L1.2", "P1 go one", "P1 roll", "P1 dice !")
    s, ev = run(s, "P1 roll", "P1 dice !")  # 1 + 1 + the 4! corner's 1 = 3
    assert "control-lost" in _kinds(ev) and s.cars[0].space == "T5.L1.2"


@pytest.mark.rules("rgt.roll.flat-out")
def test_flat_out_success_reaches_the_last_space() -> None:
    s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    s, ev = run(s, *STRAIGHT, "P1 go flat")
    assert s.turn is not None and s.turn.stage == DICE and "P1 focus" not in legal(s)
    s, ev = run(s, "P1 dice !/-/!")
    assert s.cars[0].space == "T2.L2.1" and s.cars[0].gear == 5


@pytest.mark.rules("rgt.roll.flat-out-loc", "rgt.focus.gain")
def test_flat_out_failure_stops_where_the_count_reaches_the_limit() -> None:
    s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    s, ev = run(s, "P1 lay G3 T1.L2.2", "P1 lay G4 T1.L2.3", "P1 lay G5 T2.L2.1",
                "P1 lay G6 T2.L2.2", "P1 go flat", "P1 dice !/!/!/-")
    assert s.cars[0].space == "T2.L2.1" and "control-lost" in _kinds(ev)
    assert s.cars[0].focus == 4  # one per black or white die, win or lose


@pytest.mark.rules("rgt.focus.gain")
def test_brake_dice_earn_no_focus() -> None:
    s = position(car("T1.L2.1", 5), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T1.L2.2", "P1 lay C T1.L2.3", "P1 go flat")
    assert s.cars[0].focus == 2  # G2 and C; the two brake dice earn nothing


# -------------------------------------------------------------- focus


@pytest.mark.rules("rgt.focus.spend")
def test_focus_fixes_the_next_dice_before_they_are_rolled() -> None:
    s = position(car("T1.L2.1", 2, focus=1), car("T1.L1.1", 0))
    s, _ = run(s, *STRAIGHT, "P1 go one")
    assert "P1 focus" in legal(s)
    s, _ = run(s, "P1 focus", "P1 roll")
    assert not s.is_chance() and s.turn is not None and s.turn.results == ((False,),)
    assert s.cars[0].space == "T1.L2.2" and s.cars[0].focus == 0
    assert "P1 focus" not in legal(s)  # nothing left to pay with
    broke = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    broke, _ = run(broke, *STRAIGHT, "P1 go one")
    assert "P1 focus" not in legal(broke)


@pytest.mark.rules("rgt.focus.cost")
def test_each_fixed_die_costs_one_more() -> None:
    s = position(car("T1.L2.1", 2, focus=6), car("T1.L1.1", 0))
    s, _ = run(s, *STRAIGHT, "P1 lay G6 T2.L2.2", "P1 go one")
    for left in (5, 3, 0):
        s, _ = run(s, "P1 focus", "P1 roll")
        assert s.cars[0].focus == left
    assert "P1 focus" not in legal(s)  # the 4th would cost 4


@pytest.mark.rules("rgt.focus.not-track")
def test_focus_cannot_cancel_a_corner_warning() -> None:
    s = position(car("T5.L1.1", 4, focus=1), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G4 T5.L1.2", "P1 lay G5 T5.L1.3", "P1 go one", "P1 focus",
               "P1 roll")
    assert s.turn is not None
    warnings = sum(sum(r) + st.track_warnings for st, r in zip(s.turn.plan, s.turn.results,
                                                                strict=False))
    assert warnings == 1


@pytest.mark.rules("rgt.focus.brake-group")
def test_fixing_a_space_with_brake_dice_fixes_all_of_them() -> None:
    s = position(car("T1.L2.1", 5, focus=5), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T1.L2.2", "P1 go one")
    assert "P1 focus" not in legal(s)  # 3 dice: 1 + 2 + 3 = 6
    s = position(car("T1.L2.1", 5, focus=6), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T1.L2.2", "P1 go one", "P1 focus")
    assert s.cars[0].focus == 0 and s.turn is not None and s.turn.fixed == 3


# -------------------------------------------------------------- loss of control


@pytest.mark.rules("rgt.loc.trigger", "rgt.loc.zero")
def test_spin_at_low_speed_then_the_turn_ends() -> None:
    s = position(car("T8.L1.1", 2), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T8.L1.2", "P1 lay G1 T8.L1.3", "P1 go one", "P1 roll", "P1 dice !")
    s, ev = run(s, "P1 roll", "P1 dice -")  # 1 die + 2 dotted warning lines = 3
    assert "control-lost" in _kinds(ev)
    s, ev = run(s, "P1 keep")
    me = s.cars[0]
    assert "spin" in _kinds(ev) and me.gear == 0 and me.where == ON_TRACK
    assert me.space == "T8.L1.3" and s.turn is not None and s.turn.car == 1


@pytest.mark.rules("rgt.loc.zero")
def test_after_a_spin_the_car_starts_as_usual() -> None:
    s = position(car("T8.L1.3", 0), car("T1.L1.1", 0))
    assert dice_of(s) == ["G1"]


@pytest.mark.rules("rgt.loc.relay")
def test_re_laying_the_rolled_dice_chooses_where_control_is_lost() -> None:
    s = position(car("T2.L2.3", 2), car("T1.L1.1", 0))
    s, ev = run(s, "P1 lay G3 T3.L3.1", "P1 lay G4 T3.L3.2", "P1 lay G5 T3.L3.3", "P1 go flat",
                "P1 dice !/!/!")
    assert s.turn is not None and s.turn.stage == RELAY
    assert sorted(s.turn.pool) == ["G3!", "G4!", "G5!"]
    assert legal(s)[0] == "P1 keep"
    assert "P1 relay G3! T3.L2.1" in legal(s)
    kept, ev = run(s, "P1 keep")
    assert [e.get("gear") for e in ev if e.kind == "off-track"] == [5]
    s, ev = run(s, "P1 relay G3! T3.L2.1", "P1 relay G4! T3.L2.2")  # 4 > the corner's 3
    lost = [e for e in ev if e.kind in ("spin", "off-track")]
    assert lost and lost[0].get("gear") == 4 and lost[0].get("tokens") == 1


@pytest.mark.rules("rgt.loc.relay")
def test_only_rolled_dice_are_re_laid_and_every_re_lay_can_lose_control() -> None:
    s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    s, _ = run(s, *STRAIGHT, "P1 lay G6 T2.L2.2", "P1 go one", "P1 roll", "P1 dice !",
               "P1 roll", "P1 dice !", "P1 roll", "P1 dice !")
    assert s.turn is not None and sorted(s.turn.pool) == ["G3!", "G4!", "G5!"]
    # a relay that would waste the warnings (G3! then a coast) is never offered: no C rolled
    assert all(a.split()[2].rstrip("!") in ("G3", "G4", "G5") for a in legal(s)[1:])


@pytest.mark.rules("rgt.loc.table", "rgt.ruling.loc-table")
def test_the_table_gives_marker_and_damage() -> None:
    o = Options()
    assert loss_of_control(2, "red", o) == (0, 0)
    assert loss_of_control(3, "yellow", o) == (DOUBLE_ZERO, 0)
    assert loss_of_control(3, "red", o) == (DOUBLE_ZERO, 1)
    assert loss_of_control(5, "orange", o) == (DOUBLE_ZERO, 2)
    assert loss_of_control(6, "red", o) == (DOUBLE_ZERO, 4)
    assert loss_of_control(3, "yellow", Options(double_zero_from="4")) == (0, 0)


@pytest.mark.rules("rgt.loc.double-zero")
def test_00_in_the_middle_lane_choose_a_side_then_come_back() -> None:
    s = position(car("T3.L2.1", 4), car("T1.L1.1", 0))
    s, ev = run(s, "P1 lay G4 T3.L2.2", "P1 go one", "P1 roll", "P1 dice -", "P1 keep")
    assert s.turn is not None and s.turn.stage == SIDE and legal(s) == ["P1 off 1", "P1 off 3"]
    s, ev = run(s, "P1 off 3")
    if s.turn is not None and s.turn.stage == DRAW:
        s, ev = run(s, "P1 draw green")
    me = s.cars[0]
    assert me.where == OFF_TRACK and me.gear == DOUBLE_ZERO and me.side == 3
    assert s.occupant("T3.L2.2") is None  # off the track: the space is free
    s, _ = run(s, "P2 lay G1 T1.L1.2", "P2 go one", "P2 roll", "P2 dice -")
    assert s.cars[0].where == OFF_TRACK  # round 2: P2 (gear 1) moves before 00
    s, _ = run(s, "P2 lay G2 T1.L1.3", "P2 go one", "P2 roll", "P2 dice -")
    # then P1 (00) comes back with a 0 marker and its turn is over
    assert s.cars[0].where == ON_TRACK and s.cars[0].gear == 0 and s.cars[0].space == "T3.L2.2"


@pytest.mark.rules("rgt.loc.double-zero", "rgt.pit.blocked-return")
def test_00_cannot_come_back_onto_an_occupied_space() -> None:
    s = position(car("T3.L2.2", DOUBLE_ZERO, where=OFF_TRACK), car("T3.L2.2", 3))
    assert s.cars[0].where == OFF_TRACK and s.cars[0].gear == DOUBLE_ZERO
    assert s.cars[0].colour != "white"  # marker flipped: another turn lost


# -------------------------------------------------------------- damage


@pytest.mark.rules("rgt.damage.no-dice-left")
def test_no_gear_dice_left_means_a_car_at_0_cannot_move() -> None:
    board = dashboard("GT6", "asphalt", "dry", ("gear",) * 7, Options())
    assert board.gears == ()
    s = position(car("T2.L2.1", 0, tokens=("gear",) * 6), car("T1.L1.1", 0))
    assert s.turn is not None and s.turn.car == 1  # P1 could lay nothing: its turn ended


@pytest.mark.rules("rgt.damage.gear", "rgt.ruling.gear-damage-die")
def test_gear_damage_removes_the_highest_gear_die() -> None:
    assert dashboard("GT6", "asphalt", "dry", ("gear",), Options()).gears == (1, 2, 3, 4, 5)
    low = Options(gear_damage_removes="lowest")
    assert dashboard("GT6", "asphalt", "dry", ("gear",), low).gears == (2, 3, 4, 5, 6)
    s = position(car("T1.L2.1", 5, tokens=("gear",)), car("T1.L1.1", 0))
    assert "G6" not in dice_of(s)


@pytest.mark.rules("rgt.damage.brake")
def test_brake_damage_removes_a_brake_die() -> None:
    assert dashboard("GT6", "asphalt", "dry", ("brake",), Options()).brake == 2
    s = position(car("T1.L2.1", 5, tokens=("brake", "brake")), car("T1.L1.1", 0))
    assert "G3" in dice_of(s) and "G2" not in dice_of(s)


@pytest.mark.rules("rgt.damage.coast")
def test_coast_damage_removes_coast_dice() -> None:
    s = position(car("T1.L2.1", 3, tokens=("coast", "coast")), car("T1.L1.1", 0))
    assert "C" not in dice_of(s)


def _draw_position(token_gear: int = 5):  # type: ignore[no-untyped-def]
    """P1 about to draw one damage token (off at gear 5 on a yellow tile)."""
    s = position(car("T2.L1.3", token_gear), car("T1.L1.1", 0), car("T1.L3.1", 2),
                 order=(0, 2, 1))
    s, _ = run(s, "P1 lay G5 T3.L1.1", "P1 lay G6 T3.L1.2", "P1 go one", "P1 roll", "P1 dice -",
               "P1 roll", "P1 dice -", "P1 keep")
    assert s.turn is not None and s.turn.stage == DRAW, s.turn
    return s


@pytest.mark.rules("rgt.damage.weather")
def test_weather_change_flips_every_dashboard() -> None:
    s = _draw_position()
    s, ev = run(s, "P1 draw weather")
    assert s.weather == "wet" and "weather-changed" in _kinds(ev)
    assert dashboard("GT6", "asphalt", s.weather, (), s.options).brake == 1


@pytest.mark.rules("rgt.damage.green-flag")
def test_green_flag_does_nothing_else() -> None:
    s = _draw_position()
    after, _ = run(s, "P1 draw green")
    assert after.weather == s.weather and after.yellow == () and after.cars[0].tokens == ("green",)
    assert after.cars[1] == s.cars[1] and after.cars[2] == s.cars[2]


@pytest.mark.rules("rgt.damage.yellow-flag")
def test_yellow_flag_forbids_drawing_level_until_its_car_moves_off() -> None:
    s = _draw_position()
    s, _ = run(s, "P1 draw yellow")
    assert s.yellow == (0,)
    # P2 (gear 0) plays: cannot draw level with P3 (gear 2) although gear 1 vs 2 anyway;
    s2 = position(car("T2.L2.1", 5), car("T2.L1.2", 2), car("T2.L3.3", 0), yellow=(2,))
    assert not any(to == "T2.L2.2" for _, to in lays(s2))  # beside P2 (gear 2) even at 5
    assert ("G5", "T2.L3.2") in lays(s2)
    s3 = position(car("T2.L2.2", 5), car("T2.L3.3", 0), yellow=(1,))
    assert ("G5", "T2.L2.3") in lays(s3)  # beside a car at 0: allowed
    s4 = position(car("T5.L1.1", 1, tokens=()), car("T1.L1.1", 0), yellow=(0,))
    s4, ev = run(s4, "P1 lay G1 T5.L1.2", "P1 go one", "P1 roll", "P1 dice -")
    assert s4.yellow == () and s4.cars[0].tokens == ("yellow",)


@pytest.mark.rules("rgt.ruling.damage-bag")
def test_bag_contents_draw_odds_and_conservation() -> None:
    assert sum(full_bag()) == 42
    s = _draw_position()
    odds = {a.token: p for a, p in chance_outcomes(s) if isinstance(a, Draw)}
    assert odds["green"] == Fraction(12, 42) and odds["gear"] == Fraction(6, 42)
    s, _ = run(s, "P1 draw gear")
    assert sum(s.bag) == 41 and not status(s)
    empty = position(car("T2.L1.3", 5), car("T1.L1.1", 0), bag=(0,) * 6)
    empty, ev = run(empty, "P1 lay G5 T3.L1.1", "P1 lay G6 T3.L1.2", "P1 go one", "P1 roll",
                    "P1 dice -", "P1 roll", "P1 dice -", "P1 keep")
    assert "damage-drawn" not in _kinds(ev) and empty.turn is not None and empty.turn.car == 1


# -------------------------------------------------------------- pit stops


@pytest.mark.rules("rgt.pit.conditions")
def test_pit_stop_conditions() -> None:
    hurt = ("gear",)
    def ok(space: str, gear: int, tokens: tuple[str, ...] = hurt, weather: str = "dry") -> bool:
        s = position(car(space, gear, tokens=tokens), car("T1.L1.1", 0), weather=weather)
        return may_pit(s, 0)
    assert ok("T2.L1.2", 1) and ok("T2.L3.2", 1)
    assert not ok("T2.L2.2", 1)  # middle lane
    assert not ok("T3.L1.2", 1)  # corner space
    assert not ok("T2.L1.2", 2)  # not gear 1
    assert not ok("T2.L1.2", 1, ())  # undamaged, tyres suit the weather
    assert ok("T2.L1.2", 1, (), "wet")  # asphalt tyres in the wet


def _at_pit_choice(tokens: tuple[str, ...] = ("gear", "green")):  # type: ignore[no-untyped-def]
    s = position(car("T2.L1.1", 1, tokens=tokens), car("T1.L3.1", 0))
    s, _ = run(s, "P1 lay G1 T2.L1.2", "P1 go one", "P1 roll", "P1 dice -")
    assert s.turn is not None and s.turn.stage == PIT
    assert legal(s) == ["P1 pit none", "P1 pit tyres", "P1 pit repair", "P1 pit both"]
    return s


@pytest.mark.rules("rgt.pit.tyres", "rgt.ruling.pit-exit")
def test_tyre_lane_then_back_and_play_on() -> None:
    s, _ = run(_at_pit_choice(), "P1 pit tyres")
    me = s.cars[0]
    assert me.where == IN_PIT and me.tyres == "rain" and me.gear == 0 and me.tokens
    s, _ = run(s, "P2 lay G1 T1.L3.2", "P2 go one", "P2 roll", "P2 dice -",
               "P2 lay G2 T1.L3.3", "P2 go one", "P2 roll", "P2 dice -")
    assert s.cars[0].where == ON_TRACK and s.cars[0].space == "T2.L1.2"
    assert s.turn is not None and s.turn.car == 0 and s.turn.stage == PLAN


@pytest.mark.rules("rgt.pit.repair")
def test_repair_lane_returns_tokens_and_costs_a_turn() -> None:
    s, _ = run(_at_pit_choice(), "P1 pit repair")
    me = s.cars[0]
    assert me.tokens == () and me.gear == DOUBLE_ZERO and me.tyres == "asphalt"
    assert s.bag == full_bag()
    s, ev = run(s, "P2 lay G1 T1.L3.2", "P2 go one", "P2 roll", "P2 dice -",
                "P2 lay G2 T1.L3.3", "P2 go one", "P2 roll", "P2 dice -")
    assert s.cars[0].where == ON_TRACK and s.cars[0].gear == 0
    assert s.turn is not None and s.turn.car == 1  # P1's turn was spent coming back


@pytest.mark.rules("rgt.pit.both")
def test_repair_and_tyres() -> None:
    s, _ = run(_at_pit_choice(), "P1 pit both")
    me = s.cars[0]
    assert me.tokens == () and me.tyres == "rain" and me.gear == DOUBLE_ZERO


@pytest.mark.rules("rgt.pit.blocked-return")
def test_no_return_from_the_pits_onto_a_taken_space() -> None:
    s = position(car("T2.L1.2", 0, where=IN_PIT, pit_lane="tyres"), car("T2.L1.2", 2))
    assert s.cars[0].where == IN_PIT and s.turn is not None and s.turn.car == 1


# -------------------------------------------------------------- end


@pytest.mark.rules("rgt.end.turn", "rgt.end.marker")
def test_coast_only_keeps_the_marker_and_blocked_keeps_it_too() -> None:
    s = position(car("T1.L2.1", 4), car("T1.L1.1", 0))
    s, ev = run(s, "P1 lay C T1.L2.2", "P1 go one", "P1 roll", "P1 dice !")
    assert s.cars[0].gear == 4 and "turn-ended" in _kinds(ev)


@pytest.mark.rules("rgt.finish.end", "rgt.ruling.finished-cars")
def test_race_ends_when_all_but_one_have_crossed_the_line() -> None:
    s = position(car("T10.L2.2", 2), car("T10.L1.1", 1), car("T5.L1.1", 1))
    s, ev = run(s, "P1 lay G2 T10.L2.3", "P1 lay G3 T1.L2.1", "P1 go flat", "P1 dice -/-")
    assert s.ranking == (0,) and s.cars[0].where == FINISHED and not s.over
    assert s.occupant("T1.L2.1") is None  # a finished car leaves the track
    s, ev = run(s, "P2 lay G1 T10.L1.2", "P2 lay G2 T10.L1.3", "P2 lay G3 T1.L1.1",
                "P2 go flat", "P2 dice -/-/-")
    assert s.over and s.ranking == (0, 1, 2) and "race-over" in _kinds(ev)
