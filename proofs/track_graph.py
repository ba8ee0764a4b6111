"""The track as a networkx graph of spots, and the facts the encoding reads from it.

Read from ``spec/tracks/<id>.json`` without the engine's loader. Nodes are spots
``(space, lane)``; a ``forward`` edge joins each spot to both spots of the next space and
carries the corner line (``corner_limit``) or the finish line (``finish``) it crosses.
Positions are unrolled: the pole space is 0, position ``p`` lies on space
``((p - 1) mod L) + 1``, and the final finish line lies between ``L*laps`` and ``L*laps + 1``. Cars
stand on board spaces: every encoded spot carries its board space (position mod L).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import networkx as nx

TRACKS_DIR = Path(__file__).resolve().parent.parent / "spec" / "tracks"
BASE_TRACKS: tuple[str, ...] = ("usa", "italia", "france", "great-britain")
#: The default proof runs: every base track, each at another lap count (``track@laps``),
#: so every proof holds for races of 1, 2 and 3 laps; ``all_laps`` gives all twelve.
PROOF_RUNS: tuple[str, ...] = ("usa@1", "italia@2", "france@3", "great-britain@2")


def all_laps(tracks: tuple[str, ...] = BASE_TRACKS) -> tuple[str, ...]:
    """Every track at 1, 2 and 3 laps, as ``track@laps``."""
    return tuple(f"{t}@{n}" for t in tracks for n in (1, 2, 3))


@dataclass(frozen=True)
class Line:
    """A corner line at unrolled position ``at`` (between ``at`` and ``at + 1``)."""

    at: int
    limit: int
    corner: int  # 1-based number of the corner on the lap
    lap: int  # 0 for the first lap; lines on lap ``laps`` lie after the final finish line


@dataclass(frozen=True)
class TrackFacts:
    """What the encoding needs, all derived from the graph."""

    id: str
    spaces_per_lap: int
    laps: int
    heat: int
    stress: int
    finish: int  # a car has finished iff its position > finish
    lines: tuple[Line, ...]  # every corner line from 0 to finish + horizon, crossing order
    racing_lane: tuple[int, ...]  # racing_lane[s - 1] = lane of the racing spot of space s
    grid: tuple[tuple[int, bool], ...]  # grid spots pole first: (position, on racing line)

    def space(self, position: int) -> int:
        """The space (1..L) of an unrolled position."""
        return (position - 1) % self.spaces_per_lap + 1

    def lane(self, position: int, racing: bool) -> int:
        """The lane number of a spot given as (position, on racing line)."""
        lane = self.racing_lane[self.space(position) - 1]
        return lane if racing else 3 - lane


def load_track_data(track_id: str) -> dict[str, Any]:
    """The raw JSON data of a track."""
    data: dict[str, Any] = json.loads((TRACKS_DIR / f"{track_id}.json").read_text())
    return data


def build_graph(data: dict[str, Any]) -> nx.DiGraph:
    """The spot graph of a track (rule setup.spaces-and-spots).

    The racing lane of space ``s`` is ``racing_lane_start`` up to the first corner line and
    then the ``racing_lane_after`` of the last corner line passed.
    """
    spaces = int(data["spaces_per_lap"])
    corners = {int(c["after_space"]): c for c in data["corners"]}
    graph = nx.DiGraph(id=data["id"], laps=int(data["laps"]), heat=int(data["heat"]),
                       stress=int(data["stress"]))
    lane = int(data["racing_lane_start"])
    for space in range(1, spaces + 1):
        for spot in (1, 2):
            graph.add_node((space, spot), space=space, lane=spot, racing=spot == lane,
                           grid=None)
        if space in corners:
            lane = int(corners[space]["racing_lane_after"])
    for number, (space, spot) in enumerate(data["grid"], start=1):
        graph.nodes[(int(space), int(spot))]["grid"] = number
    numbers = {p: n for n, p in enumerate(sorted(corners), start=1)}
    for space in range(1, spaces + 1):
        nxt = space % spaces + 1
        corner = corners.get(space)
        for a in (1, 2):
            for b in (1, 2):
                graph.add_edge((space, a), (nxt, b), kind="forward",
                               corner_limit=int(corner["limit"]) if corner else None,
                               corner=numbers.get(space), finish=space == spaces)
    return graph


def _lap_walk(graph: nx.DiGraph) -> list[tuple[int, dict[str, Any]]]:
    """Spaces in driving order from the first space after the finish line, each with the
    attributes of the boundary after it. Checks the graph is one loop of two-spot spaces."""
    if not nx.is_strongly_connected(graph):
        raise ValueError("track graph is not a single loop")
    spaces: dict[int, list[Any]] = {}
    for node, attrs in graph.nodes(data=True):
        spaces.setdefault(attrs["space"], []).append(node)
    for space, spots in spaces.items():
        if len(spots) != 2 or sum(graph.nodes[s]["racing"] for s in spots) != 1:
            raise ValueError(f"space {space} must have two spots, one on the racing line")
    finish = [(u, v) for u, v, a in graph.edges(data=True) if a["finish"]]
    start_spaces = {graph.nodes[v]["space"] for _, v in finish}
    if len(start_spaces) != 1:
        raise ValueError("track needs exactly one finish line")
    walk: list[tuple[int, dict[str, Any]]] = []
    space = start_spaces.pop()
    for _ in range(len(spaces)):
        spot = spaces[space][0]
        succ = {graph.nodes[v]["space"] for v in graph.successors(spot)}
        if len(succ) != 1:
            raise ValueError(f"space {space} must lead to exactly one next space")
        nxt = succ.pop()
        walk.append((space, graph.edges[spot, spaces[nxt][0]]))
        space = nxt
    if [s for s, _ in walk] != list(range(1, len(spaces) + 1)):
        raise ValueError("spaces must be numbered 1..L in driving order")
    return walk


def derive_facts(graph: nx.DiGraph, horizon: int) -> TrackFacts:
    """Track facts from the graph; corner lines are unrolled up to ``finish + horizon``."""
    walk = _lap_walk(graph)
    spaces = len(walk)
    laps = int(graph.graph["laps"])
    finish = spaces * laps
    per_lap = [(space, int(a["corner_limit"]), int(a["corner"])) for space, a in walk
               if a["corner_limit"] is not None]
    lines = [Line(space + spaces * lap, limit, number, lap)
             for lap in range(laps + 1 + horizon // spaces)
             for space, limit, number in per_lap
             if space + spaces * lap <= finish + horizon]
    racing = tuple(next(graph.nodes[(s, spot)]["lane"] for spot in (1, 2)
                        if graph.nodes[(s, spot)]["racing"]) for s in range(1, spaces + 1))
    grid_nodes = sorted((a["grid"], n) for n, a in graph.nodes(data=True) if a["grid"])
    grid = tuple((graph.nodes[n]["space"] - spaces, bool(graph.nodes[n]["racing"]))
                 for _, n in grid_nodes)
    return TrackFacts(id=str(graph.graph["id"]), spaces_per_lap=spaces, laps=laps,
                      heat=int(graph.graph["heat"]), stress=int(graph.graph["stress"]),
                      finish=finish, lines=tuple(sorted(lines, key=lambda ln: ln.at)),
                      racing_lane=racing, grid=grid)


@cache
def track_facts(track_id: str, horizon: int = 30) -> TrackFacts:
    """Facts of a track from ``spec/tracks``, corner lines up to ``finish + horizon``;
    ``track@N`` is the track raced over N laps instead of its default."""
    name, _, laps = track_id.partition("@")
    data = load_track_data(name)
    if laps:
        if not laps.isdigit() or not 1 <= int(laps) <= 9:
            raise ValueError(f"lap count of {track_id!r} must be 1-9")
        data = {**data, "laps": int(laps)}
    return derive_facts(build_graph(data), horizon)
