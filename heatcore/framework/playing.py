"""The seeded play loop shared by every ruleset: choices from a policy, chance outcomes from
a random generator, one step at a time, over a small engine protocol.

A ruleset plugs in with an :class:`Engine` (its ``legal_actions``, ``apply`` and a sampler of
chance outcomes); its states answer ``is_over()`` and ``is_chance()``. Each game's seeded
drivers and the conformance bindings' recorded races all play through :func:`steps`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from heatcore.framework.events import Event


class GameState(Protocol):
    """What the loop asks of a state."""

    def is_over(self) -> bool: ...

    def is_chance(self) -> bool: ...


S = TypeVar("S", bound=GameState)
A = TypeVar("A")


@dataclass(frozen=True)
class Engine(Generic[S, A]):
    """A ruleset's engine as the loop needs it."""

    legal_actions: Callable[[S], tuple[A, ...]]
    apply: Callable[[S, A], tuple[S, tuple[Event, ...]]]
    chance: Callable[[S, random.Random], A]  # a chance outcome drawn by the generator


@dataclass(frozen=True)
class Played(Generic[S, A]):
    """One step: the state before, the legal actions there (empty at a chance point), the
    action or chance outcome, the state after and the events."""

    before: S
    legal: tuple[A, ...]
    action: A
    after: S
    events: tuple[Event, ...]


def steps(engine: Engine[S, A], state: S, policy: Callable[[S, tuple[A, ...], random.Random], A],
          rng: random.Random, max_actions: int) -> Iterator[Played[S, A]]:
    """Play from ``state`` until the race is over or ``max_actions`` were taken: ``policy``
    chooses, ``rng`` supplies the chance outcomes."""
    taken = 0
    while not state.is_over() and taken < max_actions:
        if state.is_chance():
            legal: tuple[A, ...] = ()
            action = engine.chance(state, rng)
        else:
            legal = engine.legal_actions(state)
            action = policy(state, legal, rng)
        after, events = engine.apply(state, action)
        yield Played(state, legal, action, after, events)
        state = after
        taken += 1


def play_out(engine: Engine[S, A], state: S,
             policy: Callable[[S, tuple[A, ...], random.Random], A], rng: random.Random,
             max_actions: int,
             on_step: Callable[[S, A, S, tuple[Event, ...]], None] | None = None,
             ) -> tuple[tuple[A, ...], tuple[tuple[Event, ...], ...], S]:
    """(actions, events of each, final state) of :func:`steps`; ``on_step`` sees each step."""
    actions: list[A] = []
    events: list[tuple[Event, ...]] = []
    final = state
    for step in steps(engine, state, policy, rng, max_actions):
        if on_step is not None:
            on_step(step.before, step.action, step.after, step.events)
        actions.append(step.action)
        events.append(step.events)
        final = step.after
    return tuple(actions), tuple(events), final


def replay_out(apply: Callable[[S, A], tuple[S, tuple[Event, ...]]], state: S,
               actions: list[A]) -> tuple[tuple[tuple[Event, ...], ...], S]:
    """(events of each action, final state) of a recorded action log applied to ``state``."""
    events = []
    for action in actions:
        state, evs = apply(state, action)
        events.append(evs)
    return tuple(events), state
