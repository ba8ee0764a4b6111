"""The independent race checker (``heatcore.heat.race_checker`` on ``heatcore.heat.oracle``): the
printed
card values, slipstream beside a car, lapped cars, its independence, and planted engine bugs
it must catch on both engines."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

import pytest
from scenario import bot_choice, kinds, make_car, make_state, run

import heatcore.heat.engine
import heatcore.heat.fast
from heatcore.heat import cards
from heatcore.heat.driver import random_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.fast.compiled import pure
from heatcore.heat.fast.race import FastRace
from heatcore.heat.notation import parse_action
from heatcore.heat.oracle.model import Decision, RaceModel
from heatcore.heat.oracle.printed import printed_cards
from heatcore.heat.placement import occupied
from heatcore.heat.race_checker import (
    RaceChecker,
    RuleViolation,
    aggressive_policy,
    check_fast_race,
    check_race,
    clutter_policy,
    mixed_policy,
)
from heatcore.heat.setup import random_setup
from heatcore.heat.slipstream import SLIPSTREAM_SPACES
from heatcore.heat.state import RaceState

#: The numbers printed on the cards (seed 000, コースとカードの準備), written out by hand.
PRINTED = {"1": 1, "2": 2, "3": 3, "4": 4, "U0": 0, "U5": 5}
FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put
PASS = {"P2 end react", "P2 no slipstream", "P2 discard nothing"}


def checked_run(state: RaceState, *actions: str) -> tuple[RaceState, RaceChecker]:
    """``scenario.run`` with every step checked by the race checker."""
    checker = RaceChecker()
    checker.resume(state)
    parsed = [parse_action(text) for text in actions]
    named = {a.car for a in parsed}

    def step(action: Any) -> None:
        nonlocal state
        after, events = apply(state, action)
        checker.step(state, action, after, events)
        state = after

    for action in parsed:
        while not state.is_chance() and state.actor() not in named and not state.is_over():
            step(bot_choice(state))
        step(action)
    return state, checker


def test_the_printed_values_in_spec_are_the_seeds() -> None:
    data = printed_cards()
    assert {t: c.value for t, c in data.items() if c.value is not None} == PRINTED
    assert [t for t, c in data.items() if c.basic] == ["1", "2", "3", "4"]
    assert data["S"].value is None and data["H"].value is None


@pytest.mark.rules("reveal.speed", "speed.turn-total", "play.playable-cards")
@pytest.mark.parametrize("card", sorted(PRINTED))
def test_each_card_moves_the_car_its_printed_value(card: str) -> None:
    hand = f"{card} " + " ".join(["1", "2", "3", "4", "S", "S"][:6])
    state = make_state(make_car(0, hand=hand), make_car(-40, hand=FILLER))
    after, events = run(state, f"P1 gear 1 play {card}")
    assert kinds(events, "speed")[0].get("speed") == PRINTED[card]
    assert after.cars[0].position == PRINTED[card]
    checked_run(state, f"P1 gear 1 play {card}")


@pytest.mark.rules("reveal.speed", "reveal.stress-flip", "speed.turn-total")
def test_a_stress_card_counts_the_basic_card_its_flip_finds() -> None:
    state = make_state(make_car(0, hand="S 1 1 2 2 3 3", deck_top="U5 H 3"),
                       make_car(-40, hand=FILLER))
    after, events = run(state, "P1 gear 1 play S")
    assert kinds(events, "speed")[0].get("speed") == 3
    checked_run(state, "P1 gear 1 play S")


@pytest.mark.rules("play.heat-not-playable")
def test_a_heat_card_is_never_a_speed_card() -> None:
    state = make_state(make_car(0, hand="H 1 1 2 2 3 3"), make_car(-40, hand=FILLER))
    assert all("H" not in a.cards for a in legal_actions(state))  # type: ignore[union-attr]


def beside_state() -> RaceState:
    """P2 stays put on space 2's racing line; P1 moves 2 and stops beside it."""
    return make_state(make_car(0, hand="2 1 1 3 3 4 4"), make_car(2, hand=STILL))


@pytest.mark.rules("slipstream.eligible", "slipstream.move")
def test_slipstream_is_offered_beside_a_car() -> None:
    state, _ = run(beside_state(), "P1 gear 1 play 2", "P1 end react")
    assert state.cars[0].spot == (2, False)
    assert set(map(str, legal_actions(state))) == {"P1 slipstream", "P1 no slipstream"}
    after, _ = checked_run(beside_state(), "P1 gear 1 play 2", "P1 end react", "P1 slipstream")
    assert after.cars[0].position == 4


def _no_slipstream_beside(state: RaceState, car: int) -> bool:
    """Planted bug: slipstream only behind a car, never beside one."""
    me = state.cars[car]
    if me.position + SLIPSTREAM_SPACES > state.finish_position:
        return False
    taken = occupied(state, car)
    return (me.position + 1, True) in taken or (me.position + 1, False) in taken


@pytest.mark.rules("slipstream.eligible")
def test_checker_catches_an_engine_without_slipstream_beside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(heatcore.heat.engine, "can_slipstream", _no_slipstream_beside)
    with pytest.raises(RuleViolation) as caught:
        checked_run(beside_state(), "P1 gear 1 play 2", "P1 end react")
    assert "slipstream.eligible" in caught.value.rules


@pytest.mark.rules("slipstream.eligible")
def test_checker_catches_a_fast_engine_without_slipstream_beside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    pure_race = pure()[0].FastRace  # a compiled class cannot be patched
    original = pure_race._can_slipstream

    def behind_only(self: FastRace) -> bool:
        me = self.cars[self.car]
        taken = self.spots  # board spots, each as a number (FastRace._board)
        beside = self._board(me.position, not me.racing_line) in taken
        ahead = (self._board(me.position + 1, True) in taken
                 or self._board(me.position + 1, False) in taken)
        return original(self) if ahead or not beside else False

    monkeypatch.setattr(pure_race, "_can_slipstream", behind_only)
    monkeypatch.setattr(heatcore.heat.fast, "FastRace", pure_race)
    assert _first_violation(range(12), fast=True) is not None


def _first_violation(seeds: range, fast: bool = False, players: int = 4) -> RuleViolation | None:
    for seed in seeds:
        rng = random.Random(seed)
        setup = random_setup(("usa", "italia", "france")[seed % 3], players, rng, laps=1)
        try:
            if fast:
                check_fast_race(setup, random_policy, rng)
            else:
                check_race(setup, random_policy, rng)
        except RuleViolation as violation:
            return violation
    return None


@pytest.mark.rules("reveal.speed", "speed.turn-total")
@pytest.mark.parametrize("fast", [False, True], ids=["reference", "fast"])
def test_checker_catches_a_u5_worth_4(monkeypatch: pytest.MonkeyPatch, fast: bool) -> None:
    assert _first_violation(range(2), fast) is None  # the real rules pass
    monkeypatch.setitem(cards.VALUE, "U5", 4)
    violation = _first_violation(range(10), fast)
    assert violation is not None
    assert {"reveal.speed", "speed.turn-total"} & set(violation.rules)


def lapped_state() -> RaceState:
    """Two laps on USA (69 spaces): P2 is a lap ahead on space 15, racing line; P1 plays
    the 5 from space 10 and stops on space 15."""
    return make_state(make_car(10, hand="U5 1 1 2 2 3 3"), make_car(84, hand=STILL), laps=2)


@pytest.mark.rules("place.racing-line-first", "place.blocked")
def test_the_model_places_a_car_beside_a_car_one_lap_ahead() -> None:
    model = RaceModel(lapped_state())
    for text in ("P2 gear 1 play U0", "P1 gear 1 play U5"):
        model.send(parse_action(text))
    while isinstance(model.pending, Decision) and model.pending.car == 1:
        model.send(min(model.pending.actions, key=lambda a: (str(a) not in PASS, str(a))))
    assert (model.cars[0].position, model.cars[0].racing_line) == (15, False)
    assert isinstance(model.pending, Decision) and model.pending.car == 0


@pytest.mark.rules("place.racing-line-first", "place.blocked", "slipstream.eligible",
                   "setup.board-space")
def test_the_engine_agrees_with_the_checker_on_lapped_cars() -> None:
    checked_run(lapped_state(), "P1 gear 1 play U5", "P1 end react")


ENGINE_MODULES = {"heatcore.heat.cards", "heatcore.heat.track", "heatcore.heat.planning",
                  "heatcore.heat.react",
                  "heatcore.heat.slipstream", "heatcore.heat.placement", "heatcore.heat.cleanup",
                  "heatcore.heat.rounds", "heatcore.heat.reveal", "heatcore.heat.corners",
                  "heatcore.heat.engine",
                  "heatcore.heat.fast", "heatcore.framework.values"}


def test_the_model_imports_nothing_of_the_engine() -> None:
    folder = Path(__file__).resolve().parent.parent / "heatcore" / "oracle"
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ENGINE_MODULES, f"{path.name} imports {node.module}"


@pytest.mark.rules("reveal.speed", "move.exact", "place.blocked", "corner.pay-heat",
                   "corner.spin", "slipstream.eligible", "react.cooldown", "react.boost",
                   "adrenaline.who", "replenish.draw", "deck.reshuffle", "finish.ranking")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fast_engine_races_follow_the_rules(players: int) -> None:
    policies = (random_policy, clutter_policy, aggressive_policy, mixed_policy())
    for seed in range(2):
        rng = random.Random(100 * players + seed)
        track = ("usa", "italia", "france", "great-britain")[(players + seed) % 4]
        policy = policies[(players + 2 * seed) % len(policies)]
        checker, final = check_fast_race(random_setup(track, players, rng, laps=1),
                                         policy, rng)
        assert final.is_over() and checker.steps > 50


@pytest.mark.rules("reveal.speed", "move.exact", "place.blocked", "corner.pay-heat",
                   "corner.spin", "slipstream.eligible", "react.cooldown", "react.boost",
                   "adrenaline.who", "replenish.draw", "deck.reshuffle", "finish.ranking")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_reference_engine_races_follow_the_rules(players: int) -> None:
    for seed in range(2):
        rng = random.Random(200 * players + seed)
        track = ("usa", "italia", "france", "great-britain")[(players + seed) % 4]
        checker, final, _ = check_race(random_setup(track, players, rng, laps=1),
                                       random_policy, rng)
        assert final.is_over() and checker.steps > 50
