"""Termination refuted: a lasso, i.e. legal play along which a car never finishes.

The rules end a race only when every car has finished (finish.removed) and set no round
limit. A player who wants to can keep a car from finishing for ever: this module finds
such play in the engine and checks it. Car P1 of a two-car race waits before a slow
corner with an empty engine and plays a card faster than the corner allows: it spins
back before the line (corner.spin), keeps its fast cards and discards its slow ones.
The shuffles (chance) put the fast cards on top. Once the Stress supply is empty, P1's
state (cards, deck order, position, gear, engine) and the supply repeat round after
round: the loop can be played for ever.

``find_lasso`` plays until the state repeats and returns the action log (every action
legal: the engine applies it); ``check_lasso`` replays it and confirms the repeat.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from heatcore.heat.actions import Action, DeclineSlipstream, Discard, EndReact, Plan, Shuffle
from heatcore.heat.driver import greedy_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import Car, Phase, RaceState

#: Shuffle order: fast cards on top, slow basics at the bottom.
_ORDER = {"U5": 0, "4": 1, "3": 2, "S": 3, "U0": 4, "H": 5, "2": 6, "1": 7}
_SLOW = frozenset({"1", "2"})
_KEPT = frozenset({"3", "4", "U5", "S", "U0"})
STALLER = 0


@dataclass(frozen=True)
class Lasso:
    """A race's setup, the actions up to the loop's start, and the loop's actions."""

    setup: RaceSetup
    prefix: tuple[Action, ...]
    loop: tuple[Action, ...]
    start_round: int
    rounds: int  # rounds the loop lasts
    position: int  # where the staller waits
    finish: int  # the staller would finish past this position


def _shuffle(state: RaceState) -> Shuffle:
    car = state.shuffle
    assert car is not None
    cards = state.cars[car].deck + state.cars[car].discard
    return Shuffle(car, tuple(sorted(cards, key=_ORDER.__getitem__)))


def _routine(legal: tuple[Action, ...]) -> Action:
    """After the plan: end the react, decline the slipstream, discard the slow cards."""
    if isinstance(legal[0], Discard):
        return max(legal, key=lambda a: sum(c in _SLOW for c in getattr(a, "cards", ())))
    for action in legal:
        if isinstance(action, EndReact | DeclineSlipstream):
            return action
    return legal[0]


def _after(state: RaceState) -> RaceState:
    """The state after the staller's turn, played by ``_routine`` and ``_shuffle``."""
    for _ in range(500):
        if state.is_over() or (state.phase is Phase.PLAN and not state.is_chance()):
            break
        action = _shuffle(state) if state.is_chance() else _routine(legal_actions(state))
        state, _ = apply(state, action)
    return state


def _stall(state: RaceState) -> Action:
    """The plan that leaves the staller furthest back, keeping the most fast cards."""
    def score(plan: Action) -> tuple[int, int]:
        car = _after(apply(state, plan)[0]).cars[STALLER]
        return car.position, -sum(c in _KEPT for c in car.hand)
    return min(legal_actions(state), key=score)


def _key(state: RaceState) -> tuple[Car, int, tuple[int, ...]]:
    return state.cars[STALLER], state.supply, state.order


def find_lasso(track: str = "usa", seed: int = 1, max_rounds: int = 300) -> Lasso | None:
    """Play a two-car race where P2 drives greedily and P1 stalls, until the state at
    P1's plan repeats (with P2 gone); None if P1 finishes or ``max_rounds`` pass first."""
    rng = random.Random(seed)
    setup = random_setup(track, 2, rng, 1)
    state, _ = start_race(setup)
    actions: list[Action] = []
    seen: dict[tuple[Car, int, tuple[int, ...]], tuple[int, int]] = {}
    while not state.is_over() and state.round <= max_rounds:
        action: Action
        if state.is_chance():
            action = _shuffle(state)
        else:
            legal = legal_actions(state)
            if legal[0].car != STALLER:
                action = greedy_policy(state, legal, rng)
            elif isinstance(legal[0], Plan):
                if state.order == (STALLER,):
                    key = _key(state)
                    if key in seen:
                        start, at = seen[key]
                        return Lasso(setup, tuple(actions[:at]), tuple(actions[at:]), start,
                                     state.round - start, state.cars[STALLER].position,
                                     state.finish_position)
                    seen[key] = (state.round, len(actions))
                action = _stall(state)
            else:
                action = _routine(legal)
        actions.append(action)
        state, _ = apply(state, action)
    return None


def check_lasso(lasso: Lasso, times: int = 3) -> list[str]:
    """Replay the prefix, then the loop ``times`` times: every action must be legal, the
    staller must never finish, and each pass must end in the state it started from
    (round number aside). Returns the problems found (none: the lasso holds)."""
    state, _ = start_race(lasso.setup)
    for action in lasso.prefix:
        state, _ = apply(state, action)
    start = _key(state)
    problems = []
    for n in range(times):
        for action in lasso.loop:
            state, _ = apply(state, action)
            if state.has_finished(STALLER) or state.is_over():
                return [f"P1 finishes during pass {n + 1}"]
        if _key(state) != start:
            problems.append(f"pass {n + 1} does not return to the loop's start state")
    return problems


def describe(lasso: Lasso | None) -> str:
    """One line on termination for ``heatcore prove``."""
    if lasso is None:
        return "no lasso found"
    return (f"refuted: lasso on {lasso.setup.track}, {lasso.setup.players} cars: from round "
            f"{lasso.start_round} P1 repeats its state every {lasso.rounds} rounds at "
            f"position {lasso.position} (finish after {lasso.finish}); "
            "ruling.no-round-limit")
