"""A steering policy for the Heat modules: seeded play that prefers the rare module choices.

:func:`module_policy` drives a race like :func:`heatcore.heat.driver.random_policy`, but takes
the choices random play seldom meets when they are open: a slipstream with a sector's or a
card's extra spaces (the largest first, so bonuses near the final finish line are met), the
cooling bonus, an adrenaline move or a boost that crosses into another sector (sector
edges, where road.where-the-car-is and ruling.cooling-bonus-scope act), a Garage card's
Heat symbol while the engine cannot pay it (ruling.garage-unpaid-heat); and plans that end
the move just before a corner line or near the final finish line. Randomised (moves over a
corner line half the time only, so a car is not spun back every round) so races differ and
end. It reads only the state and the legal actions.
"""

from __future__ import annotations

import random

from heatcore.heat.actions import (
    Action,
    AdrenalineMove,
    Boost,
    Plan,
    SectorCooldown,
    Slipstream,
    UseSymbol,
)
from heatcore.heat.cards import VALUE
from heatcore.heat.conformance.steering import aggressive_policy
from heatcore.heat.driver import random_policy
from heatcore.heat.modules.garage import symbols as sy
from heatcore.heat.state import RaceState

__all__ = ["module_policy"]

#: How far before a corner line or the final finish line a plan aims (spaces).
EDGE = 3


def _near_edge(state: RaceState, car: int, target: int) -> bool:
    """Whether ``target``, ahead of the car, is within :data:`EDGE` spaces before a corner
    line or the final finish line (never once the car is within 2 * EDGE of the finish, so
    the policy never holds a car back from finishing)."""
    track = state.track
    here = state.cars[car].position
    if target <= here or state.finish_position - here <= 2 * EDGE:
        return False  # no progress, or close enough to finish: aim no more (the race ends)
    if 0 <= state.finish_position - target <= EDGE:
        return True
    for corner in track.corners:
        line = corner.after_space
        space = track.space(target)
        if 0 <= line - space <= EDGE:
            return True
    return False


def _too_fast(state: RaceState, car: int, speed: int) -> bool:
    """Whether a move at ``speed`` would cross a corner line whose printed limit is lower
    (the policy aims only at targets it can reach without spinning, or it may spin a car
    back every round)."""
    track = state.track
    here = state.cars[car].position
    length = track.spaces_per_lap
    for corner in track.corners:
        for lap in range(-1, state.laps + 1):
            line = corner.after_space + length * lap
            if here <= line < here + speed and speed > corner.limit:
                return True
    return False


def _crosses_sector(state: RaceState, car: int, spaces: int) -> bool:
    """Whether a move of ``spaces`` takes the car into another sector."""
    track = state.track
    here = state.cars[car].position
    return track.sector_of(here + spaces) != track.sector_of(here)


def module_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """The rare module choice when one is open (see the module's docstring), else a uniform
    random choice (for a plan, the aggressive policy's a quarter of the time)."""
    first = legal[0]
    if state.is_chance():
        return random_policy(state, legal, rng)
    if isinstance(first, Plan):
        plans = [a for a in legal if isinstance(a, Plan)]
        speeds = {a: sum(VALUE.get(c, 0) for c in a.cards) for a in plans}
        aimed = [a for a in plans if not _too_fast(state, a.car, speeds[a])
                 and _near_edge(state, a.car, state.cars[a.car].position + speeds[a])]
        if aimed and rng.random() < 0.7:
            return rng.choice(aimed)
        return aggressive_policy(state, legal, rng) if rng.random() < 0.25 else rng.choice(plans)
    extras = [a for a in legal if isinstance(a, Slipstream) and a.extra > 0]
    if extras:
        return max(extras, key=lambda a: a.extra)
    for action in legal:
        if isinstance(action, SectorCooldown):
            return action
        if isinstance(action, UseSymbol) and action.symbol == "heat":
            car = state.cars[action.car]
            if car.engine < sy.amount(action.card, "heat"):
                return action  # ruling.garage-unpaid-heat: the card goes unpaid
        # half the time only: a move over a corner line can spin the car back every round
        if (isinstance(action, AdrenalineMove) and _crosses_sector(state, action.car, 1)
                and rng.random() < 0.5):
            return action
        if isinstance(action, Boost) and rng.random() < 0.3:
            return action
    return random_policy(state, legal, rng)
