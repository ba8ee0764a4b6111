"""Rallyman GT races end to end: random races on both tracks for 2-6 cars finish, replay
exactly from their logs, keep every invariant at every step, and agree with an independent
reading of the track data; a Hypothesis machine plays random actions and chance outcomes.

The track oracle here reads ``spec/rallyman/tracks/*.json`` with plain ``json`` and restates
the corner rules of seed 004 itself: it shares no code with ``heatcore.rallyman.moves``."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from heatcore.framework.events import Event
from heatcore.rallyman import moves
from heatcore.rallyman.actions import Action, Dice, Lay
from heatcore.rallyman.driver import Race, play, random_policy, replay, sensible_policy
from heatcore.rallyman.engine import apply, chance_outcomes, legal_actions
from heatcore.rallyman.notation import parse_action, state_from_json, state_to_json
from heatcore.rallyman.order import order_key
from heatcore.rallyman.planning import car_dashboard
from heatcore.rallyman.racelog import load_race_data, race_to_json
from heatcore.rallyman.setup import random_setup, start_race
from heatcore.rallyman.state import RaceState
from heatcore.rallyman.validity import Problem, status

TRACKS = Path(__file__).resolve().parent.parent / "spec" / "rallyman" / "tracks"


class TrackOracle:
    """Seed 004's corner rules restated over the raw track JSON."""

    def __init__(self, track: str) -> None:
        data = json.loads((TRACKS / f"{track}.json").read_text(encoding="utf-8"))
        self.spaces = {s["id"]: s for s in data["spaces"]}
        self.moves = {(m["from"], m["to"]): m for m in data["moves"]}

    def expect(self, src: str, dst: str, gear: int) -> tuple[int, bool]:
        """(warnings added, limit exceeded) for a car moving src -> dst in gear."""
        move = self.moves[(src, dst)]  # KeyError: not a forward move of the track
        warnings = move.get("entry_warning", 0) + move.get("exit_warning", 0)
        exceeded = "exit_limit" in move and gear > move["exit_limit"]
        corner = self.spaces[dst].get("corner")
        if corner:
            limit = corner["limit"]
            if move["kind"] == "straight" and "entry_limit" in move:
                limit = move["entry_limit"]
            exceeded = exceeded or gear > limit
            if corner["kind"] == "dangerous" and gear == corner["limit"]:
                warnings += 1
        return warnings, exceeded


class RaceAudit:
    """Checks every step of a race: validity, JSON round trip, chance odds, the track
    oracle on each laid die, the warning limit, focus costs, turn order at round starts."""

    def __init__(self, track: str) -> None:
        self.oracle = TrackOracle(track)
        self.problems: list[str] = []
        self.spent: dict[tuple[int, int], list[int]] = {}

    def __call__(self, before: RaceState, action: Action, after: RaceState,
                 events: tuple[Event, ...]) -> None:
        if status(after) is not Problem.NONE:
            self.problems.append(f"{action}: {status(after)}")
        if state_from_json(state_to_json(after)) != after:
            self.problems.append(f"{action}: JSON round trip")
        if before.is_chance() and sum(p for _, p in chance_outcomes(before)) != Fraction(1):
            self.problems.append(f"{action}: chance odds do not sum to 1")
        turn = before.turn
        if isinstance(action, Lay) and turn is not None:
            at = turn.plan[-1].to if turn.plan else turn.start
            step = after.turn.plan[-1] if after.turn else None
            if step is not None:
                want = self.oracle.expect(at, step.to, step.gear)
                if want != (step.track_warnings, step.overspeed):
                    self.problems.append(f"{action}: track says {want}")
        if isinstance(action, Dice) and turn is not None:
            self._check_limit(before, turn, action, events)
        for e in events:
            if e.kind == "control-lost" and turn is not None:
                steps = turn.plan
                limit = car_dashboard(before, turn.car).limit
                if e.get("warnings") < limit and not any(s.overspeed for s in steps):
                    self.problems.append(f"{action}: control lost below the limit")
            if e.kind == "focus-spent" and turn is not None:
                fixed = turn.fixed
                want = sum(range(fixed + 1, fixed + e.get("dice") + 1))
                if e.get("tokens") != want:
                    self.problems.append(f"{action}: focus cost {e.get('tokens')} != {want}")
            if e.kind == "round-started":
                order = after.order
                if list(order) != sorted(order, key=lambda i: order_key(after, i)):
                    self.problems.append(f"{action}: round order {order}")


    def _check_limit(self, before: RaceState, turn: Any, action: Dice,
                     events: tuple[Event, ...]) -> None:
        """Warnings reaching the dashboard's number (or a limit exceeded) lose control."""
        rolled = turn.results + action.results
        limit = car_dashboard(before, turn.car).limit
        total, must = 0, False
        for step, flags in zip(turn.plan, rolled, strict=False):
            total += sum(flags) + step.track_warnings
            must = must or total >= limit or step.overspeed
        kinds = {e.kind for e in events}
        if must and "control-lost" not in kinds and "finished" not in kinds:
            self.problems.append(f"{action}: {total} warnings, kept control")
        if not must and "control-lost" in kinds:
            self.problems.append(f"{action}: {total} warnings, lost control")


def _audited(track: str, players: int, seed: int, policy: Callable[..., Action]) -> Race:
    rng = random.Random(seed)
    audit = RaceAudit(track)
    race = play(random_setup(track, players, rng, 1), policy, rng, audit)
    assert not audit.problems, audit.problems[:5]
    return race


CASES = [(t, n) for t in ("albert-park", "proving-ground") for n in range(2, 7)]


@pytest.mark.rules("rgt.finish.end", "rgt.move.one-car-per-space", "rgt.round.marker-colour",
                   "rgt.ruling.damage-bag", "rgt.order.speed", "rgt.focus.cost",
                   "rgt.corner.standard", "rgt.corner.steep-entry", "rgt.corner.steep-exit",
                   "rgt.corner.dangerous", "rgt.corner.steep-warning")
@pytest.mark.parametrize(("track", "players"), CASES)
def test_random_races_finish_and_keep_every_invariant(track: str, players: int) -> None:
    for seed, policy in ((players, sensible_policy), (players + 100, random_policy)):
        race = _audited(track, players, seed, policy)
        assert race.final.is_over() and len(race.final.ranking) == players


@pytest.mark.rules("rgt.turn.sequence")
def test_races_replay_exactly_from_their_logs() -> None:
    for track, players in (("albert-park", 3), ("proving-ground", 5)):
        race = _audited(track, players, 7, sensible_policy)
        again = load_race_data(json.loads(race_to_json(race)), "log")
        assert again.final == race.final and again.events == race.events
        assert replay(race.setup, [parse_action(str(a)) for a in race.actions]).final == race.final


def test_the_audit_catches_a_planted_corner_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: an engine that forgets the dotted entry lines is caught."""
    real = moves.arrive

    def forgetful(track: Any, move: Any, gear: int) -> tuple[int, bool]:
        from dataclasses import replace as dc_replace

        return real(track, dc_replace(move, entry_limit=None), gear)

    monkeypatch.setattr(moves, "arrive", forgetful)
    caught = False
    for seed in range(6):
        rng = random.Random(seed)
        audit = RaceAudit("albert-park")
        play(random_setup("albert-park", 3, rng, 1), random_policy, rng, audit)
        caught = caught or any("track says" in p for p in audit.problems)
    assert caught


def test_the_audit_catches_a_removed_warning_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control that removes behaviour: an engine that never loses control on
    warnings is caught by the audit's own count."""
    from heatcore.rallyman import control

    real = control.trigger

    def lenient(limit: int, warnings: int, step: Any, results: tuple[bool, ...]
                ) -> tuple[int, bool]:
        return real(limit + 100, warnings, step, results)

    monkeypatch.setattr(control, "trigger", lenient)
    caught = False
    for seed in range(4):
        rng = random.Random(seed)
        audit = RaceAudit("proving-ground")
        play(random_setup("proving-ground", 3, rng, 1), sensible_policy, rng, audit)
        caught = caught or any("kept control" in p for p in audit.problems)
    assert caught


class RallymanMachine(RuleBasedStateMachine):
    """Random choices and chance outcomes from a random setup; every state checked."""

    state: RaceState

    @initialize(track=st.sampled_from(["albert-park", "proving-ground"]),
                players=st.integers(2, 6), seed=st.integers(0, 10**6))
    def start(self, track: str, players: int, seed: int) -> None:
        self.state, _ = start_race(random_setup(track, players, random.Random(seed), 1))

    @rule(pick=st.integers(0, 10**6))
    def step(self, pick: int) -> None:
        if self.state.is_over():
            return
        if self.state.is_chance():
            options: tuple[Action, ...] = tuple(a for a, _ in chance_outcomes(self.state))
        else:
            options = legal_actions(self.state)
        assert options, "a state that is not over always has a choice or an outcome"
        action = options[pick % len(options)]
        self.state, _ = apply(self.state, action)

    @invariant()
    def valid_and_round_trips(self) -> None:
        if hasattr(self, "state"):
            assert status(self.state) is Problem.NONE
            assert state_from_json(state_to_json(self.state)) == self.state


RallymanMachine.TestCase.settings = RallymanMachine.TestCase.settings  # profile from conftest
TestRallymanMachine = pytest.mark.rules("rgt.turn.sequence", "rgt.round.alternate")(
    RallymanMachine.TestCase)
