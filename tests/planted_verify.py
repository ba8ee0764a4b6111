"""Planted bugs in the parts issue 29 found checked only against themselves: the race's
start, the round order, the Stress a spin takes and a weather sector's place. Each is a
:class:`planted.Planted` (the same machinery as ``tests/planted.py``) whose killer is a check
tied to the engine by something the engine does not share (``tests/test_verify_checks.py``).
"""

from __future__ import annotations

from typing import Any

from planted import PLANTED, Planted, _set

from heatcore.heat import cards, corners, rounds
from heatcore.heat.cards import canonical
from heatcore.heat.modules import weather


def _two_fives_no_zero(stress: int) -> tuple[str, ...]:
    """The starting deck with its 0 upgrade replaced by a second 5."""
    return canonical(["U5" if c == "U0" else c for c in cards.starting_deck(stress)])


def _order_by_space_only(state: Any, cars: tuple[int, ...]) -> tuple[int, ...]:
    """The turn order by position alone (the racing line ignored; ties keep car order)."""
    return tuple(sorted(cars, key=lambda i: -state.cars[i].position))


def _gear_two_spin_takes_two(gear: int) -> int:
    return 1 if gear <= 1 else 2


def _effect_one_space_back(state: Any, car: int) -> Any:
    """Sector effects (the Cloud's among them) judged one space behind the car."""
    return weather.sector_effect(state, state.cars[car].position - 1)


P = Planted
EXPLORE = "test_explore_twice::test_the_engine_explores_kink_3_flips_to_the_models_figures"
_FLIP = next(b for b in PLANTED if b.rule == "reveal.stress-flip")
CHECKER = "test_verify_checks::test_the_race_checker_checks_each_start_against_the_printed_setup"
REFINE_RACES = ("test_verify_checks::"
                "test_refinement_checks_race_starts_and_round_orders_against_the_model")

VERIFY_PLANTED: tuple[Planted, ...] = (
    P("setup.deck", "the starting deck holds two 5 upgrades and no 0",
      _set(weather, "starting_deck", _two_fives_no_zero), CHECKER),
    P("setup.deck", "the starting deck holds two 5 upgrades and no 0",
      _set(weather, "starting_deck", _two_fives_no_zero), REFINE_RACES),
    P("order.fixed-at-round-start", "the turn order ignores the racing line",
      _set(rounds, "standing", _order_by_space_only), REFINE_RACES),
    P("corner.spin", "a spin in gear 2 takes 2 Stress",
      _set(corners, "spin_stress", _gear_two_spin_takes_two),
      "test_verify_checks::test_refinement_checks_a_spin_in_every_gear"),
    P("road.where-the-car-is", "a Cloud sector is judged one space back",
      _set(weather, "_effect", _effect_one_space_back),
      "test_verify_checks::test_prove_modules_refines_each_module_encoding_against_the_engine"),
    P("reveal.stress-flip", _FLIP.what, _FLIP.plant, EXPLORE),
    P("order.fixed-at-round-start", "the turn order ignores the racing line",
      _set(rounds, "standing", _order_by_space_only), EXPLORE),
)
