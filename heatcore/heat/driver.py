"""Seeded drivers: chance outcomes from a random generator, simple policies, whole races."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from heatcore.framework.events import Event
from heatcore.framework.playing import Engine, play_out, replay_out
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    Discard,
    EndReact,
    LegendShuffle,
    Plan,
    Shuffle,
    Slipstream,
)
from heatcore.heat.cards import STRESS, UPGRADE_0, VALUE, Card
from heatcore.heat.cleanup import shuffled_cards
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.modules.legends import full_deck
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState

Policy = Callable[[RaceState, tuple[Action, ...], random.Random], Action]

#: No race of the core game comes near this many actions; a driver stops there.
MAX_ACTIONS = 20_000


def shuffle_cards(car: int, cards: Iterable[Card], rng: random.Random) -> Shuffle:
    """A shuffle of ``car``'s ``cards`` (deck and discard pile), ordered by ``rng`` from
    their sorted order, so the result depends only on the multiset and ``rng``."""
    order = sorted(cards)
    rng.shuffle(order)
    return Shuffle(car, tuple(order))


def random_shuffle(state: RaceState, rng: random.Random) -> Shuffle | LegendShuffle:
    """The awaited shuffle (of a player's cards, or of the Legend deck), ordered by ``rng``."""
    car = state.shuffle
    assert car is not None
    if state.is_legend(car):
        order = list(full_deck())
        rng.shuffle(order)
        return LegendShuffle(car, tuple(order))
    return shuffle_cards(car, shuffled_cards(state, car), rng)


def random_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Any legal action, uniformly."""
    return legal[rng.randrange(len(legal))]


def _expected(cards: tuple[str, ...]) -> float:
    return sum(VALUE[c] for c in cards) + 2.5 * cards.count(STRESS)


def _corner_cost(state: RaceState, car: int, speed: float, move: float) -> float:
    """Heat the car would pay this turn at ``speed`` after moving ``move`` more spaces."""
    me = state.cars[car]
    start = state.turn.start_position if state.turn else me.position
    lines = state.track.corner_lines(start, me.position + int(move) + 1, state.laps)
    return sum(max(0.0, speed - line.limit) for line in lines)


def greedy_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """A simple sensible driver: the fastest plan whose corners the engine can pay with one
    Heat to spare; cool down all it can; boost and slipstream only when no corner is near;
    discard the 0."""
    first = legal[0]
    car = first.car
    me = state.cars[car]
    if isinstance(first, Plan):
        def score(plan: Action) -> float:
            assert isinstance(plan, Plan)
            speed = _expected(plan.cards)
            cost = _corner_cost(state, car, speed, speed)
            shift = 1 if abs(plan.gear - me.gear) == 2 else 0
            if cost + shift > me.engine - 1:
                return -100 - cost
            return speed - 1.5 * cost - 2 * shift + 0.1 * plan.gear
        return max(legal, key=score)
    for action in legal:
        if isinstance(action, Cooldown | AdrenalineCooldown):
            best = [a for a in legal if isinstance(a, Cooldown)]
            return best[-1] if best else action
    turn = state.turn
    speed = turn.speed if turn else 0
    now = _corner_cost(state, car, speed, 0)
    for action in legal:
        if isinstance(action, AdrenalineMove) and _corner_cost(state, car, speed + 1, 1) <= now:
            return action
        if (isinstance(action, Boost) and me.engine > 1
                and _corner_cost(state, car, speed + 4, 4) == 0):
            return action
        if isinstance(action, Slipstream) and _corner_cost(state, car, speed, 2) <= now:
            return action
    if isinstance(first, Discard):
        zeros = [a for a in legal if isinstance(a, Discard) and a.cards == (UPGRADE_0,)]
        return zeros[0] if zeros else first
    for action in legal:
        if isinstance(action, EndReact):
            return action
    return legal[-1]


@dataclass(frozen=True)
class Race:
    """A finished (or stopped) race: its setup, every action, the events of each, the end."""

    setup: RaceSetup
    actions: tuple[Action, ...]
    events: tuple[tuple[Event, ...], ...]
    start_events: tuple[Event, ...]
    final: RaceState


#: Heat's engine as the shared play loop (:mod:`heatcore.framework.playing`) sees it.
ENGINE: Engine[RaceState, Action] = Engine(legal_actions, apply, random_shuffle)


def play(setup: RaceSetup, policy: Policy, rng: random.Random,
         on_step: Callable[[RaceState, Action, RaceState, tuple[Event, ...]], None] | None = None,
         ) -> Race:
    """Play ``setup`` to the end: ``policy`` chooses, ``rng`` supplies chance outcomes."""
    state, start_events = start_race(setup)
    actions, events, final = play_out(ENGINE, state, policy, rng, MAX_ACTIONS, on_step)
    return Race(setup, actions, events, start_events, final)


def random_race(track: str, players: int, seed: int, laps: int | None = None,
                policy: Policy = random_policy, rulings: Rulings = DEFAULT_RULINGS,
                modules: tuple[str, ...] = (), legends: int = 0,
                aggressive: bool = False) -> Race:
    """A whole race from one seed: setup (with ``modules``: see ``random_setup``), chance and
    (by default random) choices, played under ``rulings``."""
    rng = random.Random(seed)
    return play(random_setup(track, players, rng, laps, modules, legends, aggressive,
                             rulings), policy, rng)


def replay(setup: RaceSetup, actions: list[Action]) -> Race:
    """Apply a recorded action log (chance outcomes included) from its setup."""
    state, start_events = start_race(setup)
    events, final = replay_out(apply, state, actions)
    return Race(setup, tuple(actions), events, start_events, final)
