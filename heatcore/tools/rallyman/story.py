"""A Rallyman GT race told for someone who knows the game: places in words (``tile 2, lane
1, space 3`` for ``T2.L1.3``), one line per turn (the dice laid, how they were rolled, where
the car got to), the reason for each loss of control, and the standings after each round.
The text (:func:`race_story`) is what ``heatcore race --game rallyman-gt`` and ``heatcore
replay`` print; :func:`race_rounds` gives the same rounds to the race page."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from heatcore.framework.events import Event
from heatcore.rallyman.actions import Go, Lay
from heatcore.rallyman.driver import Race
from heatcore.rallyman.engine import apply
from heatcore.rallyman.order import distance2
from heatcore.rallyman.planning import car_dashboard
from heatcore.rallyman.setup import start_race
from heatcore.rallyman.state import FINISHED, IN_PIT, OFF_TRACK, RaceState, car_name
from heatcore.rallyman.track import Track

_SPACE = re.compile(r"T(\d+)\.L(\d+)\.(\d+)$")

LEGEND = """How to read it:
  Places: "tile 2, lane 1, space 3" is the third space along tile 2 (tiles are numbered
    from the start line), in lane 1 of 3 across the road; "lanes 1-2" a space astride two
    lanes. A corner space shows its speed limit: "(corner 3)".
  Round N (white|black): the colour of the round's gear markers, then the turn order
    (highest gear first, then the car further ahead, then the inside line).
  A turn: "lays G1 G2 C" names the dice laid on the spaces ahead (G1-G6 gear dice, C a
    coast die), then how they were rolled: one die at a time (the driver may stop after
    any die) or flat out (all at once, for focus tokens). "dice - !- -": each die's faces,
    - clear or ! a warning (a gear die and the brake or boost dice rolled with it are
    written together). Warnings at the dashboard's limit (3), or a gear above a corner's
    limit, lose control: the car spins (gear marker 0) or goes off the track (marker 00)
    and draws damage tokens.
  Standings after each round: place, car, lap, place on the track, gear, damage tokens."""


def place(space: str, track: Track | None = None) -> str:
    """``T2.L12.3`` as ``tile 2, lanes 1-2, space 3`` (with ``(corner L)`` on a corner
    space of ``track``); an id of another shape is returned as it is."""
    found = _SPACE.match(space)
    if found is None:
        return space
    tile, lanes, number = found.groups()
    lane = f"lane {lanes}" if len(lanes) == 1 else f"lanes {'-'.join(lanes)}"
    text = f"tile {tile}, {lane}, space {number}"
    corner = track.spaces[space].corner if track is not None and space in track.spaces \
        else None
    return f"{text} (corner {corner.limit})" if corner is not None else text


@dataclass
class RoundStory:
    """One round: its heading, its lines and the state after it."""

    heading: str
    lines: list[str] = field(default_factory=list)
    state: RaceState | None = None


def standings(state: RaceState) -> list[str]:
    """Place, car, lap, where, gear and damage of every car, the finished first."""
    track = state.track
    racing = sorted(state.racing(), key=lambda i: -distance2(state, state.cars[i]))
    out = []
    for position, index in enumerate((*state.ranking, *racing), start=1):
        car = state.cars[index]
        if car.where == FINISHED or index in state.ranking:
            out.append(f"  {position}. {car_name(index)} finished")
            continue
        where = {OFF_TRACK: "off the track near ", IN_PIT: "in the pits at "}.get(car.where, "")
        lap = min(car.laps + 1, state.laps)
        damage = f", {len(car.tokens)} damage" if car.tokens else ""
        out.append(f"  {position}. {car_name(index)} lap {lap}/{state.laps}, "
                   f"{where}{place(car.space, track)}, gear {_gear(car.gear)}{damage}")
    return out


def _gear(marker: int) -> str:
    return "00" if marker < 0 else str(marker)


class _Teller:
    """Turns the events of one race into lines, a turn's dice and moves folded into one."""

    def __init__(self, track: Track, laps: int) -> None:
        self.track, self.laps = track, laps
        self.dice: list[str] = []
        self.moves = 0
        self.last = ""
        self.lap = 0
        self.lines: list[str] = []

    def flush(self, ending: str = "") -> None:
        if self.dice or self.moves:
            to = f" to {place(self.last, self.track)}" if self.moves else ""
            lap = "" if not self.moves or not self.lap else " (over the finish line)" \
                if self.lap >= self.laps else f" (lap {self.lap + 1})"
            moved = f"{self.moves} space{'s' if self.moves != 1 else ''}" if self.moves \
                else "no space"
            self.lines.append(f"    dice {' '.join(self.dice) or '-'}: {moved}{to}{lap}"
                              f"{ending}")
        elif ending:
            self.lines.append(f"    {ending.lstrip('; ')}")
        self.dice, self.moves = [], 0

    def tell(self, event: Event, before: RaceState) -> None:
        kind = event.kind
        if kind == "dice":
            self.dice += str(event.get("results")).split("/")
            return
        if kind == "moved":
            self.moves += 1
            self.last = str(event.get("to"))
            self.lap = int(event.get("lap") or 0)
            return
        if kind == "turn-ended":
            self.flush(f"; ends in gear {event.get('gear')}")
            return
        self.flush()
        line = self._line(event, before)
        if line:
            self.lines.append(line)

    def _line(self, e: Event, before: RaceState) -> str:
        """The line of an event other than dice, moves and the turn's end ("" for none)."""
        name = car_name(e.car) if e.car is not None else ""
        at = place(str(e.get("at") or ""), self.track)

        def where(key: str) -> str:
            return place(str(e.get(key)), self.track)

        said: dict[str, Callable[[], str]] = {
            "focus-gained": lambda: f"    flat out: +{e.get('tokens')} focus",
            "focus-spent": lambda: (f"    spends {e.get('tokens')} focus to fix "
                                    f"{e.get('dice')} dice"),
            "stopped": lambda: "    stops before the next die",
            "control-lost": lambda: f"    LOSES CONTROL at {at}: {loss_reason(e, before)}",
            "relaid": lambda: f"    re-lays {' '.join(e.get('dice'))} on {where('to')}",
            "spin": lambda: (f"    spins at {at} in gear {e.get('gear')} ({e.get('danger')} "
                             f"tile): marker 0, {e.get('tokens')} damage"),
            "off-track": lambda: (f"    goes off the track at {at} in gear {e.get('gear')} "
                                  f"({e.get('danger')} tile): marker 00, {e.get('tokens')} "
                                  "damage"),
            "damage-drawn": lambda: f"    draws a {e.get('token')} damage token",
            "weather-changed": lambda: f"    the weather turns {e.get('weather')}",
            "yellow-flag-lifted": lambda: f"  {name}'s yellow flag leaves the track",
            "blocked": lambda: f"  {name} is blocked",
            "back-on-track": lambda: f"  {name} is back on the track at {where('space')}",
            "cannot-return": lambda: f"  {name} cannot return: {where('space')} is taken",
            "pit-stop": lambda: (f"    pit stop: {e.get('lane')} lane (tyres now "
                                 f"{e.get('tyres')})"),
            "finished": lambda: f"  {name} FINISHES in place {e.get('place')}",
            "race-over": lambda: f"Race over: {', '.join(e.get('ranking'))}",
        }
        tell = said.get(e.kind)
        return tell() if tell is not None else ""


def loss_reason(event: Event, before: RaceState) -> str:
    """Why the car lost control (from the turn as it stood before the dice that did it):
    a gear above the corner's limit, or the warnings that reached the dashboard's limit."""
    turn = before.turn
    warnings = int(event.get("warnings") or 0)
    if turn is None or event.car is None:
        return f"{warnings} warning(s)"
    limit = car_dashboard(before, event.car).limit
    step = next((s for s in turn.plan if s.to == event.get("at")), None)
    if step is not None and step.overspeed:
        corner = before.track.spaces[step.to].corner if step.to in before.track.spaces \
            else None
        over = f"the corner's limit of {corner.limit}" if corner else "the corner's limit"
        return f"gear {step.gear} is over {over}"
    from_track = f", {step.track_warnings} of them from the track" \
        if step is not None and step.track_warnings else ""
    return f"{warnings} warnings reach the dashboard's limit of {limit}{from_track}"


def race_rounds(race: Race) -> tuple[list[str], list[RoundStory]]:
    """The race's opening lines and its rounds (each with its lines and the state after
    it), replayed from its setup."""
    state, _ = start_race(race.setup)
    teller = _Teller(state.track, state.laps)
    rounds: list[RoundStory] = []
    opening: list[str] = []
    plan: list[str] = []
    for event in race.start_events:
        if event.kind == "round-started":
            rounds.append(RoundStory(_round_heading(event)))
    for action, events in zip(race.actions, race.events, strict=True):
        before = state
        state, _ = apply(state, action)
        if isinstance(action, Lay):
            plan.append(action.die)
            continue
        if isinstance(action, Go):
            how = "flat out" if action.mode == "flat" else "one die at a time"
            teller.lines.append(f"  {car_name(action.car)} lays {' '.join(plan)}, rolls {how}")
            plan = []
        for event in events:
            if event.kind == "round-started":
                teller.flush()
                if rounds:
                    rounds[-1].lines += teller.lines
                    rounds[-1].state = state
                teller.lines = []
                rounds.append(RoundStory(_round_heading(event)))
            else:
                teller.tell(event, before)
    teller.flush()
    if rounds:
        rounds[-1].lines += teller.lines
        rounds[-1].state = state
    else:
        opening += teller.lines
    return opening, rounds


def _round_heading(event: Event) -> str:
    return f"Round {event.get('round')} ({event.get('colour')}): {', '.join(event.get('order'))}"


def title(race: Race) -> str:
    """The race in one line: track, cars, laps, weather."""
    track = race.final.track
    laps = f"{race.setup.laps} lap{'s' if race.setup.laps != 1 else ''}"
    return (f"Rallyman GT on {track.name}: {race.setup.players} cars, {laps}, "
            f"{race.setup.weather} weather")


def race_story(race: Race, legend: bool = True) -> str:
    """The race as text: title, grid, (legend,) each round with its standings, the result."""
    grid = ", ".join(car_name(i) for i in race.setup.grid)
    lines = [title(race), f"Grid, front to back: {grid}"]
    if legend:
        lines += ["", LEGEND, ""]
    opening, rounds = race_rounds(race)
    lines += opening
    for story in rounds:
        lines.append(story.heading)
        lines += story.lines
        if story.state is not None and not story.state.is_over():
            lines.append(f"  standings after round {story.heading.split()[1]}:")
            lines += ["  " + s for s in standings(story.state)]
    ranking = " ".join(f"{i + 1}. {car_name(c)}" for i, c in enumerate(race.final.ranking))
    lines.append(f"Final ranking: {ranking} ({race.final.round} rounds)")
    return "\n".join(lines) + "\n"
