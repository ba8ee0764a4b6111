"""One self-contained HTML page that steps through a Rallyman GT race round by round, like
Heat's (:mod:`heatcore.tools.heat.racepage`): the track drawn as a strip of its tiles (coloured by
danger, three lanes across) with each car where it stood after the round, the standings,
and the round's turns as text; buttons and the keyboard (left and right arrows, Home, End)
move between rounds. Frame 0 is the grid. No file, script or font is loaded from elsewhere.
"""

from __future__ import annotations

import re
from html import escape

from heatcore.rallyman.driver import Race
from heatcore.rallyman.setup import start_race
from heatcore.rallyman.state import FINISHED, OFF_TRACK, RaceState, car_name
from heatcore.rallyman.track import Track
from heatcore.tools.rallyman.story import LEGEND, race_rounds, standings, title

TILE = 44  # px per tile along the strip
LANE = 22  # px per lane across it
TOP = 22  # px above the lanes (tile numbers)
COLOURS = {"yellow": "#f7e27a", "orange": "#f5b26b", "red": "#ee7b6b"}
CARS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")

_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #1a1a1a; max-width: 1100px; }
h1 { font-size: 1.5em; margin: 0 0 .4em; }
.controls { display: flex; flex-wrap: wrap; gap: .5em; align-items: center; margin: .6em 0; }
.controls button { font-size: 1em; padding: .2em .8em; cursor: pointer; }
#where { min-width: 11em; font-weight: bold; }
svg { max-width: 100%; height: auto; border: 1px solid #ddd; background: white; }
pre { background: #f6f6f6; padding: .7em; overflow-x: auto; font-size: .85em; }
"""

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('[data-frame]');
  var count = document.querySelectorAll('g.frame').length;
  var current = 0;
  function show(i) {
    current = Math.max(0, Math.min(count - 1, i));
    frames.forEach(function (el) {
      el.style.display = Number(el.dataset.frame) === current ? '' : 'none';
    });
    document.getElementById('where').textContent = current === 0
      ? 'The grid' : 'After round ' + current + ' of ' + (count - 1);
    document.body.dataset.shown = String(current);
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(current - 1); };
  document.getElementById('next').onclick = function () { show(current + 1); };
  document.getElementById('last').onclick = function () { show(count - 1); };
  document.addEventListener('keydown', function (event) {
    var moves = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: count - 1};
    if (event.key in moves) { show(moves[event.key]); event.preventDefault(); }
  });
  show(0);
})();
"""


def _tiles(track: Track) -> int:
    return max(space.tile for space in track.spaces.values())


def _spot(track: Track, space: str) -> tuple[float, float]:
    """The centre of ``space`` on the strip: x along its tile, y across its lanes."""
    found = re.match(r"T(\d+)\.L(\d+)\.(\d+)$", space)
    if found is None or space not in track.spaces:
        return (TILE / 2, TOP + LANE * 1.5)
    tile, number = int(found.group(1)), int(found.group(3))
    per_tile = max(int(s.split(".")[-1]) for s in track.spaces
                   if track.spaces[s].tile == tile)
    lanes = track.spaces[space].lanes
    x = (tile - 1) * TILE + (number - 0.5) * TILE / per_tile
    y = TOP + (sum(lanes) / len(lanes) - 0.5) * LANE
    return (x, y)


def strip(track: Track) -> list[str]:
    """The tiles as coloured boxes, numbered, with lane lines."""
    out = []
    for tile in range(1, _tiles(track) + 1):
        x = (tile - 1) * TILE
        fill = COLOURS.get(track.danger.get(tile, "yellow"), "#eee")
        out.append(f'<rect x="{x}" y="{TOP}" width="{TILE}" height="{3 * LANE}" '
                   f'fill="{fill}" stroke="#666" stroke-width="1"/>')
        out.append(f'<text x="{x + TILE / 2}" y="{TOP - 6}" font-size="11" '
                   f'text-anchor="middle">{tile}</text>')
    width = _tiles(track) * TILE
    for lane in (1, 2):
        y = TOP + lane * LANE
        out.append(f'<line x1="0" y1="{y}" x2="{width}" y2="{y}" stroke="#888" '
                   'stroke-dasharray="4 4"/>')
    for space in track.spaces.values():
        if space.corner is not None:
            cx, cy = _spot(track, space.id)
            out.append(f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="9" fill="#555" '
                       f'text-anchor="middle">{space.corner.limit}</text>')
    return out


def cars_layer(state: RaceState) -> list[str]:
    """Each car still racing as a labelled disc where it stands (hollow: off the track)."""
    out = []
    for index, car in enumerate(state.cars):
        if car.where == FINISHED:
            continue
        x, y = _spot(state.track, car.space)
        x += (index % 2) * 3 - 1.5
        colour = CARS[index % len(CARS)]
        fill = "white" if car.where == OFF_TRACK else colour
        out.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="9" fill="{fill}" '
                   f'stroke="{colour}" stroke-width="2"><title>{car_name(index)}</title>'
                   "</circle>")
        text = colour if car.where == OFF_TRACK else "white"
        out.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" font-size="10" font-weight="bold" '
                   f'fill="{text}" text-anchor="middle">{car_name(index)}</text>')
    return out


def race_html(race: Race) -> str:
    """The page of ``race``."""
    start, _ = start_race(race.setup)
    track = start.track
    _, rounds = race_rounds(race)
    width, height = _tiles(track) * TILE, TOP + 3 * LANE + 4
    grid = ", ".join(car_name(i) for i in race.setup.grid)
    frames: list[tuple[RaceState, str]] = [
        (start, f"Grid, front to back: {grid}")]
    for story in rounds:
        if story.state is None:
            continue
        lines = [story.heading, *story.lines]
        if not story.state.is_over():
            lines += ["  standings:", *("  " + s for s in standings(story.state))]
        frames.append((story.state, "\n".join(lines)))
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}" font-family="sans-serif" role="img" '
           f'aria-label="the race on {escape(track.name)}">', *strip(track)]
    texts = []
    for i, (state, text) in enumerate(frames):
        svg += [f'<g class="frame" data-frame="{i}">', *cars_layer(state), "</g>"]
        texts.append(f'<pre data-frame="{i}">{escape(text)}</pre>')
    svg.append("</svg>")
    ranking = " ".join(f"{i + 1}. {car_name(c)}" for i, c in enumerate(race.final.ranking))
    heading = title(race)
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        "<p>The track as a strip of its tiles from the start line (yellow, orange, red: "
        "danger), three lanes across; a corner space shows its speed limit; a hollow disc "
        "is a car off the track.</p>",
        '<div class="controls"><button id="first" title="the grid (Home)">First</button>'
        '<button id="prev" title="previous round (left arrow)">&#x25C0; Previous</button>'
        '<span id="where"></span>'
        '<button id="next" title="next round (right arrow)">Next &#x25B6;</button>'
        '<button id="last" title="the finish (End)">Last</button>'
        "<span>keys: &#x2190; &#x2192; Home End</span></div>",
        "".join(svg), *texts,
        f"<p><strong>Final ranking:</strong> {escape(ranking)}</p>",
        "<details><summary>How to read the turns</summary>"
        f"<pre>{escape(LEGEND)}</pre></details>",
        f"<script>{_SCRIPT}</script>", "</body></html>", ""])
