"""Perft: how many action sequences of a given depth a race start has (``spec/perft.md``).

A node is a race state awaiting a decision (or over). Its children are the states after
each legal action, each *settled*: a chance point reached on the way (a shuffle) is
resolved at once by :func:`shuffle_order`, a function of the seed and the cards only, so
the count depends on the seed and the rules and on no random generator. Counting is
depth first with a transposition table keyed by the state value (two states are equal
exactly when their canonical JSON is: the JSON round trip is exact), and bulk counting at
the last ply (``perft(n, 1)`` is the number of legal actions of ``n``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from heatcore.framework.cliutil import CommandError
from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import spec_dir
from heatcore.heat.actions import Action, Shuffle
from heatcore.heat.cards import Card, canonical
from heatcore.heat.cleanup import shuffled_cards
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.setup import RaceSetup, random_setup, start_race
from heatcore.heat.state import RaceState

#: The perft engines: the reference engine, and the fast engine (the same rules, checked
#: against the reference step by step in tests/test_fast_engine.py).
ENGINES = ("fast", "reference")
#: Entries the transposition table may hold before it is emptied (bounds memory).
TABLE_LIMIT = 2_000_000


def perft_setup(track: str, players: int, seed: int) -> RaceSetup:
    """The setup of a perft start: ``random_setup`` drawn from ``random.Random(seed)`` at
    the track's own laps (the same start as ``heatcore race --seed``)."""
    return random_setup(track, players, random.Random(seed))


def shuffle_order(cards: Sequence[Card], seed: int, car: int) -> tuple[Card, ...]:
    """The deck order of a perft chance point: ``cards`` in canonical card order, then
    position ``i`` ranked by ``sha256("heatcore-perft/{seed}/P{car+1}/{i}")`` (hex digest,
    ascending); the result is top card first."""
    ordered = canonical(cards)
    keys = [hashlib.sha256(f"heatcore-perft/{seed}/P{car + 1}/{i}".encode()).hexdigest()
            for i in range(len(ordered))]
    return tuple(ordered[i] for i in sorted(range(len(ordered)), key=keys.__getitem__))


def chance_action(state: RaceState, seed: int) -> Shuffle:
    """The perft outcome of the chance point ``state`` awaits."""
    car = state.shuffle
    if car is None:
        raise MalformedInput("deck.reshuffle", "the state awaits no shuffle")
    if state.is_legend(car):
        raise MalformedInput("legend.deck", "perft counts core races only (no Legends)")
    return Shuffle(car, shuffle_order(shuffled_cards(state, car), seed, car))


Step = Callable[[RaceState, Action], RaceState]


def reference_step(state: RaceState, action: Action) -> RaceState:
    """The next state on the reference engine."""
    return apply(state, action)[0]


def fast_step(state: RaceState, action: Action) -> RaceState:
    """The next state on the fast engine."""
    from heatcore.heat.fast import FastRace

    race = FastRace(state)
    race.apply(action)
    return race.to_state()


def fast_legal(state: RaceState) -> tuple[Action, ...]:
    """The legal actions on the fast engine."""
    from heatcore.heat.fast import FastRace

    return FastRace(state).legal_actions()


@dataclass
class Counter:
    """Counts perft on one engine, with its transposition table and tallies."""

    seed: int
    engine: str = "fast"
    nodes: int = 0  # states expanded (legal actions listed)
    hits: int = 0  # subtrees answered by the table

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise MalformedInput("round.sequence",
                                 f"unknown engine {self.engine!r} (engines: {', '.join(ENGINES)})")
        self._step: Step = fast_step if self.engine == "fast" else reference_step
        self._legal: Callable[[RaceState], tuple[Action, ...]] = (
            fast_legal if self.engine == "fast" else legal_actions)
        self.table: dict[tuple[RaceState, int], int] = {}

    def settle(self, state: RaceState) -> RaceState:
        """``state`` with every pending chance point resolved by :func:`shuffle_order`."""
        while state.is_chance():
            state = self._step(state, chance_action(state, self.seed))
        return state

    def child(self, state: RaceState, action: Action) -> RaceState:
        """The node after ``action``."""
        return self.settle(self._step(state, action))

    def legal(self, state: RaceState) -> tuple[Action, ...]:
        """The legal actions of a node."""
        self.nodes += 1
        return self._legal(state)

    def count(self, state: RaceState, depth: int) -> int:
        """perft(state, depth)."""
        if depth == 0:
            return 1
        if depth == 1:
            return len(self.legal(state))
        key = (state, depth)
        known = self.table.get(key)
        if known is not None:
            self.hits += 1
            return known
        total = sum(self.count(self.child(state, a), depth - 1) for a in self.legal(state))
        if len(self.table) >= TABLE_LIMIT:
            self.table.clear()
        self.table[key] = total
        return total

    def divide(self, state: RaceState, depth: int) -> list[tuple[str, int]]:
        """perft(child, depth - 1) of each legal action of ``state``, in canonical order."""
        if depth < 1:
            raise MalformedInput("round.sequence", "divide needs a depth of at least 1")
        return [(str(a), self.count(self.child(state, a), depth - 1))
                for a in self.legal(state)]


def perft_start(setup: RaceSetup, seed: int) -> RaceState:
    """The root node of a perft run (the race start, settled)."""
    state, _ = start_race(setup)
    if setup.modules:
        raise MalformedInput("weather.module", "perft counts core races only (no modules)")
    return Counter(seed, "reference").settle(state)


def perft(setup: RaceSetup, seed: int, depth: int, engine: str = "fast") -> int:
    """The number of action sequences of length ``depth`` from the start of ``setup``."""
    counter = Counter(seed, engine)
    return counter.count(perft_start(setup, seed), depth)


#: The format of the reference counts' file.
FORMAT = "heatcore.perft/1"


def reference_file() -> Path:
    """Where the reference counts live."""
    return spec_dir() / "fixtures" / "perft" / "perft.json"


def load_reference(path: Path | None = None) -> dict[str, Any]:
    """The reference file's data; CommandError if it cannot be read."""
    path = path or reference_file()
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise CommandError(f"cannot read {path}: {error}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CommandError(f"{path} is not a perft file (format {FORMAT})")
    return data
