"""Seeded drivers for Rallyman GT: chance outcomes sampled with their probabilities, simple
policies, whole races and replays."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from heatcore.framework.events import Event
from heatcore.framework.playing import Engine, play_out, replay_out
from heatcore.rallyman.actions import Action, Go, Keep, Lay, Pit, Roll, Stop
from heatcore.rallyman.engine import apply, chance_outcomes, legal_actions
from heatcore.rallyman.planning import car_dashboard
from heatcore.rallyman.setup import RaceSetup, random_setup, start_race
from heatcore.rallyman.state import PLAN, RaceState

Policy = Callable[[RaceState, tuple[Action, ...], random.Random], Action]

#: A driver stops a race after this many actions (no race comes near it).
MAX_ACTIONS = 50_000


def sample_chance(state: RaceState, rng: random.Random) -> Action:
    """A chance outcome drawn with its probability (one ``rng.random()`` call)."""
    outcomes = chance_outcomes(state)
    x = rng.random()
    acc = 0.0
    for action, p in outcomes:
        acc += float(p)
        if x < acc:
            return action
    return outcomes[-1][0]


def random_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]


def sensible_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """A simple driver: plan up to four dice, the highest safe gear first, avoiding corners it
    would overspeed; roll one by one and stop at two warnings; sometimes flat out with
    short plans; keep the dice after a loss of control; pit when it may."""
    first = legal[0]
    turn = state.turn
    assert turn is not None
    if turn.stage == PLAN:
        lays = [a for a in legal if isinstance(a, Lay)]
        if lays and len(turn.plan) < 4:
            from heatcore.rallyman.planning import next_steps

            steps = {(s.die, s.to): s for s in next_steps(state, turn)}
            safe = [a for a in lays if not steps[(a.die, a.to)].overspeed
                    and not steps[(a.die, a.to)].track_warnings]
            pool = safe or lays
            return max(pool, key=lambda a: (steps[(a.die, a.to)].gear, a.die != "C",
                                            rng.random()))
        if len(turn.plan) <= 2 and rng.random() < 0.5:
            return Go(turn.car, "flat")
        return Go(turn.car, "one")
    if isinstance(first, Keep):
        return first
    limit = car_dashboard(state, turn.car).limit
    warnings = sum(sum(r) for r in turn.results)
    for action in legal:
        if isinstance(action, Stop) and warnings >= limit - 1:
            return action
    for action in legal:
        if isinstance(action, Roll):
            return action
    for action in legal:
        if isinstance(action, Pit) and action.lane == "both":
            return action
    return legal[rng.randrange(len(legal))]


@dataclass(frozen=True)
class Race:
    """A played race: setup, actions (chance outcomes included), events, final state."""

    setup: RaceSetup
    actions: tuple[Action, ...]
    events: tuple[tuple[Event, ...], ...]
    start_events: tuple[Event, ...]
    final: RaceState


#: Rallyman GT's engine as the shared play loop (:mod:`heatcore.framework.playing`) sees it.
ENGINE: Engine[RaceState, Action] = Engine(legal_actions, apply, sample_chance)


def play(setup: RaceSetup, policy: Policy, rng: random.Random,
         on_step: Callable[[RaceState, Action, RaceState, tuple[Event, ...]], None] | None = None,
         ) -> Race:
    """Play ``setup`` to the end: ``policy`` chooses, ``rng`` supplies chance outcomes."""
    state, start_events = start_race(setup)
    actions, events, final = play_out(ENGINE, state, policy, rng, MAX_ACTIONS, on_step)
    return Race(setup, actions, events, start_events, final)


POLICIES: dict[str, Policy] = {"random": random_policy, "sensible": sensible_policy}


def random_race(track: str, players: int, seed: int, laps: int | None = None,
                policy: Policy = sensible_policy) -> Race:
    """A whole race from one seed."""
    rng = random.Random(seed)
    return play(random_setup(track, players, rng, laps), policy, rng)


def replay(setup: RaceSetup, actions: list[Action]) -> Race:
    """Apply a recorded action log from its setup."""
    state, start_events = start_race(setup)
    events, final = replay_out(apply, state, actions)
    return Race(setup, tuple(actions), events, start_events, final)
