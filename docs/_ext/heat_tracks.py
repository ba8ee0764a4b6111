"""Sphinx extension: a page and an SVG diagram per Heat track, drawn from the track graph.

The loop is drawn as a ring: one radial slot per space, lane 1 on the inner circle and lane 2
on the outer one; the racing-line spot of each space is filled and joined by the racing line.
Corner lines carry their speed limit, the finish line closes the lap, grid spots are numbered
pole first. Everything is read from ``heatcore.track.load_track`` when the site is built.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from heatcore.track import Track, load_track, track_ids

SIZE = 720
CENTRE = SIZE / 2
RADIUS = {1: 250.0, 2: 285.0}  # lane -> ring radius
RACING = "#d62728"
CORNER = "#1f4e9c"
LEGEND = "#e6b800"
SECTOR = ("#f4f4f4", "#e3ecf7")  # alternating sector shading


def _angle(slot: float, spaces: int) -> float:
    """Angle (radians) of a slot position; 0.5 is the middle of space 1, clockwise from top."""
    return -math.pi / 2 + 2 * math.pi * (slot - 0.5) / spaces


def _point(radius: float, angle: float) -> tuple[float, float]:
    return CENTRE + radius * math.cos(angle), CENTRE + radius * math.sin(angle)


def _fmt(x: float) -> str:
    return f"{x:.1f}"


def track_svg(track: Track) -> str:
    """The SVG diagram of ``track``."""
    n = track.spaces_per_lap
    graph = track.graph
    out: list[str] = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {SIZE} {SIZE}" '
        f'width="{SIZE}" height="{SIZE}" font-family="sans-serif" role="img">',
        f"<title>{track.name}: {n} spaces, {len(track.corners)} corners</title>",
        f'<rect width="{SIZE}" height="{SIZE}" fill="white"/>',
        f'<circle cx="{CENTRE}" cy="{CENTRE}" r="{(RADIUS[1] + RADIUS[2]) / 2}" fill="none" '
        f'stroke="#e6e6e6" stroke-width="{RADIUS[2] - RADIUS[1] + 26}"/>',
    ]
    out += _sectors(track)
    # space boundaries and numbers
    for space in range(1, n + 1):
        a = _angle(space + 0.5, n)
        x1, y1 = _point(RADIUS[1] - 13, a)
        x2, y2 = _point(RADIUS[2] + 13, a)
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   'stroke="#bbbbbb" stroke-width="1"/>')
        if space == 1 or space % 5 == 0:
            tx, ty = _point(RADIUS[1] - 28, _angle(space, n))
            out.append(f'<text x="{_fmt(tx)}" y="{_fmt(ty)}" font-size="11" fill="#555" '
                       f'text-anchor="middle" dominant-baseline="middle">{space}</text>')
    # racing line through the racing spot of every space
    racing = [
        _point(RADIUS[graph.nodes[(s, lane)]["lane"]], _angle(s, n))
        for s in range(1, n + 1) for lane in (1, 2) if graph.nodes[(s, lane)]["racing"]
    ]
    path = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in racing)
    out.append(f'<polygon points="{path}" fill="none" stroke="{RACING}" stroke-width="2.5" '
               'stroke-linejoin="round" opacity="0.8"/>')
    # spots
    for (space, lane), data in sorted(graph.nodes(data=True)):
        x, y = _point(RADIUS[lane], _angle(space, n))
        fill = RACING if data["racing"] else "white"
        out.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="5.5" fill="{fill}" '
                   f'stroke="#333" stroke-width="1"><title>space {space}, lane {lane}'
                   f'{" (racing line)" if data["racing"] else ""}</title></circle>')
    # corner lines with limits, read from the graph's forward edges
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
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   f'stroke="{CORNER}" stroke-width="4"/>')
        out.append(f'<circle cx="{_fmt(bx)}" cy="{_fmt(by)}" r="15" fill="{CORNER}"/>'
                   f'<text x="{_fmt(bx)}" y="{_fmt(by)}" font-size="15" font-weight="bold" '
                   f'fill="white" text-anchor="middle" dominant-baseline="central">{limit}'
                   f'<title>corner {number} after space {space}: limit {limit}</title></text>')
    out += _legend_lines(track)
    # finish line: after the last space
    a = _angle(n + 0.5, n)
    for i in range(6):
        r0 = RADIUS[1] - 16 + i * (RADIUS[2] - RADIUS[1] + 32) / 6
        r1 = r0 + (RADIUS[2] - RADIUS[1] + 32) / 6
        x1, y1 = _point(r0, a)
        x2, y2 = _point(r1, a)
        colour = "black" if i % 2 == 0 else "#999"
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   f'stroke="{colour}" stroke-width="6"/>')
    fx, fy = _point(RADIUS[2] + 42, a)
    out.append(f'<text x="{_fmt(fx)}" y="{_fmt(fy - 6)}" font-size="13" text-anchor="middle">'
               'finish</text>')
    # grid, pole first
    for slot, (space, lane) in enumerate(track.grid, start=1):
        x, y = _point(RADIUS[lane], _angle(space, n))
        out.append(f'<rect x="{_fmt(x - 8)}" y="{_fmt(y - 8)}" width="16" height="16" rx="3" '
                   f'fill="#2ca02c" stroke="#1a1a1a"/><text x="{_fmt(x)}" y="{_fmt(y)}" '
                   f'font-size="10" fill="white" text-anchor="middle" '
                   f'dominant-baseline="central">{slot}<title>grid {slot}: space {space}, '
                   f'lane {lane}</title></text>')
    # legend
    legend = [
        (RACING, "racing-line spot / racing line"),
        ("white", "other spot (inner ring lane 1, outer ring lane 2)"),
        (CORNER, "corner line with its speed limit"),
        (LEGEND, "Legend line (> chevron: aggressive Legends)"),
        (SECTOR[1], "sector (weather module), shaded in turn"),
        ("#2ca02c", "grid spot, pole = 1"),
    ]
    for i, (colour, text) in enumerate(legend):
        y = CENTRE - 40 + i * 22
        out.append(f'<circle cx="{CENTRE - 130}" cy="{y}" r="6" fill="{colour}" stroke="#333"/>'
                   f'<text x="{CENTRE - 118}" y="{y}" font-size="12" '
                   f'dominant-baseline="middle">{text}</text>')
    out.append(f'<text x="{CENTRE}" y="{CENTRE - 80}" font-size="26" font-weight="bold" '
               f'text-anchor="middle">{track.name}</text>')
    out.append(f'<text x="{CENTRE}" y="{CENTRE + 70}" font-size="12" text-anchor="middle" '
               f'fill="#555">clockwise from the finish line</text>')
    out.append("</svg>\n")
    return "\n".join(out)


def _arc(radius: float, first: float, last: float, n: int) -> str:
    """An SVG arc path along ``radius`` from slot ``first`` to slot ``last`` (clockwise)."""
    a0, a1 = _angle(first, n), _angle(last, n)
    x0, y0 = _point(radius, a0)
    x1, y1 = _point(radius, a1)
    large = 1 if (last - first) % n > n / 2 else 0
    return (f"M {_fmt(x0)} {_fmt(y0)} A {radius} {radius} 0 {large} 1 "
            f"{_fmt(x1)} {_fmt(y1)}")


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
        out.append(f'<line x1="{_fmt(x1)}" y1="{_fmt(y1)}" x2="{_fmt(x2)}" y2="{_fmt(y2)}" '
                   f'stroke="{LEGEND}" stroke-width="3" stroke-dasharray="5,3">'
                   f"<title>Legend line of corner {number}, after space {corner.legend_line}"
                   "</title></line>")
        for k in range(corner.aggressive):
            space = corner.after_space - k
            cx, cy = _point(RADIUS[2] + 22, _angle(space, n))
            out.append(f'<text x="{_fmt(cx)}" y="{_fmt(cy)}" font-size="14" font-weight="bold" '
                       f'fill="{LEGEND}" text-anchor="middle" dominant-baseline="central">&gt;'
                       f"<title>chevron of corner {number} on space {space}: an aggressive "
                       "Legend starting here may cross one more corner line</title></text>")
    return out


def track_page(track: Track) -> str:
    """The RST page of ``track``: numbers, corners, grid and the diagram."""
    name = track.name
    lanes = {track.racing_lane(s) for s in range(1, track.spaces_per_lap + 1)}
    lines = [
        f".. _track-{track.id}:\n",
        name, "=" * len(name), "",
        f".. figure:: {track.id}.svg", f"   :alt: Diagram of {name}", "   :width: 100%", "",
        f"   {name}: {track.spaces_per_lap} spaces of two spots, drawn from the track graph.",
        "",
        "Numbers", "-------", "",
        ".. list-table::", "   :stub-columns: 1", "",
        f"   * - Track ID\n     - ``{track.id}``",
        f"   * - Spaces per lap\n     - {track.spaces_per_lap}",
        f"   * - Laps\n     - {track.laps}",
        f"   * - Heat cards in the engine\n     - {track.heat}",
        f"   * - Stress cards in each deck\n     - {track.stress}",
        f"   * - Corners\n     - {len(track.corners)}",
        f"   * - Racing line starts in lane\n     - {track.racing_lane_start}",
        f"   * - Racing-line lanes used\n     - {', '.join(map(str, sorted(lanes)))}",
        f"   * - Grid spots\n     - {len(track.grid)}",
        f"   * - Race length\n     - {track.spaces_per_lap * track.laps} spaces",
        "",
        "Corners", "-------", "",
        ".. list-table::", "   :header-rows: 1", "",
        "   * - Corner\n     - After space\n     - Speed limit\n     - Racing line after"
        "\n     - Legend line after\n     - Chevrons\n     - Sector (weather)",
    ]
    for number, corner in enumerate(track.corners, start=1):
        first, last = track.sector_spaces(number - 1)
        chevrons = (f"spaces {corner.after_space - corner.aggressive + 1}-{corner.after_space}"
                    if corner.aggressive else "none")
        lines.append(f"   * - {number}\n     - {corner.after_space}\n     - {corner.limit}\n"
                     f"     - lane {corner.racing_lane_after}\n     - {corner.legend_line}\n"
                     f"     - {chevrons}\n     - spaces {first}-{last}")
    lines += ["", "Grid", "----", "", ".. list-table::", "   :header-rows: 1", "",
              "   * - Grid spot\n     - Space\n     - Lane\n     - On the racing line"]
    for slot, (space, lane) in enumerate(track.grid, start=1):
        on = "yes" if track.racing_lane(space) == lane else "no"
        lines.append(f"   * - {slot}\n     - {space}\n     - {lane}\n     - {on}")
    lines += ["", "Rules: :rulebook:rule:`setup.spaces-and-spots`, "
              ":rulebook:rule:`setup.grid`, :rulebook:rule:`setup.track-laps`; sectors: "
              ":rulebook:rule:`road.placement`.", ""]
    if track.source:
        lines += [f"Data: ``spec/tracks/{track.id}.json`` (source: {track.source}).", ""]
    return "\n".join(lines)


def generate(app: Sphinx) -> None:
    """``builder-inited``: write a page and an SVG per track, and their index."""
    out = Path(app.srcdir) / app.config.rulebook_outdir / "tracks"
    out.mkdir(parents=True, exist_ok=True)
    ids = track_ids()
    files: dict[str, str] = {
        "index.rst": "Tracks\n======\n\nThe base tracks, drawn from ``spec/tracks/`` when the "
                     "site is built.\n\n.. toctree::\n\n" +
                     "".join(f"   {i}\n" for i in ids),
    }
    for track_id in ids:
        track = load_track(track_id)
        files[f"{track_id}.rst"] = track_page(track)
        files[f"{track_id}.svg"] = track_svg(track)
    for name, text in files.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generation step (after the rulebook's config values exist)."""
    app.setup_extension("rulebook")
    app.connect("builder-inited", generate)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
