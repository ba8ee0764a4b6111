"""The Garage's switchable rulings (spec/rulings.toml): each alternative played by the
reference engine (a scene where it changes the race) and by the independent checker (the
scene passes under each choice, and an engine that ignores the alternative is caught). The
fast engine refuses the Garage, so it has no part here."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from garage_scenario import two_cars
from test_module_garage_races import _checked_round

from heatcore.framework.errors import IllegalAction
from heatcore.heat.actions import UseSymbol
from heatcore.heat.driver import random_policy, random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.modules.garage import turn as gt
from heatcore.heat.race_checker import check_race
from heatcore.heat.rulings import make_rulings
from heatcore.heat.setup import random_setup
from heatcore.heat.state import RaceState

# ---------------------------------------------------------------- ruling.garage-adjust

ADJUST_PLAN = "P1 gear 3 play G36 G36 G39"


def _negative_adjust(alternative: dict[str, str]) -> RaceState:
    """P1 at 52 of USA holds G36 G36 G39 (Adjust -1 each): corner 4 (limit 2) at -1."""
    state = two_cars(("G36", "G36", "G39"), "G36 G36 G39 1 2 3 4", position=52)
    return replace(state, rulings=make_rulings(alternative))


def _corner_limits(state: RaceState) -> list[object]:
    """The limits of the corners P1 spins out at during one round, P1 playing ADJUST_PLAN."""
    events = []
    start = state.round
    while state.round == start and not state.is_over():
        legal = legal_actions(state)
        plan = [a for a in legal if str(a) == ADJUST_PLAN]
        state, more = apply(state, plan[0] if plan else (
            random_shuffle(state, random.Random(0)) if state.is_chance() else legal[0]))
        events += [e.get("limit") for e in more if e.car == 0 and e.kind == "spun-out"]
    return events


@pytest.mark.rules("ruling.garage-adjust", "upgrade.adjust")
@pytest.mark.parametrize(("alternative", "limit"), [({}, 0),
                                                    ({"ruling.garage-adjust": "unclamped"}, -1)])
def test_adjust_below_zero_under_each_alternative_passes_the_checker(
        alternative: dict[str, str], limit: int) -> None:
    state = _negative_adjust(alternative)
    assert _corner_limits(state) == [limit]
    assert _checked_round(state, ADJUST_PLAN) == []


@pytest.mark.rules("ruling.garage-adjust")
def test_under_unclamped_an_adjusted_limit_below_zero_stands() -> None:
    assert _corner_limits(_negative_adjust({"ruling.garage-adjust": "unclamped"})) == [-1]


def test_the_checker_catches_an_engine_that_always_clamps(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes the alternative): the limit is clamped whatever the ruling."""
    real = sy.adjusted_limit
    monkeypatch.setattr(sy, "adjusted_limit",
                        lambda limit, adjust, clamped=True: real(limit, adjust))
    unclamped = _negative_adjust({"ruling.garage-adjust": "unclamped"})
    assert _checked_round(unclamped, ADJUST_PLAN)


# ---------------------------------------------------------------- ruling.garage-salvage-few

SALVAGE_PLAN = "P1 gear 1 play G22"
CARDS_ONLY = {"ruling.garage-salvage-few": "cards-only"}


def _salvage_scene(alternative: dict[str, str]) -> RaceState:
    """P1 plays G22 (Salvage 2) with Heat, Stress and a 4 in its discard pile."""
    state = two_cars(("G22", "G11", "G34"), "1 2 3 G22 G11 G34 2", discard="S 4", engine=4)
    return replace(state, rulings=make_rulings(alternative))


def _at_salvage(state: RaceState) -> RaceState:
    """The state where P1, having revealed SALVAGE_PLAN, may first use its Salvage."""
    while not _salvage_offers(state):
        legal = legal_actions(state)
        plan = [a for a in legal if str(a) == SALVAGE_PLAN]
        state, _ = apply(state, plan[0] if plan else (
            random_shuffle(state, random.Random(0)) if state.is_chance() else legal[0]))
    return state


def _salvage_offers(state: RaceState) -> set[tuple[str, ...]]:
    """The card sets a Salvage offers now."""
    return {a.cards for a in legal_actions(state)
            if isinstance(a, UseSymbol) and a.symbol == "salvage"}


@pytest.mark.rules("ruling.garage-salvage-few", "upgrade.salvage")
def test_by_default_salvage_may_take_heat_and_stress() -> None:
    offers = _salvage_offers(_at_salvage(_salvage_scene({})))
    assert ("H",) in offers and ("S",) in offers and ("4",) in offers
    assert ("4", "H") in offers or ("H", "4") in offers


@pytest.mark.rules("ruling.garage-salvage-few", "upgrade.salvage")
def test_under_cards_only_salvage_takes_no_heat_and_no_stress() -> None:
    offers = _salvage_offers(_at_salvage(_salvage_scene(CARDS_ONLY)))
    assert offers == {("4",)}


@pytest.mark.rules("ruling.garage-salvage-few")
def test_under_cards_only_a_heat_salvage_is_refused_naming_the_rule() -> None:
    state = _at_salvage(_salvage_scene(CARDS_ONLY))
    assert state.turn is not None
    with pytest.raises(IllegalAction, match=r"upgrade\.salvage"):
        gt.check_symbol(state, state.turn, UseSymbol(0, "G22", "salvage", 0, ("H",)))
    gt.check_symbol(state, state.turn, UseSymbol(0, "G22", "salvage", 0, ("4",)))


@pytest.mark.parametrize("alternative", [{}, CARDS_ONLY])
def test_salvage_under_each_alternative_passes_the_checker(alternative: dict[str, str]) -> None:
    assert _checked_round(_salvage_scene(alternative), SALVAGE_PLAN) == []


def test_the_checker_catches_an_engine_that_salvages_heat_under_cards_only(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (removes the alternative): every discard card is offered whatever the
    ruling."""
    monkeypatch.setattr(gt.sy, "salvageable", lambda discard, cards_only=False: discard)
    state = _salvage_scene(CARDS_ONLY)
    assert "legal actions differ" in _checked_round(state, SALVAGE_PLAN)[0]


# ---------------------------------------------------------------- random races

@pytest.mark.parametrize(("ruling", "choice"), [("ruling.garage-adjust", "unclamped"),
                                                ("ruling.garage-salvage-few", "cards-only")])
def test_drafted_garage_races_under_each_alternative_pass_the_checker(ruling: str,
                                                                      choice: str) -> None:
    for seed in range(4):
        rng = random.Random(seed)
        setup = random_setup(("usa", "italia", "france", "great-britain")[seed], 2 + seed,
                             rng, laps=1, modules=("garage",), draft=True,
                             rulings=make_rulings({ruling: choice}))
        _, final, _ = check_race(setup, random_policy, rng)
        assert final.is_over() and final.rulings.chose(ruling, choice)
