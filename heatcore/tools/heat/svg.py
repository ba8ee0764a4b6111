"""Pictures of tracks and races as SVG text.

:func:`track_svg` draws a track from its graph: the loop as a ring, one radial slot per
space (lane 1 on the inner circle, lane 2 on the outer one), the racing-line spot of each
space filled and joined by the racing line, every corner line with its speed limit, the
finish line and the grid. :func:`state_svg` draws a race state on it: each car on its spot
and a table of every car's place, lap and space, gear, engine and hand.

>>> import random
>>> from heatcore import random_setup, start_race
>>> from heatcore.tools.heat.svg import state_svg
>>> state, _ = start_race(random_setup("usa", 3, random.Random(1)))
>>> picture = state_svg(state)
>>> picture.startswith("<svg") and picture.count('class="car"') == 3
True
"""

from __future__ import annotations

import math
import random
from html import escape

from heatcore.heat.state import RaceState, car_name
from heatcore.heat.track import Track

SIZE = 720
CENTRE = SIZE / 2
RADIUS = {1: 250.0, 2: 285.0}  # lane -> ring radius
RACING = "#d62728"
CORNER = "#1f4e9c"
LEGEND_LINE = "#e6b800"  # the Legends module's line and chevrons
SECTOR = ("#f4f4f4", "#e3ecf7")  # alternating sector shading (weather module)
#: Each car's colour, P1 first.
CAR_COLOURS = ("#e6194b", "#3cb44b", "#4363d8", "#f58231", "#911eb4", "#008080")
PANEL = 330  # width of the table beside the track in a state picture


def _angle(slot: float, spaces: int) -> float:
    """Angle (radians) of a slot position; 0.5 is the middle of space 1, clockwise from top."""
    return -math.pi / 2 + 2 * math.pi * (slot - 0.5) / spaces


def _point(radius: float, angle: float) -> tuple[float, float]:
    return CENTRE + radius * math.cos(angle), CENTRE + radius * math.sin(angle)


def _f(x: float) -> str:
    return f"{x:.1f}"


def _ring(track: Track, modules: bool = False) -> list[str]:
    """The track itself: spaces, racing line, spots, corner lines, finish line; with
    ``modules``, also the weather sectors and the Legend lines."""
    n = track.spaces_per_lap
    graph = track.graph
    out = [f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{(RADIUS[1] + RADIUS[2]) / 2}" '
           f'fill="none" stroke="#e6e6e6" stroke-width="{RADIUS[2] - RADIUS[1] + 26}"/>']
    if modules:
        out += _sectors(track)
    for space in range(1, n + 1):
        a = _angle(space + 0.5, n)
        x1, y1 = _point(RADIUS[1] - 13, a)
        x2, y2 = _point(RADIUS[2] + 13, a)
        out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                   'stroke="#bbbbbb" stroke-width="1"/>')
        if space == 1 or space % 5 == 0:
            tx, ty = _point(RADIUS[1] - 28, _angle(space, n))
            out.append(f'<text x="{_f(tx)}" y="{_f(ty)}" font-size="11" fill="#555" '
                       f'text-anchor="middle" dominant-baseline="middle">{space}</text>')
    racing = [_point(RADIUS[lane], _angle(s, n)) for s in range(1, n + 1) for lane in (1, 2)
              if graph.nodes[(s, lane)]["racing"]]
    path = " ".join(f"{_f(x)},{_f(y)}" for x, y in racing)
    out.append(f'<polygon points="{path}" fill="none" stroke="{RACING}" stroke-width="2.5" '
               'stroke-linejoin="round" opacity="0.8"/>')
    for (space, lane), data in sorted(graph.nodes(data=True)):
        x, y = _point(RADIUS[lane], _angle(space, n))
        fill = RACING if data["racing"] else "white"
        out.append(f'<circle cx="{_f(x)}" cy="{_f(y)}" r="5.5" fill="{fill}" '
                   f'stroke="#333" stroke-width="1"><title>space {space}, lane {lane}'
                   f'{" (racing line)" if data["racing"] else ""}</title></circle>')
    number = 0
    for space in range(1, n + 1):
        limit = graph.edges[(space, 1), (space % n + 1, 1)]["corner_limit"]
        if limit is None:
            continue
        number += 1
        a = _angle(space + 0.5, n)
        x1, y1 = _point(RADIUS[1] - 16, a)
        x2, y2 = _point(RADIUS[2] + 16, a)
        bx, by = _point(RADIUS[2] + 40, a)
        out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                   f'stroke="{CORNER}" stroke-width="4"/>')
        out.append(f'<g class="corner" data-limit="{limit}"><circle cx="{_f(bx)}" '
                   f'cy="{_f(by)}" r="15" fill="{CORNER}"/><text x="{_f(bx)}" y="{_f(by)}" '
                   'font-size="15" font-weight="bold" fill="white" text-anchor="middle" '
                   f'dominant-baseline="central">{limit}</text><title>corner {number} after '
                   f'space {space}: speed limit {limit}</title></g>')
    if modules:
        out += _legend_lines(track)
    a = _angle(n + 0.5, n)
    for i in range(6):
        r0 = RADIUS[1] - 16 + i * (RADIUS[2] - RADIUS[1] + 32) / 6
        r1 = r0 + (RADIUS[2] - RADIUS[1] + 32) / 6
        x1, y1 = _point(r0, a)
        x2, y2 = _point(r1, a)
        colour = "black" if i % 2 == 0 else "#999"
        out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                   f'stroke="{colour}" stroke-width="6"/>')
    fx, fy = _point(RADIUS[2] + 42, a)
    out.append(f'<text x="{_f(fx)}" y="{_f(fy - 6)}" font-size="13" text-anchor="middle">'
               'finish</text>')
    return out


def _arc(radius: float, first: float, last: float, n: int) -> str:
    """An SVG arc path along ``radius`` from slot ``first`` to slot ``last`` (clockwise)."""
    a0, a1 = _angle(first, n), _angle(last, n)
    x0, y0 = _point(radius, a0)
    x1, y1 = _point(radius, a1)
    large = 1 if (last - first) % n > n / 2 else 0
    return (f"M {_f(x0)} {_f(y0)} A {radius} {radius} 0 {large} 1 "
            f"{_f(x1)} {_f(y1)}")


def _sectors(track: Track) -> list[str]:
    """A shaded band per sector (from a corner line to the next one), under the spots."""
    n = track.spaces_per_lap
    out = []
    for index in range(len(track.corners)):
        first, last = track.sector_spaces(index)
        colour = SECTOR[index % 2]
        out.append(f'<path d="{_arc((RADIUS[1] + RADIUS[2]) / 2, first - 0.5, last + 0.5, n)}" '
                   f'fill="none" stroke="{colour}" stroke-width="{RADIUS[2] - RADIUS[1] + 26}">'
                   f"<title>sector after corner {index + 1}: spaces {first}-{last}</title>"
                   "</path>")
    return out


def _legend_lines(track: Track) -> list[str]:
    """Each corner's Legend line (dashed, yellow) and its aggressive-Legend chevrons."""
    n = track.spaces_per_lap
    out = []
    for number, corner in enumerate(track.corners, start=1):
        if not corner.legend_line:
            continue
        a = _angle(corner.legend_line + 0.5, n)
        x1, y1 = _point(RADIUS[1] - 12, a)
        x2, y2 = _point(RADIUS[2] + 12, a)
        out.append(f'<line x1="{_f(x1)}" y1="{_f(y1)}" x2="{_f(x2)}" y2="{_f(y2)}" '
                   f'stroke="{LEGEND_LINE}" stroke-width="3" stroke-dasharray="5,3">'
                   f"<title>Legend line of corner {number}, after space {corner.legend_line}"
                   "</title></line>")
        for k in range(corner.aggressive):
            space = corner.after_space - k
            cx, cy = _point(RADIUS[2] + 22, _angle(space, n))
            out.append(f'<text x="{_f(cx)}" y="{_f(cy)}" font-size="14" font-weight="bold" '
                       f'fill="{LEGEND_LINE}" text-anchor="middle" dominant-baseline="central">&gt;'
                       f"<title>chevron of corner {number} on space {space}: an aggressive "
                       "Legend starting here may cross one more corner line</title></text>")
    return out


def track_svg(track: Track) -> str:
    """The SVG diagram of ``track``: the ring (with the modules' sectors and Legend lines),
    the grid (pole = 1) and a legend."""
    n = track.spaces_per_lap
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
           f'width="{SIZE}" height="{SIZE}" font-family="sans-serif" role="img">',
           f"<title>{escape(track.name)}: {n} spaces, {len(track.corners)} corners</title>",
           f'<rect width="{SIZE}" height="{SIZE}" fill="white"/>', *_ring(track, modules=True)]
    for slot, (space, lane) in enumerate(track.grid, start=1):
        x, y = _point(RADIUS[lane], _angle(space, n))
        out.append(f'<rect x="{_f(x - 8)}" y="{_f(y - 8)}" width="16" height="16" rx="3" '
                   f'fill="#2ca02c" stroke="#1a1a1a"/><text x="{_f(x)}" y="{_f(y)}" '
                   f'font-size="10" fill="white" text-anchor="middle" '
                   f'dominant-baseline="central">{slot}<title>grid {slot}: space {space}, '
                   f'lane {lane}</title></text>')
    legend = [(RACING, "racing-line spot / racing line"),
              ("white", "other spot (inner ring lane 1, outer ring lane 2)"),
              (CORNER, "corner line with its speed limit"),
              (LEGEND_LINE, "Legend line (> chevron: aggressive Legends)"),
              (SECTOR[1], "sector (weather module), shaded in turn"),
              ("#2ca02c", "grid spot, pole = 1")]
    for i, (colour, text) in enumerate(legend):
        y = CENTRE - 40 + i * 22
        out.append(f'<circle cx="{CENTRE - 130}" cy="{y}" r="6" fill="{colour}" stroke="#333"/>'
                   f'<text x="{CENTRE - 118}" y="{y}" font-size="12" '
                   f'dominant-baseline="middle">{text}</text>')
    out.append(f'<text x="{CENTRE}" y="{CENTRE - 80}" font-size="26" font-weight="bold" '
               f'text-anchor="middle">{escape(track.name)}</text>')
    out.append(f'<text x="{CENTRE}" y="{CENTRE + 70}" font-size="12" text-anchor="middle" '
               f'fill="#555">clockwise from the finish line</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def _lane(track: Track, position: int, racing_line: bool) -> int:
    racing = track.racing_lane(track.space(position))
    return racing if racing_line else 3 - racing


def _moment(state: RaceState) -> str:
    if state.is_over():
        return "race over"
    if state.round == 0:
        return "on the grid"
    return f"round {state.round}"


def state_svg(state: RaceState, caption: str = "") -> str:
    """The SVG picture of ``state``: the track with each car on its spot (finished cars off
    the track), and a table of every car's place, lap and space, gear, engine and hand.
    ``caption`` (e.g. ``after round 3``) is written in the middle of the ring."""
    track = state.track
    out = [svg_head(track, f"{track.name}, {caption or _moment(state)}"), *_ring(track),
           f'<text x="{CENTRE}" y="{CENTRE - 20}" font-size="26" font-weight="bold" '
           f'text-anchor="middle">{escape(track.name)}</text>',
           *state_layer(state, caption), "</svg>\n"]
    return "\n".join(out)


def svg_head(track: Track, title: str) -> str:
    """The opening of a state picture: the ``<svg>`` element, its title and background."""
    width = SIZE + PANEL
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {SIZE}" '
            f'width="{width}" height="{SIZE}" font-family="sans-serif" role="img">'
            f"<title>{escape(title)}</title>"
            f'<rect width="{width}" height="{SIZE}" fill="white"/>')


def ring(track: Track) -> list[str]:
    """The track of a state picture, drawn once under every state's layer."""
    return _ring(track)


def state_layer(state: RaceState, caption: str = "") -> list[str]:
    """What changes from state to state: the caption, each car on its spot, the table."""
    from heatcore.heat.summary import standings

    track = state.track
    n = track.spaces_per_lap
    out = [f'<text x="{CENTRE}" y="{CENTRE + 14}" font-size="16" text-anchor="middle" '
           f'fill="#333" class="caption">{escape(caption or _moment(state))}</text>']
    rows = standings(state)
    for row in rows:
        if row.finished:
            continue
        c = state.cars[row.car]
        lane = _lane(track, c.position, c.racing_line)
        x, y = _point(RADIUS[lane] + (14 if lane == 2 else -14), _angle(track.space(c.position),
                                                                       n))
        sx, sy = _point(RADIUS[lane], _angle(track.space(c.position), n))
        colour = CAR_COLOURS[row.car % len(CAR_COLOURS)]
        out.append(f'<g class="car" data-car="{car_name(row.car)}" '
                   f'data-position="{c.position}" data-lane="{lane}">'
                   f'<line x1="{_f(sx)}" y1="{_f(sy)}" x2="{_f(x)}" y2="{_f(y)}" '
                   f'stroke="{colour}" stroke-width="2"/>'
                   f'<circle cx="{_f(x)}" cy="{_f(y)}" r="11" fill="{colour}" stroke="#111"/>'
                   f'<text x="{_f(x)}" y="{_f(y)}" font-size="10" font-weight="bold" '
                   f'fill="white" text-anchor="middle" dominant-baseline="central">'
                   f'{car_name(row.car)}</text><title>{car_name(row.car)}: place {row.place}, '
                   f'space {track.space(c.position)}, lane {lane}, gear {c.gear}, engine '
                   f'{c.engine}</title></g>')
    out += _table(state, rows, (caption or _moment(state)).capitalize())
    return out


def _table(state: RaceState, rows: tuple[object, ...], title: str) -> list[str]:
    """The table beside the track: place, car, where, gear, engine, hand."""
    from heatcore.heat.summary import Standing, short_where

    x0 = SIZE + 10
    out = [f'<text x="{x0}" y="40" font-size="15" font-weight="bold">'
           f'{escape(title)}</text>']
    for x, head in ((x0, "place"), (x0 + 34, "car"), (x0 + 74, "where"), (x0 + 140, "gear"),
                    (x0 + 186, "engine"), (x0 + 246, "hand")):
        out.append(f'<text x="{x}" y="70" font-size="12" fill="#555">{head}</text>')
    for i, row in enumerate(rows):
        assert isinstance(row, Standing)
        y = 96 + 28 * i
        c = state.cars[row.car]
        colour = CAR_COLOURS[row.car % len(CAR_COLOURS)]
        where = "finished" if row.finished else short_where(state.track, c.position)
        cells = [(x0, str(row.place)), (x0 + 74, where)]
        if not row.finished:
            cells += [(x0 + 150, str(c.gear)), (x0 + 200, str(c.engine)),
                      (x0 + 256, str(len(c.hand)))]
        out.append(f'<g class="row" data-car="{car_name(row.car)}" data-place="{row.place}" '
                   f'data-gear="{c.gear}" data-engine="{c.engine}">'
                   f'<circle cx="{x0 + 44}" cy="{y - 4}" r="10" fill="{colour}"/>'
                   f'<text x="{x0 + 44}" y="{y - 4}" font-size="9" font-weight="bold" '
                   f'fill="white" text-anchor="middle" dominant-baseline="central">'
                   f'{car_name(row.car)}</text>'
                   + "".join(f'<text x="{x}" y="{y}" font-size="13">{escape(text)}</text>'
                             for x, text in cells) + "</g>")
    y = 96 + 28 * len(rows) + 20
    out.append(f'<text x="{x0}" y="{y}" font-size="11" fill="#555">L2:14 = lap 2, space 14; '
               'engine = Heat cards left</text>')
    return out


def readme_picture() -> str:
    """The picture in the README and on the site's home page: a 4-car race on USA (seed 7,
    greedy drivers) after round 9. ``heatcore golden --regenerate`` rewrites it."""
    from heatcore.heat.driver import greedy_policy, play
    from heatcore.heat.setup import random_setup
    from heatcore.tools.heat.report import race_rounds

    rng = random.Random(7)
    race = play(random_setup("usa", 4, rng), greedy_policy, rng)
    state = race_rounds(race)[8].state
    assert state is not None
    return state_svg(state, "after round 9")
