"""Z3 proofs over Rallyman GT (proofs/rallyman.py): each claim holds and each negative
control (a deliberately wrong model or engine table) is caught by the same query."""

from __future__ import annotations

import pytest

from proofs import rallyman as rp


@pytest.mark.rules("rgt.dice.gear-step", "rgt.dice.brake", "rgt.dice.boost")
def test_gear_sequence_legal_iff_one_step_or_paid_with_brake_or_boost_dice() -> None:
    rows = rp.run_gear_steps()
    assert rows[0].control == "" and rows[0].ok, rows[0]
    assert all(r.ok for r in rows[1:]) and len(rows) == 4, rows


@pytest.mark.rules("rgt.corner.standard", "rgt.corner.dangerous", "rgt.corner.steep-entry",
                   "rgt.corner.steep-exit", "rgt.corner.steep-diagonal",
                   "rgt.corner.steep-warning")
@pytest.mark.parametrize("track", ["proving-ground", "albert-park"])
def test_every_move_and_gear_meets_the_corner_rules(track: str) -> None:
    rows = rp.run_track_limits(track)
    assert rows[0].ok, rows[0]
    missed = [r.control for r in rows[1:] if not r.ok]
    assert not missed and len(rows) == 1 + len(rp.LIMIT_CONTROLS), missed


@pytest.mark.rules("rgt.roll.flat-out", "rgt.move.forward")
def test_largest_safe_flat_out_distance_matches_the_engine() -> None:
    rows = rp.run_safe_distance("proving-ground", rp.QUICK_STARTS)
    assert rows[0].ok, rows[0]
    assert "[1, 6, 7]" in rows[0].detail  # a forced loss of control, and two longer plans
    assert all(r.ok for r in rows[1:]), rows[1:]


@pytest.mark.rules("rgt.focus.cost", "rgt.focus.not-track", "rgt.focus.brake-group",
                   "rgt.corner.dangerous")
def test_minimum_focus_to_pass_a_dangerous_corner_matches_the_engine() -> None:
    rows = rp.run_min_focus("proving-ground", rp.FOCUS_QUICK)
    assert rows[0].control == "" and rows[0].ok, rows[0]
    assert "[1, 3, 6]" in rows[0].detail  # one, two and three dice to fix
    missed = [r.control for r in rows[1:] if not r.ok]
    assert not missed and len(rows) == 1 + len(rp.FOCUS_CONTROLS), missed
