"""Seeded random races on the fast engine: the same races as :func:`heatcore.driver.random_race`
with the random policy (same seed, same actions, same end), played faster."""

from __future__ import annotations

import random
from dataclasses import dataclass

from heatcore.actions import Action, Shuffle
from heatcore.driver import MAX_ACTIONS
from heatcore.fast.race import FastRace
from heatcore.setup import RaceSetup, random_setup


@dataclass(frozen=True)
class FastRaceResult:
    """A race played on the fast engine: its setup, every action, and the race at the end."""

    setup: RaceSetup
    actions: tuple[Action, ...]
    final: FastRace


def random_shuffle(race: FastRace, rng: random.Random) -> Shuffle:
    """The awaited shuffle, ordered by ``rng`` (as :func:`heatcore.driver.random_shuffle`)."""
    index = race.shuffle
    assert index is not None
    car = race.cars[index]
    cards = sorted(car.deck + car.discard)
    rng.shuffle(cards)
    return Shuffle(index, tuple(cards))


def play_random(setup: RaceSetup, rng: random.Random) -> FastRaceResult:
    """Play ``setup`` to the end choosing uniformly among the legal actions, as
    :func:`heatcore.driver.play` does with :func:`heatcore.driver.random_policy`."""
    race = FastRace.start(setup)
    actions: list[Action] = []
    while not race.is_over() and len(actions) < MAX_ACTIONS:
        if race.shuffle is not None:
            action: Action = random_shuffle(race, rng)
        else:
            legal = race.legal_actions()
            action = legal[rng.randrange(len(legal))]
        race.apply(action)
        actions.append(action)
    return FastRaceResult(setup, tuple(actions), race)


def fast_random_race(track: str, players: int, seed: int,
                     laps: int | None = None) -> FastRaceResult:
    """A whole random race from one seed, equal to ``heatcore.driver.random_race(track,
    players, seed, laps)``."""
    rng = random.Random(seed)
    return play_random(random_setup(track, players, rng, laps), rng)
