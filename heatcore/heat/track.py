"""Tracks as data: loaded from ``spec/tracks/*.json`` into a networkx graph of spots.

Positions are unrolled: the pole space is position 0, position ``p`` lies on space
``((p - 1) mod L) + 1``; the corner line after space ``P`` on lap ``j`` (``j = 0`` the first
lap) lies between positions ``P + L*j`` and ``P + L*j + 1``; the final finish line lies
between ``L*laps`` and ``L*laps + 1``. Cars stand on the board's spots: a car at position
``p`` holds the board spot ``(space(p), racing line or not)`` whatever lap it is on.
"""

from __future__ import annotations

import json
from bisect import bisect_left
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements, spec_dir


@dataclass(frozen=True)
class Corner:
    """A corner line after space ``after_space`` with its speed limit.

    ``legend_line``: the Legend line lies after that space (Legends module); ``aggressive``:
    the chevron distance within which an aggressive Legend may cross one more corner line
    (0 when the corner has no chevron)."""

    after_space: int
    limit: int
    racing_lane_after: int
    legend_line: int = 0
    aggressive: int = 0


@dataclass(frozen=True)
class CornerLine:
    """A corner line at an unrolled position: it lies between ``position`` and ``position+1``."""

    position: int
    limit: int
    number: int  # 1-based index of the corner on the lap


@dataclass(frozen=True, eq=False)
class Track:
    """A race track: a loop of spaces of two spots each, corner lines, grid, counts."""

    id: str
    name: str
    spaces_per_lap: int
    laps: int
    heat: int
    stress: int
    racing_lane_start: int
    corners: tuple[Corner, ...]
    grid: tuple[tuple[int, int], ...]
    source: str = ""
    graph: nx.DiGraph = field(default_factory=nx.DiGraph, repr=False)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Track) and self.id == other.id

    def __hash__(self) -> int:
        return hash(self.id)

    def space(self, position: int) -> int:
        """The space (1..L) of an unrolled position."""
        return (position - 1) % self.spaces_per_lap + 1

    @implements("setup.board-space")
    def board_spot(self, position: int, racing_line: bool) -> tuple[int, bool]:
        """The spot on the board of a car at an unrolled position: (space 1..L, racing line).
        Cars laps apart on the same board spot stand on the same spot."""
        return (self.space(position), racing_line)

    def racing_lane(self, space: int) -> int:
        """The lane (1 or 2) of the racing-line spot of a space, read from the graph."""
        lane: int = self.graph.graph["racing_lane"][space]
        return lane

    @implements("road.placement")
    def sector_of(self, position: int) -> int:
        """The index (0-based) of the corner whose sector holds ``position``: the last corner
        line at or behind it (spaces P+1 .. next P), wrapping to the last corner before
        the first one."""
        space = self.space(position)
        index = len(self.corners) - 1
        for number, corner in enumerate(self.corners):
            if corner.after_space < space:
                index = number
        return index

    def sector_spaces(self, index: int) -> tuple[int, int]:
        """First and last space of the sector after corner ``index`` (the last may wrap)."""
        corner = self.corners[index]
        following = self.corners[(index + 1) % len(self.corners)]
        return (corner.after_space % self.spaces_per_lap + 1, following.after_space)

    def finish_position(self, laps: int) -> int:
        """The last position before the final finish line of a race of ``laps`` laps."""
        return self.spaces_per_lap * laps

    @implements("corner.check", "corner.after-finish-ignored")
    def corner_lines(self, start: int, end: int, laps: int) -> tuple[CornerLine, ...]:
        """Corner lines crossed moving from ``start`` to ``end``, in crossing order.

        A line at ``c`` is crossed iff ``start <= c < end``; lines after the final finish
        line never count.
        """
        lines = unrolled_lines(self, laps)
        lo = bisect_left(lines, (start, -1, -1))
        out: list[CornerLine] = []
        for position, limit, number in lines[lo:]:
            if position >= end:
                break
            out.append(CornerLine(position, limit, number))
        return tuple(out)

    @implements("setup.grid")
    def grid_positions(self) -> tuple[tuple[int, bool], ...]:
        """Grid spots pole first, as (unrolled position, on the racing line)."""
        out = []
        for space, lane in self.grid:
            position = space - self.spaces_per_lap
            out.append((position, lane == self.racing_lane(space)))
        return tuple(out)


@cache
def unrolled_lines(track: Track, laps: int) -> list[tuple[int, int, int]]:
    """Every corner line from the grid's lap to the final one, as (position, limit, number),
    in position order (shared: do not modify)."""
    lines = []
    for lap in range(-1, laps):
        for number, corner in enumerate(track.corners, start=1):
            lines.append((corner.after_space + track.spaces_per_lap * lap, corner.limit, number))
    return sorted(lines)


@implements("setup.spaces-and-spots")
def build_graph(
    spaces: int, corners: tuple[Corner, ...], racing_lane_start: int
) -> nx.DiGraph:
    """The spot graph: nodes ``(space, lane)`` with ``racing`` set on the racing-line spot;
    edges from each spot to both spots of the next space, marked with the corner line or
    the finish line they cross; ``beside`` edges join the two spots of a space."""
    graph = nx.DiGraph()
    by_space = {c.after_space: c for c in corners}
    lane = racing_lane_start
    racing: dict[int, int] = {}
    for space in range(1, spaces + 1):
        racing[space] = lane
        if space in by_space:
            lane = by_space[space].racing_lane_after
    for space in range(1, spaces + 1):
        for spot_lane in (1, 2):
            graph.add_node((space, spot_lane), space=space, lane=spot_lane,
                           racing=spot_lane == racing[space])
    for space in range(1, spaces + 1):
        nxt = space % spaces + 1
        corner = by_space.get(space)
        for a in (1, 2):
            graph.add_edge((space, a), (space, 3 - a), kind="beside")
            for b in (1, 2):
                graph.add_edge(
                    (space, a), (nxt, b), kind="forward",
                    corner_limit=corner.limit if corner else None,
                    finish=space == spaces,
                )
    graph.graph["racing_lane"] = racing
    return graph


def _require(data: dict[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in data or not isinstance(data[key], kind) or isinstance(data[key], bool):
        raise MalformedInput("setup.track-laps", f"{where}: field {key!r} must be {kind.__name__}")
    return data[key]


def track_from_dict(data: dict[str, Any]) -> Track:
    """Build a track from its JSON data, checking every field."""
    where = f"track {data.get('id', '?')!r}"
    spaces = _require(data, "spaces_per_lap", int, where)
    raw_corners = _require(data, "corners", list, where)
    corners = []
    for raw in raw_corners:
        if not isinstance(raw, dict):
            raise MalformedInput("setup.spaces-and-spots", f"{where}: a corner must be an object")
        after = _require(raw, "after_space", int, where)
        if not 1 <= after <= spaces:
            raise MalformedInput("setup.spaces-and-spots",
                                 f"{where}: corner after {after} off track")
        legend = raw.get("legend_line", 0)
        aggressive = raw.get("aggressive_legends", 0)
        if not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0
                   for v in (legend, aggressive)) or legend > spaces:
            raise MalformedInput("setup.spaces-and-spots",
                                 f"{where}: corner after {after}: bad legend_line or chevron")
        corners.append(Corner(after, _require(raw, "limit", int, where),
                              _require(raw, "racing_lane_after", int, where), legend, aggressive))
    corners.sort(key=lambda c: c.after_space)
    _check_sectors(raw_corners, corners, spaces, where)
    racing_start = _require(data, "racing_lane_start", int, where)
    grid = tuple((int(s), int(lane)) for s, lane in _require(data, "grid", list, where))
    graph = build_graph(spaces, tuple(corners), racing_start)
    return Track(
        id=_require(data, "id", str, where),
        name=_require(data, "name", str, where),
        spaces_per_lap=spaces,
        laps=_require(data, "laps", int, where),
        heat=_require(data, "heat", int, where),
        stress=_require(data, "stress", int, where),
        racing_lane_start=racing_start,
        corners=tuple(corners),
        grid=grid,
        source=str(data.get("source", "")),
        graph=graph,
    )


def _check_sectors(raw_corners: list[Any], corners: list[Corner], spaces: int,
                   where: str) -> None:
    """A corner's optional ``sector`` field must be the sector its corner lines define."""
    for raw in raw_corners:
        if "sector" not in raw:
            continue
        index = next(i for i, c in enumerate(corners) if c.after_space == raw["after_space"])
        following = corners[(index + 1) % len(corners)].after_space
        if raw["sector"] != [raw["after_space"] % spaces + 1, following]:
            raise MalformedInput("road.placement",
                                 f"{where}: corner after {raw['after_space']}: sector "
                                 f"{raw['sector']} is not the spaces up to the next corner")


def tracks_dir() -> Path:
    """The folder of track data files."""
    return spec_dir() / "tracks"


def track_file(track_id: str) -> Path:
    """The data file of a track: a base track in ``spec/tracks``, or a track constructed
    for testing and exploration in ``spec/tracks/constructed`` (IDs ``constructed-*``,
    never listed among the base tracks)."""
    if track_id.startswith("constructed-"):
        return tracks_dir() / "constructed" / f"{track_id.removeprefix('constructed-')}.json"
    return tracks_dir() / f"{track_id}.json"


@cache
def load_track(track_id: str) -> Track:
    """The track with this ID from ``spec/tracks`` (or ``spec/tracks/constructed``)."""
    path = track_file(track_id)
    if "/" in track_id or not path.is_file():
        known = ", ".join(track_ids())
        raise MalformedInput("setup.track-laps", f"unknown track {track_id!r} (known: {known})")
    return track_from_dict(json.loads(path.read_text(encoding="utf-8")))


def track_ids() -> tuple[str, ...]:
    """IDs of every track in ``spec/tracks``."""
    return tuple(sorted(p.stem for p in tracks_dir().glob("*.json")))


#: Other common names of the base tracks (after lower-casing, spaces and ``_`` as ``-``).
TRACK_ALIASES = {"gb": "great-britain", "uk": "great-britain", "britain": "great-britain",
                 "italy": "italia", "us": "usa", "united-states": "usa"}


def resolve_track(name: str) -> str:
    """The track ID meant by ``name``: the ID itself in any case, with spaces or ``_`` for
    ``-`` (``Great Britain``), or a common alias (``gb``, ``italy``, ``us``)."""
    key = "-".join(name.strip().lower().replace("_", " ").split())
    key = TRACK_ALIASES.get(key, key)
    if key in track_ids():
        return key
    known = ", ".join(track_ids())
    raise MalformedInput("setup.track-laps", f"unknown track {name!r} (known: {known})")
