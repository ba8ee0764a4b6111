"""Turn order: speed, then distance, then the inside lane of the next corner."""

from __future__ import annotations

from heatcore.framework.registry import implements
from heatcore.rallyman.state import Car, RaceState


def distance2(state: RaceState, car: Car) -> int:
    """Twice the progress of a car from the start (laps included)."""
    return car.laps * 2 * state.track.lap_progress + state.track.spaces[car.space].progress2


def lane_gap(state: RaceState, car: Car) -> int:
    """How far the car's lane is from the inside lane of the next corner (0 = inside)."""
    inside = state.track.next_inside[car.space]
    return min(abs(lane - inside) for lane in state.track.spaces[car.space].lanes)


@implements("rgt.order.speed", "rgt.order.distance", "rgt.order.position",
            "rgt.ruling.order-zero", "rgt.ruling.distance")
def order_key(state: RaceState, index: int) -> tuple[int, int, int, int]:
    """Sort key of a car in the turn order (smaller moves first)."""
    car = state.cars[index]
    return (-car.gear, -distance2(state, car), lane_gap(state, car), index)


def turn_order(state: RaceState, cars: tuple[int, ...]) -> tuple[int, ...]:
    """``cars`` in turn order."""
    return tuple(sorted(cars, key=lambda i: order_key(state, i)))
