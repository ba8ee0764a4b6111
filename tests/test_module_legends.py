"""The Legends module: Legend cars and cards, a Legend's move (past or before the Legend
line, one corner at a time, aggressive chevrons, the final lap), turn order and adrenaline."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from scenario import kinds, make_car, make_state

import heatcore.heat.modules.legends as legends_module
from heatcore import IllegalAction, MalformedInput
from heatcore.heat.actions import LegendShuffle, Shuffle
from heatcore.heat.driver import greedy_policy, play, random_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.legends import colours, full_deck, legend_car, legend_cards
from heatcore.heat.notation import parse_action, state_from_json, state_to_json
from heatcore.heat.rounds import has_adrenaline, next_planner
from heatcore.heat.setup import random_setup, start_race
from heatcore.heat.state import LegendDeck, Phase, RaceState
from heatcore.heat.track import load_track, track_from_dict, track_ids, tracks_dir
from heatcore.heat.validity import status

STILL = "U0 U5 S S S H H"  # a player's car with this hand plays U0 and stays put
# Card 1: yellow diamond 0 helmet 11; red 1/13; gray 1/14; black 2/16; green 2/15; blue 3/18.


def legend_state(players: list[int], legends: list[tuple[str, int]], track: str = "usa",
                 card: int | None = 1, deck: tuple[int, ...] = (), aggressive: bool = False,
                 laps: int | None = None) -> RaceState:
    """Players' cars (hand STILL) at ``players``, Legends ``(colour, position)``; the round's
    card already revealed (``card``) unless None; at the first player's planning."""
    cars = [make_car(p, hand=STILL, track=track) for p in players]
    cars += [legend_car(colour, position, True) for colour, position in legends]
    state = make_state(*cars, track=track, laps=laps)
    state = replace(state, modules=("legends",),
                    legends=LegendDeck(deck, card, aggressive))
    return replace(state, cursor=next_planner(state, 0))


def play_round(state: RaceState) -> tuple[RaceState, list]:
    """Every player plays U0 and does nothing else, until the next round starts."""
    events: list = []
    start = state.round
    while state.round == start and not state.is_over():
        if state.is_chance():
            action = LegendShuffle(state.shuffle or 0, full_deck())
        else:
            legal = legal_actions(state)
            action = next((a for a in legal if "U0" in str(a) or "end react" in str(a)
                           or "no slipstream" in str(a) or "discard nothing" in str(a)),
                          legal[0])
        state, evs = apply(state, action)
        assert not status(state), status(state)
        events.extend(evs)
    return state, events


def legend_move(events: list, car: int) -> tuple[int, str]:
    ev = next(e for e in kinds(events, "legend") if e.car == car)
    moved = [e for e in kinds(events, "moved") if e.car == car]
    return (moved[-1].get("position") if moved else -999), str(ev.get("rule"))


@pytest.mark.rules("legend.setup")
def test_legends_are_cars_without_cards_on_the_grid() -> None:
    setup = random_setup("usa", 2, random.Random(3), modules=("legends",), legends=3)
    assert setup.cars == 5 and sorted(setup.grid) == list(range(5))
    state, _ = start_race(setup)
    for index, car in enumerate(state.cars[2:]):
        assert car.legend == colours()[index] and car.engine == 0 and car.gear == 1
        assert not (car.hand + car.deck + car.discard)
    assert state.supply == 37 - 2 * 3 and not status(state)
    assert state_from_json(state_to_json(state)) == state
    assert json.loads(state_to_json(state))["cars"][2]["legend"] == "black"
    for bad in (replace(setup, legends=0), replace(setup, players=4),
                replace(setup, legend_deck=(1, 1, 2, 3, 4, 5, 6, 7, 8, 9))):
        with pytest.raises(MalformedInput):
            start_race(bad)


@pytest.mark.rules("legend.card")
def test_each_card_places_every_colour_in_one_column() -> None:
    cards = legend_cards()
    assert sorted(cards) == list(range(1, 11))
    for card in cards.values():
        assert sorted(card) == sorted(colours())
        assert all(0 <= d <= 3 and 10 <= h <= 19 for d, h in card.values())
    assert cards[1]["yellow"] == (0, 11) and cards[1]["blue"] == (3, 18)
    assert cards[10]["gray"] == (2, 17) and cards[6]["black"] == (3, 19)


@pytest.mark.rules("legend.deck")
def test_the_round_card_is_the_top_card_and_an_empty_deck_is_reshuffled() -> None:
    state = legend_state([40], [("black", 20)], card=None, deck=(4, 2))
    state, events = play_round(state)
    assert kinds(events, "legend-card")[0].get("card") == 4
    assert state.legends is not None and state.legends.deck == (2,) and state.legends.card is None
    state = legend_state([40], [("black", 20)], card=None, deck=())
    while not state.is_chance():
        state, _ = apply(state, legal_actions(state)[0])
    assert state.shuffle == 1 and legal_actions(state) == () and state.actor() == 1
    with pytest.raises(IllegalAction) as bad:
        apply(state, Shuffle(1, ()))
    assert bad.value.rule == "legend.deck"
    with pytest.raises(IllegalAction):
        apply(state, LegendShuffle(1, (1, 2, 3)))
    order = (3, 1, 2, 4, 5, 6, 7, 8, 9, 10)
    after, events = apply(state, parse_action("P2 legend shuffle " + " ".join(map(str, order))))
    assert after.legends is not None and after.legends.deck == order[1:]
    assert kinds(list(events), "legend-card")[0].get("card") == 3
    assert after.cars[1].position > 20


@pytest.mark.rules("legend.past-line", "road.limit")
def test_past_the_legend_line_a_legend_moves_corner_speed_plus_diamond() -> None:
    # USA corner 2: line after 33, limit 3, Legend line after 27
    state, events = play_round(legend_state([60], [("black", 30)]))
    assert legend_move(events, 1) == (35, "legend.past-line")  # 3 + diamond 2
    state, events = play_round(legend_state([60], [("black", 28)]))
    assert legend_move(events, 1) == (33, "legend.past-line")
    from heatcore.heat.state import Conditions
    road = replace(legend_state([60], [("black", 30)]), modules=("weather", "legends"),
                   conditions=Conditions("sun", ("overheat", "limit-plus", "overheat",
                                                 "overheat")))
    _, events = play_round(road)
    assert legend_move(events, 1) == (36, "legend.past-line")  # limit 4 with the token


@pytest.mark.rules("legend.before-line", "legend.card")
def test_before_the_line_the_helmet_number_or_diamond_spaces_before_the_corner() -> None:
    _, events = play_round(legend_state([60], [("yellow", 14)]))
    assert legend_move(events, 1) == (25, "legend.before-line")  # helmet 11, stays short
    _, events = play_round(legend_state([60], [("black", 20)]))
    assert legend_move(events, 1) == (31, "legend.before-line")  # 33 - diamond 2
    _, events = play_round(legend_state([60], [("yellow", 27)]))
    assert legend_move(events, 1) == (33, "legend.before-line")  # on the line's space, d 0


@pytest.mark.rules("legend.one-corner", "legend.no-heat")
def test_a_legend_stops_before_a_second_corner_line() -> None:
    # Great Britain: corners after 37 (limit 5) and 43 (limit 4); Legend line of 37 after 30
    _, events = play_round(legend_state([60], [("blue", 36)], track="great-britain"))
    assert legend_move(events, 1) == (43, "legend.one-corner")  # 5 + 3 would reach 44
    assert not kinds(events, "corner") and not kinds(events, "spun-out")
    assert not [e for e in kinds(events, "paid-heat") if e.car == 1]


@pytest.mark.rules("legend.aggressive", "legend.one-corner")
def test_an_aggressive_legend_on_a_chevron_crosses_one_line_more() -> None:
    # corner after 37 has a chevron on space 37 (distance 1)
    _, events = play_round(legend_state([60], [("blue", 37)], track="great-britain",
                                        aggressive=True))
    assert legend_move(events, 1) == (45, "legend.past-line")
    _, events = play_round(legend_state([60], [("blue", 37)], track="great-britain"))
    assert legend_move(events, 1) == (43, "legend.one-corner")
    _, events = play_round(legend_state([60], [("blue", 36)], track="great-britain",
                                        aggressive=True))
    assert legend_move(events, 1) == (43, "legend.one-corner")  # not on the chevron


@pytest.mark.rules("ruling.legend-aggressive-stop", "legend.aggressive")
def test_an_aggressive_legend_stops_before_the_third_line() -> None:
    data = json.loads((tracks_dir() / "great-britain.json").read_text())
    data["id"] = "tight"
    for corner in data["corners"]:
        corner.pop("sector")
    data["corners"][3]["after_space"] = 40  # corners after 37, 40, 48 -> and 41 below
    data["corners"][4].update(after_space=41, legend_line=40)
    track = track_from_dict(data)
    state = replace(legend_state([60], [("blue", 37)], track="great-britain", aggressive=True),
                    track=track)
    # speed 5 + 3 from 37 crosses 37, 40 and 41: the aggressive Legend stops before 41's line
    spaces = legends_module.legend_spaces  # read from the module (a planted bug replaces it)
    assert spaces(state, 1, 3, 18) == (41 - 37, "legend.one-corner")
    calm = replace(state, legends=LegendDeck((), 1, False))
    assert spaces(calm, 1, 3, 18) == (40 - 37, "legend.one-corner")


@pytest.mark.rules("legend.final-lap", "legend.finish")
def test_on_the_final_lap_a_legend_heads_for_the_finish_and_is_ranked() -> None:
    state, events = play_round(legend_state([20], [("yellow", 60)], laps=1))
    assert legend_move(events, 1) == (71, "legend.final-lap")
    assert state.ranking == (1,) and 1 not in state.order
    state, events = play_round(legend_state([20], [("yellow", 60)], laps=2))
    assert legend_move(events, 1) == (71, "legend.before-line")  # another lap to go


@pytest.mark.rules("ruling.legend-blocked-spot")
def test_a_blocked_legend_takes_the_first_free_spot_behind() -> None:
    _, events = play_round(legend_state([35], [("black", 30), ("yellow", 10)]))
    ev = next(e for e in kinds(events, "moved") if e.car == 1)
    assert (ev.get("position"), ev.get("racing_line")) == (35, False)  # beside the player
    state = legend_state([35, 35], [("black", 30)])
    state = replace(state, cars=(state.cars[0], replace(state.cars[1], racing_line=False),
                                 state.cars[2]))
    _, events = play_round(state)
    assert legend_move(events, 2) == (34, "legend.past-line")


@pytest.mark.rules("legend.turn-order", "legend.no-heat")
def test_legends_skip_planning_and_take_adrenaline_places_without_adrenaline() -> None:
    state = legend_state([40], [("black", 20)])
    assert state.order == (0, 1) and state.actor() == 0
    state = legend_state([20], [("black", 40)])
    assert state.order == (1, 0) and state.cursor == 1 and state.actor() == 0
    # the player ahead, the Legend last: nobody has adrenaline
    state, events = play_round(legend_state([40], [("black", 20)]))
    started = {e.car: e.get("adrenaline") for e in kinds(events, "turn-started")}
    assert started == {0: False, 1: False}
    assert not any(state.is_legend(a.car) for a in legal_actions(state))


@pytest.mark.rules("ruling.legend-adrenaline-count", "legend.turn-order")
def test_legends_count_toward_the_five_cars_of_two_adrenaline_places() -> None:
    state = legend_state([10, 20, 30], [("black", 40), ("yellow", 50)])
    assert len(state.cars) == 5
    state = replace(state, order=(4, 3, 2, 1, 0))
    assert has_adrenaline(state, 1) and has_adrenaline(state, 0) and not has_adrenaline(state, 2)
    legend_last = replace(state, order=(2, 4, 1, 0, 3))
    assert has_adrenaline(legend_last, 0) and not has_adrenaline(legend_last, 3)


@pytest.mark.rules("legend.setup", "legend.deck", "legend.finish")
def test_races_with_legends_finish_valid_and_round_trip_on_every_track() -> None:
    for number, track in enumerate(track_ids()):
        rng = random.Random(number)
        players = 1 + number % 3
        setup = random_setup(track, players, rng, laps=1, modules=("weather", "legends"),
                             legends=6 - players, aggressive=bool(number % 2))
        def check(before: RaceState, action: object, after: RaceState, events: tuple) -> None:
            assert not status(after), status(after)
            assert state_from_json(state_to_json(after)) == after

        race = play(setup, greedy_policy if number % 2 else random_policy, rng, on_step=check)
        assert race.final.is_over() and len(race.final.ranking) == 6
        assert race.final.phase is Phase.OVER
        assert load_track(track).id == track


@pytest.mark.rules("legend.setup", "weather.module")
def test_the_command_line_plays_both_modules(capsys: pytest.CaptureFixture[str]) -> None:
    from heatcore.tools.cli import main

    assert main(["race", "--modules", "weather,legends", "--legends", "3", "--players", "2",
                 "--seed", "3", "--laps", "1"]) == 0
    out = capsys.readouterr().out
    assert "Weather " in out and "Legend card: diamond" in out and "Final ranking" in out
    assert main(["race", "--modules", "legends", "--legends", "5", "--players", "4"]) == 2
    assert "2-6 cars" in capsys.readouterr().err
