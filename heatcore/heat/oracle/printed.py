"""The printed data the independent model reads: card values and track boards, from ``spec/``.

Read straight from ``spec/cards.toml`` and ``spec/tracks/*.json``; nothing here comes from
:mod:`heatcore.heat.cards` or :mod:`heatcore.heat.track`.
"""

from __future__ import annotations

import json
import tomllib
from dataclasses import dataclass
from functools import cache

from heatcore.framework.registry import spec_dir


@dataclass(frozen=True)
class PrintedCard:
    """One card as printed: its token, number (None for Stress and Heat) and basic symbol."""

    token: str
    name: str
    value: int | None
    basic: bool


@dataclass(frozen=True)
class PrintedTrack:
    """The parts of a track board the rules read: spaces per lap, corners, Heat and Stress."""

    id: str
    spaces_per_lap: int
    heat: int
    stress: int
    corners: tuple[tuple[int, int], ...]  # (space the corner line follows, speed limit)


@cache
def printed_cards() -> dict[str, PrintedCard]:
    """Every card of the core race by token, in the canonical card order."""
    data = tomllib.loads((spec_dir() / "cards.toml").read_text(encoding="utf-8"))
    return {raw["token"]: PrintedCard(raw["token"], raw["name"], raw.get("value"),
                                      bool(raw["basic"])) for raw in data["card"]}


@cache
def printed_track(track_id: str) -> PrintedTrack:
    """The board of ``track_id`` as its JSON file prints it."""
    folder = spec_dir() / "tracks"
    if track_id.startswith("constructed-"):  # a board made for testing (spec/tracks/constructed)
        folder, track_id = folder / "constructed", track_id.removeprefix("constructed-")
    data = json.loads((folder / f"{track_id}.json").read_text(encoding="utf-8"))
    corners = tuple((int(c["after_space"]), int(c["limit"])) for c in data["corners"])
    return PrintedTrack(str(data["id"]), int(data["spaces_per_lap"]), int(data["heat"]),
                        int(data["stress"]), corners)
