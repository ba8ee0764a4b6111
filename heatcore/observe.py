"""What one player may see of a state (``info.hidden``)."""

from __future__ import annotations

from typing import Any

from heatcore.notation import state_to_dict
from heatcore.registry import implements
from heatcore.state import Phase, RaceState


def _revealed(state: RaceState, car: int) -> bool:
    """Whether the car's played cards are face up: from its own reveal to its replenish."""
    return state.phase is Phase.TURN and state.turn is not None and state.turn.car == car


@implements("info.hidden")
def observation(state: RaceState, viewer: int) -> dict[str, Any]:
    """The state as ``viewer`` sees it: its own hand; for everyone, deck and discard sizes
    only (no deck is looked at, the discard is not searched), and played cards only once
    revealed; other hands as sizes. Engines, gears and positions are public."""
    data = state_to_dict(state)
    for index, car in enumerate(data["cars"]):
        car["deck"] = len(car["deck"])
        car["discard"] = len(car["discard"])
        if index != viewer:
            car["hand"] = len(car["hand"])
        if index != viewer and not _revealed(state, index):
            car["played"] = len(car["played"])
    return data
