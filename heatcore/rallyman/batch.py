"""Batches of Rallyman GT races: seeded races one after another, with their throughput."""

from __future__ import annotations

import time
from dataclasses import dataclass

from heatcore.rallyman.driver import POLICIES, random_race


@dataclass(frozen=True)
class Cell:
    """Throughput of one track and player count."""

    track: str
    players: int
    races: int
    actions: int
    seconds: float

    @property
    def races_per_second(self) -> float:
        """Races per second."""
        return self.races / self.seconds if self.seconds else 0.0

    @property
    def actions_per_second(self) -> float:
        """Actions (choices and chance outcomes) per second."""
        return self.actions / self.seconds if self.seconds else 0.0


def measure(track: str, players: int, seeds: range, laps: int | None, policy: str) -> Cell:
    """Play the seeded races one after another and time them."""
    start = time.perf_counter()
    actions = sum(len(random_race(track, players, seed, laps, POLICIES[policy]).actions)
                  for seed in seeds)
    return Cell(track, players, len(seeds), actions, time.perf_counter() - start)
