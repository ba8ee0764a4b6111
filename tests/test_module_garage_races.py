"""Garage races end to end: random garages (quick start and draft) on every base track for
2-6 cars, each step checked by the independent checker (heatcore.heat.oracle reads the upgrade
data itself); card and Heat conservation; planted bugs the checker must catch, some of
which remove behaviour; the fast engine's typed refusal."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace
from itertools import product

import pytest
from checked_play import checked_round, play_drawn_race
from garage_scenario import two_cars
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from heatcore.framework.errors import UnsupportedModule
from heatcore.heat import hooks
from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action, UseSymbol
from heatcore.heat.driver import greedy_policy, random_policy, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast import FastRace
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.modules.garage import turn as gt
from heatcore.heat.modules.garage.data import box
from heatcore.heat.modules.garage.draft import ALL_DECKS
from heatcore.heat.notation import state_from_json, state_to_json
from heatcore.heat.race_checker import check_race, seeded_batch
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.track import track_ids
from heatcore.heat.validity import Problem, status

BASE_TRACKS = ("usa", "great-britain", "italia", "france")
GARAGE_RULES = ("garage.module", "garage.symbols-any-order", "garage.mandatory",
                "garage.choose-speed", "upgrade.heat", "upgrade.heat-unpayable",
                "upgrade.scrap", "upgrade.adjust", "upgrade.boost", "upgrade.cooldown",
                "upgrade.slipstream", "upgrade.reduce", "upgrade.refresh", "upgrade.salvage",
                "upgrade.direct", "upgrade.accelerate", "upgrade.speed-increase",
                "draft.market", "draft.order", "draft.quick-start")


@pytest.mark.rules(*GARAGE_RULES)
def test_garage_races_finish_on_every_track_for_2_to_6_cars_checked_at_every_step() -> None:
    """Every base track, 2-6 cars, each with a quick start and with a draft."""
    used: Counter[str] = Counter()
    for k, track in enumerate(track_ids()):  # every track the engine knows
        for cars, draft in product(range(2, 7), (False, True)):
            seed = 10 * k + cars + 100 * draft
            rng = random.Random(seed)
            setup = random_setup(track, cars, rng, laps=1, modules=("garage",), draft=draft)
            checker, final, actions = check_race(
                setup, random_policy if seed % 2 else greedy_policy, rng)
            assert final.is_over() and sorted(final.ranking) == list(range(cars))
            assert state_from_json(state_to_json(final)) == final
            used.update(str(a).split()[2] for a in actions if " G" in str(a)[:5])
    assert {"cooldown", "scrap", "direct"} <= set(used), used


@pytest.mark.rules(*GARAGE_RULES)
def test_seeded_garage_batches_with_weather_and_legends_pass_the_checker() -> None:
    assert seeded_batch(16, 500, ("garage",)).races == 16
    assert seeded_batch(8, 600, ("weather", "garage")).races == 8
    # seeds 700-709 hold one race (706) whose aggressive policy stalls with an empty engine
    # and a hand of Stress and Heat (a spin every round) past the checker's round bound
    assert seeded_batch(8, 710, ("legends", "garage")).races == 8


@pytest.mark.rules(*GARAGE_RULES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=hs.module_setups(modules=st.sampled_from([("garage",), ("weather", "garage")]),
                              laps=st.just(1)), data=st.data())
def test_hypothesis_plays_garage_races_checked_at_every_step(setup: RaceSetup,
                                                             data: st.DataObject) -> None:
    play_drawn_race(setup, data)


@pytest.mark.rules("garage.module", "ruling.garage-heat-card")
def test_every_card_and_heat_is_accounted_for_in_garage_races() -> None:
    for seed in range(6):
        rng = random.Random(seed)
        setup = random_setup(BASE_TRACKS[seed % 4], 3, rng, laps=1, modules=("garage",),
                             draft=True)
        owned = Counter(c for ups in setup.upgrades for c in ups)
        assert not owned - Counter(box(ALL_DECKS))  # the rest stays in the box
        state, _ = start_race(setup)
        heat_upgrades = [sum(c in ("G17", "G48") for c in ups) for ups in setup.upgrades]
        while not state.is_over():
            for index, car in enumerate(state.cars):
                every = Counter(car.hand + car.deck + car.discard + car.played + car.flipped)
                assert every["H"] + car.engine == 6 + heat_upgrades[index]
                fixed = sum(n for c, n in every.items() if c not in ("S", "H"))
                assert fixed == 12 + 3 - heat_upgrades[index]
            if state.is_chance():
                action = random_shuffle(state, rng)
            else:
                legal = legal_actions(state)
                action = legal[rng.randrange(len(legal))]
            state, _ = apply(state, action)


def test_validity_catches_a_lost_upgrade_and_an_extra_heat() -> None:
    """Negative controls of the conservation checks with the module."""
    state, _ = start_race(random_setup("usa", 2, random.Random(1), modules=("garage",)))
    car = state.cars[0]
    upgrade = next(c for c in car.deck if c.startswith("G"))
    lost = state.with_car(0, replace(car, deck=tuple(c for c in car.deck if c != upgrade)))
    assert Problem.CARD_COUNT in status(lost)
    extra = state.with_car(0, replace(car, engine=car.engine + 1))
    assert Problem.HEAT_COUNT in status(extra)
    assert status(state) == Problem.NONE


def _checked_round(state: RaceState, p1_plan: str) -> list[str]:
    """Play one round from ``state`` through the checker: P1 plans ``p1_plan``, every car
    uses any upgrade symbol it may (else its first legal action). Returns the violation, if
    any (empty when engine and model agree)."""
    def choose(now: RaceState) -> Action:
        legal = legal_actions(now)
        wanted = [a for a in legal if str(a) == p1_plan]
        wanted += [a for a in legal if isinstance(a, UseSymbol)]
        return wanted[0] if wanted else (
            random_shuffle(now, random.Random(0)) if now.is_chance() else legal[0])

    return checked_round(state, choose)


#: (upgrades, hand, deck top, engine, position, P1's plan): a round that uses the symbol.
SCENES = {
    "accelerate": (("G47", "G11", "G34"), "1 2 3 G47 G11 G34 S", "2 3 4 4", 6, 20,
                   "P1 gear 2 play G47 S"),
    "adjust": (("G46", "G11", "G34"), "1 2 3 4 G46 G11 S", "", 6, 8, "P1 gear 2 play 4 G46"),
    "scrap": (("G21", "G11", "G34"), "1 2 3 G21 G11 G34 S", "4 S 1", None, 20,
              "P1 gear 1 play G21"),
    "unpaid": (("G11", "G8", "G34"), "1 2 3 G8 G11 G34 S", "S 4", 0, 20, "P1 gear 1 play G11"),
    "unpaid-paid": (("G11", "G8", "G34"), "1 2 3 G8 G11 G34 S", "S 4", 3, 20,
                    "P1 gear 1 play G11"),
    "plus": (("G2", "G11", "G34"), "1 2 3 G2 G11 G34 S", "3 S 2 4", None, 20,
             "P1 gear 1 play G2"),
}


def _scene(name: str) -> list[str]:
    ups, hand, top, engine, position, plan = SCENES[name]
    return _checked_round(two_cars(ups, hand, deck_top=top, engine=engine,
                                   position=position), plan)


def test_the_scenes_pass_the_checker_with_the_engine_as_it_is() -> None:
    """Control for the planted bugs below: each scene passes unplanted."""
    for name in SCENES:
        assert _scene(name) == [], name


def test_the_checker_catches_an_accelerate_that_counts_one_too_many(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: Accelerate counts one speed increase too many."""
    monkeypatch.setattr(gt.sy, "accelerate", lambda n, increases: n * (increases + 1))
    assert _scene("accelerate")


def test_the_checker_catches_adjust_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): Adjust never changes a corner's limit."""
    monkeypatch.setattr(sy, "adjusted_limit", lambda limit, adjust, clamped=True: limit)
    assert _scene("adjust")


def test_the_checker_catches_a_skipped_mandatory_scrap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): Scrap may be left unused."""
    monkeypatch.setattr(hooks.mandatory_pending, "call", lambda state, turn: False)
    assert "legal actions differ" in _scene("scrap")[0]


def test_the_checker_catches_an_unpaid_card_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug: a card whose Heat cannot be paid is kept (paid for nothing)."""
    monkeypatch.setattr(gt, "resolve_heat", lambda state, turn, card, events: state)
    assert _scene("unpaid")


def test_the_checker_catches_heat_paid_at_reveal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (the old reading): the Heat is paid at reveal, before any cooldown."""
    real = hooks.settle_reveal.call

    def at_reveal(state, turn, speeds, events):  # type: ignore[no-untyped-def]
        state = real(state, turn, speeds, events)
        car = state.cars[turn.car]
        for card in car.played:
            if (paid := sy.pay_heat(car, sy.amount(card, "heat"))) is not None:
                car = paid
        return state.with_car(turn.car, car)

    monkeypatch.setattr(gt, "settle_reveal", at_reveal)  # the reveal's own call
    monkeypatch.setattr(hooks.settle_reveal, "call", at_reveal)  # a chosen speed's
    assert _scene("unpaid-paid")


def test_the_checker_catches_plus_symbols_ignored(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes behaviour): + symbols on upgrades are not flipped for."""
    real = sy.total
    monkeypatch.setattr(gt.sy, "total",
                        lambda cards, symbol: 0 if symbol == "boost" else real(cards, symbol))
    assert _scene("plus")


@pytest.mark.rules("garage.module")
def test_the_fast_engine_refuses_the_garage_naming_it() -> None:
    setup = random_setup("usa", 3, random.Random(4), modules=("garage",))
    with pytest.raises(UnsupportedModule) as refused:
        FastRace.start(setup)
    assert refused.value.module == "garage"

