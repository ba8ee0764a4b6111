"""The round: turn order, who gets adrenaline, and the end of a round (finishing, ranking)."""

from __future__ import annotations

from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.rulings import LEGEND_ADRENALINE_COUNT
from heatcore.heat.state import Phase, RaceState


@implements("order.fixed-at-round-start")
def standing(state: RaceState, cars: tuple[int, ...]) -> tuple[int, ...]:
    """``cars`` from the leader back: furthest position first, racing line first in a space."""
    return tuple(sorted(cars, key=lambda i: (-state.cars[i].position,
                                             not state.cars[i].racing_line)))


@implements("adrenaline.who", "adrenaline.count-fixed")
def adrenaline_count(starting_cars: int) -> int:
    """How many cars get adrenaline: 2 if the race started with 5 or more cars, else 1."""
    return 2 if starting_cars >= 5 else 1


@implements("adrenaline.who", "ruling.adrenaline-order", "legend.turn-order",
            "ruling.legend-adrenaline-count")
def has_adrenaline(state: RaceState, car: int) -> bool:
    """Whether ``car`` is among the last cars of this round's fixed turn order (every car
    counts, Legends included, for how many: only the players' cars under the alternative
    "players-only"; a Legend itself never has adrenaline)."""
    if state.cars[car].legend is not None:
        return False
    starting = len(state.cars)
    if state.rulings.chose(LEGEND_ADRENALINE_COUNT, "players-only"):
        starting = sum(c.legend is None for c in state.cars)
    return state.order.index(car) >= len(state.order) - adrenaline_count(starting)


@implements("legend.turn-order")
def next_planner(state: RaceState, cursor: int) -> int:
    """The first place from ``cursor`` on in the turn order that is not a Legend (Legends
    skip steps 1-2); ``len(order)`` when none is left."""
    order = state.order
    while cursor < len(order) and state.cars[order[cursor]].legend is not None:
        cursor += 1
    return cursor


@implements("round.sequence", "order.fixed-at-round-start")
def start_round(state: RaceState, events: list[Event]) -> RaceState:
    """Fix the turn order from the standing and open steps 1-2."""
    order = standing(state, state.on_track())
    events.append(event("round-started", None, round=state.round + 1,
                        order=tuple(f"P{i + 1}" for i in order)))
    state = replace(state, round=state.round + 1, phase=Phase.PLAN, order=order, cursor=0,
                    turn=None)
    if state.legends is None:
        return state
    return replace(state, cursor=next_planner(state, 0), legends=hooks.new_round(state.legends))


@implements("race.goal", "finish.ranking", "finish.removed", "ruling.no-round-limit",
            "event.sponsor-withdraws")
def end_round(state: RaceState, events: list[Event]) -> RaceState:
    """Rank the cars that finished this round (furthest first, racing line first), remove
    them from the track, and start the next round unless every car has finished (there
    is no round limit: ruling.no-round-limit) or eliminated (event.sponsor-withdraws)."""
    finishers = standing(state, tuple(i for i in state.order
                                      if state.has_finished(i) and i not in state.out))
    ranking = state.ranking
    for car in finishers:
        ranking += (car,)
        events.append(event("ranked", car, place=len(ranking)))
    state = replace(state, ranking=ranking, turn=None)
    if len(ranking) + len(state.out) == len(state.cars):  # event.sponsor-withdraws
        events.append(event("race-over", None, ranking=tuple(f"P{i + 1}" for i in ranking)))
        return replace(state, phase=Phase.OVER, order=(), cursor=0)
    return start_round(state, events)
