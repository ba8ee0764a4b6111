"""Sphinx extension: a page and an SVG diagram per Heat track (drawn by ``heatcore.tools.heat.svg``
from
the track graph), the sample race of the home page and the page that steps through it.
Everything is computed by heatcore when the site is built.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

from heatcore.heat.driver import Race, greedy_policy, play
from heatcore.heat.setup import random_setup
from heatcore.heat.track import Track, load_track, track_ids
from heatcore.tools.heat.racepage import race_fragment, round_note
from heatcore.tools.heat.report import LEGEND, play_by_play, race_rounds
from heatcore.tools.heat.svg import track_svg

#: The race of the annotated page and of the home page's sample output.
SAMPLE_RACE = ("italia", 3, 1, 16)  # track, cars, laps, seed (greedy drivers)


def sample_race() -> Race:
    """The short race shown on the home page and stepped through on the race page."""
    track, players, laps, seed = SAMPLE_RACE
    rng = random.Random(seed)
    return play(random_setup(track, players, rng, laps), greedy_policy, rng)


def race_page(race: Race) -> str:
    """The RST page that steps through ``race`` round by round, with a note per round."""
    track, players, laps, seed = SAMPLE_RACE
    notes = {0: "The grid: the pole car starts on the racing line. Press Next (or the right "
                "arrow) to play the race one round at a time."}
    shown = [r for r in race_rounds(race) if r.turns or r.ranked]
    for frame, report in enumerate(shown, start=1):
        note = round_note(report)
        if note:
            notes[frame] = note
    body = race_fragment(race, notes)
    indented = "\n".join("   " + line if line else "" for line in body.splitlines())
    return "\n".join([
        ".. _race-page:", "", "A race, round by round", "======================", "",
        f"A {players}-car race of {laps} lap on {load_track(track).name} (seed {seed}, the "
        "greedy drivers), played by the engine when this site was built. The picture shows "
        "every car where it stood after the round, the table its place, gear and engine; "
        "below it, the round's plays and a note on what stood out. The same page for any "
        "race: ``heatcore race --track italia --players 3 --laps 1 --seed 16 --html "
        "race.html``.", "", ".. raw:: html", "", indented, "",
        "The legend of the plays:", "", "::", "",
        "\n".join("   " + line for line in LEGEND.splitlines()), ""])

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
    race = sample_race()
    pages = {out / name: text for name, text in files.items()}
    race_dir = out.parent / "race"
    pages[race_dir / "index.rst"] = race_page(race)
    pages[race_dir / "sample.txt"] = play_by_play(race, legend=True)
    for path, text in pages.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generation step (after the rulebook's config values exist)."""
    app.setup_extension("rulebook")
    app.connect("builder-inited", generate)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
