"""What a car earns during a race: the Sponsorship claims of each turn (press corners and the
event's rule), read from the race's steps as they are played or
replayed. Claims are settled when the turn that earns them reaches its discard step (or ends without
one), in turn order (sponsor.given-at-once, ruling.sponsor-gained-timing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from heatcore.framework.events import Event
from heatcore.framework.registry import implements
from heatcore.heat.modules.championship.data import EventCard
from heatcore.heat.modules.championship.press import pays_press, press_corners
from heatcore.heat.state import RaceState, Stage

#: How many cars the grandstand pays for completing lap 1 (event.grandstand).
GRANDSTAND_PLACES = 3
#: The speed that pays under New speed record! (event.speed-record).
RECORD_SPEED = 15
#: The cars to pass in a turn under First live televised race (event.live-tv).
PASSES = 3
#: Events that end the acting car's turn.
TURN_ENDS = frozenset({"turn-started", "round-started", "race-over"})


@dataclass(frozen=True, slots=True)
class Claim:
    """A Sponsorship card earned by ``car`` for ``reason`` after race step ``step`` (the
    index of the action whose events closed the turn); ``corner`` for a press corner."""

    car: int
    reason: str
    step: int
    corner: int = 0


@dataclass
class _Turn:
    car: int
    start: int
    speed: int = 0
    spun: bool = False
    slipstreamed: set[int] = field(default_factory=set)
    corners: list[tuple[int, int]] = field(default_factory=list)


class RaceWatch:
    """Follows one race step by step and collects its claims (the race engine itself
    eliminates under event.sponsor-withdraws)."""

    def __init__(self, start: RaceState, event: EventCard) -> None:
        self.start = start
        self.track = start.track
        self.laps = start.laps
        self.event = event
        self.press = press_corners(start.track, event)
        self.positions = {i: car.position for i, car in enumerate(start.cars)}
        self.turn: _Turn | None = None
        self.lap_one: list[int] = []
        self.claims: list[Claim] = []

    def step(self, index: int, before: RaceState, after: RaceState,
             events: tuple[Event, ...]) -> None:
        """Take in one applied action: the states around it and its events, in order."""
        for state in (before, after):
            if self.turn is not None and state.turn is not None \
                    and state.turn.car == self.turn.car:
                self.turn.speed = max(self.turn.speed, state.turn.speed)
        for ev in events:
            if ev.kind in TURN_ENDS:
                self._close(index)
            if ev.kind == "turn-started" and ev.car is not None:
                self.turn = _Turn(ev.car, self.positions[ev.car])
            elif ev.car is not None and self.turn is not None and ev.car == self.turn.car:
                self._take(ev)
            if ev.kind in ("moved", "spun-out") and ev.car is not None:
                self.positions[ev.car] = int(ev.get("position"))
        # ruling.sponsor-gained-timing: the corner check is over once the turn awaits its
        # discard, so the turn's cards are given then (in time for that discard)
        if self.turn is not None and after.turn is not None \
                and after.turn.car == self.turn.car and after.turn.stage is Stage.DISCARD:
            self._close(index)

    def finish(self, index: int) -> None:
        """The race is over (or stopped): close the turn in progress."""
        self._close(index)

    def _take(self, ev: Event) -> None:
        turn = self.turn
        assert turn is not None
        speed = ev.get("speed")
        if isinstance(speed, int):
            turn.speed = max(turn.speed, speed)
        if ev.kind == "moved" and ev.get("by") == "slipstream":
            old, new = self.positions[turn.car], int(ev.get("position"))
            turn.slipstreamed |= {line.number for line in
                                  self.track.corner_lines(old, new, self.laps)}
        elif ev.kind == "corner":
            turn.corners.append((int(ev.get("corner")), int(ev.get("speed"))))
        elif ev.kind == "spun-out":
            turn.spun = True

    @implements("sponsor.given-at-once", "press.sponsor", "event.grandstand",
                "ruling.sponsor-gained-timing",
                "event.speed-record", "event.live-tv",
                "ruling.event-pass-count", "ruling.event-speed-moment")
    def _close(self, index: int) -> None:
        turn, self.turn = self.turn, None
        if turn is None:
            return
        end = self.positions[turn.car]
        lap = self.track.spaces_per_lap
        crossed_lap_one = turn.car not in self.lap_one and end > lap
        if crossed_lap_one:
            self.lap_one.append(turn.car)
        if turn.spun:
            return
        for number, speed in turn.corners:
            if number not in self.press:
                continue
            if number in turn.slipstreamed:
                self.claims.append(Claim(turn.car, "press-slipstream", index, number))
            elif pays_press(self.start, number, speed):
                self.claims.append(Claim(turn.car, "press-exceed", index, number))
        trigger = self.event.sponsor_trigger
        grandstand = (trigger == "first-three-lap-one" and crossed_lap_one
                      and len(self.lap_one) <= GRANDSTAND_PLACES)
        record = trigger == "speed-15" and turn.speed >= RECORD_SPEED
        if grandstand or record:
            self.claims.append(Claim(turn.car, str(trigger), index))
        elif trigger == "pass-three":
            passed = sum(1 for car, p in self.positions.items()
                         if car != turn.car and turn.start < p < end)
            if passed >= PASSES:
                self.claims.append(Claim(turn.car, trigger, index))
