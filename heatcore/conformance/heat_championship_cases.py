"""Fixture cases of the Championship's event changes: steps cut from the first rounds of
races set up as a championship's third race is (the Garage module with three upgrades each,
here from a quick start; the event's laps, Heat, Stress and hand size), three per event rule
whose change a race shows.

The rules a championship settles around its races (sponsors, press corners, points,
standings, the grid: :data:`heatcore.championship.data.BETWEEN_RACES`) are not carried by
the race protocol; the championship log and its independent check test them."""

from __future__ import annotations

import random
from collections.abc import Callable

from heatcore.championship.data import events, seasons
from heatcore.championship.season import expected_deck, race_setup
from heatcore.conformance.binding import JSON, RandomRace, Step
from heatcore.conformance.heat import record_race
from heatcore.conformance.heat_module_cases import Test, module_cases
from heatcore.driver import greedy_policy, random_policy
from heatcore.garage.draft import quick_start
from heatcore.state import RaceState

#: Seeds of the championship races the cases are cut from.
CHAMPIONSHIP_SEEDS = range(3000, 3060)
#: The events whose changes a race shows, in the order the seeds cycle through them.
SHOWN = (3, 4, 5, 9, 10)
#: Steps recorded of each race: the cases come from its first rounds.
STEPS = 160


def championship_race(seed: int) -> RandomRace:
    """The first rounds of a race under event ``SHOWN[seed % 5]``, on its season's track,
    with 2-6 players, upgrades from a quick start, grid and decks drawn from the seed."""
    event = events()[SHOWN[seed % len(SHOWN)]]
    race = next(r for s in seasons().values() for r in s.races if r.event == event)
    rng = random.Random(seed)
    players = 2 + (seed // len(SHOWN)) % 5
    grid = list(range(players))
    rng.shuffle(grid)
    upgrades = quick_start(players, rng)
    decks = []
    for ups in upgrades:
        deck = list(expected_deck(race, ups))
        rng.shuffle(deck)
        decks.append(tuple(deck))
    setup = race_setup(race, players, tuple(grid), upgrades, tuple(decks))
    policy = greedy_policy if seed % 2 else random_policy
    return record_race(seed, setup, policy, policy.__name__, rng, STEPS)


def _first_plan(event: int) -> Test:
    """The first plan of a race under ``event`` (its start state's numbers at work)."""
    def test(step: Step, state: RaceState) -> bool:
        return (state.round == 1 and state.cursor == 0 and state.turn is None
                and _event_of(step) == event)
    return test


def _draws_to(size: int) -> Test:
    """A car draws up to a hand of ``size`` cards (a changed hand size at work)."""
    def test(step: Step, state: RaceState) -> bool:
        if not any(e["kind"] == "drew" for e in step.events) or state.turn is None:
            return False
        car = step.after["cars"][state.turn.car]
        return len(car["hand"]) == size and state.changes.hand == size
    return test


def _eliminates(step: Step, state: RaceState) -> bool:
    """A step in which a car spins out under an event whose spins eliminate it."""
    return state.changes.eliminate and any(e["kind"] == "eliminated" for e in step.events)


def _event_of(step: Step) -> int:
    """The event a case's state comes from, read back from its numbers and laps."""
    changes = step.before.get("changes", {"heat": 0, "stress": 0, "hand": 7})
    for number in SHOWN:
        want = dict(events()[number].changes)
        if {k: changes[k] for k in ("heat", "stress")} == {
                "heat": want.get("heat", 0), "stress": want.get("stress", 0)} \
                and changes["hand"] == want.get("hand", 7) \
                and (number != 3 or step.before["laps"] == 2):
            return number
    return 0


#: The event rules a race shows (as the weather module's WEATHER_TESTS).
CHAMPIONSHIP_TESTS: dict[str, tuple[str, Test, bool]] = {
    "event.setup-changes": ("A championship race under New safety regulations: the first "
                            "plan with 4 Heat and a hand of 6", _first_plan(9), True),
    "event.strike": ("A championship race under Drivers' strike: Italia one lap shorter, "
                     "the first plan", _first_plan(3), True),
    "event.engine-unrestricted": ("A championship race under Engine restrictions lifted: "
                                  "the first plan with 7 Heat", _first_plan(4), True),
    "event.record-crowds": ("A championship race under Record crowds: a car draws to a hand "
                            "of 8", _draws_to(8), False),
    "event.safety": ("A championship race under New safety regulations: a car draws to a "
                     "hand of 6", _draws_to(6), False),
    "event.sponsor-withdraws": ("A championship race under Title sponsor withdraws: the "
                                "first plan, one Stress card more in every deck",
                                _first_plan(10), True),
    "ruling.eliminated-turn": ("A championship race under Title sponsor withdraws: a car "
                               "spins out and is eliminated, taken off the track",
                               _eliminates, False),
}


def championship_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the event rules' cases from seeded championship races, three per rule."""
    module_cases(add, ("championship",), CHAMPIONSHIP_TESTS, "crace", championship_race,
                 CHAMPIONSHIP_SEEDS)

