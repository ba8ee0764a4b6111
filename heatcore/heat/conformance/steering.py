"""Steering policies: seeded drivers that push races towards rare situations.

They drive :func:`heatcore.heat.driver.play` like :func:`heatcore.heat.driver.random_policy`, but
steer
towards spins, multi-corner moves, slipstreams, blocked spaces and cluttered hands. They
need no Hypothesis, so the fixture generator can use them; :mod:`heatcore.heat.strategies`
re-exports them for property tests.
"""

from __future__ import annotations

import random

from heatcore.heat.actions import (
    Action,
    AdrenalineMove,
    Boost,
    Discard,
    EndReact,
    Plan,
    Slipstream,
)
from heatcore.heat.cards import STRESS, VALUE
from heatcore.heat.driver import Policy, random_policy
from heatcore.heat.state import RaceState

__all__ = ["Policy", "aggressive_policy", "clutter_policy", "mixed_policy"]


def aggressive_policy(state: RaceState, legal: tuple[Action, ...],
                      rng: random.Random) -> Action:
    """Steers towards spins, multi-corner moves, slipstreams and blocked spaces: the highest
    gear, then the fastest cards; adrenaline move, boost and slipstream whenever open; no
    cooldown; discards nothing. Randomised a little so races differ."""
    first = legal[0]
    if isinstance(first, Plan):
        top = max(a.gear for a in legal if isinstance(a, Plan))
        best = [a for a in legal if isinstance(a, Plan) and a.gear == top]
        best.sort(key=lambda a: -sum(VALUE[c] + (2 if c == STRESS else 0)
                                      for c in a.cards))
        return best[rng.randrange(min(3, len(best)))]
    for kind in (AdrenalineMove, Boost, Slipstream, EndReact):
        for action in legal:
            if isinstance(action, kind):
                return action
    return first


def clutter_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """Steers towards cluttered hands: shifts two gears and boosts when it can (paying Heat
    to the discard pile), never cools down, and discards every card it may so the Heat
    comes back into the hand."""
    first = legal[0]
    car = state.cars[first.car]
    if isinstance(first, Plan):
        two = [a for a in legal if isinstance(a, Plan) and abs(a.gear - car.gear) == 2]
        return rng.choice(two or list(legal))
    for action in legal:
        if isinstance(action, Boost | Slipstream):
            return action
    if isinstance(first, Discard):
        return legal[-1]
    for action in legal:
        if isinstance(action, EndReact):
            return action
    return rng.choice(legal)


def mixed_policy(weights: tuple[float, float, float] = (0.4, 0.4, 0.2)) -> Policy:
    """Each decision made by the uniform random, the aggressive or the clutter policy, drawn
    with ``weights``."""
    policies: list[Policy] = [random_policy, aggressive_policy, clutter_policy]

    def policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
        chosen = rng.choices(policies, weights)[0]
        return chosen(state, legal, rng)

    return policy
