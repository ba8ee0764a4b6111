"""Sponsorship cards as cards of a championship race: in the hand (drawn at the start, gained
at once), played like any card with the Garage's symbols, used once, discarded like a basic
card, kept into the next race; and planted bugs the race checker and the championship check
must catch."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from garage_scenario import garage_car, garage_state, to_turn

from heatcore import MalformedInput
from heatcore.framework.conformance.schema import check as check_schema
from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event
from heatcore.heat import cleanup, hooks
from heatcore.heat.actions import ChooseSpeed, Discard, EndReact, GainSponsor, Plan, UseSymbol
from heatcore.heat.cards import VALUE, canonical
from heatcore.heat.championship_check import ChampionshipCheckFailure, check_championship_log
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.championship.log import championship_to_dict
from heatcore.heat.modules.championship.season import play_championship
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.notation import (
    parse_action,
    setup_from_dict,
    setup_to_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)
from heatcore.heat.race_checker import RuleViolation, replay_checked
from heatcore.heat.setup import start_race
from heatcore.heat.state import RaceState, Stage
from heatcore.heat.validity import status

UPS = ("G8", "G11", "G34")
OTHER = ("G1", "G2", "G3")


def holding(sponsors: str, hand: str = "1 2 3 4 S", position: int = 20, engine: int | None = None,
            gear: int = 1) -> RaceState:
    """P1 (ahead) holding the Sponsorship cards ``sponsors`` in its hand beside ``hand``;
    P2 far behind. The state is valid (every card accounted for)."""
    p1 = garage_car(position, UPS, hand=hand, engine=engine, gear=gear)
    p1 = replace(p1, hand=canonical((*p1.hand, *sponsors.split())))
    p2 = garage_car(1, OTHER, hand="1 1 1 2 2 2 3")
    state = garage_state([(p1, UPS), (p2, OTHER)])
    garage = state.garage
    assert garage is not None
    state = replace(state, garage=replace(garage, sponsors=(canonical(sponsors.split()), ())))
    assert not status(state), status(state)
    return state


def step(state: RaceState, action: Any) -> tuple[RaceState, list[Event]]:
    """Apply and check validity (every card accounted for, sponsors included)."""
    after, events = apply(state, action)
    assert not status(after), status(after)
    return after, list(events)


def to_discard(state: RaceState) -> RaceState:
    """Play the turn on to its discard step: end react at react, else the first legal action."""
    while state.turn is not None and state.turn.stage is not Stage.DISCARD:
        legal = legal_actions(state)
        react = state.turn.stage is Stage.REACT
        state, _ = step(state, next(a for a in legal if isinstance(a, EndReact))
                        if react else legal[0])
    return state


def finish_turn(state: RaceState, discard: tuple[str, ...] = ()) -> tuple[RaceState, list[Event]]:
    """Play P1's turn on: end react, no slipstream, discard ``discard``; stop at P2's turn."""
    events: list[Event] = []
    while state.turn is not None and state.turn.car == 0:
        legal = legal_actions(state)
        if state.turn.stage is Stage.DISCARD:
            action: Any = Discard(0, discard)
        else:
            action = next((a for a in legal if isinstance(a, EndReact)), legal[0])
        state, evs = step(state, action)
        events += evs
    return state, events


# ---------------------------------------------------------------- playing them


@pytest.mark.rules("sponsor.play")
def test_sponsor_cards_compose_the_garage_symbols_without_a_card_of_their_own() -> None:
    assert sy.upgrade_of("S80") is not None and sy.chooses_speed("S80")
    assert sy.amount("S81", "cooldown") == 2 and sy.amount("S82", "slipstream") == 2
    assert sy.amount("S84", "adjust") == 1 and VALUE["S83"] == 6 and VALUE["S81"] == 4
    assert not any(sy.has("S83", s) for s in ("cooldown", "slipstream", "adjust", "heat"))


@pytest.mark.rules("sponsor.play", "sponsor.in-hand")
def test_a_played_sponsor_counts_its_printed_speed() -> None:
    state, events = to_turn(holding("S83"), 2, "1 S83")
    speeds = [e.get("speed") for e in events if e.kind == "speed"]
    assert speeds and speeds[0] == 7


@pytest.mark.rules("sponsor.play", "garage.choose-speed")
def test_dramdo_brakes_is_worth_the_speed_chosen_at_reveal() -> None:
    state, _ = to_turn(holding("S80"), 1, "S80")
    assert state.turn is not None and state.turn.stage is Stage.CHOOSE
    assert legal_actions(state) == tuple(ChooseSpeed(0, (n,)) for n in (1, 2, 3, 4))
    after, events = step(state, ChooseSpeed(0, (4,)))
    assert next(e.get("speed") for e in events if e.kind == "speed") == 4


@pytest.mark.rules("sponsor.play", "upgrade.cooldown")
def test_fredo_cooldown_two_is_a_react_symbol_of_the_played_sponsor() -> None:
    state, _ = to_turn(holding("S81", hand="1 2 H H S", engine=4), 1, "S81")
    options = [a for a in legal_actions(state) if isinstance(a, UseSymbol)]
    assert options == [UseSymbol(0, "S81", "cooldown", 1), UseSymbol(0, "S81", "cooldown", 2)]
    after, _ = step(state, UseSymbol(0, "S81", "cooldown", 2))
    assert after.cars[0].engine == 6 and "H" not in after.cars[0].hand
    assert parse_action("P1 S81 cooldown 2") == UseSymbol(0, "S81", "cooldown", 2)


@pytest.mark.rules("sponsor.play", "upgrade.adjust")
def test_de_angeli_adjust_raises_the_corner_limit_by_one() -> None:
    # USA corner 1: limit 7 after space 12; from 9, S84 (3) + 4 = 7 reaches space 16
    state, events = to_turn(holding("S84", position=9, gear=2), 2, "4 S84")
    while state.turn is not None and state.turn.car == 0 and state.turn.stage is Stage.REACT:
        state, more = step(state, EndReact(0))
        events += more
    corner = next(e for e in events if e.kind == "corner")
    assert corner.get("limit") == 8 and corner.get("speed") == 7


# ---------------------------------------------------------------- one-time, discard


@pytest.mark.rules("sponsor.one-time")
def test_a_played_sponsor_is_used_up_not_put_on_the_discard_pile() -> None:
    state, _ = to_turn(holding("S83"), 2, "1 S83")
    after, events = finish_turn(state)
    garage = after.garage
    assert garage is not None and garage.spent == ("S83",) and garage.held(0) == ()
    car = after.cars[0]
    assert "S83" not in car.discard + car.hand + car.deck + car.played
    assert [e.get("cards") for e in events if e.kind == "sponsor-used"] == [("S83",)]
    assert "1" in car.discard  # the basic card played with it goes to the discard pile


@pytest.mark.rules("sponsor.discard", "ruling.sponsor-discarded", "discard.optional")
def test_an_unplayed_sponsor_may_be_discarded_to_the_players_own_discard_pile() -> None:
    state = to_discard(to_turn(holding("S83"), 1, "1")[0])
    assert Discard(0, ("S83",)) in legal_actions(state)
    after, _ = finish_turn(state, ("S83",))
    garage = after.garage
    assert garage is not None and garage.held(0) == ("S83",) and garage.spent == ()
    assert "S83" in after.cars[0].discard + after.cars[0].deck


# ---------------------------------------------------------------- into the hand


@pytest.mark.rules("sponsor.in-hand", "sponsor.given-at-once", "ruling.sponsor-gained-timing")
def test_a_gained_sponsor_reaches_the_hand_in_time_for_discard_and_counts_at_replenish() -> None:
    state = to_discard(to_turn(holding(""), 1, "1")[0])
    assert not any(isinstance(a, GainSponsor) for a in legal_actions(state))  # an input
    gained, events = step(state, GainSponsor(0, "S81"))
    assert "S81" in gained.cars[0].hand and [e.kind for e in events] == ["sponsor-gained"]
    assert Discard(0, ("S81",)) in legal_actions(gained)
    after, _ = finish_turn(gained)
    assert len(after.cars[0].hand) == 7 and "S81" in after.cars[0].hand  # drew one fewer
    assert parse_action(str(GainSponsor(1, "S83"))) == GainSponsor(1, "S83")


@pytest.mark.rules("sponsor.in-hand", "sponsor.race-start", "sponsor.carry-over")
def test_start_cards_go_into_the_hand_first_and_kept_cards_are_in_the_deck() -> None:
    champ = play_championship(1961, 3, 0)
    setup = champ.races[1].race.setup
    assert setup.sponsors and all(setup.sponsors)  # New speed record!: 1 each at the start
    start, _ = start_race(setup)
    for p in range(3):
        hand = Counter(start.cars[p].hand)
        assert len(start.cars[p].hand) == 7
        assert not Counter(setup.sponsors[p]) - hand
        kept = Counter(c for c in setup.decks[p] if c.startswith("S8"))
        garage = start.garage
        assert garage is not None
        assert Counter(garage.held(p)) == Counter(setup.sponsors[p]) + kept
    assert setup_from_dict(json.loads(json.dumps(setup_to_dict(setup)))) == setup


# ---------------------------------------------------------------- bad input


@pytest.mark.rules("sponsor.in-hand", "sponsor.deck")
def test_bad_sponsor_input_is_refused_naming_the_rule() -> None:
    setup = play_championship(1961, 2, 0).races[0].race.setup
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, modules=(), upgrades=(),
                           decks=tuple(tuple(c for c in d if not c.startswith("G"))
                                       for d in setup.decks)))
    assert bad.value.rule in ("sponsor.in-hand", "setup.deck")
    with pytest.raises(MalformedInput) as bad:
        start_race(replace(setup, sponsors=(("S83",) * 4, ("S83",) * 4)))
    assert bad.value.rule == "sponsor.deck"
    with pytest.raises(MalformedInput) as bad:
        parse_action("P1 sponsor G8")
    assert bad.value.rule == "sponsor.in-hand"
    state = holding("")
    with pytest.raises(IllegalAction) as illegal:
        apply(state, GainSponsor(0, "1"))
    assert illegal.value.rule == "sponsor.in-hand"
    core = replace(state, garage=None, modules=())
    with pytest.raises(IllegalAction) as illegal:
        apply(core, GainSponsor(0, "S83"))
    assert illegal.value.rule == "sponsor.in-hand"


@pytest.mark.rules("sponsor.in-hand", "sponsor.one-time")
def test_a_state_with_sponsors_round_trips_and_follows_its_schema() -> None:
    state, _ = to_turn(holding("S83 S84"), 2, "1 S83")
    after, _ = finish_turn(state)
    data = state_to_dict(after)
    check_schema("heat-state", data)
    assert data["garage"]["sponsors"] == [["S84"], []] and data["garage"]["spent"] == ["S83"]
    assert state_from_json(state_to_json(after)) == after
    broken = json.loads(state_to_json(after))
    broken["garage"]["spent"] = ["G8"]
    with pytest.raises(MalformedInput) as bad:
        state_from_json(json.dumps(broken))
    assert bad.value.rule in ("sponsor.in-hand", "sponsor.one-time")


# ---------------------------------------------------------------- planted bugs


def _race_with_sponsor_plays() -> Any:
    race = play_championship(1961, 3, 0).races[0].race
    texts = [str(a) for a in race.actions]
    assert any(" sponsor " in t for t in texts)  # the control: a card gained in the race
    assert any(" gear " in t and "S83" in t for t in texts)  # and one played
    return race


@pytest.mark.rules("sponsor.one-time")
def test_planted_bug_a_played_sponsor_to_the_discard_pile_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    race = _race_with_sponsor_plays()
    replay_checked(race.setup, list(race.actions))  # the control: the engine passes
    log = json.loads(json.dumps(championship_to_dict(play_championship(1961, 3, 0))))
    check_championship_log(log)
    monkeypatch.setattr(cleanup, "spend_sponsors", lambda state, car, area, events: (state, ()))
    with pytest.raises(RuleViolation, match=r"sponsor\.one-time"):
        replay_checked(race.setup, list(race.actions))
    bad = json.loads(json.dumps(championship_to_dict(play_championship(1961, 3, 0))))
    with pytest.raises(ChampionshipCheckFailure) as caught:
        check_championship_log(bad)
    assert "sponsor.one-time" in caught.value.rules


@pytest.mark.rules("sponsor.in-hand", "sponsor.given-at-once")
def test_planted_bug_a_gained_sponsor_not_put_in_hand_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    race = _race_with_sponsor_plays()
    real = hooks.gain_sponsor.call

    def lost(state: RaceState, action: GainSponsor, events: list[Event]) -> RaceState:
        after = real(state, action, events)
        car = after.cars[action.car]
        hand = list(car.hand)
        hand.remove(action.card)
        return after.with_car(action.car, replace(car, hand=tuple(hand)))

    monkeypatch.setattr(hooks.gain_sponsor, "call", lost)
    with pytest.raises(RuleViolation, match=r"sponsor\.in-hand"):
        replay_checked(race.setup, list(race.actions))
    bad = json.loads(json.dumps(championship_to_dict(play_championship(1961, 3, 0))))
    with pytest.raises(ChampionshipCheckFailure) as caught:
        check_championship_log(bad)
    assert "sponsor.in-hand" in caught.value.rules


@pytest.mark.rules("sponsor.play")
def test_planted_bug_a_sponsor_at_the_wrong_speed_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    race = _race_with_sponsor_plays()
    monkeypatch.setitem(VALUE, "S83", 5)
    with pytest.raises(RuleViolation, match=r"sponsor\.play"):
        replay_checked(race.setup, list(race.actions))


@pytest.mark.rules("sponsor.in-hand", "sponsor.play")
def test_every_step_of_a_championship_with_sponsor_plays_passes_the_race_checker() -> None:
    champ = play_championship(1961, 3, 0)
    plays = 0
    for result in champ.races:
        checker = replay_checked(result.race.setup, list(result.race.actions))
        assert checker.steps == len(result.race.actions)
        plays += sum(1 for a in result.race.actions
                     if isinstance(a, Plan) and any(c.startswith("S8") for c in a.cards))
    assert plays >= 3


@pytest.mark.rules("sponsor.given-at-once", "sponsor.in-hand")
def test_a_log_whose_given_cards_differ_from_the_earned_ones_is_refused() -> None:
    from heatcore.heat.modules.championship.log import replay_championship

    log = json.loads(json.dumps(championship_to_dict(play_championship(1961, 3, 0))))
    actions = log["races"][0]["race"]["actions"]
    given = next(k for k, a in enumerate(actions) if " sponsor " in a)
    swapped = json.loads(json.dumps(log))
    card = actions[given].split()[-1]
    swapped["races"][0]["race"]["actions"][given] = actions[given].replace(
        card, "S83" if card != "S83" else "S84")
    dropped = json.loads(json.dumps(log))
    del dropped["races"][0]["race"]["actions"][given]
    for bad in (swapped, dropped):
        with pytest.raises(MalformedInput) as refused:
            replay_championship(bad)
        assert refused.value.rule == "sponsor.given-at-once"


@pytest.mark.rules("sponsor.deck", "sponsor.in-hand")
def test_validity_counts_every_sponsor_card_of_a_car_and_of_the_box() -> None:
    from heatcore.heat.validity import Problem

    state = holding("S83")
    garage = state.garage
    assert garage is not None
    lost = replace(state, garage=replace(garage, sponsors=((), ())))  # held but not named
    assert Problem.CARD_COUNT in status(lost)
    too_many = replace(state, garage=replace(garage, spent=("S83",) * 7))  # 8 of 7 copies
    assert Problem.CARD_COUNT in status(too_many)
    assert not status(replace(state, garage=replace(garage, spent=("S83",) * 6)))


@pytest.mark.rules("sponsor.play", "play.playable-cards")
def test_planted_bug_sponsors_not_playable_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat import planning

    race = _race_with_sponsor_plays()
    monkeypatch.setattr(planning, "PLAYABLE", planning.PLAYABLE - {"S80", "S81", "S82",
                                                                   "S83", "S84"})
    with pytest.raises(RuleViolation, match="legal actions differ: the engine lacks"):
        replay_checked(race.setup, list(race.actions))
