"""A witness of a module situation mined by Z3 (:mod:`proofs.module_miner`,
:mod:`proofs.garage_miner`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ModuleWitness:
    """One mined situation: the track, where the car starts, what it plays, the road tokens
    (weather module; empty otherwise), the engine's Heat (-1: as dealt) and the encoding's
    prediction."""

    situation: str
    track: str
    start: int
    cards: tuple[str, ...]
    road: tuple[str, ...]
    engine: int
    predicted: dict[str, Any]
