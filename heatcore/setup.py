"""Setting up a race: decks, engine, gear, stress supply, grid and starting hands.

The chance outcomes of setup (grid order, each deck's shuffle) are part of ``RaceSetup``,
so a race replays exactly from its setup and its actions.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from heatcore.cards import BOX_STRESS, HAND_SIZE, Card, canonical, starting_deck
from heatcore.errors import MalformedInput
from heatcore.events import Event, event
from heatcore.registry import implements
from heatcore.rounds import start_round
from heatcore.state import Car, Phase, RaceState
from heatcore.track import Track, load_track

MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class RaceSetup:
    """How a race starts: track, laps, the grid (cars pole first) and each shuffled deck."""

    track: str
    players: int
    laps: int
    grid: tuple[int, ...]
    decks: tuple[tuple[Card, ...], ...]


def check_setup(setup: RaceSetup, track: Track) -> None:
    """Raise MalformedInput naming the rule if the setup cannot start a race."""
    if not MIN_PLAYERS <= setup.players <= MAX_PLAYERS:
        raise MalformedInput("setup.grid", f"the core race takes 2-6 cars, not {setup.players}")
    if setup.players > len(track.grid):
        raise MalformedInput("setup.grid", f"track {track.id} has {len(track.grid)} grid spots")
    if setup.laps < 1:
        raise MalformedInput("setup.track-laps", f"a race has at least 1 lap, not {setup.laps}")
    if sorted(setup.grid) != list(range(setup.players)):
        raise MalformedInput("setup.grid", "the grid must list every car exactly once")
    if len(setup.decks) != setup.players:
        raise MalformedInput("setup.deck", "one shuffled deck per car is needed")
    expected = Counter(starting_deck(track.stress))
    for index, deck in enumerate(setup.decks):
        if Counter(deck) != expected:
            raise MalformedInput("setup.deck", f"deck of P{index + 1} is not the starting deck")


@implements("setup.track-laps", "setup.deck", "setup.engine", "setup.gear",
            "setup.stress-supply", "setup.grid", "setup.hand", "ruling.stress-supply")
def start_race(setup: RaceSetup) -> tuple[RaceState, tuple[Event, ...]]:
    """The state at the start of round 1 (cars on the grid, 7 cards in hand, gear 1)."""
    track = load_track(setup.track)
    check_setup(setup, track)
    spots = track.grid_positions()
    cars: list[Car | None] = [None] * setup.players
    for slot, index in enumerate(setup.grid):
        position, racing = spots[slot]
        deck = setup.decks[index]
        cars[index] = Car(position=position, racing_line=racing, gear=1, engine=track.heat,
                          hand=canonical(deck[:HAND_SIZE]), deck=tuple(deck[HAND_SIZE:]),
                          discard=())
    supply = BOX_STRESS - setup.players * track.stress
    events = [event("race-started", None, track=track.id, laps=setup.laps,
                    grid=tuple(f"P{i + 1}" for i in setup.grid))]
    state = RaceState(track=track, laps=setup.laps, cars=tuple(c for c in cars if c),
                      supply=supply, round=0, phase=Phase.PLAN, order=(), cursor=0)
    state = start_round(state, events)
    return state, tuple(events)


def random_setup(track_id: str, players: int, rng: random.Random,
                 laps: int | None = None) -> RaceSetup:
    """A setup with grid order and decks drawn from ``rng``."""
    track = load_track(track_id)
    grid = list(range(players))
    rng.shuffle(grid)
    decks = []
    for _ in range(players):
        deck = list(starting_deck(track.stress))
        rng.shuffle(deck)
        decks.append(tuple(deck))
    return RaceSetup(track_id, players, laps if laps is not None else track.laps, tuple(grid),
                     tuple(decks))
