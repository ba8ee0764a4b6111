"""One self-contained HTML page that steps through a race round by round.

The page shows the track (drawn once by :mod:`heatcore.tools.heat.svg`) with each car where it stood
after the round, the standings table, and the round's plays as text; buttons and the
keyboard (left and right arrows, Home, End) move between rounds. Frame 0 is the grid.
No file, script or font is loaded from elsewhere.
"""

from __future__ import annotations

from html import escape

from heatcore.heat.driver import Race
from heatcore.heat.setup import start_race
from heatcore.heat.state import car_name
from heatcore.heat.summary import laps_text
from heatcore.tools.heat.report import (
    RoundReport,
    race_legend,
    race_rounds,
    round_lines,
    upgrades_owned,
)
from heatcore.tools.heat.svg import CENTRE, PANEL, SIZE, ring, state_layer

_PAGE_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #1a1a1a; max-width: 1100px; }
h1 { font-size: 1.5em; margin: 0 0 .4em; }
"""
_STYLE = """
.heat-race .controls { display: flex; flex-wrap: wrap; gap: .5em; align-items: center;
  margin: .6em 0; }
.heat-race .controls button { font-size: 1em; padding: .2em .8em; cursor: pointer; }
.heat-race #where { min-width: 11em; font-weight: bold; }
.heat-race svg { max-width: 100%; height: auto; border: 1px solid #ddd; background: white; }
.heat-race pre { background: #f6f6f6; color: #1a1a1a; padding: .7em; overflow-x: auto;
  font-size: .85em; }
.heat-race .notes { background: #fffbe6; color: #1a1a1a; border-left: 4px solid #e0b400;
  padding: .4em .8em; }
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


def round_note(report: RoundReport) -> str:
    """A sentence on what stood out in a round: corners paid, spins, boosts, slipstreams,
    adrenaline, finishes (empty if nothing did)."""
    said = []
    for turn in report.turns:
        name = car_name(turn.car)
        for note in turn.notes:
            if note.startswith("corner"):
                said.append(f"{name} pays {note.split(': ')[1].replace('heat', 'Heat')} at "
                            f"{note.split(': ')[0]}")
            elif note.startswith("SPUN OUT"):
                where, _, stress = note.split(" at ", 1)[1].partition(": +")
                said.append(f"{name} spins out at {where}, takes {stress.split()[0]} Stress "
                            "and drops to gear 1")
            elif note.startswith(("boost", "slipstream", "adrenaline +")):
                said.append(f"{name} takes {note}")
            elif note == "two-step shift":
                said.append(f"{name} shifts two gears for 1 Heat")
    said += [f"{car_name(car)} finishes #{place}" for place, car in report.ranked]
    if not said:
        return ""
    return f"Round {report.number}: " + "; ".join(said) + "."


def race_fragment(race: Race, notes: dict[int, str] | None = None) -> str:
    """The stepping race as an HTML fragment (its style and script included), to place in a
    page of its own (:func:`race_html`) or of the rulebook site. ``notes`` maps a frame (0
    the grid, k after round k) to a sentence shown above that frame's plays."""
    notes = notes or {}
    track = race.final.track
    rounds = [r for r in race_rounds(race) if r.turns or r.ranked]
    start = start_race(race.setup)[0]
    width = SIZE + PANEL
    svg = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {SIZE}" '
           f'width="{width}" height="{SIZE}" font-family="sans-serif" role="img" '
           f'aria-label="the race on {escape(track.name)}"><rect width="{width}" '
           f'height="{SIZE}" fill="white"/>', *ring(track),
           f'<text x="{CENTRE}" y="{CENTRE - 20}" font-size="26" font-weight="bold" '
           f'text-anchor="middle">{escape(track.name)}</text>']
    texts = []
    grid = " ".join(car_name(c) for c in race.setup.grid)
    frames = [(start, "on the grid", f"Grid from pole: {grid}")]
    for report in rounds:
        assert report.state is not None
        frames.append((report.state, f"after round {report.number}",
                       "\n".join(round_lines(track, report))))
    for i, (state, caption, text) in enumerate(frames):
        svg.append(f'<g class="frame" data-frame="{i}">')
        svg += state_layer(state, caption)
        svg.append("</g>")
        note = (f'<p class="notes" data-frame="{i}">{escape(notes[i])}</p>'
                if i in notes else "")
        texts.append(f'{note}<pre data-frame="{i}">{escape(text)}</pre>')
    svg.append("</svg>")
    ranking = " ".join(f"{i + 1}. {car_name(c)}" for i, c in enumerate(race.final.ranking))
    owned = upgrades_owned(race)
    return "\n".join([
        f'<div class="heat-race"><style>{_STYLE}</style>',
        '<div class="controls"><button id="first" title="the grid (Home)">First</button>'
        '<button id="prev" title="previous round (left arrow)">&#x25C0; Previous</button>'
        '<span id="where"></span>'
        '<button id="next" title="next round (right arrow)">Next &#x25B6;</button>'
        '<button id="last" title="the finish (End)">Last</button>'
        "<span>keys: &#x2190; &#x2192; Home End</span></div>",
        "".join(svg), *texts,
        f"<p><strong>Final ranking:</strong> {escape(ranking)}</p>",
        *([f"<p><strong>Upgrades:</strong> {escape(owned)} (what each card does: below)</p>"]
          if owned else []),
        "<details><summary>How to read the plays</summary>"
        f"<pre>{escape(race_legend(race))}</pre></details>",
        f"<script>{_SCRIPT}</script></div>"])


def race_html(race: Race, title: str = "", notes: dict[int, str] | None = None) -> str:
    """The page of ``race``: a heading and :func:`race_fragment`."""
    track = race.final.track
    heading = title or (f"Race on {track.name}: {race.setup.players} cars, "
                        f"{laps_text(race.final.laps)}")
    return "\n".join([
        "<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(heading)}</title><style>{_PAGE_STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>", race_fragment(race, notes), "</body></html>", ""])
