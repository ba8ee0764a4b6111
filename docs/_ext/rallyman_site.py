"""Sphinx extension: the Rallyman GT pages that are not rule text: track diagrams drawn from
``spec/rallyman/tracks/*.json`` and a short annotated race played by the engine.

The rule chapters and rulings of Rallyman GT come from the shared rulebook generator
(``rulebook.py``), which reads every ruleset of ``heatcore.framework.registry.GAMES``.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from sphinx.application import Sphinx

DANGER_FILL = {"yellow": "#fff3b0", "orange": "#ffd3a0", "red": "#ffb3b3"}
UNIT = 2.0  # pixels per progress unit (a tile is 120 units)
LANE = 26  # pixels per lane


def svg(track: dict[str, Any]) -> str:
    """The track unrolled into a strip: progress left to right, lane 1 at the top; tiles
    shaded by danger level, corner spaces with their limit (``n!`` dangerous, ``n~`` steep),
    dotted lines drawn as dashed marks (red: a warning line), the finish line in black."""
    tiles = {t["number"]: t["danger"] for t in track["tiles"]}
    width = int(track["lap_progress"] * UNIT) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{3 * LANE + 30}"'
             f' font-family="sans-serif" font-size="10">']
    spaces = {s["id"]: s for s in track["spaces"]}
    for s in track["spaces"]:
        x = 10 + s["span"][0] * UNIT
        w = (s["span"][1] - s["span"][0]) * UNIT
        y = 10 + (s["lanes"][0] - 1) * LANE
        h = LANE * len(s["lanes"])
        fill = DANGER_FILL[tiles[s["tile"]]]
        corner = s.get("corner")
        stroke = "#333" if corner is None else "#0047ab"
        parts.append(f'<rect x="{x:.0f}" y="{y}" width="{w:.0f}" height="{h}" fill="{fill}" '
                     f'stroke="{stroke}" stroke-width="{1 if corner is None else 2}">'
                     f'<title>{html.escape(s["id"])}</title></rect>')
        if corner is not None:
            mark = {"standard": "", "dangerous": "!", "steep": "~"}[corner["kind"]]
            parts.append(f'<text x="{x + w / 2:.0f}" y="{y + h / 2 + 4:.0f}" '
                         f'text-anchor="middle">{corner["limit"]}{mark}</text>')
    for m in track["moves"]:
        dotted = [k for k in ("entry_limit", "exit_limit", "entry_warning", "exit_warning")
                  if k in m]
        if not dotted:
            continue
        edge = spaces[m["to"]] if any(k.startswith("entry") for k in dotted) else spaces[m["from"]]
        x = 10 + (edge["span"][0] if any(k.startswith("entry") for k in dotted)
                  else edge["span"][1]) * UNIT
        lane = spaces[m["from"]]["lanes"][0]
        y = 10 + (lane - 1) * LANE
        colour = "#c00" if any(k.endswith("warning") for k in dotted) else "#0047ab"
        parts.append(f'<line x1="{x:.0f}" y1="{y}" x2="{x:.0f}" y2="{y + LANE}" stroke="{colour}"'
                     f' stroke-width="3" stroke-dasharray="3,3"/>')
    parts.append(f'<line x1="10" y1="5" x2="10" y2="{3 * LANE + 15}" stroke="black" '
                 f'stroke-width="3"/>')
    for number, danger in tiles.items():
        first = min(s["span"][0] for s in track["spaces"] if s["tile"] == number)
        parts.append(f'<text x="{12 + first * UNIT:.0f}" y="{3 * LANE + 25}">T{number} '
                     f'{danger[0].upper()}</text>')
    parts.append("</svg>")
    return "".join(parts)


def track_page(track: dict[str, Any]) -> str:
    """One track's page: its source, counts and diagram."""
    name = track["name"]
    corners = [s for s in track["spaces"] if "corner" in s]
    kinds = sorted({c["corner"]["kind"] for c in corners})
    label = "constructed for heatcore" if track["constructed"] else "published layout"
    lines = [name, "=" * len(name), "",
             f"``{track['id']}`` ({label}), {track['laps']} laps by default, "
             f"{len(track['tiles'])} tiles, {len(track['spaces'])} spaces, "
             f"{len(track['moves'])} moves, {len(corners)} corner spaces "
             f"({', '.join(kinds)}).", "",
             f"Source: {track['source']}", ""]
    if track.get("notes"):
        lines += [f"Notes: {track['notes']}", ""]
    lines += ["The lap unrolled, lane 1 at the top; tiles shaded by danger level (yellow, "
              "orange, red); corner spaces outlined in blue with their limit (``n!`` dangerous, "
              "``n~`` steep); dashed marks are dotted lines (blue: a limit, red: a warning "
              "symbol); hover a space for its ID.", "", ".. raw:: html", "",
              "   <div style=\"overflow-x: auto\">" + svg(track) + "</div>", ""]
    return "\n".join(lines)


def race_page(root: Path) -> str:
    """A short race on the proving ground, played by the engine when the site is built."""
    from heatcore.rallyman.driver import random_race
    from heatcore.tools.rallyman.report import play_by_play

    race = random_race("proving-ground", 2, seed=11, laps=1)
    del root
    text = play_by_play(race)
    body = "\n".join("   " + line for line in text.splitlines())
    return "\n".join([
        "A short annotated race", "======================", "",
        "Two GT6 cars, one lap of the proving ground, dry weather, played by "
        "``heatcore race --game rallyman-gt --track proving-ground --players 2 --seed 11 "
        "--laps 1`` (the sensible policy; every die roll and damage draw is a chance outcome "
        "drawn from the seed). How to read it:", "",
        "* Each round opens with its turn order: highest gear first, then the car ahead, then "
        "the inside lane of the next corner (:rulebook:rule:`rgt.order.speed`).",
        "* ``lays G3>T2.L2.2`` puts the gear-3 die on space T2.L2.2; a plan is laid die by die "
        "(:rulebook:rule:`rgt.turn.sequence`), then rolled one die at a time or flat out "
        "(:rulebook:rule:`rgt.roll.one-by-one`, :rulebook:rule:`rgt.roll.flat-out`).",
        "* ``dice -!`` lists each die's face: ``!`` a warning symbol. Three warnings in a turn "
        "lose control (:rulebook:rule:`rgt.loc.trigger`); the rolled dice may then be re-laid "
        "(:rulebook:rule:`rgt.loc.relay`).",
        "* ``ends in gear 4`` is the gear marker put down in the next round's colour "
        "(:rulebook:rule:`rgt.end.marker`).", "",
        "::", "", body, ""])


def index_page(tracks: list[dict[str, Any]]) -> str:
    """The Rallyman GT part's landing page."""
    from heatcore.framework.registry import ruleset

    return "\n".join([
        "Rallyman GT", "===========", "",
        "Rallyman GT (seed 004) is heatcore's second ruleset, built on the same framework as "
        "Heat: the rule registry and ``@implements``, rulings with switches, explicit chance, "
        "canonical JSON, validity flags, property tests and Z3 proofs. Its rule chapters and "
        "rulings are the Rallyman GT part of :doc:`the rulebook <../rules/index>` (rule IDs "
        "start with ``rgt.``), each with the code, tests and proofs that carry it:", "",
        *[f"* :doc:`{c.title} <../rules/{c.id}>`" for c in ruleset("rallyman-gt").chapters],
        "* :doc:`Rulings (both games') <../rulings>`", "",
        "Its tracks and a race:", "",
        ".. toctree::", "   :maxdepth: 1", "",
        *[f"   {t['id']}" for t in tracks], "   race", ""])


def generate(app: Sphinx) -> None:
    """``builder-inited``: write the pages into ``generated/rallyman``."""
    from heatcore.rallyman.spec import spec_folder

    out = Path(app.srcdir) / "generated" / "rallyman"
    out.mkdir(parents=True, exist_ok=True)
    tracks = [json.loads(p.read_text(encoding="utf-8"))
              for p in sorted((spec_folder() / "tracks").glob("*.json"))]
    pages = {"index.rst": index_page(tracks), "race.rst": race_page(spec_folder())}
    for track in tracks:
        pages[f"{track['id']}.rst"] = track_page(track)
    for name, text in pages.items():
        path = out / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the generation step."""
    app.connect("builder-inited", generate)
    return {"version": "1.0", "parallel_read_safe": True, "parallel_write_safe": True}
