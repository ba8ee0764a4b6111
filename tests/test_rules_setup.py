"""Setup, the track, the round's sequence and hidden information."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from heatcore import MalformedInput, RaceSetup, random_setup, start_race
from heatcore.heat.cards import BOX_STRESS, starting_deck
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.observe import observation
from heatcore.heat.state import Phase
from heatcore.heat.track import load_track, track_ids


def _start(players: int = 4, seed: int = 1, track: str = "usa", laps: int | None = None):
    return start_race(random_setup(track, players, random.Random(seed), laps))


@pytest.mark.rules("setup.deck", "setup.engine", "setup.gear", "setup.hand")
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_each_car_starts_with_18_cards_six_heat_gear_1_and_seven_in_hand(players: int) -> None:
    state, _ = _start(players)
    for car in state.cars:
        cards = Counter(car.hand + car.deck)
        assert sum(cards.values()) == 18
        assert cards == Counter(starting_deck(3))
        assert cards["1"] == cards["2"] == cards["3"] == cards["4"] == 3
        assert cards["U0"] == cards["U5"] == cards["H"] == 1 and cards["S"] == 3
        assert car.engine == 6 and car.gear == 1 and len(car.hand) == 7 and not car.discard


@pytest.mark.rules("setup.stress-supply", "ruling.stress-supply")
@pytest.mark.parametrize("players", [2, 6])
def test_stress_supply_holds_the_box_less_the_decks(players: int) -> None:
    state, _ = _start(players)
    assert state.supply == BOX_STRESS - 3 * players


@pytest.mark.rules("setup.grid", "order.fixed-at-round-start")
def test_grid_order_places_cars_pole_first_and_is_round_one_order() -> None:
    setup = random_setup("usa", 4, random.Random(5))
    state, _ = start_race(setup)
    spots = [state.cars[i].spot for i in setup.grid]
    assert spots == [(0, True), (0, False), (-1, True), (-1, False)]
    assert state.order == setup.grid


@pytest.mark.rules("setup.grid")
def test_grid_is_random_across_seeds() -> None:
    grids = {random_setup("usa", 4, random.Random(s)).grid for s in range(20)}
    assert len(grids) > 5


@pytest.mark.rules("setup.track-laps")
def test_laps_come_from_the_track_and_can_be_overridden() -> None:
    assert _start()[0].laps == 2
    assert _start(track="italia")[0].laps == 3
    assert _start(laps=1)[0].laps == 1
    with pytest.raises(MalformedInput) as err:
        _start(laps=0)
    assert err.value.rule == "setup.track-laps"


@pytest.mark.rules("setup.players")
@pytest.mark.parametrize("players", [1, 7])
def test_only_two_to_six_cars_race(players: int) -> None:
    deck = starting_deck(3)
    setup = RaceSetup("usa", players, 2, tuple(range(players)), (deck,) * players)
    with pytest.raises(MalformedInput) as err:
        start_race(setup)
    assert err.value.rule == "setup.players"
    for ok in (2, 6):
        state, _ = start_race(RaceSetup("usa", ok, 2, tuple(range(ok)), (deck,) * ok))
        assert len(state.cars) == ok


@pytest.mark.rules("setup.deck")
def test_a_deck_that_is_not_the_starting_deck_is_refused() -> None:
    deck = starting_deck(3)
    bad = ("4", *deck[1:])
    with pytest.raises(MalformedInput) as err:
        start_race(RaceSetup("usa", 2, 2, (0, 1), (deck, bad)))
    assert err.value.rule == "setup.deck"


@pytest.mark.rules("setup.spaces-and-spots")
@pytest.mark.parametrize("track_id", ["usa", "italia", "france", "great-britain"])
def test_track_graph_has_two_spots_per_space_and_one_racing_line(track_id: str) -> None:
    track = load_track(track_id)
    graph = track.graph
    assert graph.number_of_nodes() == 2 * track.spaces_per_lap
    for space in range(1, track.spaces_per_lap + 1):
        racing = [graph.nodes[(space, lane)]["racing"] for lane in (1, 2)]
        assert sorted(racing) == [False, True]
    corner_edges = {(u[0], d["corner_limit"]) for u, v, d in graph.edges(data=True)
                    if d.get("corner_limit") is not None}
    assert corner_edges == {(c.after_space, c.limit) for c in track.corners}


@pytest.mark.rules("setup.spaces-and-spots")
def test_usa_data_matches_the_board() -> None:
    usa = load_track("usa")
    assert (usa.spaces_per_lap, usa.laps, usa.heat, usa.stress) == (69, 2, 6, 3)
    assert [(c.after_space, c.limit) for c in usa.corners] == [(12, 7), (33, 3), (49, 3),
                                                               (57, 2)]
    assert set(track_ids()) >= {"usa", "italia", "france", "great-britain"}
    # racing lane changes after the corner line: lane 1 on the start straight, 2 after corner 1
    assert usa.racing_lane(12) == 1 and usa.racing_lane(13) == 2 and usa.racing_lane(69) == 1


@pytest.mark.rules("round.sequence")
def test_all_cars_plan_before_any_car_reveals() -> None:
    state, _ = _start(3)
    for _ in range(3):
        assert state.phase is Phase.PLAN
        state, events = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.TURN
    assert any(e.kind == "revealed" for e in events)


@pytest.mark.rules("info.hidden")
def test_observation_hides_other_hands_and_every_deck() -> None:
    state, _ = _start(3)
    seen = observation(state, 0)
    assert isinstance(seen["cars"][0]["hand"], list)
    assert seen["cars"][1]["hand"] == 7 and seen["cars"][0]["deck"] == 11
    state, _ = apply(state, legal_actions(state)[0])
    planner = state.order[0]
    other = next(i for i in range(3) if i != planner)
    assert isinstance(observation(state, other)["cars"][planner]["played"], int)
    assert isinstance(observation(state, planner)["cars"][planner]["played"], list)


@pytest.mark.rules("setup.first-track")
def test_the_first_race_is_on_usa() -> None:
    import contextlib
    import io

    from heatcore.heat.setup import first_track
    from heatcore.tools.cli import main

    assert first_track() == "usa"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["race", "--players", "2", "--laps", "1", "--no-legend"]) == 0
    assert out.getvalue().startswith("Race on USA,")


@pytest.mark.rules("race.goal", "finish.ranking")
def test_a_race_ends_when_every_car_has_driven_its_laps_and_is_ranked() -> None:
    from heatcore.heat.driver import random_race

    race = random_race("usa", 4, seed=3, laps=1)
    final = race.final
    assert final.is_over() and sorted(final.ranking) == [0, 1, 2, 3]
    assert all(final.has_finished(car) for car in final.ranking)
    first_round = next(evs for evs in race.events if any(e.kind == "ranked" for e in evs))
    winner = next(e.car for e in first_round if e.kind == "ranked")
    assert final.ranking[0] == winner
