"""The Heat binding: heatcore as the reference engine of the conformance kit.

This is the only module of the kit that knows Heat's nouns (cars, cards, corners, ...),
with :mod:`heatcore.heat.conformance.attribution` (which rule a divergence is charged to).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from functools import lru_cache
from itertools import combinations
from typing import Any

from heatcore.framework.conformance.binding import (
    JSON,
    Attribution,
    RandomRace,
    Rejected,
    modules_of,
)
from heatcore.framework.conformance.capabilities import DEFAULT
from heatcore.framework.conformance.reference import (
    EngineFunctions,
    ReferenceBinding,
    record,
    rejected,
)
from heatcore.framework.errors import RulesError
from heatcore.framework.registry import ruleset
from heatcore.framework.values import replace
from heatcore.heat.conformance.attribution import attribute
from heatcore.heat.driver import ENGINE, Policy, greedy_policy, random_policy
from heatcore.heat.engine import apply, apply_listed, legal_actions
from heatcore.heat.notation import (
    car_to_dict,
    parse_action,
    rulings_from,
    setup_from_dict,
    setup_to_dict,
    state_from_dict,
    state_to_dict,
)
from heatcore.heat.rulings import (
    DEFAULT_RULINGS,
    Rulings,
    make_rulings,
    parse_ruling_option,
    switches,
)
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import Car, RaceState
from heatcore.heat.track import track_ids
from heatcore.heat.validity import validate

#: parse_action, remembered per string (actions are immutable values; an unreadable string
#: raises each time, as it is not remembered).
_action = lru_cache(maxsize=1 << 14)(parse_action)


#: The module a state plays when it carries a Championship event's changes.
CHAMPIONSHIP = "championship"


class HeatBinding(ReferenceBinding):
    """heatcore behind plain JSON states, action strings and event objects."""

    name = "heatcore"
    ruleset = "heat"
    engine = EngineFunctions(state_from_dict, validate, state_to_dict, legal_actions, apply,
                             _action, track_ids, apply_listed)

    def __init__(self, rulings: Rulings = DEFAULT_RULINGS) -> None:
        super().__init__()
        #: The rulings of the random races, and of loaded states that name none.
        self.race_rulings = rulings
        #: The modules the random races may play (``use_modules``): none by default.
        self.race_modules: tuple[str, ...] = ()
        self._shared_cars = SharedCars()

    def state_json(self, value: RaceState) -> JSON:
        """The JSON of the state ``value``; with ``shared_json``, a car whose value is the
        one the last state had (the same object) keeps the JSON it had there, and the
        rulings' JSON is one dict per configuration (``Rulings.shared_dict``)."""
        if self.shared_json:
            return state_to_dict(value, self._shared_cars, Rulings.shared_dict)
        return state_to_dict(value)

    def rulings(self) -> list[str] | dict[str, str]:
        """The rulings heatcore follows, for the ``start`` reply: their IDs when it plays
        every default, else each ruling -> ``"default"`` or the alternative it plays."""
        ids = [e.id for e in ruleset() if e.kind == "ruling"]
        if not self.race_rulings.changed:
            return ids
        chosen = dict(self.race_rulings.changed)
        return {r: chosen.get(r, DEFAULT) for r in ids}

    def under_rulings(self, declared: dict[str, str]) -> HeatBinding:
        """This binding with its random races played under ``declared`` (ruling ID ->
        ``"default"``, the default's own name or an alternative: an engine's declaration).
        Rejected naming the ruling when heatcore cannot play one of them."""
        chosen = {r: o for r, o in declared.items() if o != DEFAULT}
        try:
            return HeatBinding(make_rulings(chosen))
        except RulesError as error:
            raise Rejected("unsupported", error.rule, str(error)) from None

    def with_ruling_options(self, options: Sequence[str]) -> HeatBinding:
        """A binding whose random races play the alternatives ``options`` name (the command
        line's ``--ruling ID=ALTERNATIVE``); MalformedInput names a bad one."""
        return HeatBinding(make_rulings(dict(map(parse_ruling_option, options))))

    def chosen_rulings(self) -> JSON:
        """The alternatives the random races play that differ from the defaults (None if
        none), as a ``start`` request carries them."""
        return dict(self.race_rulings.changed) or None

    def use_rulings(self, chosen: JSON) -> None:
        """Play this session under ``chosen`` (ruling ID -> alternative, from ``start``): a
        loaded state that has no ``rulings`` object takes them. Rejected if unknown."""
        try:
            self.race_rulings = rulings_from(chosen, "start.rulings")
        except RulesError as error:
            raise Rejected("unsupported", error.rule, str(error)) from None

    def normal_state(self, state: JSON) -> JSON:
        """``state`` with its ``rulings`` object cut to the rulings it plays otherwise than
        by default, and left out when there are none: a state that leaves out a ruling
        plays its default (heat-state.schema.json), so the two compare equal."""
        if not isinstance(state, dict) or not isinstance(state.get("rulings"), dict):
            return state
        defaults = {r: choices[0] for r, choices in switches().items()}
        kept = {r: o for r, o in state["rulings"].items() if defaults.get(r) != o}
        out = {k: v for k, v in state.items() if k != "rulings"}
        if kept:
            out["rulings"] = kept
        return out

    def modules(self) -> list[str]:
        from heatcore.heat.modules.weather import MODULES

        return [*MODULES, CHAMPIONSHIP]

    #: The rule a module state refused by ``conform/1`` names.
    modules_rule = "weather.module"

    @staticmethod
    def modules_of(state: JSON) -> list[str]:
        """The modules a state plays: its ``modules`` list, and the Championship when it
        carries an event's changes."""
        out = modules_of(state)
        if isinstance(state, dict) and "changes" in state:  # a Championship event's numbers
            out.append(CHAMPIONSHIP)
        return out

    def parse(self, state: JSON) -> RaceState:
        """A validated state value (playing this session's rulings if it names none), or
        Rejected."""
        if self._memo is not None and self._memo[0] is state:
            value: RaceState = self._memo[1]
            return value
        value = super().parse(state)
        if isinstance(state, dict) and "rulings" not in state:
            value = replace(value, rulings=self.race_rulings)
        return value

    def setup(self, setup: JSON) -> JSON:
        try:
            state, _ = start_race(setup_from_dict(setup))
        except RulesError as error:
            raise rejected(error) from None
        return self._remember(state)

    def use_modules(self, modules: Iterable[str]) -> None:
        """Let the random races play ``modules`` (those the engine under test declares)."""
        from heatcore.heat.modules.weather import MODULES

        chosen = set(modules)
        self.race_modules = tuple(m for m in MODULES if m in chosen)

    def race_options(self, seed: int) -> tuple[tuple[str, ...], int, bool]:
        """The modules, Legends and aggressive option of race ``seed``: the core race and
        each set of the modules in ``race_modules`` in turn (the core race only when there
        are none)."""
        from heatcore.heat.modules.weather import LEGENDS

        sets: list[tuple[str, ...]] = [()]
        for size in range(1, len(self.race_modules) + 1):
            sets += combinations(self.race_modules, size)
        modules = sets[(seed // 7) % len(sets)]
        if LEGENDS not in modules:
            return modules, 0, False
        return modules, 1 + (seed // 3) % 4, seed % 5 == 0

    def random_race(self, seed: int) -> RandomRace:
        """Race ``seed``: track, car count, policy and (among ``race_modules``) modules
        drawn from the seed, one or two laps. With Legends, players and Legends make at
        most 6 cars."""
        tracks = self.tracks()
        track = tracks[seed % len(tracks)]
        players = 2 + (seed // len(tracks)) % 5
        modules, legends, aggressive = self.race_options(seed)
        if legends:
            players = min(players, 5)
            legends = min(legends, 6 - players)
        rng = random.Random(seed)
        setup = random_setup(track, players, rng, 1 if seed % 3 else 2, modules, legends,
                             aggressive, self.race_rulings)
        policy = greedy_policy if seed % 2 else random_policy
        return record_race(seed, setup, policy, policy.__name__, rng)

    def perft_chance(self, state: JSON, seed: int) -> str | None:
        """The perft outcome of the chance point ``state`` awaits (spec/perft.md), as an
        action string; None when it awaits none."""
        if not isinstance(state, dict) or state.get("shuffle") is None:
            return None
        from heatcore.heat.perft import chance_action

        try:
            return str(chance_action(state_from_dict(state), seed))
        except RulesError as error:
            raise rejected(error) from None

    def perft_entries(self) -> list[JSON]:
        """The published perft entries (spec/fixtures/perft/perft.json)."""
        from heatcore.heat.perft import load_reference

        entries: list[JSON] = load_reference()["entries"]
        return entries

    def attribute(self, check: str, state: JSON, action: str | None, expected: JSON,
                  actual: JSON, rule_ids: bool = False) -> Attribution:
        """The rule IDs behind a difference, most likely first, and what differs (states
        compared in their normal form)."""
        return attribute(check, state, action, self._normal_view(expected),
                         self._normal_view(actual), rule_ids)

    def _normal_view(self, view: JSON) -> JSON:
        if isinstance(view, dict) and isinstance(view.get("state"), dict):
            return {**view, "state": self.normal_state(view["state"])}
        return view


class SharedCars:
    """``notation.cars_to_dicts`` that gives each car the JSON object of the last call when
    the car's value is the same object as there (values are immutable), so a step converts
    only the cars it changed. The JSON is shared between calls: read-only."""

    def __init__(self) -> None:
        self.cars: tuple[Car, ...] = ()
        self.json: list[dict[str, Any]] = []

    def __call__(self, cars: tuple[Car, ...]) -> list[dict[str, Any]]:
        old, old_json = self.cars, self.json
        known = len(old)
        out = [old_json[i] if i < known and old[i] is car else car_to_dict(i, car)
               for i, car in enumerate(cars)]
        self.cars, self.json = cars, out
        return list(out)


def record_race(seed: int, setup: RaceSetup, policy: Policy, name: str,
                rng: random.Random, max_steps: int = 5000) -> RandomRace:
    """Play ``setup`` with ``policy`` (chance outcomes from ``rng``), recording every step
    as plain JSON; ``name`` labels the policy."""
    state, _ = start_race(setup)
    start, steps = record(ENGINE, state, policy, rng, max_steps, state_to_dict)
    label = f"{setup.track}, {setup.players} cars, {setup.laps} lap(s), {name}"
    return RandomRace(seed, label, start, steps, setup_to_dict(setup))
