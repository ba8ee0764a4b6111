"""An event's changes to a race, applied to its :class:`~heatcore.setup.RaceSetup` as data:
each change kind names the setup field it sets, so no event has a branch of its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from heatcore.championship.data import EventCard
from heatcore.registry import implements
from heatcore.setup import RaceSetup
from heatcore.track import load_track

#: change kind -> how it changes a setup (the value is the event's number for it).
SETTERS: dict[str, Callable[[RaceSetup, int], RaceSetup]] = {
    "laps": lambda setup, delta: replace(setup, laps=load_track(setup.track).laps + delta),
}


@implements("event.setup-changes", "event.strike", "event.record-crowds")
def apply_changes(setup: RaceSetup, event: EventCard) -> tuple[RaceSetup, tuple[str, ...]]:
    """``setup`` with the event's changes the engine plays, and the names of the changes it
    cannot play yet (listed, never dropped silently)."""
    unplayed = []
    for kind, value in event.changes:
        setter = SETTERS.get(kind)
        if setter is None:
            unplayed.append(f"{kind} {value:+d}" if kind != "hand" else f"hand {value}")
            continue
        setup = setter(setup, value)
    return setup, tuple(unplayed)
