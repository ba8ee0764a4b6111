"""A readable play-by-play of a Rallyman GT race, built from its actions and events."""

from __future__ import annotations

from collections.abc import Callable

from heatcore.framework.events import Event
from heatcore.rallyman.actions import Go, Lay
from heatcore.rallyman.driver import Race
from heatcore.rallyman.track import load_track

Say = Callable[[Event], str]

_SAY: dict[str, Say] = {
    "round-started": lambda e: (f"Round {e.get('round')} ({e.get('colour')}): "
                                f"{', '.join(e.get('order'))}"),
    "focus-gained": lambda e: f"    flat out: +{e.get('tokens')} focus",
    "focus-spent": lambda e: f"    spends {e.get('tokens')} focus to fix {e.get('dice')} dice",
    "dice": lambda e: f"    dice {e.get('results')}",
    "moved": lambda e: f"    moves to {e.get('to')}" + (f" (lap {e.get('lap')})"
                                                          if e.get("lap") else ""),
    "stopped": lambda e: "    stops before the next die",
    "control-lost": lambda e: (f"    LOSES CONTROL at {e.get('at')} "
                               f"({e.get('warnings')} warnings)"),
    "relaid": lambda e: f"    re-lays {' '.join(e.get('dice'))} on {e.get('to')}",
    "spin": lambda e: (f"    spins at {e.get('at')} in gear {e.get('gear')} "
                       f"({e.get('danger')} tile): marker 0, {e.get('tokens')} damage"),
    "off-track": lambda e: (f"    goes off the track at {e.get('at')} in gear {e.get('gear')} "
                            f"({e.get('danger')} tile): marker 00, {e.get('tokens')} damage"),
    "damage-drawn": lambda e: f"    draws a {e.get('token')} token",
    "weather-changed": lambda e: f"    the weather turns {e.get('weather')}",
    "yellow-flag-lifted": lambda e: f"  P{(e.car or 0) + 1}'s yellow flag leaves the track",
    "blocked": lambda e: f"  P{(e.car or 0) + 1} is blocked",
    "back-on-track": lambda e: f"  P{(e.car or 0) + 1} is back on the track at {e.get('space')}",
    "cannot-return": lambda e: f"  P{(e.car or 0) + 1} cannot return: {e.get('space')} is taken",
    "pit-stop": lambda e: f"    pit stop: {e.get('lane')} lane (tyres now {e.get('tyres')})",
    "finished": lambda e: f"  P{(e.car or 0) + 1} FINISHES in place {e.get('place')}",
    "turn-ended": lambda e: f"    ends in gear {e.get('gear')}",
    "race-over": lambda e: f"Race over: {', '.join(e.get('ranking'))}",
}


def play_by_play(race: Race) -> str:
    """The race as text: a line per round, per plan and per event."""
    setup = race.setup
    track = load_track(setup.track)
    grid = ", ".join(f"P{i + 1}" for i in setup.grid)
    lines = [f"Rallyman GT on {track.name}: {setup.players} cars, {setup.laps} lap(s), "
             f"{setup.weather} weather. Grid: {grid}"]
    lines += [_SAY[e.kind](e) for e in race.start_events if e.kind in _SAY]
    plan: list[str] = []
    for action, events in zip(race.actions, race.events, strict=True):
        if isinstance(action, Lay):
            plan.append(f"{action.die}>{action.to}")
        elif isinstance(action, Go):
            how = "flat out" if action.mode == "flat" else "one die at a time"
            lines.append(f"  P{action.car + 1} lays {' '.join(plan)}; rolls {how}")
            plan = []
        lines += [_SAY[e.kind](e) for e in events if e.kind in _SAY]
    return "\n".join(lines) + "\n"
