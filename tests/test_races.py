"""Whole races: they finish, replay exactly, round-trip through JSON, and reject bad input
without changing anything."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

from heatcore import IllegalAction, MalformedInput, apply, legal_actions
from heatcore.framework.errors import InvalidState
from heatcore.heat.actions import Plan, Shuffle
from heatcore.heat.driver import greedy_policy, random_race, replay
from heatcore.heat.engine import check_action
from heatcore.heat.notation import parse_action, state_from_json, state_to_json
from heatcore.heat.racelog import load_race, save_race
from heatcore.heat.state import Phase
from heatcore.heat.validity import Problem, status, validate

TRACKS = ["usa", "italia", "france", "great-britain"]


@pytest.mark.rules("finish.removed", "finish.ranking", "round.sequence")
@pytest.mark.parametrize("track", TRACKS)
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_random_and_greedy_races_finish_on_every_track(track: str, players: int) -> None:
    for policy_race in (random_race(track, players, seed=players),
                        random_race(track, players, seed=players, policy=greedy_policy)):
        final = policy_race.final
        assert final.phase is Phase.OVER
        assert sorted(final.ranking) == list(range(players))
        assert status(final) is Problem.NONE


@pytest.mark.rules("round.sequence", "deck.reshuffle")
def test_state_json_round_trip_is_the_identity_on_every_state_of_100_races() -> None:
    checked = 0
    for seed in range(100):
        race = random_race(TRACKS[seed % 4], 2 + seed % 5, seed=seed, laps=1)
        state = replay(race.setup, []).final
        for action in race.actions:
            assert state_from_json(state_to_json(state)) == state
            assert parse_action(str(action)) == action
            state, _ = apply(state, action)
            checked += 1
        assert state == race.final
    assert checked > 10_000


@pytest.mark.rules("round.sequence")
def test_check_action_agrees_with_legal_actions_on_sampled_states() -> None:
    rng = random.Random(3)
    race = random_race("france", 5, seed=9, laps=1)
    state = replay(race.setup, []).final
    for action in race.actions:
        if not state.is_chance():
            legal = set(legal_actions(state))
            for candidate in legal:
                check_action(state, candidate)
            car = state.actor() or 0
            for gear in (1, 2, 3, 4):
                hand = list(state.cars[car].hand)
                rng.shuffle(hand)
                probe = Plan(car, gear, tuple(sorted(hand[:gear], key="1234U0U5SH".index)))
                try:
                    check_action(state, probe)
                    accepted = True
                except IllegalAction:
                    accepted = False
                assert accepted == (probe in legal), str(probe)
        state, _ = apply(state, action)


@pytest.mark.rules("round.sequence", "order.fixed-at-round-start")
def test_an_illegal_action_raises_a_typed_error_naming_the_rule_and_changes_nothing() -> None:
    race = random_race("usa", 3, seed=4)
    state = replay(race.setup, []).final
    before = state_to_json(state)
    actor = state.actor()
    assert actor is not None
    other = (actor + 1) % 3
    with pytest.raises(IllegalAction) as err:
        apply(state, Plan(other, 1, (state.cars[other].hand[0],)))
    assert err.value.rule == "order.fixed-at-round-start" and err.value.kind == "illegal-action"
    with pytest.raises(IllegalAction) as err:
        apply(state, Shuffle(actor, ()))
    assert err.value.rule == "deck.reshuffle"
    assert state_to_json(state) == before


@pytest.mark.rules("round.sequence", "setup.deck", "gear.range")
@pytest.mark.parametrize("mutate", [
    lambda d: d.update(phase="warp"),
    lambda d: d["cars"][0].update(gear="2"),
    lambda d: d["cars"][0].update(hand=["1", "7"]),
    lambda d: d["cars"][0].update(position=10**12),
    lambda d: d.pop("cars"),
    lambda d: d.update(order=["P9"]),
])
def test_malformed_state_json_is_rejected_with_a_typed_error(mutate) -> None:
    race = random_race("usa", 2, seed=1, laps=1)
    data = json.loads(state_to_json(replay(race.setup, []).final))
    mutate(data)
    with pytest.raises(MalformedInput):
        state_from_json(json.dumps(data))


@pytest.mark.rules("round.sequence")
def test_truncated_json_is_malformed() -> None:
    race = random_race("usa", 2, seed=1, laps=1)
    text = state_to_json(race.final)
    with pytest.raises(MalformedInput):
        state_from_json(text[: len(text) // 2])


@pytest.mark.rules("gear.range", "place.racing-line-first", "setup.deck")
def test_state_breaking_invariants_is_named_by_validate() -> None:
    race = random_race("usa", 3, seed=2, laps=1)
    data = json.loads(state_to_json(replay(race.setup, []).final))
    data["cars"][0]["gear"] = 5
    data["cars"][1]["position"] = data["cars"][2]["position"]
    data["cars"][1]["racing_line"] = data["cars"][2]["racing_line"]
    data["cars"][2]["hand"].append("4")
    with pytest.raises(InvalidState) as err:
        validate(state_from_json(json.dumps(data)))
    text = str(err.value)
    assert "GEAR_RANGE" in text and "SPOT_OCCUPANCY" in text and "CARD_COUNT" in text


@pytest.mark.rules("round.sequence")
def test_cli_race_writes_a_log_that_replay_plays_back(tmp_path: Path) -> None:
    log = tmp_path / "race.json"
    cmd = [sys.executable, "-m", "heatcore.tools.cli"]
    race = subprocess.run([*cmd, "race", "--track", "italia", "--players", "3", "--seed", "5",
                           "--laps", "1", "--json", str(log)],
                          capture_output=True, text=True, check=True)
    assert "Round 1" in race.stdout and "Final ranking" in race.stdout
    again = subprocess.run([*cmd, "replay", str(log)], capture_output=True, text=True, check=True)
    assert again.stdout.splitlines()[-2] == race.stdout.splitlines()[-2]
    assert again.stdout.splitlines()[-1].startswith("log verified: same result")
    data = json.loads(log.read_text())
    data["actions"][5] = "P1 gear 9 play 1"
    log.write_text(json.dumps(data))
    bad = subprocess.run([*cmd, "replay", str(log)], capture_output=True, text=True)
    assert bad.returncode == 2 and "illegal-action" in bad.stderr


@pytest.mark.rules("round.sequence")
def test_race_log_round_trip(tmp_path: Path) -> None:
    race = random_race("great-britain", 4, seed=8, policy=greedy_policy)
    save_race(race, tmp_path / "r.json")
    again = load_race(tmp_path / "r.json")
    assert again.final == race.final and again.actions == race.actions


@pytest.mark.rules("round.sequence", "finish.removed")
def test_a_finished_race_with_a_cursor_or_an_order_is_invalid() -> None:
    race = random_race("usa", 2, seed=3, laps=1)
    assert status(race.final) is Problem.NONE
    data = json.loads(state_to_json(race.final))
    data["cursor"] = 2
    assert status(state_from_json(json.dumps(data))) & Problem.PHASE
