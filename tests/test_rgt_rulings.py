"""Rallyman GT rulings: each decision, and each switch changing what it says it changes."""

from __future__ import annotations

import pytest
from rgt_scenario import car, dice_of, position, run

from heatcore.framework.errors import MalformedInput
from heatcore.rallyman.components import DOUBLE_ZERO, dashboard
from heatcore.rallyman.options import Options, options_from_dict, switches
from heatcore.rallyman.spec import rules
from heatcore.rallyman.state import DRAW, OFF_TRACK, ON_TRACK


@pytest.mark.rules("rgt.ruling.dashboards")
def test_dashboard_table_and_the_mismatch_switch() -> None:
    o = Options()
    rows = {(c, t, w): dashboard(c, t, w, (), o) for c in ("GT6", "GT5", "GT4")
            for t in ("asphalt", "rain") for w in ("dry", "wet")}
    got = {k: (len(b.gears), b.coast, b.brake, b.boost) for k, b in rows.items()}
    assert got[("GT5", "asphalt", "dry")] == (5, 2, 3, 1)  # seed 004's own example
    assert got[("GT6", "rain", "dry")] == (6, 1, 2, 0)
    assert got[("GT4", "rain", "wet")] == (4, 3, 2, 0)
    assert {b.limit for b in rows.values()} == {3}
    strict = Options(mismatch_limit="2")
    assert dashboard("GT6", "asphalt", "wet", (), strict).limit == 2
    assert dashboard("GT6", "rain", "wet", (), strict).limit == 3


@pytest.mark.rules("rgt.ruling.off-track-return")
def test_00_returns_to_its_space_or_with_the_switch_to_the_chosen_edge() -> None:
    for option, back in (("loc-space", "T3.L2.2"), ("side-edge", "T3.L3.2")):
        s = position(car("T3.L2.1", 4), car("T1.L1.1", 0),
                     options=Options(return_space=option))
        s, _ = run(s, "P1 lay G4 T3.L2.2", "P1 go one", "P1 roll", "P1 dice -", "P1 keep",
                   "P1 off 3")
        if s.turn is not None and s.turn.stage == DRAW:
            s, _ = run(s, "P1 draw green")
        assert s.cars[0].where == OFF_TRACK
        s, _ = run(s, "P2 lay G1 T1.L1.2", "P2 go one", "P2 roll", "P2 dice -",
                   "P2 lay G2 T1.L1.3", "P2 go one", "P2 roll", "P2 dice -")
        assert s.cars[0].where == ON_TRACK and s.cars[0].space == back


@pytest.mark.rules("rgt.ruling.pit-exit")
def test_pit_exit_is_the_space_where_the_turn_ended() -> None:
    s = position(car("T7.L3.2", 0, where="pit", pit_lane="tyres"), car("T1.L1.1", 0))
    assert s.cars[0].where == ON_TRACK and s.cars[0].space == "T7.L3.2"


@pytest.mark.rules("rgt.ruling.first-die-brake")
def test_first_die_brake_switch() -> None:
    s = position(car("T1.L2.1", 5), car("T1.L1.1", 0))
    assert "G3" in dice_of(s)
    s = position(car("T1.L2.1", 5), car("T1.L1.1", 0), options=Options(first_die_jumps="no"))
    assert "G3" not in dice_of(s) and "G4" in dice_of(s)


@pytest.mark.rules("rgt.ruling.yellow-flag-ends")
def test_coming_back_from_00_does_not_lift_the_yellow_flag() -> None:
    s = position(car("T3.L2.2", DOUBLE_ZERO, where=OFF_TRACK), car("T1.L1.1", 1), yellow=(0,),
                 order=(1, 0))
    s, _ = run(s, "P2 lay G1 T1.L1.2", "P2 go one", "P2 roll", "P2 dice -")
    assert s.cars[0].where == ON_TRACK and s.yellow == (0,)


def test_every_switch_names_a_ruling_and_an_options_field() -> None:
    known = {e.id for e in rules() if e.kind == "ruling"}
    for name, (default, values, ruling) in switches().items():
        assert ruling in known and getattr(Options(), name) == default and default in values
        for value in values:
            assert getattr(options_from_dict({name: value}), name) == value
    with pytest.raises(MalformedInput):
        options_from_dict({"gear3_warnings": "7"})
    with pytest.raises(MalformedInput):
        options_from_dict({"no_such_switch": "x"})
