"""The Rallyman GT binding: heatcore.rallyman as a reference engine of the conformance kit
(``heatcore serve --ruleset rallyman-gt``, ``heatcore conform --ruleset rallyman-gt``).
Divergences are charged to rules by :mod:`heatcore.rallyman.attribution`."""

from __future__ import annotations

import random

from heatcore.framework.conformance.binding import JSON, Attribution, RandomRace
from heatcore.framework.conformance.reference import (
    EngineFunctions,
    ReferenceBinding,
    record,
    rejected,
)
from heatcore.framework.errors import RulesError
from heatcore.rallyman.attribution import attribute
from heatcore.rallyman.driver import ENGINE, POLICIES
from heatcore.rallyman.engine import apply, legal_actions
from heatcore.rallyman.notation import (
    parse_action,
    setup_from_dict,
    setup_to_dict,
    state_from_dict,
    state_to_dict,
)
from heatcore.rallyman.setup import random_setup, start_race
from heatcore.rallyman.track import track_ids
from heatcore.rallyman.validity import validate


class RallymanBinding(ReferenceBinding):
    """heatcore.rallyman behind plain JSON states, action strings and event objects."""

    name = "heatcore-rallyman-gt"
    ruleset = "rallyman-gt"
    engine = EngineFunctions(state_from_dict, validate, state_to_dict, legal_actions, apply,
                             parse_action, track_ids)

    def random_race(self, seed: int) -> RandomRace:
        """Race ``seed``: track, car count and policy drawn from the seed, one lap; its setup
        (``setup_to_dict``) is sent to the engine to build the start state from."""
        tracks = self.tracks()
        track = tracks[seed % len(tracks)]
        players = 2 + (seed // len(tracks)) % 5
        rng = random.Random(seed)
        setup = random_setup(track, players, rng, laps=1)
        policy = POLICIES["sensible" if seed % 2 else "random"]
        state, _ = start_race(setup)
        start, steps = record(ENGINE, state, policy, rng, 20_000, state_to_dict)
        return RandomRace(seed, f"{track} {players} cars", start, steps, setup_to_dict(setup))

    def modules(self) -> list[str]:
        """Rallyman GT has no optional modules here."""
        return []

    def setup(self, setup: JSON) -> JSON:
        """The start state of a race setup (``setup_to_dict``: track, players, laps, grid,
        weather, class, tyres, options), or Rejected naming the rule a bad setup breaks."""
        try:
            state, _ = start_race(setup_from_dict(setup))
        except RulesError as error:
            raise rejected(error) from None
        return self._remember(state)

    def attribute(self, check: str, state: JSON, action: str | None, expected: JSON,
                  actual: JSON, rule_ids: bool = False) -> Attribution:
        """The rules behind a difference, most likely first, and what differs."""
        return attribute(self, check, state, action, expected, actual)
