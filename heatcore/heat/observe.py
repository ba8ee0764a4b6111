"""What one player may see of a state (``info.hidden`` and its reveal points)."""

from __future__ import annotations

from typing import Any

from heatcore.framework.registry import implements
from heatcore.heat.notation import state_to_dict
from heatcore.heat.state import Phase, RaceState


@implements("info.cards-revealed")
def _revealed(state: RaceState, car: int) -> bool:
    """Whether the car's played cards are face up: from its own reveal to its replenish."""
    return state.phase is Phase.TURN and state.turn is not None and state.turn.car == car


@implements("info.hidden", "info.discard-top", "ruling.discard-pile-order")
def _pile_sizes(car: dict[str, Any]) -> None:
    """Deck and discard pile as sizes: no deck is looked at, a discard pile is not searched,
    and heatcore keeps no top card (ruling.discard-pile-order)."""
    car["deck"] = len(car["deck"])
    car["discard"] = len(car["discard"])


@implements("info.hidden", "info.plan-simultaneous", "info.gears-shown",
            "ruling.simultaneous-planning")
def _other_cards(state: RaceState, index: int, car: dict[str, Any]) -> None:
    """Another car's hand as a size, and its played cards as a size until its reveal. While
    the cars plan, nothing of its plan shows: its hand counts the cards it put face down,
    none of them shown as played (its gear and engine are those of the round's start until
    every plan is in)."""
    if state.phase is Phase.PLAN:
        car["hand"] = len(car["hand"]) + len(car["played"])
        car["played"] = 0
        return
    car["hand"] = len(car["hand"])
    if not _revealed(state, index):
        car["played"] = len(car["played"])


def observation(state: RaceState, viewer: int) -> dict[str, Any]:
    """The state as ``viewer`` sees it: its own hand and played cards; for every car the
    sizes of deck and discard pile, gear, engine and spot; another car's hand as a size and
    its played cards from its reveal only (see ``_other_cards`` for planning)."""
    data = state_to_dict(state)
    for index, car in enumerate(data["cars"]):
        _pile_sizes(car)
        if index != viewer:
            _other_cards(state, index, car)
    return data
