"""ruling.garage-unpaid-heat (issue 26): seed 003 5.反應 <3> discards an unpayable card and
replaces it by a flip 'the same as (+)'. Each alternative played by the reference engine
and by the independent checker (which must catch an engine ignoring the choice); the fast
engine refuses the Garage."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from checked_play import checked_round
from garage_scenario import two_cars
from scenario import kinds

from heatcore.heat.actions import Action, ChooseSpeed, UseSymbol
from heatcore.heat.driver import random_shuffle
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.garage import turn as gt
from heatcore.heat.modules.garage import unpaid
from heatcore.heat.notation import state_from_dict, state_to_dict
from heatcore.heat.rulings import GARAGE_UNPAID, make_rulings
from heatcore.heat.state import RaceState
from proofs import garage_unpaid as gu
from proofs.track_graph import BASE_TRACKS

CHOICES = ("speed-removed", "speed-out-car-stays", "speed-kept")


def _scene(choice: str, ups: tuple[str, ...] = ("G11", "G8", "G34"),
           hand: str = "1 2 3 G8 G11 G34 S") -> RaceState:
    """P1 at 20 with an empty engine, a 4 under a Stress on its deck."""
    state = two_cars(ups, hand, deck_top="S 4", engine=0)
    return replace(state, rulings=make_rulings({GARAGE_UNPAID: choice}))


def _chooser(plan: str, speeds: tuple[int, ...]):  # type: ignore[no-untyped-def]
    """P1 plans ``plan``, chooses ``speeds``, resolves its Heat first; others: first legal."""
    def choose(now: RaceState) -> Action:
        legal = legal_actions(now)
        wanted = [a for a in legal if str(a) == plan]
        wanted += [a for a in legal if a == ChooseSpeed(0, speeds)]
        wanted += [a for a in legal if isinstance(a, UseSymbol) and a.symbol == "heat"]
        return wanted[0] if wanted else (
            random_shuffle(now, random.Random(0)) if now.is_chance() else legal[0])
    return choose


def _to_unpaid(state: RaceState, plan: str, speeds: tuple[int, ...] = ()
               ) -> tuple[RaceState, RaceState, list[object]]:
    """(the state before P1's first Heat symbol, after it, the events)."""
    choose = _chooser(plan, speeds)
    while True:
        action = choose(state)
        after, events = apply(state, action)
        if isinstance(action, UseSymbol) and action.symbol == "heat":
            return state, after, list(events)
        state = after


@pytest.mark.rules("ruling.garage-unpaid-heat", "upgrade.heat-unpayable")
@pytest.mark.parametrize("choice", CHOICES)
def test_each_alternative_passes_the_checker(choice: str) -> None:
    assert checked_round(_scene(choice), _chooser("P1 gear 1 play G11", ())) == []
    g7 = _scene(choice, ("G7", "G11", "G34"), "1 2 3 G7 G11 G34 S")
    assert checked_round(g7, _chooser("P1 gear 1 play G7", (3,))) == []


@pytest.mark.rules("ruling.garage-unpaid-heat", "upgrade.heat-unpayable", "garage.choose-speed")
@pytest.mark.parametrize(("choice", "position", "speed"), [
    ("speed-removed", 24, 4), ("speed-out-car-stays", 27, 4), ("speed-kept", 27, 7)])
def test_a_choose_speed_card_takes_its_chosen_speed_out(choice: str, position: int,
                                                        speed: int) -> None:
    """G7 (speeds 1-4) chosen at 3 from 20, unpaid; the flip gives 4."""
    g7 = _scene(choice, ("G7", "G11", "G34"), "1 2 3 G7 G11 G34 S")
    before, after, events = _to_unpaid(g7, "P1 gear 1 play G7", (3,))
    assert before.turn is not None and before.turn.chosen == (3,)
    assert before.cars[0].position == 23
    assert state_from_dict(state_to_dict(before)) == before  # turn.chosen round-trips
    car, turn = after.cars[0], after.turn
    assert car.position == position and turn is not None and turn.speed == speed
    details = kinds(events, "upgrade-unpaid")[0]  # type: ignore[arg-type]
    assert (details.get("speed") is None) == (choice == "speed-kept")


@pytest.mark.rules("ruling.garage-unpaid-heat")
def test_under_speed_kept_the_unpaid_card_keeps_its_speed() -> None:
    test_a_choose_speed_card_takes_its_chosen_speed_out("speed-kept", 27, 7)


@pytest.mark.rules("ruling.garage-unpaid-heat")
def test_under_speed_out_car_stays_the_car_keeps_its_spaces() -> None:
    test_a_choose_speed_card_takes_its_chosen_speed_out("speed-out-car-stays", 27, 4)


@pytest.mark.rules("ruling.garage-unpaid-heat")
def test_with_two_copies_the_lower_chosen_speed_leaves() -> None:
    state = two_cars(("G7", "G7", "G11"), "1 2 3 G7 G7 G11 S", deck_top="S 4", engine=0)
    before, after, _ = _to_unpaid(state, "P1 gear 2 play G7 G7", (4, 1))
    assert before.turn is not None and before.turn.speed == 5
    assert after.turn is not None and after.turn.chosen == (4,)
    assert after.turn.speed == 4 + 4 and after.cars[0].position == 28


@pytest.mark.rules("ruling.garage-unpaid-heat")
@pytest.mark.parametrize(("choice", "planted"), [
    ("speed-removed", "speed-kept"), ("speed-out-car-stays", "speed-removed"),
    ("speed-kept", "speed-removed")])
def test_the_checker_catches_an_engine_that_ignores_the_choice(
        monkeypatch: pytest.MonkeyPatch, choice: str, planted: str) -> None:
    """Planted bug: the engine plays ``planted`` whatever the race chose (for "speed-kept",
    one that removes behaviour)."""
    real = unpaid.take_speed_out

    def ignoring(state, turn, card, details):  # type: ignore[no-untyped-def]
        forced = replace(state, rulings=make_rulings({GARAGE_UNPAID: planted}))
        after, new_turn = real(forced, turn, card, details)
        return replace(after, rulings=state.rulings), new_turn

    monkeypatch.setattr(gt, "take_speed_out", ignoring)
    assert checked_round(_scene(choice), _chooser("P1 gear 1 play G11", ()))


@pytest.mark.rules("ruling.garage-unpaid-heat", "upgrade.heat-unpayable")
def test_z3_an_unpaid_card_counts_as_a_plus_instead_and_the_move_follows() -> None:
    for track in BASE_TRACKS:
        assert gu.prove_unpaid_speed(track) == gu.z3.unsat, track
        for control in gu.CONTROLS:
            assert gu.prove_unpaid_speed(track, control) == gu.z3.sat, (track, control)


@pytest.mark.rules("ruling.garage-unpaid-heat", "garage.choose-speed")
def test_the_engine_takes_out_the_printed_or_chosen_speed() -> None:
    assert gu.refines_card_speed(
        lambda card, chosen, out: unpaid.card_speed((card,), chosen, out)[0]) == []
    # the refinement catches an engine taking out the printed speed of a choose-speed card
    assert gu.refines_card_speed(lambda card, chosen, out: 1 if card == "G7" else (
        unpaid.card_speed((card,), chosen, out)[0]))
