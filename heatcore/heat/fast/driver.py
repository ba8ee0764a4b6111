"""Seeded races on the fast engine: the same races as :mod:`heatcore.heat.driver` plays (same
seed and policy, same actions, same end), played faster."""

from __future__ import annotations

import gc
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from heatcore.heat.actions import Action, LegendShuffle, Shuffle
from heatcore.heat.driver import MAX_ACTIONS, Policy, greedy_policy, shuffle_cards
from heatcore.heat.fast.modules import ModuleRace
from heatcore.heat.fast.race import FastRace
from heatcore.heat.modules.legends import full_deck
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings
from heatcore.heat.setup import RaceSetup, random_setup

#: The generator whose draws ``below`` reproduces (Final: a C variable once compiled).
PLAIN_RANDOM: Final = random.Random

FastPolicy = Callable[[FastRace, tuple[Action, ...], random.Random], Action]


@dataclass(frozen=True)
class FastRaceResult:
    """A race played on the fast engine: its setup, every action, and the race at the end."""

    setup: RaceSetup
    actions: tuple[Action, ...]
    final: FastRace


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` >= 1: the same number, and the same draws from ``rng``
    (for a plain ``random.Random``, :func:`_bits_below` of its ``getrandbits``; any other
    generator is asked ``randrange``: the tests compare the races with the reference
    driver's, which calls ``randrange`` and ``shuffle``)."""
    if type(rng) is not PLAIN_RANDOM:
        return rng.randrange(n)
    return _bits_below(rng.getrandbits, n)


def _bits_below(getrandbits: Callable[[int], int], n: int) -> int:
    """CPython's ``_randbelow_with_getrandbits``: draws of ``n.bit_length()`` bits until one
    is below ``n``, without the method calls around it."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def random_shuffle(race: FastRace, rng: random.Random) -> Shuffle | LegendShuffle:
    """The awaited shuffle (of a player's cards, or of the Legend deck), ordered by ``rng``
    (as :func:`heatcore.heat.driver.random_shuffle`)."""
    index = race.shuffle
    assert index is not None
    if isinstance(race, ModuleRace) and race.colours[index] is not None:
        legend_order = list(full_deck())
        rng.shuffle(legend_order)
        return LegendShuffle(index, tuple(legend_order))
    if type(rng) is not PLAIN_RANDOM:
        car = race.cars[index]
        return shuffle_cards(index, car.deck + car.discard, rng)
    order = race.shuffle_pool()
    getrandbits = rng.getrandbits  # found once for the whole shuffle
    for i in range(len(order) - 1, 0, -1):
        j = _bits_below(getrandbits, i + 1)
        order[i], order[j] = order[j], order[i]
    return Shuffle(index, tuple(order))


def fast_random_policy(race: FastRace, legal: tuple[Action, ...],
                       rng: random.Random) -> Action:
    """Any legal action, uniformly (as :func:`heatcore.heat.driver.random_policy`)."""
    return legal[below(rng, len(legal))]


def on_reference_state(policy: Policy) -> FastPolicy:
    """A policy of the reference driver, given the reference state of the race at each
    choice (slower: the state is built for every decision)."""
    def choose(race: FastRace, legal: tuple[Action, ...], rng: random.Random) -> Action:
        return policy(race.to_state(), legal, rng)
    return choose


#: The reference driver's policies, on the fast engine.
FAST_POLICIES: dict[str, FastPolicy] = {
    "random": fast_random_policy,
    "greedy": on_reference_state(greedy_policy),
}


class CollectorPaused:
    """``with CollectorPaused():`` the cyclic garbage collector is paused, then restored as
    it was. Fast-engine races make no reference cycles (``tests/test_fast_engine.py``: a
    batch leaves nothing for the collector), so reference counting frees all they drop;
    the collector's passes would only walk the action tables, about a tenth of the time.
    ``play`` pauses it for each race; a batch of races pauses it once for them all (when
    it resumes between races it walks every table again). ``CollectorPaused(False)`` leaves
    the collector alone (a batch on another engine)."""

    def __init__(self, pause: bool = True) -> None:
        self.pause = pause
        self.collecting = False

    def __enter__(self) -> None:
        self.collecting = self.pause and gc.isenabled()
        if self.pause:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self.collecting:
            gc.enable()


def play(setup: RaceSetup, policy: FastPolicy, rng: random.Random) -> FastRaceResult:
    """Play ``setup`` to the end: ``policy`` chooses, ``rng`` supplies chance outcomes (as
    :func:`heatcore.heat.driver.play`), with the cyclic garbage collector paused
    (:class:`CollectorPaused`)."""
    with CollectorPaused():
        race = FastRace.start(setup)
        actions: list[Action] = []
        uniform = policy is fast_random_policy
        while not race.is_over() and len(actions) < MAX_ACTIONS:
            if race.shuffle is not None:
                action: Action = random_shuffle(race, rng)
            elif uniform:  # fast_random_policy, without the call
                legal = race.legal_actions()
                action = legal[below(rng, len(legal))]
            else:
                action = policy(race, race.legal_actions(), rng)
            race.apply(action)
            actions.append(action)
        return FastRaceResult(setup, tuple(actions), race)


def fast_random_race(track: str, players: int, seed: int, laps: int | None = None,
                     policy: FastPolicy = fast_random_policy,
                     rulings: Rulings = DEFAULT_RULINGS, modules: tuple[str, ...] = (),
                     legends: int = 0, aggressive: bool = False) -> FastRaceResult:
    """A whole race from one seed, equal to ``heatcore.heat.driver.random_race`` with the same
    arguments (random policy by default)."""
    rng = random.Random(seed)
    return play(random_setup(track, players, rng, laps, modules, legends, aggressive,
                             rulings), policy, rng)
