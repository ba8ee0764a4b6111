"""The printed data of Rallyman GT as the checker reads it, with plain ``json`` and
``tomllib``: tracks (``spec/rallyman/tracks/*.json``), components (``components.toml``: dice,
dashboards, limits, the bag) and the switches' defaults (``rulings.toml``); and seed 004's
rules over them: the corner rules of a move, the gear steps, the turn-order key."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.rallyman.spec import spec_folder

JSON = Any
TOKENS = ("gear", "brake", "coast", "weather", "yellow", "green")


@dataclass(frozen=True)
class Printed:
    """A track as printed: spaces, moves, tiles; with who is beside whom and the inside lane
    of the next corner, worked out here from the spaces' lanes and spans."""

    spaces: dict[str, dict[str, Any]]
    moves: dict[tuple[str, str], dict[str, Any]]
    ahead: dict[str, tuple[str, ...]]
    lap: int
    beside: dict[str, frozenset[str]]
    inside: dict[str, int]
    beside_centre: dict[str, frozenset[str]]


def _centre2(space: dict[str, Any]) -> int:
    return int(space["span"][0]) + int(space["span"][1])


def _touch(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two spaces side by side: adjacent lanes and overlapping spans."""
    adjacent = max(a["lanes"]) + 1 == min(b["lanes"]) or max(b["lanes"]) + 1 == min(a["lanes"])
    return bool(adjacent and a["span"][0] < b["span"][1] and b["span"][0] < a["span"][1])


def _centre_in(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """rgt.ruling.beside "centre": adjacent lanes and one space's centre within the other's
    span (twice the progress, to stay in integers)."""
    adjacent = max(a["lanes"]) + 1 == min(b["lanes"]) or max(b["lanes"]) + 1 == min(a["lanes"])
    inside = (2 * int(b["span"][0]) <= _centre2(a) < 2 * int(b["span"][1])
              or 2 * int(a["span"][0]) <= _centre2(b) < 2 * int(a["span"][1]))
    return bool(adjacent and inside)


@cache
def printed_track(track: str) -> Printed:
    """``spec/rallyman/tracks/<track>.json`` read with plain json."""
    data = json.loads((spec_folder() / "tracks" / f"{track}.json").read_text(encoding="utf-8"))
    spaces = {s["id"]: s for s in data["spaces"]}
    moves = {(m["from"], m["to"]): m for m in data["moves"]}
    ahead: dict[str, list[str]] = {}
    for src, dst in moves:
        ahead.setdefault(src, []).append(dst)
    corners = sorted((_centre2(s), s["corner"]["inside"]) for s in spaces.values()
                     if s.get("corner"))
    inside = {}
    for sid, s in spaces.items():
        later = [lane for c, lane in corners if c > _centre2(s)]
        inside[sid] = later[0] if later else corners[0][1]
    beside = {a: frozenset(b for b in spaces if _touch(spaces[a], spaces[b])) for a in spaces}
    centred = {a: frozenset(b for b in spaces if _centre_in(spaces[a], spaces[b]))
               for a in spaces}
    return Printed(spaces, moves, {k: tuple(v) for k, v in ahead.items()},
                   int(data["lap_progress"]), beside, inside, centred)


def neighbours(state: JSON) -> dict[str, frozenset[str]]:
    """Who is beside whom on the state's track, by the switch ``beside``."""
    track = printed_track(state["track"])
    return track.beside_centre if options(state)["beside"] == "centre" else track.beside


@cache
def printed_components() -> dict[str, Any]:
    """``components.toml``."""
    return tomllib.loads((spec_folder() / "components.toml").read_text(encoding="utf-8"))


@cache
def switch_defaults() -> dict[str, str]:
    """Each switch's default (heatcore's ruling), from ``rulings.toml``."""
    data = tomllib.loads((spec_folder() / "rulings.toml").read_text(encoding="utf-8"))
    return {r["switch"]["name"]: r["switch"]["default"] for r in data["ruling"] if "switch" in r}


def gear_of(text: Any) -> int:
    """A gear marker: ``"00"`` is -1 (below 0), else the number."""
    return -1 if str(text) == "00" else int(text)


def number(car_id: str) -> int:
    """``P3`` -> 2."""
    return int(car_id[1:]) - 1


def corner_verdict(track: Printed, src: str, dst: str, gear: int,
                   lower: bool = False) -> tuple[int, bool]:
    """(warnings the track adds, whether a limit is exceeded) for ``src`` -> ``dst`` in
    ``gear``, by seed 004's corner rules: a corner's number, or a dotted line's number when
    entering straight across it (``lower``: the lower of both, rgt.ruling.dotted-limit
    switched); an exit dotted line limits the next space; a dangerous corner at exactly its
    number and each dotted line with a warning symbol add a warning."""
    move = track.moves[(src, dst)]
    warnings = int(move.get("entry_warning", 0)) + int(move.get("exit_warning", 0))
    over = "exit_limit" in move and gear > move["exit_limit"]
    corner = track.spaces[dst].get("corner")
    if corner:
        limit = move["entry_limit"] if move["kind"] == "straight" and "entry_limit" in move \
            else corner["limit"]
        if lower:
            limit = min(limit, corner["limit"])
        over = over or gear > limit
        if corner["kind"] == "dangerous" and gear == corner["limit"] and not gear > limit:
            warnings += 1
    return warnings, over


def corner_rule(track: Printed, src: str, dst: str, limit: bool) -> str:
    """The corner rule behind a verdict on ``src`` -> ``dst`` that differs: in its limit
    (``limit``) or in its warnings."""
    move = track.moves[(src, dst)]
    corner = track.spaces[dst].get("corner") or {}
    if not limit:
        if move.get("entry_warning") or move.get("exit_warning"):
            return "rgt.corner.steep-warning"
        return "rgt.corner.dangerous"
    if "exit_limit" in move:
        return "rgt.corner.steep-exit"
    if move["kind"] == "straight" and "entry_limit" in move:
        return "rgt.corner.steep-entry"
    if corner.get("kind") == "steep":
        return "rgt.corner.steep-diagonal"
    return f"rgt.corner.{corner.get('kind', 'standard')}"


def gear_step_ok(current: int, gear: int, brakes: int, boosts: int) -> bool:
    """Seed 004: a gear die within one gear of the last (from 0 or 00: of 0), two above with
    one boost die, or k >= 2 below with k - 1 brake dice."""
    change = gear - max(current, 0)
    if -1 <= change <= 1:
        return brakes == 0 and boosts == 0
    if change == 2:
        return brakes == 0 and boosts == 1
    return change < -1 and brakes == -change - 1 and boosts == 0


def options(state: JSON) -> dict[str, str]:
    """The race's switches, defaults filled in."""
    return {**switch_defaults(), **(state.get("options") or {})}

def dashboard(state: JSON, car: JSON) -> tuple[tuple[int, ...], int, int, int, int]:
    """(gear dice, coast, brake, boost dice, warning limit) of ``car`` this turn."""
    comp = printed_components()
    gear, coast, brake, boost = comp["dashboards"][car["class"]][car["tyres"]][
        state["weather"]]
    tokens = Counter(car["tokens"])
    kept = max(0, gear - tokens["gear"])
    removes = options(state)["gear_damage_removes"]
    if removes == "count":  # any gear die, but one fewer of them per token
        gears = tuple(range(1, gear + 1)) if kept else ()
    else:
        gears = tuple(range(1, kept + 1)) if removes == "highest" \
            else tuple(range(gear - kept + 1, gear + 1))
    limit = int(comp["limits"]["warnings"])
    if comp["limits"]["suited"][car["tyres"]] != state["weather"]:
        limit = min(limit, int(options(state)["mismatch_limit"]))
    return (gears, max(0, coast - tokens["coast"]), max(0, brake - tokens["brake"]), boost,
            limit)

def gear_dice_allowed(state: JSON, car: JSON) -> int:
    """How many gear dice ``car`` may lay this turn: one fewer per gear damage token."""
    printed = printed_components()["dashboards"][car["class"]][car["tyres"]][state["weather"]]
    return max(0, int(printed[0]) - Counter(car["tokens"])["gear"])

def order_key(state: JSON, index: int, car: JSON) -> tuple[int, int, int, int]:
    """Turn-order key (smaller plays first): speed, distance, lane, car number."""
    track = printed_track(state["track"])
    space = track.spaces[car["space"]]
    distance = int(car["laps"]) * 2 * track.lap + _centre2(space)
    gap = min(abs(lane - track.inside[car["space"]]) for lane in space["lanes"])
    return (-gear_of(car["gear"]), -distance, gap, index)
