"""Press corners: which corners of a track an event names, and the limit the press compares a
car's speed with."""

from __future__ import annotations

from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import EventCard
from heatcore.heat.modules.weather import corner_limit
from heatcore.heat.state import RaceState
from heatcore.heat.track import Track

#: A press corner pays a Sponsorship card at this much over the limit (press.sponsor).
PRESS_EXCESS = 2


@implements("press.corners")
def press_corners(track: Track, event: EventCard) -> frozenset[int]:
    """The press corners' numbers (1-based, lap order) on ``track`` under ``event``: each
    0-based index of the event taken modulo the track's corner count (base tracks have no
    chicane to skip)."""
    count = len(track.corners)
    return frozenset(index % count + 1 for index in event.press)


@implements("press.sponsor", "ruling.press-corner-limit")
def press_limit(state: RaceState, number: int) -> int:
    """The limit a press corner compares with: the printed limit of corner ``number`` with
    its road token's change (weather module), never the car's Adjust."""
    return corner_limit(state, number, state.track.corners[number - 1].limit)


def pays_press(state: RaceState, number: int, speed: int) -> bool:
    """Whether a speed at corner ``number``'s check earns the press's card by overspeed."""
    return speed >= press_limit(state, number) + PRESS_EXCESS
