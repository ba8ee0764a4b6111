"""The hand-written rule tests, run again on the fast engine (``heatcore.heat.fast``).

Each rule test of the modules below builds a hand-made state, acts through
``heatcore.heat.engine.apply`` / ``legal_actions`` and checks the rule's outcome against values
written by hand. Here the same test runs with those two functions answered by
:class:`heatcore.heat.fast.FastRace` instead (a fresh fast race from the state, one action, its
state back), so it checks the fast engine's rules with the same hand-written expectations:
independent of the fast engine's code, and not a comparison with the reference engine.
Tests that read the reference engine's events are left out (the fast engine reports
none), as are tests that never reach the engine (they would pass without checking it).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from dataclasses import replace
from types import ModuleType
from typing import Any

import pytest
import test_rules_edges
import test_rules_planning
import test_rules_turn
import test_rulings
from scenario import make_car, make_state
from test_module_legends import legend_state
from test_module_weather import weathered

from heatcore.framework.errors import IllegalAction
from heatcore.heat import engine
from heatcore.heat.actions import (
    Action,
    DeclineSlipstream,
    Discard,
    EndReact,
    LegendShuffle,
    Shuffle,
)
from heatcore.heat.cards import HEAT, STRESS, canonical
from heatcore.heat.fast import FastRace
from heatcore.heat.modules.legends import full_deck
from heatcore.heat.notation import parse_action
from heatcore.heat.rulings import make_rulings
from heatcore.heat.state import Conditions, RaceState

MODULES = (test_rules_edges, test_rules_planning, test_rules_turn, test_rulings)

#: Rule tests left out, and why (they pass on the fast engine only by not asking it).
_INTERNAL = "calls a function of the reference engine itself, not apply or legal_actions"
LEFT_OUT: dict[str, str] = {
    "test_rules_edges.py::test_a_hand_over_seven_draws_nothing": _INTERNAL,
    "test_rules_edges.py::test_the_supply_is_the_boxs_37_stress_less_three_per_deck": _INTERNAL,
    "test_rules_turn.py::test_the_race_goes_on_until_every_car_has_finished": _INTERNAL,
    "test_rulings.py::test_draw_stops_short_when_nothing_is_left_and_never_over_seven":
        _INTERNAL,
    "test_rulings.py::test_races_of_other_lengths_than_the_board_play_to_the_end": _INTERNAL,
}


class FastCalls:
    """``apply`` and ``legal_actions`` answered by the fast engine; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def apply(self, state: RaceState, action: Action) -> tuple[RaceState, list[Any]]:
        """One action on a fast race made from ``state``: its state, and no events."""
        self.calls += 1
        race = FastRace(state)
        race.apply(action)
        return race.to_state(), []

    def legal_actions(self, state: RaceState) -> tuple[Action, ...]:
        """The fast race's legal actions at ``state``."""
        self.calls += 1
        return FastRace(state).legal_actions()


def _calls(test: Callable[..., None]) -> Iterator[dict[str, Any]]:
    """The keyword arguments of each parametrized case of ``test`` (one empty set if none)."""
    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    axes = []
    for mark in marks:
        names = [n.strip() for n in mark.args[0].split(",")] if isinstance(
            mark.args[0], str) else list(mark.args[0])
        values = [v.values if hasattr(v, "values") else v for v in mark.args[1]]
        axes.append([dict(zip(names, v if len(names) > 1 else (v,), strict=True))
                     for v in values])
    for combo in itertools.product(*axes):
        yield {k: v for part in combo for k, v in part.items()}


def _rule_tests() -> list[Any]:
    """A pytest param per rule test that needs no fixture, carrying its rule marks."""
    params = []
    for module in MODULES:
        for name, test in inspect.getmembers(module, inspect.isfunction):
            marks = getattr(test, "pytestmark", [])
            rules = [m for m in marks if m.name == "rules"]
            key = f"{module.__name__}.py::{name}"
            if not name.startswith("test_") or not rules or key in LEFT_OUT:
                continue
            source = inspect.getsource(test)
            if "events" in source or "kinds(" in source:
                continue  # reads the reference engine's events
            wanted = set(inspect.signature(test).parameters)
            given = {k for case in _calls(test) for k in case}
            if wanted - given:
                continue  # needs a fixture
            params.append(pytest.param(module, test, id=key, marks=rules))
    return params


def run_on_fast(module: ModuleType, test: Callable[..., None],
                monkeypatch: pytest.MonkeyPatch) -> int:
    """Run ``test`` (every parametrized case) with the engine calls answered by the fast
    engine; the number of fast-engine calls it made."""
    fast = FastCalls()
    for name in ("apply", "legal_actions"):
        reference = getattr(engine, name)
        for where in (module, engine):
            if getattr(where, name, None) is reference:
                monkeypatch.setattr(where, name, getattr(fast, name))
    for case in _calls(test):
        test(**case)
    return fast.calls


@pytest.mark.parametrize(("module", "test"), _rule_tests())
def test_the_fast_engine_passes_the_rule_test(module: ModuleType, test: Callable[..., None],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_on_fast(module, test, monkeypatch) > 0, "the test never asked the engine"


# ------------------------------------------------------------ hand-made states, fast engine
# Rules whose tests above read events (or that no test above reaches): the fast engine's
# state after a short hand-made play, against values worked out by hand from the rule.

FILLER = "1 1 1 2 2 2 3"
STILL = "U0 U5 S S S H H"  # a background car with this hand plays U0 and stays put


def fast_run(state: RaceState, *actions: str, rulings: dict[str, str] | None = None,
             ) -> FastRace:
    """A fast race from ``state`` (under ``rulings``) after the listed actions, up to the
    next choice of the last action's car; any other car's choice on the way is its first
    plan, or else doing nothing."""
    if rulings:
        state = replace(state, rulings=make_rulings(rulings))
    race = FastRace(state)
    for text in actions:
        action = parse_action(text)
        _others(race, action.car)
        race.apply(action)
    _others(race, action.car)
    return race


def _others(race: FastRace, car: int) -> None:
    """Let the other cars choose until ``car`` must (or nobody can)."""
    while race.legal_actions() and race.legal_actions()[0].car != car:
        race.apply(_background(race.legal_actions()))


def _background(legal: tuple[Action, ...]) -> Action:
    for action in legal:
        if isinstance(action, EndReact | DeclineSlipstream) or (
                isinstance(action, Discard) and not action.cards):
            return action
    return legal[0]


@pytest.mark.rules("corner.pay-heat", "corner.check", "ruling.setback-corner")
def test_fast_a_corner_taken_one_over_its_limit_costs_one_heat() -> None:
    # USA corner 1 follows space 12 (limit 7): speed 8 from 5 crosses it one over
    me = make_car(5, gear=2, hand="4 4 1 1 2 2 3")
    race = fast_run(make_state(me, make_car(-30, hand=STILL)), "P1 gear 2 play 4 4",
                    "P1 end react")
    state = race.to_state()
    after = state.cars[0]
    assert after.position == 13
    assert (after.engine, after.discard.count(HEAT)) == (me.engine - 1,
                                                          me.discard.count(HEAT) + 1)
    # the turn's reach is kept only under ruling.setback-corner "checked"
    assert state.turn is not None and state.turn.reach == 0


@pytest.mark.rules("ruling.hand-over-limit", "replenish.draw", "corner.spin")
def test_fast_a_hand_over_seven_after_a_spin_draws_nothing() -> None:
    # great-britain: a corner of limit 6 follows space 25; the hand holds 9 cards
    car = make_car(25, gear=2, hand="4 4 1 1 2 2 3", engine=0)
    car = replace(car, hand=canonical(car.hand + car.deck[:2]), deck=car.deck[2:])
    state = make_state(car, make_car(-40, hand=FILLER), track="great-britain")
    race = fast_run(state, "P1 gear 2 play 4 4", "P1 discard nothing")
    after = race.to_state().cars[0]
    assert after.gear == 1 and after.hand.count(STRESS) >= 1 and race.spins == 1
    assert len(after.hand) == 8 and after.deck == car.deck


@pytest.mark.rules("play.cluttered", "reveal.speed")
def test_fast_a_cluttered_play_drops_to_first_gear_and_does_not_move() -> None:
    state = make_state(make_car(0, gear=4, hand="2 U0 H H H H H", engine=0),
                       make_car(-9, hand=FILLER))
    race = fast_run(state, "P1 gear 4 play 2 U0 H H", "P2 gear 1 play 1")
    after = race.to_state().cars[0]
    assert (after.position, after.gear) == (0, 1)
    assert canonical(("2", "U0", HEAT, HEAT)) == canonical(
        tuple(c for c in after.discard if c in ("2", "U0", HEAT))[:4])


@pytest.mark.rules("ruling.setback-corner", "corner.check")
def test_fast_under_checked_a_setback_before_a_corner_line_still_checks_it() -> None:
    # USA corner 2 follows space 33 (limit 3): speed 4 from 30 aims at 34, which is full
    ahead = [make_car(34, True, hand=STILL), make_car(34, False, hand=STILL)]
    me = make_car(30, hand="4 1 1 2 2 3 3")
    race = fast_run(make_state(*ahead, me), "P3 gear 1 play 4", "P3 end react",
                    rulings={"ruling.setback-corner": "checked"})
    state = race.to_state()
    assert state.turn is not None and state.turn.reach == 34
    race.apply(parse_action("P3 no slipstream"))
    after = race.to_state().cars[2]
    assert (after.position, after.engine) == (33, me.engine - 1)


@pytest.mark.rules("ruling.zero-move", "ruling.blocked-own-space")
def test_fast_under_place_a_move_of_zero_takes_the_free_racing_line_even_under_stay() -> None:
    # a move of 0 is placed again in the car's own space (zero-move "place"); "stay" keeps
    # the car's spot only for a move of at least one space set back into its own space
    state = make_state(make_car(10, hand=FILLER), make_car(5, False, hand=STILL))
    race = fast_run(state, "P2 gear 1 play U0", "P2 end react", rulings={
        "ruling.zero-move": "place", "ruling.blocked-own-space": "stay"})
    assert race.to_state().cars[1].spot == (5, True)


@pytest.mark.rules("ruling.blocked-own-space", "move.exact")
def test_fast_under_stay_a_move_that_is_not_blocked_goes_forward() -> None:
    state = make_state(make_car(10, hand=FILLER), make_car(5, False, hand=FILLER))
    race = fast_run(state, "P2 gear 1 play 1", "P2 end react",
                    rulings={"ruling.blocked-own-space": "stay"})
    assert race.to_state().cars[1].spot == (6, True)


@pytest.mark.rules("ruling.zero-move", "move.exact")
def test_fast_a_move_of_zero_leaves_the_car_on_its_spot() -> None:
    # the default: a move of 0 is no placement, though the racing line of the space is free
    state = make_state(make_car(10, hand=FILLER), make_car(5, False, hand=STILL))
    race = fast_run(state, "P2 gear 1 play U0", "P2 end react")
    assert race.to_state().cars[1].spot == (5, False)


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_fast_under_must_gain_adrenaline_asks_whether_one_space_gains() -> None:
    # P3 moves 8 to space 8: space 9 is full, space 10 free; its adrenaline +1 gains nothing
    blockers = [make_car(9, r, hand=STILL) for r in (True, False)]
    state = make_state(*blockers, make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    race = fast_run(state, "P3 gear 2 play 4 4",
                    rulings={"ruling.blocked-extra-move": "must-gain"})
    legal = [str(a) for a in race.legal_actions()]
    assert race.to_state().cars[2].position == 8
    assert "P3 adrenaline move" not in legal and "P3 boost" in legal
    # with space 9 free, the +1 gains a space and is offered
    state = make_state(make_car(20, hand=STILL), make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    race = fast_run(state, "P2 gear 2 play 4 4",
                    rulings={"ruling.blocked-extra-move": "must-gain"})
    assert "P2 adrenaline move" in [str(a) for a in race.legal_actions()]


@pytest.mark.rules("ruling.finished-car-discard-draw", "replenish.draw")
def test_fast_under_skip_a_car_still_racing_draws_back_to_seven() -> None:
    state = make_state(make_car(10, hand=FILLER), make_car(-9, hand=STILL))
    race = fast_run(state, "P1 gear 1 play 1", "P1 end react", "P1 discard nothing",
                    rulings={"ruling.finished-car-discard-draw": "skip"})
    after = race.to_state().cars[0]
    assert after.position == 11 and len(after.hand) == 7


@pytest.mark.rules("ruling.setback-corner", "corner.check", "adrenaline.effects")
def test_fast_under_checked_a_blocked_adrenaline_space_still_checks_the_line() -> None:
    # USA corner 2 follows space 33 (limit 3): P3 moves 3 to 33, then its adrenaline +1
    # (speed 4) aims at 34, which is full; the line after 33 is checked at speed 4
    ahead = [make_car(34, True, hand=STILL), make_car(34, False, hand=STILL)]
    me = make_car(30, hand="3 1 1 2 2 4 4")
    race = fast_run(make_state(*ahead, me), "P3 gear 1 play 3", "P3 adrenaline move",
                    "P3 end react", "P3 no slipstream",
                    rulings={"ruling.setback-corner": "checked"})
    after = race.to_state().cars[2]
    assert (after.position, after.engine) == (33, me.engine - 1)


@pytest.mark.rules("ruling.setback-corner", "corner.check", "corner.pay-heat")
def test_fast_under_checked_a_turn_checks_only_the_lines_it_reached() -> None:
    # USA: lines follow -20 (limit 3) and -12 (limit 2); speed 3 from -20 reaches -17 only
    me = make_car(-20, hand="3 1 1 2 2 2 4")
    race = fast_run(make_state(make_car(10, hand=STILL), me), "P2 gear 1 play 3",
                    "P2 end react", rulings={"ruling.setback-corner": "checked"})
    after = race.to_state().cars[1]
    assert (after.position, after.engine) == (-17, me.engine)


@pytest.mark.rules("order.fixed-at-round-start", "discard.optional")
def test_fast_a_discard_of_another_car_is_refused_and_changes_nothing() -> None:
    state = make_state(make_car(10, hand=FILLER), make_car(-9, hand=FILLER))
    race = fast_run(state, "P1 gear 1 play 1", "P1 end react")
    before = race.to_state()
    assert before.turn is not None and before.turn.car == 0
    with pytest.raises(IllegalAction) as refused:
        race.apply(parse_action("P2 discard 1"))  # P1's hand holds a 1
    assert refused.value.rule == "order.fixed-at-round-start"
    assert race.to_state() == before


@pytest.mark.rules("ruling.finished-car-discard-draw", "finish.line")
def test_fast_under_skip_a_car_on_the_last_space_has_not_finished_and_discards() -> None:
    # USA, 2 laps: the last space is 138; a car stopping on it has not crossed the line
    state = make_state(make_car(130, gear=2, hand="4 4 1 1 2 2 3"), make_car(-9, hand=STILL))
    race = fast_run(state, "P1 gear 2 play 4 4", "P1 end react",
                    rulings={"ruling.finished-car-discard-draw": "skip"})
    assert race.to_state().cars[0].position == 138
    assert isinstance(race.legal_actions()[0], Discard) and race.legal_actions()[0].car == 0
    race.apply(parse_action("P1 discard nothing"))  # and it draws back to seven
    assert len(race.to_state().cars[0].hand) == 7


@pytest.mark.rules("ruling.flip-no-basic", "reveal.stress-flip")
def test_fast_each_stress_flip_finds_nothing_when_no_basic_card_is_left() -> None:
    car = make_car(0, gear=2, hand="S S 1 1 2 2 3")
    car = replace(car, deck=("H", "U0"), discard=("U5",))
    state = make_state(car, make_car(-9, hand=STILL))
    race = fast_run(state, "P1 gear 2 play S S", "P2 gear 1 play U0")
    after = race.to_state()  # P1's turn is over (speed 0): P2 reacts
    assert after.cars[0].position == 0
    assert after.turn is not None and after.turn.car == 1


@pytest.mark.rules("ruling.setback-corner", "corner.check", "corner.pay-heat")
def test_reference_under_checked_a_turn_checks_only_the_lines_it_reached() -> None:
    # the reference engine's twin of the test above (the bug was in both engines: a turn's
    # reach started at space 0, so a car behind space 0 checked the lines up to it)
    me = make_car(-20, hand="3 1 1 2 2 2 4")
    state = replace(make_state(make_car(10, hand=STILL), me),
                    rulings=make_rulings({"ruling.setback-corner": "checked"}))
    for text in ("P2 gear 1 play 3", "P2 end react"):
        action = parse_action(text)
        while action not in engine.legal_actions(state):
            state, _ = engine.apply(state, engine.legal_actions(state)[0])
        state, _ = engine.apply(state, action)
    after = state.cars[1]
    assert (after.position, after.engine) == (-17, me.engine)


# ------------------------------------------------------------ Legends, fast engine

def _fast_round(race: FastRace) -> None:
    """Play the round out: players play U0 and do nothing else; a Legend shuffle, if one is
    awaited, in the sorted order."""
    start = race.round
    while race.round == start and not race.is_over():
        if race.shuffle is not None:
            race.apply(LegendShuffle(race.shuffle, full_deck()))
            continue
        legal = race.legal_actions()
        race.apply(next((a for a in legal if "U0" in str(a)), _background(legal)))


@pytest.mark.rules("legend.deck")
def test_fast_an_empty_legend_deck_awaits_the_legend_shuffle_of_the_car_that_needs_it() -> None:
    # the red Legend (car 3, at 30) moves first of three: no card is up and the deck is
    # empty, so it awaits the Legend shuffle; only it may answer, with the ten cards
    race = FastRace(legend_state([60], [("black", 20), ("red", 30), ("green", 10)],
                                 card=None, deck=()))
    while race.shuffle is None:
        race.apply(race.legal_actions()[0])
    assert race.shuffle == 2 and race.legal_actions() == ()
    order = (3, 1, 2, 4, 5, 6, 7, 8, 9, 10)
    for wrong in (LegendShuffle(1, order), LegendShuffle(3, order), LegendShuffle(2, (1, 2, 3)),
                  LegendShuffle(2, (2, 3, 4, 5, 6, 7, 8, 9, 10, 10)), Shuffle(2, ())):
        with pytest.raises(IllegalAction) as refused:
            race.apply(wrong)
        assert refused.value.rule == "legend.deck"
    race.apply(LegendShuffle(2, order))
    after = race.to_state()
    # card 3 was drawn from the new deck; the Legends moved and the round ended
    assert after.legends is not None and after.legends.deck == order[1:]
    assert after.cars[1].position > 20 and after.cars[2].position > 30
    assert after.cars[3].position > 10


@pytest.mark.rules("legend.past-line", "legend.one-corner")
def test_fast_a_legend_past_the_last_corners_legend_line_moves_its_limit_plus_diamond() -> None:
    # USA's last corner: line after 57, limit 2, Legend line after 52; card 1 gives black
    # diamond 2: from 54 the black Legend moves 2 + 2 to 58 (Legends only, no weather)
    race = FastRace(legend_state([60], [("black", 54)]))
    _fast_round(race)
    assert race.to_state().cars[1].position == 58


@pytest.mark.rules("legend.turn-order", "legend.deck")
def test_fast_a_legend_last_in_the_order_has_no_adrenaline() -> None:
    # the black Legend is last of two (the adrenaline place) and awaits its shuffle
    race = FastRace(legend_state([40], [("black", 20)], card=None, deck=()))
    while race.shuffle is None:
        race.apply(race.legal_actions()[0])
    turn = race.to_state().turn
    assert race.shuffle == 1 and turn is not None and turn.car == 1
    assert not turn.adrenaline


@pytest.mark.rules("ruling.blocked-extra-move", "adrenaline.effects")
def test_fast_in_a_module_race_under_must_gain_a_blocked_plus_one_is_not_offered() -> None:
    # P5 (adrenaline) moves 8 to space 8 of a weather race (only corner tokens: no sector
    # effect); spaces 9 and 10 are full, so its +1 would leave it where it is
    blockers = [make_car(s, r, hand=STILL) for s in (10, 9) for r in (True, False)]
    base = make_state(*blockers, make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    state = weathered(base, "sun", ("limit-plus",) * 4)
    offered = {}
    for choice in ("must-gain", "allowed"):
        race = fast_run(state, "P5 gear 2 play 4 4",
                        rulings={"ruling.blocked-extra-move": choice})
        assert type(race) is not FastRace and race.to_state().cars[4].position == 8
        offered[choice] = [str(a) for a in race.legal_actions()]
    assert "P5 adrenaline move" not in offered["must-gain"] and "P5 boost" in offered["must-gain"]
    assert "P5 adrenaline move" in offered["allowed"]
    # space 9 full, 10 free: the +1 still gains nothing (a +2 would)
    blockers = [make_car(s, r, hand=STILL) for s in (9, 20) for r in (True, False)]
    base = make_state(*blockers, make_car(0, gear=2, hand="4 4 1 1 2 2 3"))
    race = fast_run(weathered(base, "sun", ("limit-plus",) * 4), "P5 gear 2 play 4 4",
                    rulings={"ruling.blocked-extra-move": "must-gain"})
    assert "P5 adrenaline move" not in [str(a) for a in race.legal_actions()]


@pytest.mark.rules("ruling.flip-no-basic", "reveal.stress-flip")
def test_fast_a_single_stress_flip_that_finds_nothing_leaves_no_flip_owed() -> None:
    car = replace(make_car(0, gear=1, hand="S S 1 1 2 2 3"), deck=("H", "U0"), discard=("U5",))
    race = fast_run(make_state(car, make_car(-9, hand=STILL)), "P1 gear 1 play S")
    turn = race.to_state().turn  # P1 reacts at speed 0, its one flip given up
    assert turn is not None and turn.car == 0 and turn.stage.name == "REACT"
    assert (turn.speed, turn.flips_left) == (0, 0)


@pytest.mark.rules("ruling.legend-blocked-spot", "place.racing-line-first")
def test_fast_under_stay_a_legend_takes_a_free_racing_line_beside_a_car() -> None:
    # black, card 1 (helmet 16), from 60 aims at 76, where P1 holds only the outer spot:
    # the space is not full, so even under "stay" the Legend moves onto the racing line
    state = legend_state([76], [("black", 60)])
    state = replace(state, cars=(replace(state.cars[0], racing_line=False), state.cars[1]),
                    rulings=make_rulings({"ruling.legend-blocked-spot": "stay"}))
    race = FastRace(state)
    _fast_round(race)
    assert race.to_state().cars[1].spot == (76, True)


@pytest.mark.rules("corner.pay-heat", "road.overheat")
def test_fast_a_corner_one_over_costs_one_heat_in_a_legends_race_two_if_it_overheats() -> None:
    # USA corner 2 follows space 33 (limit 3): P1 plays a 4 from 30, one over the limit
    me = make_car(30, hand="4 1 1 2 2 3 3")
    legends = legend_state([30], [("black", 10)])
    state = replace(legends, cars=(me, legends.cars[1]))
    paid = {}
    for name, start in (("legends", state),
                        ("overheat", weathered(make_state(me, make_car(-9, hand=STILL)), "sun",
                                               ("overheat",) * 4))):
        race = fast_run(start, "P1 gear 1 play 4", "P1 end react")
        after = race.to_state().cars[0]
        assert after.position == 34
        paid[name] = start.cars[0].engine - after.engine
    assert paid == {"legends": 1, "overheat": 2}


@pytest.mark.rules("react.boost", "react.cooldown", "legend.turn-order")
def test_fast_a_car_on_the_laps_last_space_reacts_in_a_legends_race() -> None:
    # USA has 69 spaces: P1 plays a 2 from 67 and reacts on space 69 (no sector effect)
    me = make_car(67, hand="2 1 1 3 3 4 H", engine=3)
    legends = legend_state([67], [("black", 10)])
    race = fast_run(replace(legends, cars=(me, legends.cars[1])), "P1 gear 1 play 2")
    assert race.to_state().cars[0].position == 69
    assert [str(a) for a in race.legal_actions()] == ["P1 cooldown 1", "P1 boost",
                                                      "P1 end react"]


@pytest.mark.rules("ruling.legend-blocked-spot", "legend.past-line", "road.limit")
def test_fast_under_stay_a_legend_one_space_from_a_full_space_stays() -> None:
    # Italia corner 2 (line after 19, limit 2, Legend line after 14) with limit-minus: the
    # yellow Legend (card 1: diamond 0) on the outer spot of 17 moves 2 - 1 + 0 = 1 space,
    # to 18, where both spots are taken: under "stay" it keeps its spot, else placement
    # brings it back to its own space's free racing line
    state = legend_state([18, 18], [("yellow", 17)], track="italia")
    cars = (state.cars[0], replace(state.cars[1], racing_line=False),
            replace(state.cars[2], racing_line=False))
    state = replace(state, cars=cars, modules=("weather", "legends"),
                    conditions=Conditions("sun", ("overheat", "limit-minus", "overheat")))
    spots = {}
    for choice in ("stay", "placed"):
        race = FastRace(replace(state, rulings=make_rulings(
            {"ruling.legend-blocked-spot": choice})))
        _fast_round(race)
        spots[choice] = race.to_state().cars[2].spot
    assert spots == {"stay": (17, False), "placed": (17, True)}


@pytest.mark.rules("ruling.blocked-own-space", "place.racing-line-first")
def test_fast_under_stay_a_car_moved_holds_its_new_spot_for_the_next() -> None:
    # under "stay" a move goes through the landing search; P1 (ahead) moves 2 to the racing
    # line of 7, so P2, moving 4 from 3 to 7, takes the other spot
    state = make_state(make_car(5, hand=FILLER), make_car(3, hand="4 1 1 2 2 3 3"))
    race = fast_run(state, "P1 gear 1 play 2", "P2 gear 1 play 4", "P2 end react",
                    rulings={"ruling.blocked-own-space": "stay"})
    cars = race.to_state().cars
    assert (cars[0].spot, cars[1].spot) == ((7, True), (7, False))


@pytest.mark.rules("order.fixed-at-round-start", "discard.optional")
def test_fast_a_discard_by_a_car_before_the_one_discarding_is_refused() -> None:
    # P2 (behind) discards now; P1, earlier in the car list, may not answer for it
    state = make_state(make_car(10, hand=FILLER), make_car(-9, hand=FILLER))
    race = fast_run(state, "P1 gear 1 play 1", "P2 gear 1 play 1", "P2 end react")
    before = race.to_state()
    assert before.turn is not None and before.turn.car == 1
    assert isinstance(race.legal_actions()[0], Discard)
    with pytest.raises(IllegalAction) as refused:
        race.apply(parse_action("P1 discard nothing"))
    assert refused.value.rule == "order.fixed-at-round-start"
    assert race.to_state() == before


@pytest.mark.rules("gear.shift.two-costs-heat", "gear.range")
def test_fast_a_two_gear_shift_is_open_to_an_engine_of_more_than_one_heat() -> None:
    me = make_car(0, gear=1, hand="1 1 2 2 3 3 4")
    assert me.engine >= 2
    race = FastRace(make_state(me, make_car(-9, hand=FILLER)))
    race.apply(parse_action("P1 gear 3 play 1 1 2"))  # read anew: not the table's own object
    race.apply(parse_action("P2 gear 1 play 1"))
    after = race.to_state().cars[0]  # P1 reacts: shifted, paid
    assert (after.gear, after.engine) == (3, me.engine - 1)


@pytest.mark.rules("ruling.spin-discard", "discard.optional")
def test_fast_under_straight_to_replenish_a_car_that_did_not_spin_still_discards() -> None:
    state = make_state(make_car(0, hand=FILLER), make_car(-9, hand=FILLER))
    race = fast_run(state, "P1 gear 1 play 1", "P1 end react",
                    rulings={"ruling.spin-discard": "straight-to-replenish"})
    assert race.to_state().cars[0].position == 1
    assert isinstance(race.legal_actions()[0], Discard) and race.legal_actions()[0].car == 0


@pytest.mark.rules("legend.turn-order", "legend.finish")
def test_fast_legends_race_on_alone_after_the_last_player_has_finished() -> None:
    # P1 finishes first; the black Legend, far behind, then plays rounds of its own (no
    # player left to plan) until it crosses the line too
    state = legend_state([130], [("black", 20)])
    race = FastRace(replace(state, cars=(make_car(130, gear=2, hand="4 4 1 1 2 2 3"),
                                         state.cars[1])))
    for _ in range(40):
        if race.is_over():
            break
        _fast_round(race)
    final = race.to_state()
    assert race.is_over() and final.ranking == (0, 1)
