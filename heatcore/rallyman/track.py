"""Rallyman GT tracks: data in ``spec/rallyman/tracks/*.json`` (checked against the schema
``spec/rallyman/track.schema.json``) loaded into a networkx graph of spaces."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import networkx as nx

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements
from heatcore.rallyman.spec import spec_folder

DANGERS = ("yellow", "orange", "red")


@dataclass(frozen=True)
class Corner:
    """The speed limit of a corner space: its middle number, kind and inside lane."""

    limit: int
    kind: str  # standard | dangerous | steep
    inside: int


@dataclass(frozen=True)
class Space:
    """One space: its tile, lane(s), progress interval and corner (if any)."""

    id: str
    tile: int
    lanes: tuple[int, ...]
    span: tuple[int, int]
    corner: Corner | None = None

    @property
    def progress2(self) -> int:
        """Twice the progress of the space's centre (an integer)."""
        return self.span[0] + self.span[1]

    @property
    def middle(self) -> bool:
        """Whether the space is in the middle lane of three (and only there)."""
        return self.lanes == (2,)


@dataclass(frozen=True)
class Move:
    """A forward move from one space to the next: straight or diagonal, with dotted lines."""

    src: str
    dst: str
    kind: str
    finish: bool = False
    entry_limit: int | None = None
    exit_limit: int | None = None
    entry_warning: int = 0
    exit_warning: int = 0


@dataclass(frozen=True, eq=False)
class Track:
    """A track: spaces, moves, tiles with danger levels, grid, laps; ``graph`` holds it all."""

    id: str
    name: str
    source: str
    constructed: bool
    laps: int
    lap_progress: int
    danger: dict[int, str]
    spaces: dict[str, Space]
    moves: dict[str, tuple[Move, ...]]
    beside: dict[str, frozenset[str]]
    grid: tuple[str, ...]
    pit_tile: str
    next_inside: dict[str, int] = field(repr=False)
    graph: nx.DiGraph = field(repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Track) and self.id == other.id

    def __hash__(self) -> int:
        return hash(self.id)

    def move(self, src: str, dst: str) -> Move | None:
        """The move from ``src`` to ``dst``, if there is one."""
        for move in self.moves[src]:
            if move.dst == dst:
                return move
        return None

    def danger_of(self, space: str) -> str:
        """The danger level of the tile holding ``space``."""
        return self.danger[self.spaces[space].tile]


def tracks_folder() -> Path:
    """``spec/rallyman/tracks``."""
    return spec_folder() / "tracks"


def track_ids() -> tuple[str, ...]:
    """Every Rallyman GT track shipped in ``spec/rallyman/tracks``."""
    return tuple(sorted(p.stem for p in tracks_folder().glob("*.json")))


@cache
def _schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(
        (spec_folder() / "track.schema.json").read_text(encoding="utf-8"))
    return data


def _check(ok: bool, detail: str) -> None:
    if not ok:
        raise MalformedInput("rgt.move.forward", detail)


def _overlap(a: Space, b: Space) -> bool:
    lanes_touch = max(a.lanes) + 1 == min(b.lanes) or max(b.lanes) + 1 == min(a.lanes)
    return lanes_touch and a.span[0] < b.span[1] and b.span[0] < a.span[1]


@implements("rgt.move.forward", "rgt.corner.steep-entry", "rgt.corner.steep-exit")
def track_from_dict(data: Any) -> Track:
    """Build a track from its JSON data; raises MalformedInput on any schema or graph error."""
    try:
        jsonschema.validate(data, _schema())
    except jsonschema.ValidationError as error:
        raise MalformedInput("rgt.move.forward",
                             f"track data: {error.message} at {list(error.path)}") from None
    danger = {t["number"]: t["danger"] for t in data["tiles"]}
    spaces: dict[str, Space] = {}
    for raw in data["spaces"]:
        _check(raw["id"] not in spaces, f"space {raw['id']} is listed twice")
        _check(raw["tile"] in danger, f"space {raw['id']} is on unknown tile {raw['tile']}")
        lanes = tuple(raw["lanes"])
        _check(list(lanes) == sorted(lanes) and lanes[-1] - lanes[0] == len(lanes) - 1,
               f"space {raw['id']} lanes must be adjacent and sorted")
        corner = raw.get("corner")
        spaces[raw["id"]] = Space(
            raw["id"], raw["tile"], lanes, (raw["span"][0], raw["span"][1]),
            None if corner is None else Corner(corner["limit"], corner["kind"], corner["inside"]))
    moves: dict[str, list[Move]] = {s: [] for s in spaces}
    graph = nx.DiGraph()
    for space in spaces.values():
        graph.add_node(space.id, tile=space.tile, lanes=space.lanes, span=space.span,
                       corner=space.corner, danger=danger[space.tile])
    for raw in data["moves"]:
        src, dst = raw["from"], raw["to"]
        _check(src in spaces and dst in spaces, f"move {src}->{dst} names an unknown space")
        move = Move(src, dst, raw["kind"], bool(raw.get("finish", False)),
                    raw.get("entry_limit"), raw.get("exit_limit"),
                    raw.get("entry_warning", 0), raw.get("exit_warning", 0))
        ahead = spaces[dst].progress2 > spaces[src].progress2
        _check(ahead != move.finish, f"move {src}->{dst} must go forward (or cross the line)")
        dotted = move.entry_limit or move.exit_limit or move.entry_warning or move.exit_warning
        _check(not dotted or move.kind == "straight",
               f"move {src}->{dst}: a dotted line is only crossed by a straight move")
        _check(not (move.entry_limit or move.entry_warning) or spaces[dst].corner is not None,
               f"move {src}->{dst}: an entry dotted line needs a corner space to enter")
        _check(not (move.exit_limit or move.exit_warning) or spaces[src].corner is not None,
               f"move {src}->{dst}: an exit dotted line needs a corner space to leave")
        moves[src].append(move)
        graph.add_edge(src, dst, move=move)
    for sid, out in moves.items():
        _check(bool(out), f"space {sid} has no move forward")
    _check(nx.is_strongly_connected(graph), "every space must be reachable from every other")
    for sid in data["grid"]:
        _check(sid in spaces, f"grid space {sid} is unknown")
    beside = {s.id: frozenset(t.id for t in spaces.values() if _overlap(s, t))
              for s in spaces.values()}
    return Track(
        id=data["id"], name=data["name"], source=data["source"],
        constructed=data["constructed"], laps=data["laps"], lap_progress=data["lap_progress"],
        danger=danger, spaces=spaces,
        moves={k: tuple(sorted(v, key=lambda m: m.dst)) for k, v in moves.items()},
        beside=beside, grid=tuple(data["grid"]), pit_tile=data["pit"]["tile"],
        next_inside=_next_inside(spaces, data["lap_progress"]), graph=graph)


def _next_inside(spaces: dict[str, Space], lap: int) -> dict[str, int]:
    """For each space, the inside lane of the next corner space ahead (wrapping the lap)."""
    corners = sorted((s.progress2, s.corner.inside) for s in spaces.values() if s.corner)
    out: dict[str, int] = {}
    for s in spaces.values():
        ahead = [inside for p, inside in corners if p > s.progress2]
        out[s.id] = ahead[0] if ahead else (corners[0][1] if corners else 1)
    del lap
    return out


@cache
def load_track(track_id: str) -> Track:
    """A shipped track by ID; MalformedInput names the known IDs when it is unknown."""
    if track_id not in track_ids():
        raise MalformedInput("rgt.move.forward", f"unknown Rallyman GT track {track_id!r} "
                             f"(tracks: {', '.join(track_ids())})")
    return track_from_dict(json.loads((tracks_folder() / f"{track_id}.json").read_text("utf-8")))
