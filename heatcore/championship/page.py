"""The Championship's data as reStructuredText (the rulebook appends it to the Championship
chapter): the seasons, the event cards, the Sponsorship cards and the points table, read
from ``spec/modules/championship.json``."""

from __future__ import annotations

from collections.abc import Sequence

from heatcore.championship.data import EventCard, events, points_table, seasons, sponsor_types
from heatcore.track import load_track


def _table(title: str, header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    out = [f".. list-table:: {title}\n   :header-rows: 1\n\n"]
    for row in (header, *rows):
        out.append("   * - " + "\n     - ".join(cell or "-" for cell in row) + "\n")
    return "".join(out) + "\n"


def _changes(event: EventCard) -> str:
    parts = []
    for kind, value in event.changes:
        parts.append(f"hand size {value}" if kind == "hand" else f"{kind} {value:+d}")
    if event.points_bonus:
        parts.append("points " + ", ".join(f"+{b} to place {i}"
                                           for i, b in enumerate(event.points_bonus, start=1)))
    if event.sponsor_trigger:
        parts.append(f"sponsor: {event.sponsor_trigger}")
    if event.eliminate_on_spin:
        parts.append("a spin eliminates")
    return "; ".join(parts)


def page_rst() -> str:
    """Seasons, events, sponsors and points as tables."""
    out = ["The Championship's data\n-----------------------\n\n",
           "As ``spec/modules/championship.json`` gives it. The points table is confirmed by "
           "two sources; the events' sponsor counts and press corners and the Sponsorship "
           "cards' values come from the online adaptation only and were not checked against "
           "the printed cards.\n\n"]
    rows = []
    for year, plan in seasons().items():
        for number, race in enumerate(plan.races, start=1):
            rows.append((str(year), str(number), load_track(race.track).name,
                         f"{race.event.id}: {race.event.title}"))
    out.append(_table("Seasons", ("Season", "Race", "Track", "Event"), rows))
    out.append(_table("Event cards", ("Event", "Start sponsors", "Press corners (index)",
                                      "Changes", "Rule"),
                      [(f"{e.id}: {e.title}", str(e.sponsors),
                        ", ".join(map(str, e.press)), _changes(e), f"``{e.rule}``")
                       for e in events().values()]))
    out.append(_table("Sponsorship cards (one-time use)", ("Card", "Name", "Copies", "Speed",
                                                           "Symbols"),
                      [(t.token, t.name, str(t.copies), " or ".join(map(str, t.speeds)),
                        ", ".join(f"{s} {n:+d}" for s, n in t.symbols))
                       for t in sponsor_types().values()]))
    out.append(_table("Championship points", ("Place", "Points"),
                      [(str(i), str(p)) for i, p in enumerate(points_table(), start=1)]
                      + [("7 and below, or eliminated", "0")]))
    out.append("What heatcore's championship does not play yet: Sponsorship cards are given, "
               "kept and accounted for but cannot be played in a race; an eliminated car "
               "scores 0 and ranks last but stays on the track until it finishes. The weather "
               "module is played on request (``heatcore championship --weather``): a weather "
               "token and road tokens drawn for every race.\n")
    return "".join(out)
