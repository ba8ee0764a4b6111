"""The Championship's data as reStructuredText (the rulebook appends it to the Championship
chapter): the seasons, the event cards, the Sponsorship cards and the points table, read
from ``spec/modules/championship.json``."""

from __future__ import annotations

from collections.abc import Sequence

from heatcore.heat.modules.championship.data import (
    EventCard,
    events,
    points_table,
    seasons,
    sponsor_types,
)
from heatcore.heat.modules.garage.data import sponsor_cards
from heatcore.heat.track import load_track
from heatcore.tools.heat.garage_cards import card_table


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
    out.append("Each Sponsorship card as a race plays it (``sponsor.play``): a card of the "
               "hand with the Garage's symbols, used once (``sponsor.one-time``).\n\n")
    for token, card in sponsor_cards().items():
        out.append(card_table(card, f"{token}: {sponsor_types()[token].name} (one-time)"))
    out.append("How a race plays them: the cards an event gives at the start are put into the "
               "hand before it is filled from the deck (``sponsor.in-hand``); a card earned "
               "during a race goes into the hand at once, when the turn reaches its discard "
               "step (``ruling.sponsor-gained-timing``; in a race log the input "
               "``P2 sponsor S83``); a played card leaves for the race's used cards instead of "
               "the discard pile (``sponsor.one-time``) and goes back into the Sponsorship deck "
               "before the next race (``ruling.sponsor-used-return``); an unplayed card may be "
               "discarded to the player's own discard pile (``sponsor.discard``); the cards "
               "still held at the end are shuffled into the player's deck of the next race "
               "(``sponsor.carry-over``). An eliminated car leaves the track at its spin "
               "(``event.sponsor-withdraws``). The weather module is played on request "
               "(``heatcore championship --weather``): a weather token and road tokens drawn "
               "for every race.\n")
    return "".join(out)
