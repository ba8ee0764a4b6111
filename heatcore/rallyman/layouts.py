"""Source layouts of the Rallyman GT tracks, and the builder that turns them into track data.

A layout lists tiles; each tile has a danger level and, per lane (1-3), its squares in
driving order. A square is written as a short code of space-separated words:

``N``      inside rank of the square (1 = innermost; kept for corner squares)
``cN``     a corner with the circled limit N (standard, or steep when it has dotted lines)
``dN``     a dangerous corner "N!"
``eN@L``   a dotted line with limit N on the way in from lane L
``xN@L``   a dotted line with limit N on the way out into lane L
``w@L``    a dotted line with a warning symbol on the way in from lane L
``v@L``    a dotted line with a warning symbol on the way out into lane L
``m1``     the square straddles lanes 1 and 2 (paired, in order, with an ``m1`` square of
           lane 2); ``m3`` likewise for lanes 2 and 3

``python -m heatcore.rallyman.layouts`` writes ``spec/rallyman/tracks/*.json`` from them.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

TILE = 120  # progress units per tile: divisible by 2*n for every n of squares up to 6

Squares = tuple[str, ...]


@dataclass(frozen=True)
class Tile:
    """One tile of a layout: number, danger level and each lane's squares."""

    number: int
    danger: str  # yellow | orange | red
    lanes: tuple[Squares, Squares, Squares]
    model: str = ""


@dataclass(frozen=True)
class Layout:
    """A whole track layout and its metadata."""

    id: str
    name: str
    source: str
    constructed: bool
    laps: int
    tiles: tuple[Tile, ...]
    pit_beside_tile: int
    notes: str = ""


def _plain(number: int, danger: str, count: int = 3) -> Tile:
    return Tile(number, danger, (("1",) * count, ("2",) * count, ("3",) * count))


Y, O, R = "yellow", "orange", "red"  # noqa: E741  (the tiles' colour letters)

#: Albert Park as encoded per square by TsaariII/RallymanGTapp (research R2),
#: backend/tracks/albert_park.json at commit b26797d14524fa97ed0d232cf9b27c6f575ccf8a:
#: tile colours, squares per lane, ``max_gear`` (c), ``max_gear_else_warning`` (d),
#: ``max_gear_enter``/``_exit`` with their lanes (e, x), ``enter_warning``/``exit_warning``
#: with their lanes (w, v), ``merge`` tags (m1, m3) and ``inside`` ranks.
ALBERT_PARK = Layout(
    id="albert-park",
    name="Albert Park (published layout, per-space encoding of R2)",
    source=("TsaariII/RallymanGTapp backend/tracks/albert_park.json "
            "(commit b26797d14524fa97ed0d232cf9b27c6f575ccf8a), research rallyman.md R2 and "
            "section 3.1. Diagonal moves and 'beside' are inferred from each square's place "
            "along its tile (R2 gives squares per lane, not their geometry)."),
    constructed=False,
    laps=2,
    pit_beside_tile=22,
    notes=("R2 tags an unpaired straddling square in tile 15 (lane 3) and tile 20 (lane 2); "
           "they are kept as single-lane squares. R2 gives no start grid: the grid is tile 1."),
    tiles=(
        _plain(1, Y),
        Tile(2, Y, (("1", "2 c3 e2@2", "1 c3 e1@1 x1@1 m1"), ("2", "m1", "m3"),
                    ("3", "1 c3 e1@3 x1@2", "2 c3 x2@2 m3"))),
        _plain(3, Y),
        Tile(4, O, (("1", "2 c2 e1@1 e2@2 x1@1 m1"), ("2", "m1"), ("3", "1 c2", "1 c2"))),
        Tile(5, O, (("3", "1 c2", "1 c2", "1"), ("2", "m3", "2"),
                    ("1", "2 c2 e1@3 x1@3 m3", "3"))),
        Tile(6, Y, (("1", "1 c3 e2@1 x2@1", "1"), ("2", "m3", "m3", "2"),
                    ("3", "2 c3 m3", "2 c3 m3", "3"))),
        _plain(7, O),
        Tile(8, Y, (("1", "1 c2 w@1 v@1 m1", "1"), ("m3", "m1", "m3"),
                    ("2 m3", "2 c2", "2 c2", "2 m3"))),
        Tile(9, Y, (("1", "1 c4 e3@1 x3@1", "1"), ("2", "m3", "2"), ("3", "3 d4 m3", "3"))),
        _plain(10, Y, 2),
        Tile(11, O, (("1", "2 c2 e1@1 x1@1 m1", "3"), ("2", "m1", "2"),
                     ("3", "1 c2", "1 c2", "3"))),
        Tile(12, O, (("3", "3", "3"), ("2", "2", "2"), ("1", "1"))),
        Tile(13, O, (("1", "1", "1"), ("2", "2", "2"), ("3", "3"))),
        Tile(14, Y, (("1", "1", "1 c4 e3@1 e4@2 m1"), ("2", "m1"), ("3", "2 d4"))),
        Tile(15, O, (("1", "1", "1 c5 e4@1 x4@1"), ("2", "2", "m3"),
                     ("3", "3", "2 c5 m3", "2 c5 m3"))),
        _plain(16, Y, 2),
        Tile(17, Y, (("1", "1", "1 c2 e1@1 e2@2 x1@1 x2@2 m1"), ("2", "2", "m1"),
                     ("3", "3", "2 c2", "2 c2"))),
        _plain(18, Y, 2),
        Tile(19, O, (("1", "2 c2 e1@1 e2@2 x1@1 x2@2 m1", "3", "3"), ("2", "m1", "2", "2"),
                     ("3", "1 c2", "1 c2", "1", "1"))),
        Tile(20, Y, (("3", "1 c1", "1 c1", "1"), ("2", "m3", "2"),
                     ("2", "2 c1 w@3 v@3", "3"))),
        Tile(21, Y, (("1 c2 e1@1 x1@1 x2@2 m1",), ("m1",), ("2 c2", "2 c2"))),
        _plain(22, Y),
    ),
)

#: A track built for heatcore's tests (not a published layout): every corner kind of seed
#: 004 once, a straddling space, and each danger level.
PROVING_GROUND = Layout(
    id="proving-ground",
    name="Proving ground (constructed for heatcore, not a published layout)",
    source="Constructed by heatcore to exercise every corner kind of seed 004; not a real layout.",
    constructed=True,
    laps=2,
    pit_beside_tile=10,
    tiles=(
        _plain(1, Y),
        _plain(2, Y),
        Tile(3, O, (("1", "1 c3", "1"), ("2", "2 c3", "2"), ("3", "3 c4", "3"))),
        Tile(4, Y, (("1", "1 m1", "1"), ("2", "m1", "2"), ("3", "3", "3"))),
        Tile(5, R, (("1", "1 d4", "1"), ("2", "2 d4", "2"), ("3", "3 d5", "3"))),
        Tile(6, O, (("1", "1 c3 e2@1 x2@1", "1"), ("2", "2 c3", "2"), ("3", "3 c4", "3"))),
        _plain(7, Y),
        Tile(8, R, (("1", "1 c2 w@1 v@1", "1"), ("2", "2 c2", "2"), ("3", "3 c3", "3"))),
        Tile(9, Y, (("3", "3 c2", "3"), ("2", "2 c2", "2"), ("1", "1 c1", "1"))),
        _plain(10, Y),
    ),
)

LAYOUTS = (ALBERT_PARK, PROVING_GROUND)


@dataclass
class _Space:
    id: str
    tile: int
    lanes: list[int]
    span: list[int]
    codes: list[str] = field(default_factory=list)
    inside: int = 0


def _words(code: str) -> list[str]:
    return code.split()


def _merge_tag(code: str) -> str | None:
    tags = [w for w in _words(code) if w in ("m1", "m3")]
    return tags[0] if tags else None


def _spaces_of(tile: Tile, offset: int) -> tuple[list[_Space], dict[int, list[_Space]]]:
    """The tile's spaces (straddling squares merged) and each lane's spaces in order.

    Lane-1 squares tagged ``m1`` pair in order with lane-2 squares tagged ``m1``; lane-3
    squares tagged ``m3`` with lane-2 squares tagged ``m3``. An unpaired tag is ignored."""
    per_lane: dict[int, list[_Space]] = {}
    for lane in (1, 2, 3):
        squares = tile.lanes[lane - 1]
        n = len(squares)
        per_lane[lane] = [
            _Space("", tile.number, [lane],
                   [offset + k * TILE // n, offset + (k + 1) * TILE // n], [code])
            for k, code in enumerate(squares)]
    for tag, edge in (("m1", 1), ("m3", 3)):
        outer = [s for s in per_lane[edge] if tag in _words(s.codes[0])]
        middle = [i for i, s in enumerate(per_lane[2]) if tag in _words(s.codes[0])]
        for space, index in zip(outer, middle, strict=False):
            two = per_lane[2][index]
            space.lanes = sorted([edge, 2])
            space.span = [min(space.span[0], two.span[0]), max(space.span[1], two.span[1])]
            space.codes.extend(two.codes)
            per_lane[2][index] = space
    made: list[_Space] = []
    for lane in (1, 2, 3):
        for space in per_lane[lane]:
            if all(space is not m for m in made):
                made.append(space)
    for space in made:
        low = space.lanes[0]
        k = next(i for i, s in enumerate(per_lane[low]) if s is space) + 1
        space.id = f"T{tile.number}.L{''.join(map(str, space.lanes))}.{k}"
    return made, per_lane


def _corner(space: _Space) -> dict[str, Any] | None:
    words = [w for code in space.codes for w in _words(code)]
    limits = [int(w[1:]) for w in words if w[0] in "cd" and w[1:].isdigit()]
    if not limits:
        return None
    dotted = any(w[0] in "exwv" for w in words)
    kind = "dangerous" if any(w[0] == "d" for w in words) else "steep" if dotted else "standard"
    return {"limit": min(limits), "kind": kind}


def build(layout: Layout) -> dict[str, Any]:
    """The track data (as written to ``spec/rallyman/tracks``) of a layout."""
    spaces: list[_Space] = []
    lanes: dict[int, list[_Space]] = {1: [], 2: [], 3: []}
    for index, tile in enumerate(layout.tiles):
        made, per_lane = _spaces_of(tile, index * TILE)
        spaces.extend(made)
        for lane in (1, 2, 3):
            lanes[lane].extend(per_lane[lane])
    lap = len(layout.tiles) * TILE

    def centre(s: _Space) -> float:
        return (s.span[0] + s.span[1]) / 2

    moves: dict[tuple[str, str], dict[str, Any]] = {}

    def add(a: _Space, b: _Space, kind: str) -> dict[str, Any]:
        key = (a.id, b.id)
        if key not in moves:
            moves[key] = {"from": a.id, "to": b.id, "kind": kind}
            if centre(b) < centre(a):
                moves[key]["finish"] = True
        elif kind == "straight":
            moves[key]["kind"] = "straight"
        return moves[key]

    def ahead(s: _Space, lane: int) -> _Space:
        seq = lanes[lane]
        for t in seq:
            if centre(t) > centre(s) and t is not s:
                return t
        return seq[0]

    def behind(s: _Space, lane: int) -> _Space:
        seq = lanes[lane]
        for t in reversed(seq):
            if centre(t) < centre(s) and t is not s:
                return t
        return seq[-1]

    for lane, seq in lanes.items():
        del lane
        for i, s in enumerate(seq):
            t = seq[(i + 1) % len(seq)]
            if t is not s:
                add(s, t, "straight")
    for s in spaces:
        for other in (s.lanes[0] - 1, s.lanes[-1] + 1):
            if 1 <= other <= 3:
                add(s, ahead(s, other), "diagonal")
    for s in spaces:
        words = [w for code in s.codes for w in _words(code)]
        for w in words:
            if w[0] in "ew" and "@" in w:
                src = behind(s, int(w.split("@")[1]))
                move = add(src, s, "straight")
                move["kind"] = "straight"
                _mark(move, w)
            elif w[0] in "xv" and "@" in w:
                dst = ahead(s, int(w.split("@")[1]))
                move = add(s, dst, "straight")
                move["kind"] = "straight"
                _mark(move, w)
    out_spaces = []
    for s in spaces:
        corner = _corner(s)
        entry: dict[str, Any] = {"id": s.id, "tile": s.tile, "lanes": s.lanes, "span": s.span}
        if corner is not None:
            siblings = [t for t in spaces if t.tile == s.tile and t is not s]
            corner["inside"] = _inside_lane(s, siblings)
            entry["corner"] = corner
        out_spaces.append(entry)
    first = layout.tiles[0].number
    grid = sorted((s for s in spaces if s.tile == first),
                  key=lambda s: (-centre(s), s.lanes[0]))
    return {
        "id": layout.id, "name": layout.name, "source": layout.source,
        "constructed": layout.constructed, "laps": layout.laps, "lap_progress": lap,
        "notes": layout.notes,
        "tiles": [{"number": t.number, "danger": t.danger} for t in layout.tiles],
        "spaces": out_spaces,
        "moves": sorted(moves.values(), key=lambda m: (m["from"], m["to"])),
        "grid": [s.id for s in grid],
        "pit": {"tile": "101", "beside_tile": layout.pit_beside_tile},
    }


def _mark(move: dict[str, Any], word: str) -> None:
    """Record a dotted line on a move: ``entry_*`` lines belong to the space the move
    enters, ``exit_*`` lines to the space it leaves."""
    role = "entry" if word[0] in "ew" else "exit"
    if word[0] in "ex":
        limit = int(word[1:].split("@")[0])
        key = f"{role}_limit"
        move[key] = min(limit, move.get(key, limit))
    else:
        key = f"{role}_warning"
        move[key] = 1


def _edge_lane(space: _Space) -> int:
    return 3 if 3 in space.lanes and 1 not in space.lanes else 1


def _inside_lane(space: _Space, siblings: list[_Space]) -> int:
    """A corner's inside lane: the edge lane of the tile's innermost (rank 1) corner square,
    this square first."""
    for candidate in (space, *siblings):
        ranks = [int(w) for code in candidate.codes for w in _words(code) if w.isdigit()]
        if 1 in ranks and _corner(candidate) is not None:
            return _edge_lane(candidate)
    return 1


def tracks_dir() -> Path:
    """``spec/rallyman/tracks``."""
    from heatcore.rallyman.spec import spec_folder

    return spec_folder() / "tracks"


def render(layout: Layout) -> str:
    """The JSON text of a layout's track data (2-space indent, trailing newline)."""
    return json.dumps(build(layout), indent=1, sort_keys=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Write every layout's track file."""
    del argv
    for layout in LAYOUTS:
        path = tracks_dir() / f"{layout.id}.json"
        path.write_text(render(layout), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
