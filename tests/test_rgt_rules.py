"""Rallyman GT rules, one scenario each (positions built by hand on the proving ground).

Each test states the seed's rule in its own terms (which space, which gear, how many
warnings) and checks the engine's legal actions, states and events against it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from rgt_scenario import PG, act, car, dice_of, lays, legal, position, run

from heatcore.framework.errors import IllegalAction
from heatcore.rallyman.actions import Dice
from heatcore.rallyman.components import DOUBLE_ZERO, dashboard
from heatcore.rallyman.engine import apply, chance_outcomes
from heatcore.rallyman.options import Options
from heatcore.rallyman.order import turn_order
from heatcore.rallyman.state import (
    BLACK,
    DICE,
    OFF_TRACK,
    PLAN,
    ROLL,
    WHITE,
)
from heatcore.rallyman.track import load_track

# -------------------------------------------------------------- rounds and order


@pytest.mark.rules("rgt.round.marker-colour", "rgt.end.turn")
def test_marker_turns_to_next_colour_and_round_flips_when_all_have() -> None:
    s = position(car("T2.L1.1", 1), car("T2.L3.1", 1))
    s, _ = run(s, "P1 lay G1 T2.L1.2", "P1 go one", "P1 roll", "P1 dice -")
    assert s.cars[0].colour == BLACK and s.cars[1].colour == WHITE and s.round == 1
    assert s.turn is not None and s.turn.car == 1
    s, ev = run(s, "P2 lay G1 T2.L3.2", "P2 go one", "P2 roll", "P2 dice -")
    assert s.round == 2 and s.colour == BLACK
    assert [c.colour for c in s.cars] == [BLACK, BLACK]
    assert any(e.kind == "round-started" and e.get("colour") == BLACK for e in ev)


@pytest.mark.rules("rgt.round.alternate")
def test_rounds_alternate_and_every_car_plays_once_per_round() -> None:
    from heatcore.rallyman.driver import random_race

    race = random_race(PG, 3, seed=2, laps=1)
    colours, turns = [], {}
    current = 1
    for e in (*race.start_events, *(e for evs in race.events for e in evs)):
        if e.kind == "round-started":
            colours.append(e.get("colour"))
            current = e.get("round")
        if e.kind == "turn-ended":
            turns.setdefault(current, []).append(e.car)
    assert colours[:4] == [WHITE, BLACK, WHITE, BLACK]
    for played in turns.values():
        assert len(played) == len(set(played))


@pytest.mark.rules("rgt.order.speed")
def test_highest_gear_moves_first_wherever_it_is() -> None:
    s = position(car("T2.L1.1", 2), car("T1.L1.1", 5))
    assert turn_order(s, (0, 1)) == (1, 0)


@pytest.mark.rules("rgt.order.distance", "rgt.ruling.distance")
def test_same_gear_the_car_ahead_first() -> None:
    s = position(car("T2.L3.1", 3), car("T2.L3.3", 3))
    assert turn_order(s, (0, 1)) == (1, 0)
    track = load_track(PG)
    assert track.spaces["T2.L3.3"].progress2 > track.spaces["T2.L3.1"].progress2


@pytest.mark.rules("rgt.order.position")
def test_same_gear_and_distance_the_inside_of_the_next_corner_first() -> None:
    # next corner on tile 3 turns to lane 1; on tile 9 to lane 3
    s = position(car("T2.L3.2", 3), car("T2.L1.2", 3))
    assert turn_order(s, (0, 1)) == (1, 0)
    s = position(car("T9.L1.1", 3), car("T9.L3.1", 3))
    assert load_track(PG).spaces["T9.L3.2"].corner.inside == 3  # type: ignore[union-attr]
    assert turn_order(s, (0, 1)) == (1, 0)


@pytest.mark.rules("rgt.ruling.order-zero")
def test_00_moves_after_0() -> None:
    s = position(car("T2.L1.1", 1), car("T2.L1.3", DOUBLE_ZERO, where=OFF_TRACK),
                 car("T2.L3.1", 0))
    assert turn_order(s, (0, 1, 2)) == (0, 2, 1)


# -------------------------------------------------------------- the turn


@pytest.mark.rules("rgt.turn.sequence")
def test_plan_then_roll_then_move() -> None:
    s = position(car("T2.L2.1", 2), car("T1.L1.1", 0))
    assert s.turn is not None and s.turn.stage == PLAN
    assert "P1 roll" not in legal(s)
    s, _ = run(s, "P1 lay G2 T2.L2.2", "P1 lay G3 T2.L2.3")
    assert s.cars[0].space == "T2.L2.1"  # laying moves nothing
    s, _ = run(s, "P1 go one", "P1 roll")
    assert s.is_chance() and s.turn is not None and s.turn.stage == DICE
    s, _ = run(s, "P1 dice -")
    assert s.cars[0].space == "T2.L2.2"


@pytest.mark.rules("rgt.turn.must-move")
def test_at_least_one_space_when_possible() -> None:
    s = position(car("T2.L2.1", 2), car("T1.L1.1", 0))
    assert not any(a.startswith("P1 go") or a == "P1 stop" for a in legal(s))
    s, _ = run(s, "P1 lay G2 T2.L2.2", "P1 go one")
    assert "P1 stop" not in legal(s)
    s, _ = run(s, "P1 roll", "P1 dice -")
    assert s.turn is not None and s.turn.car == 1  # the only die rolled: turn over


# -------------------------------------------------------------- dice


@pytest.mark.rules("rgt.dice.dashboard")
def test_each_die_of_the_dashboard_once_per_turn() -> None:
    s = position(car("T1.L2.1", 3), car("T1.L1.1", 0))
    board = dashboard("GT6", "asphalt", "dry", (), Options())
    assert (board.gears, board.coast, board.brake, board.boost) == ((1, 2, 3, 4, 5, 6), 2, 3, 0)
    s, _ = run(s, "P1 lay G3 T1.L2.2")
    assert "G3" not in dice_of(s)
    s, _ = run(s, "P1 lay C T1.L2.3", "P1 lay C T2.L2.1")
    assert "C" not in dice_of(s)
    gt5 = dashboard("GT5", "asphalt", "dry", (), Options())
    assert (len(gt5.gears), gt5.coast, gt5.brake, gt5.boost) == (5, 2, 3, 1)


@pytest.mark.rules("rgt.dice.warning-faces", "rgt.ruling.warning-faces")
def test_warning_chances_per_die_and_the_gear3_switch() -> None:
    def chance(gear: int, options: Options, die: str) -> Fraction:
        s = position(car("T1.L2.1", gear), car("T1.L1.1", 0), options=options)
        s, _ = run(s, f"P1 lay {die} T1.L2.2", "P1 go one", "P1 roll")
        out = dict(chance_outcomes(s))
        assert sum(out.values()) == 1
        return sum((p for a, p in out.items() if isinstance(a, Dice) and any(a.results[0])),
                   Fraction(0))

    assert chance(1, Options(), "G1") == Fraction(1, 6)
    assert chance(2, Options(), "G3") == Fraction(2, 6)
    assert chance(2, Options(gear3_warnings="1"), "G3") == Fraction(1, 6)
    assert chance(4, Options(), "G5") == Fraction(2, 6)
    assert chance(4, Options(), "C") == Fraction(1, 6)


@pytest.mark.rules("rgt.dice.gear")
def test_a_gear_die_moves_one_space_whatever_it_shows() -> None:
    for face in ("-", "!"):
        s = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
        s, _ = run(s, "P1 lay G3 T1.L2.2", "P1 lay G4 T1.L2.3", "P1 go one", "P1 roll",
                   f"P1 dice {face}")
        assert s.cars[0].space == "T1.L2.2"


@pytest.mark.rules("rgt.dice.gear-step")
def test_first_die_within_one_gear_and_one_step_after() -> None:
    s = position(car("T1.L2.1", 3), car("T1.L1.1", 0))
    gears = [d for d in dice_of(s) if d.startswith("G")]
    assert gears == ["G1", "G2", "G3", "G4"]  # G1 only with a brake die
    s, _ = run(s, "P1 lay G4 T1.L2.2")
    assert [d for d in dice_of(s) if d.startswith("G")] == ["G1", "G2", "G3", "G5"]
    s = position(car("T1.L2.1", 0), car("T1.L1.1", 0))
    assert dice_of(s) == ["G1"]


@pytest.mark.rules("rgt.dice.coast")
def test_coast_keeps_the_gear_and_is_not_for_0() -> None:
    s = position(car("T1.L2.1", 4), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay C T1.L2.2", "P1 lay C T1.L2.3")
    assert s.turn is not None and [st.gear for st in s.turn.plan] == [4, 4]
    s, _ = run(s, "P1 go flat", "P1 dice -/-")
    assert s.cars[0].gear == 4
    s = position(car("T1.L2.1", 0), car("T1.L1.1", 0))
    assert "C" not in dice_of(s)


@pytest.mark.rules("rgt.dice.brake")
def test_brake_dice_pay_for_skipped_gears() -> None:
    s = position(car("T1.L2.1", 5), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T1.L2.2")
    assert s.turn is not None and s.turn.plan[0].brakes == 2
    wet = position(car("T1.L2.1", 5), car("T1.L1.1", 0), weather="wet",
                   options=Options(mismatch_limit="3"))
    assert "G2" not in dice_of(wet) and "G3" in dice_of(wet)  # only 1 brake die when wet
    s, _ = run(s, "P1 go one", "P1 roll")
    outcome = chance_outcomes(s)[0][0]
    assert isinstance(outcome, Dice) and len(outcome.results[0]) == 3  # G2 + 2 brakes


@pytest.mark.rules("rgt.dice.boost")
def test_boost_die_for_two_gears_up() -> None:
    gt6 = position(car("T1.L2.1", 2), car("T1.L1.1", 0))
    assert "G4" not in dice_of(gt6)
    gt5 = position(car("T1.L2.1", 2, car_class="GT5"), car("T1.L1.1", 0))
    assert "G4" in dice_of(gt5)
    s, _ = run(gt5, "P1 lay G4 T1.L2.2")
    assert s.turn is not None and s.turn.plan[0].boosts == 1
    s, _ = run(s, "P1 lay G3 T1.L2.3")
    assert "G5" not in dice_of(s)  # the one boost die is used


# -------------------------------------------------------------- track rules


@pytest.mark.rules("rgt.move.one-car-per-space")
def test_no_die_on_an_occupied_space() -> None:
    s = position(car("T2.L2.1", 3), car("T2.L2.2", 0))
    assert not any(to == "T2.L2.2" for _, to in lays(s))


@pytest.mark.rules("rgt.move.forward")
def test_only_forward_straight_or_diagonal_moves() -> None:
    s = position(car("T2.L2.1", 3), car("T1.L1.1", 0))
    assert {to for _, to in lays(s)} == {"T2.L1.2", "T2.L2.2", "T2.L3.2"}
    s = position(car("T2.L1.1", 3), car("T1.L1.1", 0))
    assert {to for _, to in lays(s)} == {"T2.L1.2", "T2.L2.2"}  # never two lanes at once


@pytest.mark.rules("rgt.move.overtake-gear")
def test_beside_a_car_only_at_its_gear_or_higher() -> None:
    s = position(car("T2.L2.1", 3), car("T2.L1.2", 4))
    assert ("G3", "T2.L2.2") not in lays(s) and ("G4", "T2.L2.2") in lays(s)
    # once beside, any gear: on Albert Park's tile 8 the straddling T8.L12.2 lies beside
    # both T8.L3.2 and T8.L3.3
    ap = "albert-park"
    s = position(car("T8.L23.1", 2), car("T8.L12.2", 4), track=ap)
    assert ("G2", "T8.L3.2") not in lays(s)
    s = position(car("T8.L3.2", 2), car("T8.L12.2", 4), track=ap)
    assert ("G2", "T8.L3.3") in lays(s)


@pytest.mark.rules("rgt.move.overtake-gear", "rgt.damage.yellow-flag")
def test_a_refused_overtake_names_its_rule_and_leaves_the_state() -> None:
    s = position(car("T2.L2.1", 3), car("T2.L1.2", 4))
    with pytest.raises(IllegalAction) as refused:
        apply(s, act("P1 lay G3 T2.L2.2"))
    assert refused.value.rule == "rgt.move.overtake-gear"
    with pytest.raises(IllegalAction) as off_track:  # no such move at all: moving forward
        apply(s, act("P1 lay G3 T2.L2.1"))
    assert off_track.value.rule == "rgt.move.forward"
    flag = position(car("T2.L2.1", 5), car("T2.L1.2", 2), car("T2.L3.3", 0), yellow=(2,))
    with pytest.raises(IllegalAction) as yellow:  # even at a higher gear, under the flag
        apply(flag, act("P1 lay G5 T2.L2.2"))
    assert yellow.value.rule == "rgt.damage.yellow-flag"


@pytest.mark.rules("rgt.move.overtake-between")
def test_passing_diagonally_between_two_cars() -> None:
    slow = position(car("T2.L1.1", 3), car("T2.L1.2", 2), car("T2.L3.2", 3))
    assert ("G3", "T2.L2.2") in lays(slow)
    fast = position(car("T2.L1.1", 3), car("T2.L1.2", 2), car("T2.L3.2", 4))
    assert ("G3", "T2.L2.2") not in lays(fast) and ("G4", "T2.L2.2") in lays(fast)


@pytest.mark.rules("rgt.move.blocked")
def test_a_boxed_in_car_is_blocked_and_its_turn_ends() -> None:
    s = position(car("T2.L1.1", 2), car("T2.L1.2", 6), car("T2.L2.2", 6),
                 order=(0, 1, 2))
    assert s.turn is not None and s.turn.car == 1
    assert s.cars[0].colour == BLACK and s.cars[0].gear == 2 and s.cars[0].space == "T2.L1.1"


# -------------------------------------------------------------- corners


def _step(s, die: str, to: str):  # type: ignore[no-untyped-def]
    s, _ = run(s, f"P1 lay {die} {to}")
    return s.turn.plan[-1]


@pytest.mark.rules("rgt.corner.standard", "rgt.ruling.planning")
def test_standard_corner_limit_on_entry_then_speed_up() -> None:
    s = position(car("T3.L1.1", 3), car("T1.L1.1", 0))
    assert _step(s, "G4", "T3.L1.2").overspeed  # a plan may overspeed (ruling.planning)
    assert not _step(s, "G3", "T3.L1.2").overspeed
    s, _ = run(s, "P1 lay G3 T3.L1.2")
    assert not _step(s, "G4", "T3.L1.3").overspeed
    s, ev = run(s, "P1 lay G4 T3.L1.3", "P1 go one", "P1 roll", "P1 dice -")
    assert s.turn is not None and s.turn.stage == ROLL  # gear 3 at limit 3: safe
    over = position(car("T3.L1.1", 4), car("T1.L1.1", 0))
    over, ev = run(over, "P1 lay G4 T3.L1.2", "P1 go one", "P1 roll", "P1 dice -")
    assert any(e.kind == "control-lost" for e in ev)  # no warning rolled, still lost


@pytest.mark.rules("rgt.corner.dangerous")
def test_dangerous_corner_adds_a_warning_at_its_limit() -> None:
    s = position(car("T5.L1.1", 4), car("T1.L1.1", 0))
    at = _step(s, "G4", "T5.L1.2")
    assert at.track_warnings == 1 and not at.overspeed
    assert _step(s, "G5", "T5.L1.2").overspeed
    assert _step(s, "G3", "T5.L1.2").track_warnings == 0


@pytest.mark.rules("rgt.corner.steep-entry")
def test_entering_across_the_dotted_line_takes_its_limit() -> None:
    s = position(car("T6.L1.1", 3), car("T1.L1.1", 0))
    assert _step(s, "G3", "T6.L1.2").overspeed  # dotted 2 replaces the middle 3
    assert not _step(s, "G2", "T6.L1.2").overspeed


@pytest.mark.rules("rgt.corner.steep-exit")
def test_leaving_across_the_dotted_line_limits_the_next_space() -> None:
    s = position(car("T6.L1.1", 2), car("T1.L1.1", 0))
    s, _ = run(s, "P1 lay G2 T6.L1.2")
    assert _step(s, "G3", "T6.L1.3").overspeed  # exit line 2: gear 3 on the next space
    assert not _step(s, "G1", "T6.L1.3").overspeed


@pytest.mark.rules("rgt.corner.steep-diagonal")
def test_diagonal_cuts_ignore_dotted_lines_not_the_middle_number() -> None:
    s = position(car("T6.L2.1", 3), car("T1.L1.1", 0))
    assert not _step(s, "G3", "T6.L1.2").overspeed
    assert _step(s, "G4", "T6.L1.2").overspeed  # the middle 3 always applies
    s, _ = run(s, "P1 lay G3 T6.L1.2")
    assert not _step(s, "G4", "T6.L2.3").overspeed  # diagonal exit: line 2 ignored


@pytest.mark.rules("rgt.corner.steep-warning")
def test_warning_dotted_lines_add_up() -> None:
    s = position(car("T8.L1.1", 2), car("T1.L1.1", 0))
    assert _step(s, "G2", "T8.L1.2").track_warnings == 1
    s2, _ = run(s, "P1 lay G2 T8.L1.2")
    assert _step(s2, "G1", "T8.L1.3").track_warnings == 1  # the second line: 2 in all
    s3, _ = run(s2, "P1 lay G1 T8.L1.3")
    assert s3.turn is not None and sum(st.track_warnings for st in s3.turn.plan) == 2
    d = position(car("T8.L2.1", 2), car("T1.L1.1", 0))
    assert _step(d, "G2", "T8.L1.2").track_warnings == 0
