"""A state for people: where each car is, the standings, and ``str(state)``.

:func:`state_summary` is the text of ``str(state)`` (it fills ``RaceState``'s text forms
when this module is imported; the :mod:`heatcore.heat` package imports it).
"""

from __future__ import annotations

from dataclasses import dataclass

from heatcore.heat.rounds import standing
from heatcore.heat.state import TEXT_FORMS, RaceState, car_name
from heatcore.heat.track import Track


@dataclass(frozen=True)
class Standing:
    """A car's place after a round: ranked (``finished``) or where it stands on the track."""

    place: int
    car: int
    position: int
    racing_line: bool
    gear: int
    engine: int
    finished: bool
    legend: bool = False  # a Legend car has no gear or engine of its own


def where(track: Track, position: int) -> str:
    """A position for people: ``grid 68`` before the start, else ``lap L space S``."""
    space = track.space(position)
    if position <= 0:
        return f"grid {space}"
    return f"lap {(position - 1) // track.spaces_per_lap + 1} space {space}"


def short_where(track: Track, position: int) -> str:
    """A position in a few characters: ``grid``, or ``L2:14`` for lap 2 space 14."""
    if position <= 0:
        return "grid"
    return f"L{(position - 1) // track.spaces_per_lap + 1}:{track.space(position)}"


def standings(state: RaceState) -> tuple[Standing, ...]:
    """Every car's place: the ranked cars in rank order, then the others from the leader
    back (furthest first, racing line first), then the eliminated cars, the first last."""
    out: list[Standing] = []
    for car in state.ranking:
        c = state.cars[car]
        out.append(Standing(len(out) + 1, car, c.position, c.racing_line, c.gear, c.engine,
                            True))
    for car in (*standing(state, state.on_track()), *reversed(state.out)):
        c = state.cars[car]
        out.append(Standing(len(out) + 1, car, c.position, c.racing_line, c.gear, c.engine,
                            False, c.legend is not None))
    return tuple(out)


def _moment(state: RaceState) -> str:
    """Where the race is: whose choice or chance outcome is awaited."""
    if state.is_over():
        return "the race is over"
    actor = state.actor()
    who = car_name(actor) if actor is not None else "nobody"
    if state.shuffle is not None:
        return f"a shuffle of {who}'s deck is awaited"
    if state.turn is None:
        return f"steps 1-2 (gear and cards), {who} to choose"
    return f"{who}'s turn ({state.turn.stage.value})"


def laps_text(laps: int) -> str:
    """``1 lap``, ``2 laps``."""
    return f"{laps} lap" if laps == 1 else f"{laps} laps"


def state_summary(state: RaceState) -> str:
    """A state for people (``str(state)``): the round, whose choice it is, and each car's
    place, spot, gear, engine and hand size. The JSON (``repr``) is the canonical form."""
    order = " ".join(car_name(c) for c in state.order)
    lines = [f"{state.track.name}, {laps_text(state.laps)}, round {state.round}: "
             f"{_moment(state)}" + (f"; turn order {order}" if order else "")]
    for row in standings(state):
        name = car_name(row.car)
        if row.finished:
            lines.append(f"  {row.place}. {name}  finished")
            continue
        car = state.cars[row.car]
        lane = "racing line" if row.racing_line else "outside"
        lines.append(f"  {row.place}. {name}  {where(state.track, row.position)} ({lane})  "
                     f"gear {row.gear}  engine {row.engine}  hand {len(car.hand)}")
    return "\n".join(lines)


TEXT_FORMS["str"] = state_summary
