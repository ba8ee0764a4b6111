"""The Championship's data, read from ``spec/modules/championship.json``: the points table,
the Sponsorship cards, the event cards and the seasons. Nothing here plays a race."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements, spec_dir

#: The Championship's rules settled around its races (the Garage rounds, sponsors, press
#: corners, points, standings, the grid, what carries over) and their rulings. The race
#: protocol does not carry them, so the race fixtures cannot show them: the championship log,
#: its replay and its independent check (heatcore.heat.championship_check) test them.
BETWEEN_RACES = frozenset({
    "championship.season", "championship.points", "championship.standings",
    "championship.grid", "championship.carry-over", "championship.garage-round",
    "sponsor.deck", "sponsor.race-start", "sponsor.carry-over", "ruling.sponsor-carry-over",
    "ruling.sponsor-used-return",
    "sponsor.given-at-once", "press.corners", "press.sponsor", "event.grandstand",
    "event.speed-record", "event.corruption", "event.title-sponsor", "event.live-tv",
    "ruling.championship-ties", "ruling.press-corner-limit", "ruling.sponsor-deck-empty",
    "ruling.event-pass-count", "ruling.event-speed-moment"})


@dataclass(frozen=True)
class SponsorType:
    """One Sponsorship card type: its token (``S80``), name, copies, speed(s) and symbols."""

    type: int
    token: str
    name: str
    copies: int
    speeds: tuple[int, ...]
    symbols: tuple[tuple[str, int], ...]


@dataclass(frozen=True)
class EventCard:
    """One event card: Sponsorship cards drawn at the start, press-corner indices, the
    changes to the race's setup, the points added to the first places, the rule by which
    cars earn a Sponsorship card during the race, and whether a spin eliminates."""

    id: int
    key: str
    title: str
    rule: str
    text: str
    sponsors: int
    press: tuple[int, ...]
    changes: tuple[tuple[str, int], ...]
    points_bonus: tuple[int, ...]
    sponsor_trigger: str | None
    eliminate_on_spin: bool

    def change(self, name: str) -> int | None:
        """The event's value for the setup change ``name`` (None when it makes none)."""
        for key, value in self.changes:
            if key == name:
                return value
        return None


@dataclass(frozen=True)
class SeasonRace:
    """One race of a season: its track and its event card."""

    track: str
    event: EventCard


@dataclass(frozen=True)
class Season:
    """A season: its year and its races in order."""

    year: int
    races: tuple[SeasonRace, ...]


@cache
def _data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads((spec_dir() / "modules" / "championship.json").read_text(
        encoding="utf-8"))
    return data


@cache
@implements("championship.points")
def points_table() -> tuple[int, ...]:
    """Points by finishing place, first place first (places beyond score 0)."""
    return tuple(_data()["points"]["table"])


@cache
@implements("sponsor.deck")
def sponsor_types() -> dict[str, SponsorType]:
    """Every Sponsorship card type by token, in type order."""
    return {c["token"]: SponsorType(c["type"], c["token"], c["name"], c["copies"],
                                    tuple(c["speed"]),
                                    tuple((s["symbol"], s["amount"]) for s in c["symbols"]))
            for c in _data()["sponsors"]["cards"]}


@implements("sponsor.deck")
def sponsor_box() -> tuple[str, ...]:
    """Every Sponsorship card by token, sorted (7 copies of each of the 5 types)."""
    return tuple(t.token for t in sponsor_types().values() for _ in range(t.copies))


@cache
def events() -> dict[int, EventCard]:
    """Every event card by number."""
    return {e["id"]: EventCard(e["id"], e["key"], e["title"], e["rule"], e["text"],
                               e["sponsors"], tuple(e["press"]),
                               tuple(sorted(e["changes"].items())), tuple(e["points_bonus"]),
                               e["sponsor_trigger"], e["eliminate_on_spin"])
            for e in _data()["events"]}


@cache
@implements("championship.season")
def seasons() -> dict[int, Season]:
    """Every season by year, its races in order."""
    cards = events()
    return {s["year"]: Season(s["year"], tuple(SeasonRace(r["track"], cards[r["event"]])
                                               for r in s["races"]))
            for s in _data()["seasons"]}


def season(year: int) -> Season:
    """The season of ``year``; MalformedInput naming the known seasons otherwise."""
    known = seasons()
    if year not in known:
        raise MalformedInput("championship.season", f"no season {year} (seasons: "
                             f"{', '.join(str(y) for y in known)})")
    return known[year]
