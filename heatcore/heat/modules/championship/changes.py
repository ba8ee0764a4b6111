"""An event's changes to a race, applied to its :class:`~heatcore.heat.setup.RaceSetup` as data:
each change kind names what it sets (the laps, or a field of the setup's
:class:`~heatcore.heat.state.Changes`), so no event has a branch of its own."""

from __future__ import annotations

from dataclasses import replace

from heatcore.framework.errors import MalformedInput
from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import EventCard
from heatcore.heat.setup import RaceSetup
from heatcore.heat.state import NO_CHANGES, Changes
from heatcore.heat.track import load_track

#: Change kinds that are fields of :class:`Changes` (Heat and Stress are added to the
#: track's counts; the hand size replaces 7).
NUMBERS = ("heat", "stress", "hand")
#: The change kind added to the track's laps.
LAPS = "laps"


@implements("event.setup-changes", "event.engine-unrestricted", "event.record-crowds",
            "event.safety", "event.sponsor-withdraws")
def changes_of(event: EventCard) -> Changes:
    """The event's changes to the core numbers, and whether its spins eliminate;
    MalformedInput for a kind it cannot be."""
    numbers: dict[str, int] = {}
    for kind, value in event.changes:
        if kind in NUMBERS:
            numbers[kind] = value
        elif kind != LAPS:
            raise MalformedInput("event.setup-changes", f"event {event.id} changes {kind!r}, "
                                 f"which is not one of {LAPS}, {', '.join(NUMBERS)}")
    return replace(NO_CHANGES, **numbers, eliminate=event.eliminate_on_spin)


@implements("event.setup-changes", "event.strike", "event.record-crowds")
def apply_changes(setup: RaceSetup, event: EventCard) -> RaceSetup:
    """``setup`` with the event's changes: its laps (the track's, plus the event's change)
    and its core numbers."""
    laps = load_track(setup.track).laps + (event.change(LAPS) or 0)
    return replace(setup, laps=laps, changes=changes_of(event))
