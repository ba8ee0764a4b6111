"""The Championship module: its data, the event changes played by the engine, sponsors
(press corners, event rules, seed 003's timing), points, standings and the grid, whole
seasons played and replayed from their logs, and planted bugs the checks must catch."""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from heatcore import MalformedInput
from heatcore.framework.conformance.schema import check as check_schema
from heatcore.framework.events import Event, event, event_to_dict
from heatcore.framework.registry import spec_dir
from heatcore.heat import corners, rounds
from heatcore.heat.championship_check import ChampionshipCheckFailure, check_championship_log
from heatcore.heat.cleanup import hand_size
from heatcore.heat.driver import greedy_policy, random_policy
from heatcore.heat.engine import apply
from heatcore.heat.modules.championship import season as season_module
from heatcore.heat.modules.championship import standings as standings_module
from heatcore.heat.modules.championship.data import (
    events,
    points_table,
    season,
    seasons,
    sponsor_box,
    sponsor_types,
)
from heatcore.heat.modules.championship.garage import GarageRound, apply_round, full_pool
from heatcore.heat.modules.championship.log import championship_to_dict, replay_championship
from heatcore.heat.modules.championship.press import press_corners
from heatcore.heat.modules.championship.season import Championship, expected_deck, play_championship
from heatcore.heat.modules.championship.sponsors import (
    Sponsors,
    accounted,
    give,
    new_sponsors,
    race_start,
)
from heatcore.heat.modules.championship.standings import (
    next_grid,
    race_points,
    result_order,
    standings,
)
from heatcore.heat.modules.championship.watch import RaceWatch
from heatcore.heat.notation import (
    setup_from_dict,
    setup_to_dict,
    state_from_json,
    state_to_dict,
    state_to_json,
)
from heatcore.heat.placement import occupied
from heatcore.heat.race_checker import RuleViolation, replay_checked
from heatcore.heat.setup import start_race
from heatcore.heat.state import Changes, Phase, RaceState
from heatcore.heat.track import load_track
from heatcore.heat.validity import Problem, status
from heatcore.tools.cli import main

CHAMPIONSHIP_RULES = ("championship.season", "championship.points", "championship.standings",
                      "championship.grid", "championship.carry-over")


def played(year: int, players: int = 3, seed: int = 0) -> Championship:
    """A championship played by the greedy driver (cached: each is played once per run)."""
    key = (year, players, seed)
    if key not in _PLAYED:
        _PLAYED[key] = play_championship(year, players, seed)
    return _PLAYED[key]


_PLAYED: dict[tuple[int, int, int], Championship] = {}


def log_of(champ: Championship) -> dict[str, Any]:
    """The championship's log as JSON data (read back, as from a file)."""
    data: dict[str, Any] = json.loads(json.dumps(championship_to_dict(champ)))
    return data


# --- data -----------------------------------------------------------------------------

@pytest.mark.rules("championship.season", "sponsor.deck", "championship.points")
def test_the_data_file_follows_its_schema_and_says_what_is_unchecked() -> None:
    data = json.loads((spec_dir() / "modules" / "championship.json").read_text(
        encoding="utf-8"))
    schema = json.loads((spec_dir() / "schemas" / "championship.schema.json").read_text(
        encoding="utf-8"))
    jsonschema.validate(data, schema)
    assert "NOT checked against the printed cards" in data["source"]
    assert all(e["confidence"] == "bga-only" for e in data["events"])
    broken = json.loads(json.dumps(data))
    broken["events"][0]["changes"]["weather"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema)


@pytest.mark.rules("championship.season")
def test_the_three_base_seasons_race_on_the_research_tracks_with_their_events() -> None:
    plan = {y: [(r.track, r.event.title) for r in s.races] for y, s in seasons().items()}
    assert plan == {
        1961: [("great-britain", "New grandstand inauguration"), ("usa", "New speed record!"),
               ("italia", "Drivers' strike")],
        1962: [("italia", "Engine restrictions lifted"), ("great-britain", "Record crowds"),
               ("france", "Corruption in rules committee")],
        1963: [("usa", "New title sponsor"), ("great-britain", "First live televised race"),
               ("france", "New safety regulations"),
               ("italia", "Title sponsor withdraws, future unknown")]}
    with pytest.raises(MalformedInput, match="no season 1964"):
        season(1964)


@pytest.mark.rules("sponsor.deck", "championship.points")
def test_35_sponsorship_cards_and_the_points_table() -> None:
    assert Counter(sponsor_box()) == {f"S{t}": 7 for t in range(80, 85)}
    assert points_table() == (9, 6, 4, 3, 2, 1)


# --- event changes --------------------------------------------------------------------

def _start(year: int, race: int, players: int = 2) -> RaceState:
    """The first state of race ``race`` of ``year``'s first championship (seed 0)."""
    return start_race(played(year, players).races[race - 1].race.setup)[0]


@pytest.mark.rules("event.setup-changes", "event.strike", "event.record-crowds",
                   "event.engine-unrestricted", "event.safety", "event.sponsor-withdraws",
                   "event.grandstand", "event.speed-record", "event.corruption",
                   "event.title-sponsor", "event.live-tv")
def test_each_event_changes_the_setup_as_its_data_says() -> None:
    want = {1: (2, 6, 3, 7), 2: (2, 6, 3, 7), 3: (2, 6, 3, 7), 4: (3, 7, 3, 7),
            5: (3, 6, 3, 8), 6: (2, 6, 3, 7), 7: (2, 6, 3, 7), 8: (2, 6, 3, 7),
            9: (2, 4, 2, 6), 10: (3, 6, 4, 7)}  # laps, engine Heat, Stress in deck, hand
    seen = {}
    for year in (1961, 1962, 1963):
        for number, race in enumerate(season(year).races, start=1):
            state = _start(year, number)
            car = state.cars[0]
            stress = Counter(car.hand + car.deck)["S"]
            seen[race.event.id] = (state.laps, car.engine, stress, len(car.hand))
            assert not status(state), "the validity checks count the event's numbers"
    assert seen == want


@pytest.mark.rules("event.setup-changes")
def test_changes_travel_in_setup_and_state_json_and_bad_ones_are_refused() -> None:
    state = _start(1963, 3)
    assert state.changes == Changes(heat=-2, stress=-1, hand=6)
    assert state_from_json(state_to_json(state)) == state
    setup = played(1963, 2).races[2].race.setup
    assert setup_from_dict(json.loads(json.dumps(setup_to_dict(setup)))) == setup
    core = played(1961, 2).races[0].race.setup
    assert "changes" not in setup_to_dict(core), "a race without changes reads as before"
    with pytest.raises(MalformedInput, match="at least 1 card"):
        start_race(replace(setup, changes=Changes(hand=0)))
    with pytest.raises(MalformedInput, match="negative count"):
        start_race(replace(setup, changes=Changes(heat=-9)))
    with pytest.raises(MalformedInput, match="heat, stress and hand"):
        setup_from_dict({**setup_to_dict(setup), "changes": {"hand": 8}})


@pytest.mark.rules("event.record-crowds", "event.safety", "event.setup-changes")
def test_the_independent_checker_follows_every_step_of_changed_races() -> None:
    for year, number, size in ((1962, 2, 8), (1963, 3, 6), (1962, 1, 7), (1963, 4, 7)):
        race = played(year, 2).races[number - 1].race
        checker = replay_checked(race.setup, list(race.actions))
        assert checker.steps == len(race.actions)
        assert hand_size(race.final) == size


@pytest.mark.rules("event.record-crowds", "event.setup-changes")
def test_planted_bug_hand_size_ignored_at_replenish_is_caught_by_the_checker(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat import cleanup

    race = played(1962, 2).races[1].race  # Record crowds: hand size 8
    monkeypatch.setattr(cleanup, "hand_size", lambda state: 7)
    with pytest.raises(RuleViolation, match=r"replenish\.draw"):
        replay_checked(race.setup, list(race.actions))


# --- press corners, sponsors and their timing -------------------------------------------

def _watch(event_id: int, track: str = "great-britain", players: int = 4) -> RaceWatch:
    setup = played(1961, players).races[0].race.setup
    state = start_race(replace(setup, track=track, laps=load_track(track).laps,
                               decks=tuple(expected_deck(played(1961, players).races[0]
                                                         .season_race, u)
                                           for u in setup.upgrades)))[0]
    return RaceWatch(state, events()[event_id])


def _feed(watch: RaceWatch, steps: list[list[Event]]) -> None:
    """Feed the watch hand-made events (no turn in the states: speeds from the events)."""
    state = watch_state(watch)
    for index, evs in enumerate(steps):
        watch.step(index, state, state, tuple(evs))
    watch.finish(len(steps) - 1)


def watch_state(watch: RaceWatch) -> RaceState:
    """A state with no turn in progress (the watch then reads speeds from events only)."""
    setup = played(1961, 4).races[0].race.setup
    return replace(start_race(setup)[0], turn=None)


def _turn(car: int, moves: list[tuple[str, int]], corners: list[tuple[int, int]] = (),
          spun: int | None = None, speed: int = 0) -> list[Event]:
    out = [event("turn-started", car, adrenaline=False), event("speed", car, speed=speed)]
    out += [event("moved", car, by=by, spaces=0, position=p, racing_line=True)
            for by, p in moves]
    out += [event("corner", car, corner=n, limit=0, speed=s, heat=0) for n, s in corners]
    if spun is not None:
        out.append(event("spun-out", car, corner=1, limit=0, speed=0, heat=0, stress=1,
                         position=spun, racing_line=True))
    return out


@pytest.mark.rules("press.corners")
def test_press_corner_indices_wrap_modulo_the_corner_count() -> None:
    italia, gb = load_track("italia"), load_track("great-britain")
    assert len(italia.corners) == 3 and len(gb.corners) == 5
    assert press_corners(italia, events()[4]) == {2}  # index 4 on three corners
    assert press_corners(gb, events()[5]) == {3, 5}
    assert press_corners(gb, events()[8]) == {2, 4}


@pytest.mark.rules("press.sponsor", "ruling.press-corner-limit")
def test_a_press_corner_pays_for_2_over_the_printed_limit_or_a_slipstream_across() -> None:
    gb = load_track("great-britain")
    line = gb.corners[0].after_space  # event 1: press corner 1
    limit = gb.corners[0].limit
    watch = _watch(1)
    _feed(watch, [
        _turn(0, [("cards", line + 1)], [(1, limit + 2)]),      # exceeds by 2: a card
        _turn(1, [("cards", line + 1)], [(1, limit + 1)]),      # by 1: none
        _turn(2, [("cards", line - 1), ("slipstream", line + 1)], [(1, limit)]),  # slipstream
        _turn(3, [("cards", line + 1)], [(1, limit + 5)], spun=line),  # spun out: none
        _turn(0, [("cards", line + 3)], [(2, 99)]),             # corner 2 is no press corner
    ])
    assert [(c.car, c.reason, c.corner) for c in watch.claims] == [
        (0, "press-exceed", 1), (2, "press-slipstream", 1)]


@pytest.mark.rules("sponsor.given-at-once", "event.grandstand")
def test_seed_003_lap_one_sponsors_go_at_once_in_turn_order() -> None:
    lap = load_track("great-britain").spaces_per_lap
    watch = _watch(1)
    # Round n: P1, P2, P3 cross lap 1 in turn order; P4 crosses after them and ends
    # ahead of all three: the three cards are gone (seed 003 冠軍系統).
    _feed(watch, [_turn(0, [("cards", lap + 1)]), _turn(1, [("cards", lap + 2)]),
                  _turn(2, [("cards", lap + 1)]), _turn(3, [("cards", lap + 9)]),
                  _turn(0, [("cards", lap * 2 + 1)])])
    lap_one = [(c.car, c.step) for c in watch.claims if c.reason == "first-three-lap-one"]
    assert lap_one == [(0, 1), (1, 2), (2, 3)], "given when earned, P4 too late"


@pytest.mark.rules("event.speed-record", "ruling.event-speed-moment")
def test_a_speed_of_15_pays_once_per_turn() -> None:
    watch = _watch(2, "usa")
    _feed(watch, [[*_turn(0, [("cards", 5)], speed=15), event("adrenaline", 0, speed=16)],
                  _turn(1, [("cards", 5)], speed=14),
                  _turn(2, [("cards", 5)], speed=15)])
    assert [(c.car, c.reason) for c in watch.claims] == [(0, "speed-15"), (2, "speed-15")]


@pytest.mark.rules("event.live-tv", "ruling.event-pass-count")
def test_passing_three_cars_in_a_turn_pays() -> None:
    for end, claims in ((8, [(0, "pass-three")]), (7, [])):  # 7: beside P4, two passed
        watch = _watch(8)
        watch.positions = {0: 0, 1: 3, 2: 5, 3: 7}
        _feed(watch, [_turn(0, [("cards", end)])])
        assert [(c.car, c.reason) for c in watch.claims] == claims


@pytest.mark.rules("sponsor.race-start", "sponsor.deck", "ruling.sponsor-deck-empty")
def test_start_cards_in_grid_order_and_an_empty_deck_gives_nothing() -> None:
    sponsors = Sponsors(("S80", "S81", "S82"), ((), (), ()))
    after, gains = race_start(sponsors, (2, 0, 1), 1)
    assert [(g.car, g.card) for g in gains] == [(2, "S80"), (0, "S81"), (1, "S82")]
    assert after.deck == ()
    again, gain = give(after, 0, "press-exceed", 5, 1)
    assert again == after and gain.card is None
    assert accounted(new_sponsors(3)) and not accounted(after)


# --- points, standings, grid ----------------------------------------------------------

@pytest.mark.rules("championship.points", "event.strike", "event.corruption",
                   "event.sponsor-withdraws")
def test_points_with_event_bonuses_and_eliminations() -> None:
    cards = events()
    order = (3, 1, 0, 2, 5, 4, 6)
    plain = race_points(order, (), cards[1], 7)
    assert plain == (4, 6, 3, 9, 1, 2, 0)
    assert race_points(order, (), cards[3], 7)[3] == 11
    assert race_points(order, (), cards[6], 7)[:4] == (5, 7, 3, 10)
    places = result_order((3, 1, 0, 2), (1, 2))
    assert places == (3, 0, 2, 1)
    assert race_points(places, (1, 2), cards[10], 4) == (6, 0, 0, 9)


@pytest.mark.rules("championship.standings", "ruling.championship-ties", "championship.grid")
def test_ties_go_to_the_better_place_in_the_last_race_and_make_the_grid() -> None:
    assert standings((10, 12, 10), (0, 2, 1)) == (1, 0, 2)
    assert standings((10, 12, 10), (2, 1, 0)) == (1, 2, 0)
    assert next_grid((1, 2, 0)) == (1, 2, 0)


# --- whole seasons --------------------------------------------------------------------

@pytest.mark.rules(*CHAMPIONSHIP_RULES, "sponsor.deck", "sponsor.given-at-once")
@pytest.mark.parametrize("year", [1961, 1962, 1963])
def test_a_season_plays_to_standings_and_replays_from_its_log(year: int) -> None:
    champ = played(year, 3)
    assert len(champ.races) == len(season(year).races)
    assert sorted(champ.standings) == [0, 1, 2]
    assert champ.totals == tuple(sum(r.points[i] for r in champ.races) for i in range(3))
    for before, after in zip(champ.races, champ.races[1:], strict=False):
        assert after.race.setup.grid == before.standings
    for number, result in enumerate(champ.races, start=1):
        assert all(len(u) == number for u in result.race.setup.upgrades), "one per race"
        assert result.race.final.is_over()
        assert accounted(result.sponsors)
    log = log_of(champ)
    check_championship_log(log)
    again = replay_championship(log)
    assert championship_to_dict(again) == championship_to_dict(champ)


@pytest.mark.rules("championship.carry-over", "championship.garage-round", "sponsor.deck",
                   "sponsor.given-at-once", "sponsor.carry-over", "ruling.sponsor-carry-over",
                   "ruling.sponsor-used-return")
def test_every_card_is_accounted_for_across_races() -> None:
    box = Counter(full_pool())
    carried = used = 0
    for year in (1961, 1962, 1963):
        champ = played(year, 3)
        held: Counter[str] = Counter()
        held_by: list[Counter[str]] = [Counter() for _ in range(3)]
        kept: list[Counter[str]] = [Counter() for _ in range(3)]
        for result in champ.races:
            ups = result.race.setup.upgrades
            assert Counter(result.pool) + sum((Counter(u) for u in ups), Counter()) == box
            for index, owned in enumerate(kept):  # every upgrade kept, but a swapped one
                assert sum((owned - Counter(ups[index])).values()) <= (
                    1 if result.garage.swap and index == result.race.setup.grid[-1] else 0)
                kept[index] = Counter(ups[index])
            for index, deck in enumerate(result.race.setup.decks):  # kept sponsors in it
                assert Counter(deck) == Counter(expected_deck(result.season_race, ups[index])) \
                    + held_by[index]
            given = Counter(g.card for g in result.gains if g.card is not None)
            final = result.race.final.garage
            assert final is not None
            spent = Counter(final.spent)  # sponsor.one-time: used up, back to the deck after
            held = held + given - spent
            assert Counter(c for h in result.sponsors.held for c in h) == held
            assert len(result.sponsors.deck) + sum(held.values()) == 35
            held_by = [Counter(h) for h in result.sponsors.held]
            carried += sum(sum(h.values()) for h in held_by) if result.number < len(
                champ.races) else 0
            used += sum(spent.values())
    assert carried and used, "the control: some sponsors are kept and some used up"


@pytest.mark.rules("championship.season")
def test_a_log_that_does_not_replay_is_refused_naming_the_race() -> None:
    log = log_of(played(1961, 2))
    log["races"][1]["race"]["setup"]["laps"] = 3
    with pytest.raises(MalformedInput, match="race 2: the logged setup's laps"):
        replay_championship(log)
    log = log_of(played(1961, 2))
    log["races"][0]["sponsor_order"] = log["races"][0]["sponsor_order"][1:]
    with pytest.raises(MalformedInput, match="sponsor shuffle"):
        replay_championship(log)
    with pytest.raises(MalformedInput, match="not a championship log"):
        replay_championship({"format": "heatcore.race/1"})


# --- planted bugs ---------------------------------------------------------------------

def _plant_and_check(year: int = 1961) -> None:
    """Play a fresh championship under the planted bug and run the independent check."""
    check_championship_log(log_of(play_championship(year, 3, 11)))


@pytest.mark.rules("championship.points")
def test_planted_bug_wrong_points_table_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    _plant_and_check()  # the control: the unplanted engine passes
    monkeypatch.setattr(standings_module, "points_table", lambda: (9, 6, 3, 3, 2, 1))
    with pytest.raises(ChampionshipCheckFailure, match=r"championship\.points"):
        _plant_and_check()


@pytest.mark.rules("sponsor.deck", "sponsor.given-at-once")
def test_planted_bug_a_sponsor_given_twice_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def draw_keeping(self: Sponsors, car: int) -> tuple[Sponsors, str | None]:
        held = list(self.held)
        held[car] = tuple(sorted((*held[car], self.deck[0])))
        return Sponsors(self.deck, tuple(held)), self.deck[0]  # the card stays in the deck

    monkeypatch.setattr(Sponsors, "draw", draw_keeping)
    with pytest.raises(ChampionshipCheckFailure, match=r"sponsor\.deck"):
        _plant_and_check()


@pytest.mark.rules("press.sponsor", "ruling.press-corner-limit")
def test_planted_bug_press_overspeed_never_paid_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat.modules.championship import watch

    monkeypatch.setattr(watch, "pays_press", lambda state, number, speed: False)
    with pytest.raises(ChampionshipCheckFailure, match=r"press\.sponsor"):
        for seed in range(5):  # some race pays a press card for overspeed
            check_championship_log(log_of(play_championship(1962, 3, seed)))


@pytest.mark.rules("press.sponsor", "ruling.press-corner-limit")
def test_planted_bug_press_limit_with_the_adjust_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat.modules.championship import watch

    monkeypatch.setattr(watch, "pays_press", lambda state, number, speed: speed >= 2 + (
        state.track.corners[number - 1].limit - 1))  # as if an Adjust -1 lowered the limit
    with pytest.raises(ChampionshipCheckFailure, match=r"press\.sponsor"):
        for seed in range(5):
            check_championship_log(log_of(play_championship(1962, 3, seed)))


@pytest.mark.rules("event.live-tv", "ruling.event-pass-count")
def test_planted_bug_pass_count_off_by_one_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat.modules.championship import watch

    monkeypatch.setattr(watch, "PASSES", 2)
    with pytest.raises(ChampionshipCheckFailure, match=r"event\.live-tv"):
        for seed in range(5):
            check_championship_log(log_of(play_championship(1963, 4, seed)))


@pytest.mark.rules("championship.grid")
def test_planted_bug_grid_not_from_the_standings_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(season_module, "next_grid", lambda order: tuple(sorted(order)))
    with pytest.raises(ChampionshipCheckFailure, match=r"championship\.grid"):
        for seed in range(5):  # some seed's standings are not P1 P2 P3
            check_championship_log(log_of(play_championship(1961, 3, seed)))


@pytest.mark.rules("event.sponsor-withdraws", "ruling.eliminated-turn")
def test_an_eliminated_car_leaves_the_track_and_the_turn_order() -> None:
    result = played(1963, 3).races[-1]  # Title sponsor withdraws, future unknown
    race = result.race
    assert race.setup.changes.eliminate and race.final.is_over()
    out = race.final.out
    assert out, "the control: this race has a car eliminated"
    assert result.eliminated == out and not set(out) & set(race.final.ranking)
    assert sorted((*race.final.ranking, *out)) == [0, 1, 2]
    assert result.order[-len(out):] == tuple(reversed(out))
    assert all(result.points[car] == 0 for car in out)
    state, _ = start_race(race.setup)
    gone: list[int] = []
    for action in race.actions:
        after, evs = apply(state, action)
        kinds = [(e.kind, e.car) for e in evs]
        for k, (kind, car) in enumerate(kinds):
            assert kind not in ("turn-started", "ranked") or car not in gone
            if kind == "eliminated":
                assert kinds[k - 1] == ("spun-out", car)  # it leaves at its spin
                gone.append(car)
                check_schema("heat-event", event_to_dict(evs[k]))
                check_schema("heat-state", state_to_dict(after))
        assert after.out == tuple(gone)
        assert not set(gone) & set(after.on_track())
        assert len(occupied(after, -1).board) == len(after.on_track())  # its spot is free
        if after.phase is Phase.PLAN:
            assert not set(gone) & set(after.order)
        assert status(after) == Problem.NONE
        state = after
    assert tuple(gone) == out
    assert state_from_json(state_to_json(state)) == state  # out survives the notation
    replay_checked(race.setup, list(race.actions))  # the model agrees at every step


@pytest.mark.rules("event.sponsor-withdraws", "ruling.eliminated-turn")
def test_planted_bug_spins_not_eliminating_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    champ = played(1963, 3)
    assert champ.races[-1].eliminated, "the control: this season has a car eliminated"
    check_championship_log(log_of(champ))
    race = champ.races[-1].race
    monkeypatch.setattr(corners, "eliminate", lambda state, car, events: state)
    with pytest.raises(RuleViolation, match=r"event\.sponsor-withdraws"):
        replay_checked(race.setup, list(race.actions))
    wrong = play_championship(1963, 3, 0)
    assert not wrong.races[-1].eliminated
    with pytest.raises(ChampionshipCheckFailure, match=r"event\.sponsor-withdraws"):
        check_championship_log(log_of(wrong))


@pytest.mark.rules("event.sponsor-withdraws", "ruling.eliminated-turn")
def test_planted_bug_eliminated_car_keeps_its_turns_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    start_round = rounds.start_round

    def planted(state: RaceState, evs: list[Event]) -> RaceState:
        state = start_round(state, evs)  # the eliminated cars slipped back into the order
        return replace(state, order=rounds.standing(state, (*state.order, *state.out)))

    race = played(1963, 3).races[-1].race
    monkeypatch.setattr(rounds, "start_round", planted)
    with pytest.raises(RuleViolation, match=r"order"):
        replay_checked(race.setup, list(race.actions))
    wrong = play_championship(1963, 3, 0)
    with pytest.raises(ChampionshipCheckFailure, match=r"event\.sponsor-withdraws.*after its"):
        check_championship_log(log_of(wrong))


# --- command line ---------------------------------------------------------------------

def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as leave:
        code = int(leave.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.rules("championship.season", "championship.standings")
def test_cli_plays_prints_writes_and_replays_a_season(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "season.json"
    code, out, _ = _run(capsys, "championship", "--season", "1963", "--players", "2",
                        "--seed", "3", "--log", str(path))
    assert code == 0
    assert "Race 3/4: France, event 9" in out and "hand size 6" in out
    assert "Final standings:" in out and "Championship log written" in out
    code, again, _ = _run(capsys, "championship", "--replay", str(path))
    assert code == 0 and "championship log verified: same results (4 races)" in again
    code, via_replay, _ = _run(capsys, "replay", str(path))
    assert code == 0 and "championship log verified" in via_replay
    assert again.split("Final standings:")[1].split("championship log verified")[0] in out


@pytest.mark.rules("championship.season", "sponsor.play")
def test_cli_explains_every_card_it_names(capsys: pytest.CaptureFixture[str]) -> None:
    """Each upgrade (G..) and Sponsorship card (S..) the season's text names is explained
    after the standings, a sponsor by its printed name and speed from the data file."""
    code, out, _ = _run(capsys, "championship", "--season", "1961", "--players", "3",
                        "--seed", "5")
    assert code == 0
    body, _, legend = out.partition("Final standings:")
    named = set(re.findall(r"\b[GS]\d+\b", body))
    assert any(t.startswith("S") for t in named) and any(t.startswith("G") for t in named)
    explained = set(re.findall(r"^  ([GS]\d+)[ :]", legend, flags=re.MULTILINE))
    assert named <= explained
    spec = json.loads((Path(__file__).parents[1] / "spec" / "modules" /
                       "championship.json").read_text(encoding="utf-8"))
    for card in spec["sponsors"]["cards"]:
        if card["token"] in named:
            speeds = " or ".join(map(str, card["speed"]))
            assert f"  {card['token']} {card['name']}: speed {speeds}" in legend


@pytest.mark.rules("championship.season")
@pytest.mark.parametrize("argv, message", [
    (("--season", "1970"), "no season 1970"),
    (("--players", "7"), "--players"),
    (("--seed", "-1"), "seed"),
    (("--replay", "/nonexistent/log.json"), "cannot read"),
])
def test_cli_bad_input_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str],
                                              argv: tuple[str, ...], message: str) -> None:
    code, _, err = _run(capsys, "championship", *argv)
    assert code == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1 and message in err


def test_cli_refuses_a_log_that_differs(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path) -> None:
    log = log_of(played(1961, 2))
    log["result"]["totals"][0] += 1
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    code, _, err = _run(capsys, "championship", "--replay", str(path))
    assert code == 2 and "standings differ" in err and len(err.strip().splitlines()) == 1


@pytest.mark.rules("championship.season", "sponsor.deck")
def test_the_rulebook_page_lists_every_season_event_and_sponsor() -> None:
    from heatcore.tools.heat.championship_page import page_rst

    page = page_rst()
    for year, plan in seasons().items():
        assert str(year) in page
        for race in plan.races:
            assert f"{race.event.id}: {race.event.title}" in page
    assert all(t.name in page for t in sponsor_types().values())
    for token in sponsor_types():  # each card drawn as its own table, with its symbols
        assert f".. list-table:: {token}: " in page
    assert "Cooldown 2" in page and "Slipstream +2" in page and "Adjust +1" in page
    assert "``sponsor.one-time``" in page and "``sponsor.in-hand``" in page


@pytest.mark.rules("championship.season", "press.sponsor", "event.setup-changes")
def test_a_season_with_the_weather_module_replays_and_passes_the_checkers() -> None:
    champ = play_championship(1962, 2, 4, weather=True)
    log = log_of(champ)
    assert log["weather"] is True
    check_championship_log(log)
    assert championship_to_dict(replay_championship(log)) == championship_to_dict(champ)
    for result in champ.races:
        assert result.race.setup.conditions is not None
        replay_checked(result.race.setup, list(result.race.actions))
    log["races"][0]["race"]["setup"].pop("weather")
    log["races"][0]["race"]["setup"]["modules"] = ["garage"]
    with pytest.raises(MalformedInput, match="weather module"):
        replay_championship(log)


@pytest.mark.rules("ruling.press-corner-limit")
def test_the_press_compares_with_the_road_token_limit_never_the_adjust() -> None:
    from heatcore.heat.modules.championship.press import press_limit

    champ = play_championship(1961, 2, 4, weather=True)
    state = start_race(champ.races[0].race.setup)[0]
    assert state.conditions is not None
    for number, corner in enumerate(state.track.corners, start=1):
        token = state.conditions.road[number - 1]
        change = {"limit-plus": 1, "limit-minus": -1}.get(token, 0)
        assert press_limit(state, number) == corner.limit + change
    assert state.garage is not None  # the cars' Adjust cards play no part: state-wide limit


def _check_whole(champ: Championship) -> None:
    """Every race through the race checker, the log through the independent check and an
    exact replay."""
    for result in champ.races:
        replay_checked(result.race.setup, list(result.race.actions))
    log = log_of(champ)
    check_championship_log(log)
    assert championship_to_dict(replay_championship(log)) == championship_to_dict(champ)


@pytest.mark.rules(*CHAMPIONSHIP_RULES, "event.setup-changes")
def test_random_drivers_play_a_season_every_step_checked() -> None:
    _check_whole(play_championship(1963, 3, 1, policy=random_policy))


@pytest.mark.skipif(not os.environ.get("HEATCORE_CHAMPIONSHIP_DEEP"),
                    reason="opt-in: HEATCORE_CHAMPIONSHIP_DEEP=1 (a few minutes)")
@pytest.mark.rules(*CHAMPIONSHIP_RULES, "event.setup-changes", "sponsor.given-at-once")
@pytest.mark.parametrize("year", [1961, 1962, 1963])
def test_deep_many_seasons_every_step_checked(year: int) -> None:
    for players in range(2, 7):
        for seed in range(6):
            policy = random_policy if seed % 2 else greedy_policy
            _check_whole(play_championship(year, players, seed, policy=policy,
                                           weather=seed % 3 == 0))


@pytest.mark.rules("championship.garage-round")
def test_a_garage_round_picks_from_the_back_then_the_last_car_may_swap() -> None:
    pool = tuple(sorted(["G1", "G2", "G3", "G4", "G5", "G6", "G7"], key=lambda c: int(c[1:])))
    grid = (2, 0, 1)  # P3 on pole, P2 last
    ups: tuple[tuple[str, ...], ...] = (("G9",), ("G10",), ("G11",))
    rnd = GarageRound(("G1", "G2", "G3", "G4", "G5", "G6"), ((1, "G2"), (0, "G1"), (2, "G6")),
                      ("G10", "G4"))
    deck, after = apply_round(pool, ups, grid, rnd)
    assert after == (("G1", "G9"), ("G2", "G4"), ("G6", "G11"))
    assert deck == ("G3", "G5", "G7", "G10")
    for bad in (GarageRound(rnd.market, ((0, "G2"), (1, "G1"), (2, "G6")), None),  # order
                GarageRound(rnd.market, rnd.picks, ("G9", "G4")),  # P2 does not own G9
                GarageRound(rnd.market, rnd.picks, ("G10", "G2")),  # G2 was picked
                GarageRound(("G1", "G2", "G3", "G4", "G5", "G8"), rnd.picks, None)):  # not in deck
        with pytest.raises(MalformedInput, match=r"championship\.garage-round"):
            apply_round(pool, ups, grid, bad)


@pytest.mark.rules("championship.garage-round")
def test_planted_bug_the_pole_picks_first_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    from heatcore.heat.modules.championship import garage

    real = garage.play_round

    def pole_first(pool: tuple[str, ...], upgrades: tuple[tuple[str, ...], ...],
                   grid: tuple[int, ...], rng: random.Random) -> GarageRound:
        rnd = real(pool, upgrades, grid, rng)
        return GarageRound(rnd.market, tuple(reversed(rnd.picks)), None)

    monkeypatch.setattr(garage, "apply_round", _unchecked_apply(garage.apply_round))
    monkeypatch.setattr(season_module, "play_round", pole_first)
    monkeypatch.setattr(season_module, "apply_round", _unchecked_apply(garage.apply_round))
    with pytest.raises(ChampionshipCheckFailure, match=r"championship\.garage-round"):
        check_championship_log(log_of(play_championship(1961, 3, 0)))


def _unchecked_apply(apply: Any) -> Any:
    """apply_round with the pick order check taken out (the planted engine's own check)."""
    def planted(pool: tuple[str, ...], upgrades: tuple[tuple[str, ...], ...],
                grid: tuple[int, ...], rnd: GarageRound) -> Any:
        order = tuple(c for c, _ in rnd.picks)
        fixed = GarageRound(rnd.market, tuple(sorted(rnd.picks, key=lambda p: tuple(
            reversed(grid)).index(p[0]))), rnd.swap)
        deck, ups = apply(pool, upgrades, grid, fixed)
        assert order  # the round as played keeps its (wrong) order in the log
        return deck, ups

    return planted
