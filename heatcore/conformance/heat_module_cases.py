"""Fixture cases of the modules: steps cut from seeded races that play them, chosen by what
the step shows (a rule of the module at work), each rule at least ``PER_RULE`` times."""

from __future__ import annotations

import random
from collections.abc import Callable

from heatcore.conformance.binding import JSON, RandomRace, Step
from heatcore.conformance.heat import record_race
from heatcore.driver import greedy_policy, random_policy
from heatcore.notation import state_from_dict
from heatcore.placement import occupied
from heatcore.setup import random_setup
from heatcore.state import RaceState
from heatcore.track import track_ids
from heatcore.weather import (
    WEATHER,
    corner_token,
    sector_effect,
    slipstream_bonus,
)

PER_RULE = 3
#: Seeds of the module races the cases are cut from.
MODULE_SEEDS = range(1000, 1080)

Test = Callable[[Step, RaceState], bool]


def module_race(seed: int, modules: tuple[str, ...]) -> RandomRace:
    """Module race ``seed``: track, car count and policy drawn from the seed, one lap."""
    tracks = track_ids()
    rng = random.Random(seed)
    setup = random_setup(tracks[seed % len(tracks)], 2 + (seed // len(tracks)) % 5, rng,
                         laps=1, modules=modules)
    policy = greedy_policy if seed % 2 else random_policy
    return record_race(seed, setup, policy, policy.__name__, rng)


def _actor_effect(step: Step, state: RaceState) -> str | None:
    turn = state.turn
    if turn is None:
        return None
    return sector_effect(state, state.cars[turn.car].position)


def _stage(state: RaceState) -> str:
    return state.turn.stage.value if state.turn is not None else ""


def _corner_events(step: Step, state: RaceState, token: str, paid: bool) -> bool:
    for ev in step.events:
        shown = ev["kind"] in ("corner", "spun-out") and corner_token(state, ev["corner"]) == token
        if shown and (not paid or ev["heat"] > 0):
            return True
    return False


def _beside_or_behind(state: RaceState, car: int) -> bool:
    me = state.cars[car]
    taken = occupied(state, car)
    return ((me.position, not me.racing_line) in taken or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken)


def _fog_denied(step: Step, state: RaceState) -> bool:
    turn = state.turn
    return (step.action.endswith("end react") and turn is not None
            and _actor_effect(step, state) == "no-slipstream"
            and _beside_or_behind(state, turn.car)
            and state.cars[turn.car].position + 2 <= state.finish_position)


def _cloud_react(step: Step, state: RaceState) -> bool:
    turn = state.turn
    return (_stage(state) == "react" and turn is not None
            and _actor_effect(step, state) == "no-cooldown"
            and "H" in state.cars[turn.car].hand and state.cars[turn.car].gear <= 2)


def _left_sector_in_react(step: Step, state: RaceState) -> bool:
    """A react move (adrenaline or boost) took the car into another sector."""
    turn = state.turn
    if _stage(state) != "react" or turn is None:
        return False
    after = state_from_dict(step.after)
    if after.turn is None or after.turn.car != turn.car:
        return False
    track = state.track
    return (track.sector_of(state.cars[turn.car].position)
            != track.sector_of(after.cars[turn.car].position))


#: Rule ID -> (description, test of a step, whether the legal actions before it are the case).
WEATHER_TESTS: dict[str, tuple[str, Test, bool]] = {
    "weather.module": ("A race with the weather module: the first plan of round 1",
                       lambda s, v: v.round == 1 and v.cursor == 0 and _stage(v) == "", True),
    "weather.draw": ("The weather token drawn at setup is in the state from the start",
                     lambda s, v: v.round == 1 and v.cursor == 1 and _stage(v) == "", False),
    "weather.setup-change": ("The weather's setup change shows in engine, deck and discard "
                             "at the first reveal",
                             lambda s, v: v.round == 1 and any(
                                 e["kind"] == "revealed" for e in s.events), False),
    "road.draw": ("A corner with its road token drawn at setup",
                  lambda s, v: any(e["kind"] in ("corner", "spun-out") for e in s.events), False),
    "road.placement": ("A sector token acts in the sector after its corner",
                       lambda s, v: _actor_effect(s, v) is not None and _stage(v) == "react",
                       True),
    "road.where-the-car-is": ("A react move takes the car into another sector; the next "
                              "choices follow the new sector", _left_sector_in_react, False),
    "weather.sector-only": ("The weather's sector effect where the road token is Weather",
                            lambda s, v: _stage(v) in ("react", "slipstream") and v.conditions
                            is not None and v.turn is not None and v.conditions.road[
                                v.track.sector_of(v.cars[v.turn.car].position)] == WEATHER,
                            True),
    "weather.no-cooldown": ("Cloud: no cooldown in a Cloud sector, Heat in hand and gear 1-2",
                            _cloud_react, True),
    "weather.no-slipstream": ("Fog: no slipstream from a Fog sector beside or behind a car",
                              _fog_denied, False),
    "weather.slipstream-boost": ("Storm or Sun: a slipstream of 4 spaces",
                                 lambda s, v: s.action.endswith("slipstream +2"), False),
    "weather.cooling-bonus": ("Snow or Rain: the sector's cooling bonus is used",
                              lambda s, v: s.action.endswith("sector cooldown"), False),
    "road.limit": ("A corner with a Speed limit -1 or +1 token",
                   lambda s, v: _corner_events(s, v, "limit-plus", False)
                   or _corner_events(s, v, "limit-minus", False), False),
    "road.overheat": ("An Overheat corner costs one Heat more",
                      lambda s, v: _corner_events(s, v, "overheat", True), False),
    "road.free-boost": ("Heat control: a boost that costs no Heat",
                        lambda s, v: any(e["kind"] == "free-boost" for e in s.events), False),
    "road.slipstream-boost": ("Slipstream boost: a slipstream of 3 spaces",
                              lambda s, v: s.action.endswith("slipstream +1"), False),
    "ruling.cooling-bonus-own-cooldown": (
        "The cooling bonus used after the gear's cooldown",
        lambda s, v: s.action.endswith("sector cooldown") and v.turn is not None
        and v.turn.cooldown_used, False),
    "ruling.slipstream-bonus-all-or-nothing": (
        "A slipstream with a bonus offers 2 or 2+N spaces, nothing between",
        lambda s, v: _stage(v) == "slipstream" and v.turn is not None
        and slipstream_bonus(v, v.turn.car) > 0, True),
    "ruling.free-boost-empty-engine": (
        "A free boost with an empty engine",
        lambda s, v: s.action.endswith(" boost") and v.turn is not None
        and v.cars[v.turn.car].engine == 0, False),
}


def weather_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the weather module's cases from seeded weather races (``add`` is
    ``Builder.add``)."""
    found: dict[str, int] = dict.fromkeys(WEATHER_TESTS, 0)
    for seed in MODULE_SEEDS:
        if all(n >= PER_RULE for n in found.values()):
            break
        race = module_race(seed, (WEATHER,))
        for k, step in enumerate(race.steps):
            wanted = [r for r, n in found.items() if n < PER_RULE]
            if not wanted:
                break
            value = state_from_dict(step.before)
            for rule in wanted:
                text, test, legal = WEATHER_TESTS[rule]
                if not test(step, value):
                    continue
                found[rule] += 1
                where = f"weather race {seed} ({race.label}), step {k}"
                cid = f"{rule}.wrace{seed}-step{k}"
                if legal:
                    add(rule, cid, f"{text}: the legal actions ({where})", step.before,
                        {"legal": step.legal}, f"weather-race:{seed}:{k}")
                else:
                    add(rule, cid, f"{text}: {step.action} ({where})", step.before,
                        {"steps": [{"action": step.action, "state": step.after,
                                    "events": step.events}]}, f"weather-race:{seed}:{k}")
