"""The switchable rulings of the modules (spec/rulings.toml): each alternative played by
the reference engine (a scenario where it changes the race), the fast engine (the same
scenario, and lockstep races) and the independent model of the race checker (it passes
races under the alternative, and a checker blind to the alternative catches them: the
control that the model reads the switch)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state, run
from test_module_legends import legend_state, play_round
from test_module_weather import legal_strings, slipstream_state, weathered

from heatcore.framework.errors import IllegalAction
from heatcore.heat.actions import Slipstream
from heatcore.heat.driver import random_policy, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import FastRace
from heatcore.heat.modules.weather import LEGENDS, WEATHER
from heatcore.heat.notation import parse_action
from heatcore.heat.race_checker import RaceChecker, RuleViolation, check_fast_race, check_race
from heatcore.heat.rounds import has_adrenaline
from heatcore.heat.rulings import DEFAULT_RULINGS, make_rulings
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState

#: The modules both engines play (the fast engine refuses the Garage).
MODULES = (WEATHER, LEGENDS)

MODULE_ALTERNATIVES = (
    ("ruling.cooling-bonus-own-cooldown", "gear-plus-one"),
    ("ruling.slipstream-bonus-all-or-nothing", "any-part"),
    ("ruling.free-boost-empty-engine", "needs-heat"),
    ("ruling.legend-blocked-spot", "stay"),
    ("ruling.legend-adrenaline-count", "players-only"),
)


def under(state: RaceState, ruling: str, choice: str) -> RaceState:
    return replace(state, rulings=make_rulings({ruling: choice}))


def fast_legal(state: RaceState) -> list[str]:
    return [str(a) for a in FastRace(state).legal_actions()]


def both_legal(state: RaceState) -> list[str]:
    """The legal actions, the same on both engines."""
    legal = legal_strings(state)
    assert fast_legal(state) == legal
    return legal


# ---------------------------------------------------------------- weather

def _snow_gear2() -> RaceState:
    base = make_state(make_car(27, gear=2, hand="1 2 H H H 2 3"), make_car(45, hand=STILL))
    state = weathered(base, "snow", ("weather", "limit-plus", "overheat", "overheat"))
    return state


STILL = "U0 U5 S S S H H"


@pytest.mark.rules("ruling.cooling-bonus-own-cooldown", "weather.cooling-bonus")
def test_gear_plus_one_adds_the_bonus_to_the_gears_cooldown() -> None:
    state, _ = run(_snow_gear2(), "P1 gear 2 play 1 2")
    legal = both_legal(state)
    assert "P1 cooldown 1" in legal and "P1 sector cooldown" in legal
    assert "P1 cooldown 2" not in legal
    alt, _ = run(under(_snow_gear2(), "ruling.cooling-bonus-own-cooldown", "gear-plus-one"),
                 "P1 gear 2 play 1 2")
    legal = both_legal(alt)
    assert legal[:2] == ["P1 cooldown 1", "P1 cooldown 2"] and "P1 sector cooldown" not in legal
    assert "P1 cooldown 3" not in legal
    with pytest.raises(IllegalAction) as bad:
        apply(alt, parse_action("P1 sector cooldown"))
    assert bad.value.rule == "ruling.cooling-bonus-own-cooldown"
    after, _ = apply(alt, parse_action("P1 cooldown 2"))
    assert after.cars[0].hand.count("H") == 1 and not any(
        a.startswith(("P1 cooldown", "P1 sector")) for a in both_legal(after))
    fast = FastRace(alt)
    fast.apply(parse_action("P1 cooldown 2"))
    assert fast.to_state() == after


@pytest.mark.rules("ruling.slipstream-bonus-all-or-nothing", "weather.slipstream-boost")
def test_any_part_offers_every_part_of_the_slipstream_bonus() -> None:
    road = ("limit-plus", "weather", "overheat", "overheat")
    state, _ = run(under(slipstream_state("sun", road), "ruling.slipstream-bonus-all-or-nothing",
                         "any-part"), "P1 gear 1 play 1", "P1 end react")
    assert both_legal(state) == ["P1 slipstream", "P1 slipstream +1", "P1 slipstream +2",
                                 "P1 no slipstream"]
    after, events = apply(state, parse_action("P1 slipstream +1"))
    assert after.cars[0].position == 40 and kinds(list(events), "moved")[0].get("spaces") == 3
    fast = FastRace(state)
    fast.apply(parse_action("P1 slipstream +1"))
    assert fast.to_state() == after
    with pytest.raises(IllegalAction):
        apply(state, Slipstream(0, 3))


@pytest.mark.rules("ruling.free-boost-empty-engine", "road.free-boost")
def test_needs_heat_refuses_the_free_boost_to_an_empty_engine() -> None:
    base = make_state(make_car(36, hand="1 1 1 2 2 2 3", deck_top="4", engine=0),
                      make_car(55, hand=STILL))
    road = ("limit-plus", "free-boost", "overheat", "overheat")
    state, _ = run(weathered(base, "sun", road), "P1 gear 1 play 1")
    assert "P1 boost" in both_legal(state)
    alt = under(state, "ruling.free-boost-empty-engine", "needs-heat")
    assert "P1 boost" not in both_legal(alt)
    with pytest.raises(IllegalAction) as bad:
        apply(alt, parse_action("P1 boost"))
    assert bad.value.rule == "react.boost"
    warm = alt.with_car(0, replace(alt.cars[0], engine=1))
    after, events = apply(warm, parse_action("P1 boost"))  # still free with a Heat there
    assert after.cars[0].engine == 1 and kinds(list(events), "free-boost")


# ---------------------------------------------------------------- Legends

@pytest.mark.rules("ruling.legend-blocked-spot", "place.blocked")
def test_stay_keeps_a_legend_whose_space_is_full_where_it_is() -> None:
    state = legend_state([35, 35], [("black", 30)])
    state = replace(state, cars=(state.cars[0], replace(state.cars[1], racing_line=False),
                                 state.cars[2]))
    _, events = play_round(state)  # default: placed behind the full space
    assert [e.get("position") for e in kinds(events, "moved") if e.car == 2] == [34]
    alt = under(state, "ruling.legend-blocked-spot", "stay")
    after, events = play_round(alt)
    legend = next(e for e in kinds(events, "legend") if e.car == 2)
    assert legend.get("rule") == "ruling.legend-blocked-spot" and legend.get("spaces") == 0
    assert not [e for e in kinds(events, "moved") if e.car == 2]
    assert after.cars[2].position == 30
    fast = FastRace(alt)
    while fast.round == alt.round:
        fast.apply(next(a for a in fast.legal_actions() if "U0" in str(a)
                        or "end react" in str(a) or "no slipstream" in str(a)
                        or "discard nothing" in str(a)))
    assert fast.to_state() == after


@pytest.mark.rules("ruling.legend-adrenaline-count", "adrenaline.count-fixed")
def test_players_only_counts_the_players_cars_for_two_adrenaline_places() -> None:
    state = replace(legend_state([10, 20, 30], [("black", 40), ("yellow", 50)]),
                    order=(4, 3, 2, 1, 0))
    assert has_adrenaline(state, 1) and has_adrenaline(state, 0)
    alt = under(state, "ruling.legend-adrenaline-count", "players-only")
    assert has_adrenaline(alt, 0) and not has_adrenaline(alt, 1)
    real = legend_state([10, 20, 30], [("black", 40), ("yellow", 50)])
    for rulings, expected in ((DEFAULT_RULINGS, {0: True, 1: True}),
                              (make_rulings({"ruling.legend-adrenaline-count": "players-only"}),
                               {0: True, 1: False})):
        after, events = play_round(replace(real, rulings=rulings))
        started = {e.car: e.get("adrenaline") for e in kinds(events, "turn-started")}
        assert {car: started[car] for car in (0, 1)} == expected
        fast = FastRace(replace(real, rulings=rulings))
        assert fast.adrenaline_cars == (2 if expected[1] else 1)


# ---------------------------------------------------------------- every part honours each

def _module_setup(seed: int, ruling: str, choice: str) -> RaceSetup:
    rng = random.Random(seed)
    players = 2 + seed % 3
    return random_setup(("usa", "italia", "france", "great-britain")[seed % 4], players, rng, 1,
                        MODULES, 6 - players, aggressive=True,
                        rulings=make_rulings({ruling: choice}))


def _blind_checker_catches(setup: RaceSetup, seed: int) -> bool:
    """Play ``setup`` on the reference engine, showing the checker states that claim the
    default rulings: True if the checker's model finds the engine's race wrong."""
    def blind(state: RaceState) -> RaceState:
        return replace(state, rulings=DEFAULT_RULINGS)

    rng = random.Random(seed)
    state, events = start_race(setup)
    checker = RaceChecker()
    try:
        checker.start(blind(state), events)
        while not state.is_over():
            action = (random_shuffle(state, rng) if state.is_chance()
                      else random_policy(state, legal_actions(state), rng))
            after, evs = apply(state, action)
            checker.step(blind(state), action, blind(after), evs)
            state = after
        checker.finish()
    except RuleViolation:
        return True
    return False


@pytest.mark.rules("ruling.cooling-bonus-own-cooldown", "ruling.slipstream-bonus-all-or-nothing",
                   "ruling.free-boost-empty-engine", "ruling.legend-blocked-spot",
                   "ruling.legend-adrenaline-count")
@pytest.mark.parametrize(("ruling", "choice"), MODULE_ALTERNATIVES)
def test_both_engines_and_the_checker_honour_each_module_alternative(ruling: str,
                                                                     choice: str) -> None:
    for seed in range(4):
        setup = _module_setup(seed, ruling, choice)
        _, final, _ = check_race(setup, random_policy, random.Random(seed))
        assert final.is_over() and final.rulings.chose(ruling, choice)
        _, fast_final = check_fast_race(setup, random_policy, random.Random(seed))
        assert fast_final == final
    assert any(_blind_checker_catches(_module_setup(seed, ruling, choice), seed)
               for seed in range(12))
