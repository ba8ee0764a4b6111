"""Fixture cases of the Championship's event changes: steps cut from the first rounds of
races set up as a championship's third race is (the Garage module with three upgrades each,
here from a quick start; the event's laps, Heat, Stress and hand size), three per event rule
whose change a race shows.

The Sponsorship cards of a race (in the hand, played, used up, discarded, given during the
race by the ``sponsor`` input) are cut from the races of seeded championships. The rules a
championship settles around its races (the deck and who earns a card, press corners,
points, standings, the grid: :data:`heatcore.heat.modules.championship.data.BETWEEN_RACES`) are not
carried by the race protocol; the championship log and its independent check test them."""

from __future__ import annotations

import random
from collections.abc import Callable

from heatcore.framework.conformance.binding import JSON, RandomRace, Step
from heatcore.heat.conformance.binding import record_race
from heatcore.heat.conformance.module_cases import Test, module_cases
from heatcore.heat.driver import greedy_policy, random_policy
from heatcore.heat.modules.championship.data import events, seasons
from heatcore.heat.modules.championship.season import expected_deck, race_setup
from heatcore.heat.modules.garage.draft import quick_start
from heatcore.heat.state import RaceState

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



# ---------------------------------------------------------------- Sponsorship cards

#: Seeds of the championships whose races the Sponsorship cases are cut from.
SPONSOR_SEEDS = range(3100, 3140)


def sponsor_race(seed: int) -> RandomRace:
    """One race of a championship played from ``seed`` (season, players, race and policy
    from the seed), recorded step by step with its Sponsorship cards: the start cards in
    the hands, the cards given during the race (``sponsor`` steps, whose legal actions are
    those of the decision still awaited) and the cards played and used up."""
    from heatcore.framework.events import event_to_dict
    from heatcore.heat.engine import apply, legal_actions
    from heatcore.heat.modules.championship.season import play_championship
    from heatcore.heat.notation import setup_to_dict, state_to_dict
    from heatcore.heat.setup import start_race

    year = 1961 + seed % 3
    players = 2 + (seed // 3) % 5
    policy = greedy_policy if seed % 2 else random_policy
    champ = play_championship(year, players, seed, policy)
    race = champ.races[(seed // 2) % len(champ.races)]
    state, _ = start_race(race.race.setup)
    start = before = state_to_dict(state)
    steps = []
    for action in race.race.actions:
        legal = [] if state.is_chance() else [str(a) for a in legal_actions(state)]
        state, events = apply(state, action)
        after = state_to_dict(state)
        steps.append(Step(before, str(action), after, [event_to_dict(e) for e in events],
                          legal))
        before = after
    label = (f"{year} race {race.number} ({race.season_race.track}), {players} cars, "
             f"{policy.__name__}")
    return RandomRace(seed, label, start, steps, setup_to_dict(race.race.setup))


def _sponsor_in_hand(step: Step, state: RaceState) -> bool:
    """A plan awaited from a car holding a Sponsorship card in its hand."""
    return state.turn is None and not state.is_chance() and state.phase.value == "plan" \
        and any(c.startswith("S8") for c in state.cars[state.order[state.cursor]].hand)


def _revealed_sponsor(step: Step, state: RaceState) -> bool:
    """A Sponsorship card revealed: its speed counts (with its symbols)."""
    return any(e["kind"] == "revealed" and any(c.startswith("S8") for c in e["cards"])
               for e in step.events)


def _used(step: Step, state: RaceState) -> bool:
    """A played Sponsorship card leaves the play area, used up."""
    return any(e["kind"] == "sponsor-used" for e in step.events)


def _discards_sponsor(step: Step, state: RaceState) -> bool:
    """A car discards an unplayed Sponsorship card in step 8."""
    words = step.action.split()
    return words[1] == "discard" and any(c.startswith("S8") for c in words[2:])


def _gains_at_discard(step: Step, state: RaceState) -> bool:
    """A card given to the acting car while its discard is awaited."""
    return step.action.split()[1] == "sponsor" and state.turn is not None \
        and state.turn.stage.value == "discard" and step.action.startswith(
            f"P{state.turn.car + 1} ")


def _gains(step: Step, state: RaceState) -> bool:
    """A Sponsorship card given during the race goes into the hand."""
    return step.action.split()[1] == "sponsor"


#: The Sponsorship rules a race shows.
SPONSOR_TESTS: dict[str, tuple[str, Test, bool]] = {
    "sponsor.in-hand": ("A championship race: a car holding a Sponsorship card plans",
                        _sponsor_in_hand, True),
    "sponsor.play": ("A championship race: a Sponsorship card revealed counts its speed",
                     _revealed_sponsor, False),
    "sponsor.one-time": ("A championship race: a played Sponsorship card is used up at the "
                         "cleanup, not discarded", _used, False),
    "sponsor.discard": ("A championship race: an unplayed Sponsorship card discarded to the "
                        "player's discard pile", _discards_sponsor, False),
    "ruling.sponsor-discarded": ("A championship race: a discarded Sponsorship card stays "
                                 "the player's", _discards_sponsor, False),
    "ruling.sponsor-gained-timing": ("A championship race: a card earned in the turn goes "
                                     "into the hand while its discard is awaited",
                                     _gains_at_discard, False),
    "sponsor.given-at-once": ("A championship race: a Sponsorship card earned is put into "
                              "the hand at once", _gains, False),
}


def sponsor_cases(add: Callable[[str, str, str, JSON, JSON, str], None]) -> None:
    """Cut the Sponsorship rules' cases from seeded championship races, three per rule."""
    module_cases(add, ("championship",), SPONSOR_TESTS, "sponsor", sponsor_race,
                 SPONSOR_SEEDS)
