#!/usr/bin/env python3
"""Worked example of the Python template: a small Heat engine written from
spec/schemas/HOWTO.md, the track schema and the rule texts in spec/rules/ alone.

It implements two things: building the start state from a setup (rules setup.*, with the grid
order and the decks given, as HOWTO section 6 asks), and listing the legal plans of the plan
phase (rules gear.*, play.*, and ruling.cluttered-gear). It declares that it compares states
and legal actions (no events), and declines everything else with `unsupported`: the harness
counts those as skips and resyncs, so every plan of every race is still checked.

Run it:  heatcore conform --impl "python3 examples/adapters/python/planner.py" --report out/
"""

from __future__ import annotations

import json
import os
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from template import HELLO, Adapter, Unsupported, main

JSON = Any
TRACKS = Path(os.environ.get("HEATCORE_TRACKS",
                             Path(__file__).resolve().parents[3] / "spec" / "tracks"))
CARD_ORDER = ["1", "2", "3", "4", "U0", "U5", "S", "H"]  # HOWTO section 3
BOX_STRESS = 37  # ruling.stress-supply
HAND = 7  # setup.hand

HELLO.update({
    "implementation": {"name": "planner (worked example)", "version": "1"},
    "compare": ["state", "legal"],
    "rulings": ["ruling.cluttered-gear", "ruling.stress-supply", "ruling.simultaneous-planning"],
    "tracks": sorted(p.stem for p in TRACKS.glob("*.json")),
})


def canonical(cards: list[str]) -> list[str]:
    """Cards in the canonical order 1 2 3 4 U0 U5 S H."""
    return sorted(cards, key=CARD_ORDER.index)


def racing_spot(track: JSON, space: int) -> int:
    """The racing-line spot (1 or 2) of a space (track.schema.json, corners)."""
    lane = track["racing_lane_start"]
    for corner in track["corners"]:  # in lap order
        if space <= corner["after_space"]:
            return int(lane)
        lane = corner["racing_lane_after"]
    return int(lane)


class Planner(Adapter):
    """Setup and the plan phase."""

    def setup(self, setup: JSON) -> JSON:
        track = json.loads((TRACKS / f"{setup['track']}.json").read_text())
        cars = []
        for index in range(setup["players"]):
            name = f"P{index + 1}"
            space, spot = track["grid"][setup["grid"].index(name)]
            deck = setup["decks"][index]
            cars.append({"id": name, "position": space - track["spaces_per_lap"],
                         "racing_line": spot == racing_spot(track, space), "gear": 1,
                         "engine": track["heat"], "hand": canonical(deck[:HAND]),
                         "deck": deck[HAND:], "discard": [], "played": [], "flipped": []})
        standing = sorted(cars, key=lambda c: (-c["position"], not c["racing_line"]))
        self.state = {"format": "heatcore.state/1", "track": setup["track"],
                      "laps": setup["laps"], "modules": setup.get("modules", []), "round": 1,
                      "phase": "plan", "order": [c["id"] for c in standing], "cursor": 0,
                      "supply": BOX_STRESS - setup["players"] * track["stress"],
                      "shuffle": None, "ranking": [], "turn": None, "cars": cars}
        return self.state

    def load(self, state: JSON) -> None:
        if state.get("phase") != "plan" or state.get("shuffle") is not None:
            raise Unsupported("only plan-phase states are implemented")
        self.state = state

    def legal(self) -> list[str]:
        if self.state is None:
            raise Unsupported("no state")
        name = self.state["order"][self.state["cursor"]]
        car = next(c for c in self.state["cars"] if c["id"] == name)
        gear, hand = car["gear"], car["hand"]
        free = [g for g in (gear - 1, gear, gear + 1) if 1 <= g <= 4]  # gear.shift.free
        paid = [g for g in (gear - 2, gear + 2) if 1 <= g <= 4 and car["engine"] >= 1]
        playable = [c for c in hand if c != "H"]  # play.heat-not-playable
        if len(playable) < min(free + paid):  # cluttered: any gear it may reach, the paid
            heat = [c for c in hand if c == "H"]  # two-gear shift too (ruling.cluttered-gear)
            return [f"{name} gear {g} play " +
                    " ".join(canonical(playable + heat[:g - len(playable)]))
                    for g in sorted(free + paid) if len(playable) + len(heat) >= g]
        out = []
        for g in sorted(free + paid):  # play.card-count: exactly g cards
            picks = {tuple(canonical(list(c))) for c in combinations(playable, g)}
            out += [f"{name} gear {g} play {' '.join(p)}" for p in sorted(picks)]
        return out

    def apply(self, action: str) -> tuple[JSON, list[JSON]]:
        raise Unsupported("apply is not implemented (this example only lists plans)")


assert Counter  # (kept for readers extending the example to count cards)

if __name__ == "__main__":
    raise SystemExit(main(Planner()))
