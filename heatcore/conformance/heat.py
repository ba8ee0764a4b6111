"""The Heat binding: heatcore as the reference engine of the conformance kit.

This is the only module of the kit that knows Heat's nouns (cars, cards, corners, ...),
with :mod:`heatcore.conformance.heat_attribution` (which rule a divergence is charged to).
"""

from __future__ import annotations

import random

from heatcore.conformance.binding import JSON, Attribution, RandomRace
from heatcore.conformance.heat_attribution import attribute
from heatcore.conformance.reference import EngineFunctions, ReferenceBinding, record, rejected
from heatcore.driver import ENGINE, Policy, greedy_policy, random_policy
from heatcore.engine import apply, legal_actions
from heatcore.errors import RulesError
from heatcore.notation import (
    parse_action,
    setup_from_dict,
    setup_to_dict,
    state_from_dict,
    state_to_dict,
)
from heatcore.setup import RaceSetup, random_setup, start_race
from heatcore.track import track_ids
from heatcore.validity import validate


class HeatBinding(ReferenceBinding):
    """heatcore behind plain JSON states, action strings and event objects."""

    name = "heatcore"
    ruleset = "heat"
    engine = EngineFunctions(state_from_dict, validate, state_to_dict, legal_actions, apply,
                             parse_action, track_ids)

    def modules(self) -> list[str]:
        from heatcore.weather import MODULES

        return list(MODULES)

    def setup(self, setup: JSON) -> JSON:
        try:
            state, _ = start_race(setup_from_dict(setup))
        except RulesError as error:
            raise rejected(error) from None
        return self._remember(state)

    def random_race(self, seed: int) -> RandomRace:
        """Race ``seed``: track, car count and policy drawn from the seed, one lap."""
        tracks = self.tracks()
        track = tracks[seed % len(tracks)]
        players = 2 + (seed // len(tracks)) % 5
        rng = random.Random(seed)
        setup = random_setup(track, players, rng, laps=1 if seed % 3 else 2)
        policy = greedy_policy if seed % 2 else random_policy
        return record_race(seed, setup, policy, policy.__name__, rng)

    def attribute(self, check: str, state: JSON, action: str | None, expected: JSON,
                  actual: JSON, rule_ids: bool = False) -> Attribution:
        """The rule IDs behind a difference, most likely first, and what differs."""
        return attribute(check, state, action, expected, actual, rule_ids)


def record_race(seed: int, setup: RaceSetup, policy: Policy, name: str,
                rng: random.Random, max_steps: int = 5000) -> RandomRace:
    """Play ``setup`` with ``policy`` (chance outcomes from ``rng``), recording every step
    as plain JSON; ``name`` labels the policy."""
    state, _ = start_race(setup)
    start, steps = record(ENGINE, state, policy, rng, max_steps, state_to_dict)
    label = f"{setup.track}, {setup.players} cars, {setup.laps} lap(s), {name}"
    return RandomRace(seed, label, start, steps, setup_to_dict(setup))
