"""The race's starting state checked against the printed data (setup.* rules).

Read apart from the engine: the starting deck, the hand size, the gear and the box's Stress
count come from ``spec/starting-cards.toml``; the track's Heat, Stress and grid from its
board file (``spec/tracks/*.json``); a weather token's setup change from
``spec/modules/weather.json``. Nothing here calls :mod:`heatcore.heat.cards`,
:mod:`heatcore.heat.setup` or :mod:`heatcore.heat.track`. It trusts the state's own record of a
Championship event's changes (``state.changes``), of each car's Garage upgrades and
Sponsorship cards, and, given the setup, the grid order and the shuffled decks it chose.

:func:`start_problems` lists every way the state differs, each with the rule IDs it breaks;
:class:`heatcore.heat.race_checker.RaceChecker` raises the first one when a race starts.
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.registry import spec_dir
from heatcore.heat.oracle.modules import Weather
from heatcore.heat.state import RaceState


@dataclass(frozen=True)
class Problem:
    """One way the starting state breaks the setup rules."""

    rules: tuple[str, ...]
    detail: str


@cache
def printed_start() -> dict[str, Any]:
    """``spec/starting-cards.toml`` as read."""
    return tomllib.loads((spec_dir() / "starting-cards.toml").read_text(encoding="utf-8"))


@cache
def _board(track_id: str) -> dict[str, Any]:
    folder = spec_dir() / "tracks"
    if track_id.startswith("constructed-"):
        folder, track_id = folder / "constructed", track_id.removeprefix("constructed-")
    data: dict[str, Any] = json.loads((folder / f"{track_id}.json").read_text(encoding="utf-8"))
    return data


def racing_lane(track_id: str, space: int) -> int:
    """The lane (1 or 2) of the racing line on board space ``space``: the lane printed after
    the last corner line before it (round the lap: the last corner's, before the first)."""
    corners = _board(track_id)["corners"]
    lane = int(corners[-1]["racing_lane_after"])
    for corner in corners:
        if int(corner["after_space"]) < space:
            lane = int(corner["racing_lane_after"])
    return lane


def grid_spots(track_id: str) -> list[tuple[int, bool]]:
    """The grid spots, pole first, as (position counted from the start line, racing line):
    the board's grid boxes lie on the lap before the start line."""
    board = _board(track_id)
    lap = int(board["spaces_per_lap"])
    return [(int(space) - lap, int(lane) == racing_lane(track_id, int(space)))
            for space, lane in board["grid"]]


def starting_cards(state: RaceState, car: int) -> tuple[Counter[str], int, Counter[str]]:
    """Car ``car``'s cards at the start, from the printed data: (hand + draw deck, Heat in the
    engine, discard pile)."""
    data = printed_start()
    board = _board(state.track.id)
    deck: Counter[str] = Counter({k: int(n) for k, n in data["deck"].items()})
    deck["S"] += int(board["stress"]) + state.changes.stress  # event.setup-changes
    engine = int(board["heat"]) + state.changes.heat
    discard: Counter[str] = Counter()
    if state.conditions is not None:  # weather.setup-change
        change = Weather(state.conditions.weather, state.conditions.road).setup()
        deck["S"] += change["stress_in_deck"]
        deck["H"] += change["heat_to_deck"]
        discard["H"] += change["heat_to_discard"]
        engine += change["heat_in_engine"] - change["heat_to_deck"] - change["heat_to_discard"]
    if state.garage is not None:  # garage.module: the state's record of the car's upgrades
        deck -= Counter(data["garage"]["removes"])
        if car < len(state.garage.owned):
            deck += Counter(state.garage.owned[car])
        if car < len(state.garage.sponsors):  # sponsor.in-hand, sponsor.deck
            deck += Counter(state.garage.sponsors[car])
    return deck, engine, discard


def _stress_per_deck(state: RaceState) -> int:
    """The Stress cards each starting deck takes from the box (setup.deck)."""
    stress = int(_board(state.track.id)["stress"]) + state.changes.stress
    if state.conditions is not None:
        stress += Weather(state.conditions.weather, state.conditions.road).setup()[
            "stress_in_deck"]
    return stress


def start_problems(state: RaceState, grid: tuple[int, ...] | None = None,
                   decks: tuple[tuple[str, ...], ...] | None = None) -> list[Problem]:
    """Every way ``state`` (a race just started) differs from the printed setup. With the
    setup's ``grid`` (car indices in grid order) and shuffled ``decks``, also each car's
    grid spot and that its hand is the top of its own deck."""
    data = printed_start()
    out: list[Problem] = []
    spots = grid_spots(state.track.id)
    taken = sorted((c.position, c.racing_line) for c in state.cars)
    if taken != sorted(spots[:len(state.cars)]):
        out.append(Problem(("setup.grid", "setup.spaces-and-spots"),
                           f"the cars stand on {taken}; the board's first "
                           f"{len(state.cars)} grid spots are {spots[:len(state.cars)]}"))
    if grid is not None:
        for slot, index in enumerate(grid):
            here = state.cars[index].spot
            if here != spots[slot]:
                out.append(Problem(("setup.grid",), f"P{index + 1} is grid car {slot + 1} "
                                   f"but stands on {here}, not {spots[slot]}"))
    hand_size = state.changes.hand if not state.changes.is_core() else int(data["hand"])
    players = 0
    for i, car in enumerate(state.cars):
        who = f"P{i + 1}"
        if car.gear != int(data["gear"]):
            out.append(Problem(("setup.gear",), f"{who} starts in gear {car.gear}"))
        if car.legend is not None:  # legend.setup: no cards, an empty engine
            if car.hand or car.deck or car.discard or car.engine:
                out.append(Problem(("legend.setup",), f"{who}, a Legend, holds cards"))
            continue
        players += 1
        deck, engine, discard = starting_cards(state, i)
        held = Counter(car.hand) + Counter(car.deck)
        if held != deck:
            wrong = sorted((held - deck).elements())
            lacking = sorted((deck - held).elements())
            out.append(Problem(("setup.deck", "weather.setup-change"),
                               f"{who}'s hand and deck hold {wrong} too many and lack "
                               f"{lacking}"))
        if Counter(car.discard) != discard or car.played or car.flipped:
            out.append(Problem(("weather.setup-change", "setup.hand"),
                               f"{who} starts with discard {car.discard} and play area "
                               f"{car.played + car.flipped}, not {sorted(discard.elements())}"))
        if car.engine != engine:
            out.append(Problem(("setup.engine", "weather.setup-change"),
                               f"{who}'s engine holds {car.engine} Heat, not {engine}"))
        if len(car.hand) != hand_size:
            out.append(Problem(("setup.hand",), f"{who} holds {len(car.hand)} cards, "
                               f"not {hand_size}"))
        if decks is not None and i < len(decks):
            shuffled = decks[i]
            sponsors = Counter(state.garage.sponsors[i]) if state.garage is not None \
                and i < len(state.garage.sponsors) else Counter()
            top = Counter(car.hand) - sponsors
            if top != Counter(shuffled[:sum(top.values())]) or \
                    tuple(car.deck) != tuple(shuffled[sum(top.values()):]):
                out.append(Problem(("setup.hand", "setup.deck"),
                                   f"{who}'s hand is not the top of its shuffled deck"))
    supply = int(data["box_stress"]) - players * _stress_per_deck(state)
    if state.supply != supply:
        out.append(Problem(("setup.stress-supply", "ruling.stress-supply"),
                           f"the Stress supply holds {state.supply}, not {supply}"))
    return out
