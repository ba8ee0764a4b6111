"""Reachable fixtures: every state in the conformance corpus (mined witnesses included)
passes the checks that tie a state to its round, and the checks reject states no legal
race reaches (a ranked car far past the line, a car further than its turns allow, more
Stress than its spins could bring, an unranked car past the line at a round's start).

Independent of: the checks use the proved speed bound and counting, not the engine's
rules; the corpus on disk is what ``heatcore fixtures generate`` writes (test_conformance
regenerates it and compares).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from heatcore.heat.conformance.corpus import fixtures_dir
from heatcore.heat.notation import state_from_dict, state_to_dict
from heatcore.heat.state import RaceState
from proofs.miner import SITUATIONS, mine
from proofs.reachable import MAX_MOVE, problems
from proofs.witness import start_state


def corpus_states() -> Iterator[tuple[str, dict[str, Any]]]:
    for path in sorted(fixtures_dir().glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            if isinstance(case.get("state"), dict):
                yield case["id"], case["state"]
            for step in (case.get("expect") or {}).get("steps", []) or []:
                if isinstance(step.get("state"), dict):
                    yield case["id"], step["state"]


@pytest.mark.rules("speed.turn-total", "finish.line", "finish.removed", "corner.spin",
                   "setup.grid")
def test_every_fixture_state_is_consistent_with_its_round() -> None:
    seen = 0
    for case_id, data in corpus_states():
        seen += 1
        assert problems(state_from_dict(data)) == [], case_id
    assert seen > 1000


def _first_with(pred: Any) -> RaceState:
    for _, data in corpus_states():
        state = state_from_dict(data)
        if pred(state):
            return state
    raise AssertionError("no such fixture state")


def _changed(state: RaceState, **car: Any) -> RaceState:
    data = state_to_dict(state)
    index = car.pop("index")
    for key, value in car.items():
        data["cars"][index][key] = value
    return state_from_dict(data)


@pytest.mark.rules("finish.line")
def test_a_ranked_car_far_past_the_line_is_rejected() -> None:
    state = _first_with(lambda s: s.ranking)
    far = _changed(state, index=state.ranking[0], position=state.finish_position + 40)
    assert any("finish.line" in p for p in problems(far))


@pytest.mark.rules("speed.turn-total")
def test_a_car_beyond_its_turns_is_rejected() -> None:
    state = _first_with(lambda s: s.round == 1 and not s.ranking)
    too_far = _changed(state, index=0, position=MAX_MOVE + 1)
    assert any("speed.turn-total" in p for p in problems(too_far))


@pytest.mark.rules("corner.spin")
def test_stress_beyond_the_spins_possible_is_rejected() -> None:
    state = _first_with(lambda s: s.round <= 2)
    hand = list(state.cars[0].hand)
    deck = list(state.cars[0].deck) + ["S"] * 9
    assert any("corner.spin" in p for p in problems(_changed(state, index=0, deck=deck,
                                                              hand=hand)))


@pytest.mark.rules("finish.removed")
def test_an_unranked_car_past_the_line_at_a_round_start_is_rejected() -> None:
    state = _first_with(lambda s: s.phase.value == "plan" and s.round >= 8 and not s.ranking)
    late = _changed(state, index=state.order[0], position=state.finish_position + 1)
    assert any("finish.removed" in p for p in problems(late))


@pytest.mark.rules("finish.line", "corner.spin")
def test_witness_start_states_pass_the_checks() -> None:
    for sit in SITUATIONS[:4]:  # every mined witness on disk is checked above
        for scene in mine(sit.id, 1):
            state, _ = start_state(scene)
            assert problems(state) == [], sit.id
