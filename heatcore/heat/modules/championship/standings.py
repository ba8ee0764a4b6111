"""Points, standings and the grid of the next race."""

from __future__ import annotations

from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import EventCard, points_table


@implements("event.sponsor-withdraws")
def result_order(ranking: tuple[int, ...], eliminated: tuple[int, ...]) -> tuple[int, ...]:
    """The race's places, first first: the cars that were not eliminated in their finishing
    order, then the eliminated cars, the first eliminated last."""
    return (*(c for c in ranking if c not in eliminated), *reversed(eliminated))


@implements("championship.points", "event.strike", "event.corruption",
            "event.sponsor-withdraws")
def race_points(order: tuple[int, ...], eliminated: tuple[int, ...], event: EventCard,
                players: int) -> tuple[int, ...]:
    """Each player's points for a race whose places are ``order``: the points table plus
    the event's bonus by place; an eliminated car scores 0."""
    table = points_table()
    points = [0] * players
    for place, car in enumerate(order):
        if car in eliminated:
            continue
        base = table[place] if place < len(table) else 0
        bonus = event.points_bonus[place] if place < len(event.points_bonus) else 0
        points[car] = base + bonus
    return tuple(points)


@implements("championship.standings", "ruling.championship-ties")
def standings(totals: tuple[int, ...], last_order: tuple[int, ...]) -> tuple[int, ...]:
    """The players by championship score, highest first; equal scores by their place in the
    most recent race."""
    return tuple(sorted(range(len(totals)), key=lambda car: (-totals[car],
                                                            last_order.index(car))))


@implements("championship.grid")
def next_grid(order: tuple[int, ...]) -> tuple[int, ...]:
    """The grid of the next race, pole first: the standings' order."""
    return order
