"""Z3 proofs over Rallyman GT's seed clauses and ruling switches (proofs/rallyman_rulings.py):
each claim holds and each negative control (a wrong engine's table) is caught by the same
query."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from proofs import rallyman_rulings as rr


def _holds(rows: list[rr.Result], controls: tuple[str, ...]) -> None:
    assert rows[0].control == "" and rows[0].ok, rows[0]
    assert [r.control for r in rows[1:]] == list(controls)
    missed = [r.control for r in rows[1:] if not r.ok]
    assert not missed, missed


@pytest.mark.rules("rgt.move.overtake-gear", "rgt.damage.yellow-flag",
                   "rgt.ruling.yellow-flag-ends", "rgt.ruling.yellow-beside")
def test_entering_beside_a_car_follows_the_seed_and_the_own_flag_never_blocks() -> None:
    _holds(rr.run_entry(), rr.ENTRY_CONTROLS)


@pytest.mark.rules("rgt.damage.gear", "rgt.ruling.gear-damage-die")
def test_gear_damage_keeps_one_gear_die_fewer_per_token_in_each_reading() -> None:
    _holds(rr.run_gear_damage(), rr.GEAR_DAMAGE_CONTROLS)


@pytest.mark.rules("rgt.dice.gear-step", "rgt.ruling.first-die-brake",
                   "rgt.ruling.gear-zero-start")
def test_the_first_gear_die_from_every_gear_and_both_switches() -> None:
    _holds(rr.run_first_die(), rr.FIRST_DIE_CONTROLS)


@pytest.mark.rules("rgt.ruling.dice-after-loss", "rgt.turn.sequence")
def test_dice_after_a_certain_loss_by_each_reading() -> None:
    _holds(rr.run_more_dice(), rr.MORE_DICE_CONTROLS)


@pytest.mark.rules("rgt.ruling.dotted-limit", "rgt.corner.steep-entry",
                   "rgt.corner.steep-diagonal")
def test_dotted_line_limits_by_each_reading() -> None:
    _holds(rr.run_dotted_limit(), rr.DOTTED_CONTROLS)


@pytest.mark.rules("rgt.ruling.relay-finish", "rgt.loc.relay")
def test_a_relay_across_the_line_by_each_reading() -> None:
    _holds(rr.run_relay_cross(), rr.RELAY_CROSS_CONTROLS)


@pytest.mark.rules("rgt.ruling.beside", "rgt.move.overtake-gear")
def test_beside_maps_by_each_reading() -> None:
    _holds(rr.run_beside(), rr.BESIDE_CONTROLS)


def test_every_claim_has_a_run_and_controls() -> None:
    runs: dict[str, Callable[[], list[rr.Result]]] = {
        f"rgt-{r.__name__.removeprefix('run_').replace('_', '-')}": r for r in rr.RUNS}
    assert {c.id for c in rr.CATALOGUE} == set(runs)
    assert all(c.controls for c in rr.CATALOGUE)
