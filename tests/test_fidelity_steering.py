"""Issue 26 item 5 (Heat modules): the module steering policy meets the modules' rare
choices that uniform random play seldom meets, and its races pass the checker."""

from __future__ import annotations

import random

import pytest

from heatcore.heat.actions import Action, SectorCooldown, Slipstream
from heatcore.heat.conformance.module_steering import module_policy
from heatcore.heat.driver import Policy, random_policy
from heatcore.heat.race_checker import check_race
from heatcore.heat.setup import random_setup
from heatcore.heat.track import track_ids


def _rare(actions: list[Action]) -> int:
    """How many rare module choices a race made (a cooling bonus, a bonus slipstream)."""
    return sum(isinstance(a, SectorCooldown) or (isinstance(a, Slipstream) and a.extra > 0)
               for a in actions)


def _play(policy: Policy, seeds: range, modules: tuple[str, ...]) -> int:
    """Rare choices over checked races (every step through the independent checker)."""
    total = 0
    for seed in seeds:
        rng = random.Random(seed)
        setup = random_setup(track_ids()[seed % 4], 2 + seed % 3, rng, laps=1,
                             modules=modules, legends=1 if "legends" in modules else 0)
        _, final, actions = check_race(setup, policy, rng)
        assert final.is_over()
        total += _rare(actions)
    return total


@pytest.mark.rules("weather.slipstream-boost", "road.slipstream-boost", "weather.cooling-bonus",
                   "slipstream.not-past-finish", "ruling.cooling-bonus-scope")
def test_module_policy_meets_more_bonus_slipstreams_and_cooling_bonuses_than_random() -> None:
    seeds = range(8)
    steered = _play(module_policy, seeds, ("weather",))
    plain = _play(random_policy, seeds, ("weather",))
    assert steered > plain and steered >= 8, (steered, plain)


@pytest.mark.rules("legend.turn-order", "ruling.legend-adrenaline-count")
def test_module_policy_races_with_legends_and_weather_pass_the_checker() -> None:
    assert _play(module_policy, range(4), ("weather", "legends")) >= 0


@pytest.mark.rules("weather.cooling-bonus", "upgrade.heat-unpayable")
def test_the_checkers_seeded_batches_take_the_module_policy() -> None:
    from heatcore.heat.race_checker import seeded_batch

    for modules in (("weather",), ("weather", "legends"), ("weather", "garage")):
        batch = seeded_batch(4, 900, modules, [module_policy])
        assert batch.races == 4 and batch.steps > 4 * 20
