"""The fast engine playing the modules (``heatcore.heat.fast.modules``) against the reference
engine: weather tokens, road conditions, sector effects and Legends (aggressive or not) on
all four tracks with 2-6 cars, compared after every step; whole seeded races; Hypothesis
states and illegal actions; and negative controls (a fast engine with one module rule
broken differs from the reference)."""

from __future__ import annotations

import random
from bisect import bisect_left
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heatcore.framework.errors import IllegalAction, UnsupportedModule
from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action, LegendShuffle, SectorCooldown, Slipstream
from heatcore.heat.driver import random_race, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import FastRace, fast_random_race
from heatcore.heat.fast.compiled import pure_modules
from heatcore.heat.fast.modules import ModuleRace
from heatcore.heat.modules.weather import LEGENDS, WEATHER
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings, make_rulings, switches
from heatcore.heat.setup import MAX_PLAYERS, RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids

#: The modules the fast engine plays (not the Garage).
MODULES = (WEATHER, LEGENDS)

MODULE_SETS = ((WEATHER,), (LEGENDS,), MODULES)
MODULE_RULES = ("weather.module", "weather.setup-change", "weather.no-cooldown",
                "weather.cooling-bonus", "weather.no-slipstream", "weather.slipstream-boost",
                "road.limit", "road.overheat", "road.free-boost", "road.slipstream-boost",
                "road.where-the-car-is", "legend.turn-order", "legend.deck", "legend.no-heat",
                "legend.one-corner", "legend.aggressive", "legend.before-line",
                "legend.past-line", "legend.finish")


def _setup(track: str, players: int, modules: tuple[str, ...], seed: int,
           laps: int | None = 1, rulings: Rulings = DEFAULT_RULINGS) -> RaceSetup:
    """A seeded module race of ``players`` cars; with Legends, Legends fill up to 6 cars
    (at least one player, at least one Legend)."""
    rng = random.Random(seed)
    if LEGENDS in modules:
        legends = MAX_PLAYERS - players if players < MAX_PLAYERS else 1
        players = min(players, MAX_PLAYERS - 1)
        return random_setup(track, players, rng, laps, modules, legends,
                            aggressive=seed % 2 == 0, rulings=rulings)
    return random_setup(track, players, rng, laps, modules, rulings=rulings)


def _lockstep(setup: RaceSetup, seed: int, race_class: type[FastRace] = FastRace,
              at_chance: Callable[[FastRace], object] = lambda race: None) -> Iterator[Action]:
    """Play ``setup`` on both engines (the fast one of ``race_class``'s build) with random
    choices, comparing the states and legal actions before every step (``at_chance`` is
    shown the fast race at each chance point first); yields each action played."""
    rng = random.Random(seed)
    state, _ = start_race(setup)
    fast = race_class(state)
    assert type(fast).__name__ == "ModuleRace"
    while not state.is_over():
        assert fast.to_state() == state
        assert fast.legal_actions() == legal_actions(state)
        if state.is_chance():
            at_chance(fast)
            action: Action = random_shuffle(state, rng)
        else:
            legal = legal_actions(state)
            action = legal[rng.randrange(len(legal))]
        state, _ = apply(state, action)
        fast.apply(action)
        yield action
    assert fast.to_state() == state
    assert fast.is_over()


@pytest.mark.rules(*MODULE_RULES)
@pytest.mark.parametrize("track", track_ids())
@pytest.mark.parametrize("players", (2, 3, 4, 5, 6))
def test_module_races_match_in_lockstep(track: str, players: int) -> None:
    for modules in MODULE_SETS:
        for seed in range(2):
            setup = _setup(track, players, modules, seed + 10 * players)
            assert setup.cars == players or (LEGENDS in modules and setup.cars == MAX_PLAYERS)
            for _ in _lockstep(setup, seed):
                pass


def test_module_specific_actions_occur_in_the_lockstep_races() -> None:
    """The lockstep races exercise the module actions (else they would check little)."""
    seen: list[Action] = []
    for seed in range(24):
        track = track_ids()[seed % 4]
        setup = _setup(track, 2 + seed % 5, MODULES, seed, laps=None if seed % 6 == 0 else 1)
        seen += _lockstep(setup, seed)
    assert any(isinstance(a, SectorCooldown) for a in seen)
    assert any(isinstance(a, Slipstream) and a.extra for a in seen)
    assert any(isinstance(a, LegendShuffle) for a in seen)


@pytest.mark.parametrize("track", track_ids())
def test_whole_seeded_module_races_are_the_reference_races(track: str) -> None:
    for players, modules in ((2, (WEATHER,)), (3, (LEGENDS,)), (4, MODULES), (6, (WEATHER,))):
        legends = max(0, 6 - players) if LEGENDS in modules else 0
        reference = random_race(track, players, 5, modules=modules, legends=legends,
                                aggressive=True)
        fast = fast_random_race(track, players, 5, modules=modules, legends=legends,
                                aggressive=True)
        assert fast.actions == reference.actions
        assert fast.final.to_state() == reference.final
        assert reference.final.is_over()


def _alternatives() -> list[tuple[str, str]]:
    return [(r, c) for r, choices in switches().items() for c in choices[1:]]


@pytest.mark.parametrize(("ruling", "choice"), _alternatives())
def test_module_races_under_each_ruling_alternative_match(ruling: str, choice: str) -> None:
    rulings = make_rulings({ruling: choice})
    for seed in range(3):
        track = track_ids()[seed % 4]
        for _ in _lockstep(_setup(track, 3 + seed, MODULES, seed, rulings=rulings), seed):
            pass


@settings(max_examples=60)
@given(data=st.data(), state=hs.race_states(setups=hs.module_setups(laps=st.just(1)),
                                            max_steps=200))
def test_hypothesis_module_states_step_alike(data: st.DataObject, state: RaceState) -> None:
    fast = FastRace.from_state(state)
    assert fast.to_state() == state
    assert fast.legal_actions() == legal_actions(state)
    if state.is_over():
        return
    action = data.draw(hs.next_actions(state))
    fast.apply(action)
    assert fast.to_state() == apply(state, action)[0]


@settings(max_examples=60)
@given(data=st.data(), state=hs.race_states(setups=hs.module_setups(laps=st.just(1)),
                                            max_steps=150))
def test_illegal_module_actions_raise_the_reference_error(data: st.DataObject,
                                                          state: RaceState) -> None:
    if state.is_over():
        return
    action = data.draw(hs.illegal_actions(state))
    fast = FastRace.from_state(state)
    with pytest.raises(IllegalAction) as reference:
        apply(state, action)
    with pytest.raises(IllegalAction) as caught:
        fast.apply(action)
    assert (caught.value.rule, caught.value.detail) == (reference.value.rule,
                                                        reference.value.detail)
    assert fast.to_state() == state


def test_a_state_with_modules_makes_a_module_race() -> None:
    core = FastRace.start(random_setup("usa", 3, random.Random(1)))
    module = FastRace.start(random_setup("usa", 3, random.Random(1), modules=MODULES,
                                         legends=2))
    assert type(core) is FastRace and type(module) is ModuleRace
    assert ModuleRace.SUPPORTED_MODULES == MODULES
    copy = module.copy()
    assert type(copy) is ModuleRace and copy.to_state() == module.to_state()


def _break_overheat(module_race: type[ModuleRace]) -> Callable[..., object]:
    real = module_race._road_tables

    def broken(self: ModuleRace) -> tuple[tuple[str | None, ...], tuple[int, ...],
                                          tuple[bool, ...]]:
        effects, delta, overheat = real(self)
        return effects, delta, tuple(False for _ in overheat)
    return broken


def _break_free_boost(module_race: type[ModuleRace]) -> Callable[..., object]:
    core_boost = module_race.__mro__[1]._boost  # the core race's (FastRace) of this build

    def broken(self: ModuleRace) -> None:
        core_boost(self)
    return broken


def _break_one_corner(module_race: type[ModuleRace]) -> Callable[..., object]:
    def broken(self: ModuleRace, diamond: int, helmet: int) -> int:
        position = self.cars[self.car].position
        index = bisect_left(self.corner_positions, position)
        if index == len(self.corner_positions):
            return helmet
        line, printed, number = self.corner_lines[index]
        corner = self.track.corners[number - 1]
        if position <= line - (corner.after_space - corner.legend_line):
            return helmet if position + helmet <= line else max(0, line - diamond - position)
        return printed + self._corner_delta[number] + diamond  # never stops before a 2nd line
    return broken


#: Each planted bug: the method replaced, and a maker of the broken method for a class.
BROKEN: dict[str, tuple[str, Callable[[type[ModuleRace]], Callable[..., object]]]] = {
    "road.overheat": ("_road_tables", _break_overheat),
    "road.free-boost": ("_boost", _break_free_boost),
    "legend.one-corner": ("_legend_spaces", _break_one_corner),
}


@pytest.mark.parametrize("rule", sorted(BROKEN))
def test_a_broken_module_rule_in_the_fast_engine_is_caught(
        rule: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative controls: a fast engine with one module rule removed differs from the
    reference in some of the lockstep races (on the pure build: a compiled class cannot be
    patched)."""
    built = pure_modules()
    race_class = built["heatcore.heat.fast.race"].FastRace
    module_race = built["heatcore.heat.fast.modules"].ModuleRace
    name, make_broken = BROKEN[rule]
    monkeypatch.setattr(module_race, name, make_broken(module_race))
    caught = 0
    for seed in range(40):
        setup = _setup(track_ids()[seed % 4], 2 + seed % 4, MODULES, seed,
                       laps=None if seed % 4 == 0 else 1)
        try:
            for _ in _lockstep(setup, seed, race_class):
                pass
        except AssertionError:
            caught += 1
            break
    assert caught


@pytest.mark.rules("garage.module")
def test_the_fast_engine_refuses_the_garage_naming_it() -> None:
    setup = random_setup("usa", 3, random.Random(1), modules=("garage",))
    with pytest.raises(UnsupportedModule, match="garage"):
        FastRace.start(setup)


def test_a_shuffle_pool_asked_at_a_legend_shuffle_does_not_outlive_it() -> None:
    """``FastRace.shuffle_pool`` (public) asked while the Legend deck awaits its shuffle, at
    every such point: the next player's shuffle still orders that player's own cards (the
    race goes on as the reference race)."""
    asked = 0

    def ask(race: FastRace) -> None:
        nonlocal asked
        if isinstance(race, ModuleRace) and race.shuffle is not None \
                and race.colours[race.shuffle] is not None:
            race.shuffle_pool()
            asked += 1

    for seed in range(6):
        for _ in _lockstep(_setup("usa", 2, (LEGENDS,), seed, laps=None), seed, at_chance=ask):
            pass
    assert asked
