"""Exhaustive exploration: every reachable state of a small race, breadth first, every
transition checked (``spec/explore.md``).

States are merged by their canonical JSON (``state_to_json``), which is also the form in
which they travel between processes: a job expands one part of a breadth-first level and
returns each new state's JSON in first-seen order, so the merged level, and every figure,
is the same however the level was cut. Each transition (the decision, and any shuffle that
follows it, resolved by the perft rule of ``spec/perft.md``) is checked by
:class:`heatcore.heat.race_checker.RaceChecker`: the independent model's legal actions, state
and events, and the ``heatcore.heat.validity`` flags of the state reached.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field

from heatcore.framework.errors import MalformedInput
from heatcore.framework.events import Event
from heatcore.framework.registry import spec_dir
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.notation import setup_from_dict, state_from_json, state_to_json
from heatcore.heat.oracle.model import RaceModel
from heatcore.heat.perft import chance_action
from heatcore.heat.race_checker import RaceChecker, RuleViolation
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import RaceState

#: Violations and deadlocks kept in full per level (the counts are always complete).
KEEP = 10


def configurations() -> dict[str, JSONConfig]:
    """The named small configurations (``spec/tracks/constructed/explore.json``)."""
    path = spec_dir() / "tracks" / "constructed" / "explore.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    return {c["name"]: c for c in data["configurations"]}


JSONConfig = dict[str, object]


def configuration(name: str) -> tuple[RaceSetup, int]:
    """The setup and chance seed of a named configuration."""
    known = configurations()
    if name not in known:
        raise MalformedInput("setup.track-laps", f"unknown configuration {name!r} "
                             f"(known: {', '.join(sorted(known))})")
    config = known[name]
    seed = config.get("seed", 0)
    assert isinstance(seed, int)
    return setup_from_dict(config["setup"]), seed


@dataclass
class Expansion:
    """What expanding some states found: the new states (canonical JSON, first-seen
    order), transitions, finished races, deadlocks and rule violations."""

    children: list[str] = field(default_factory=list)
    transitions: int = 0
    finished: int = 0
    longest: int = 0  # the most rounds of a finished race
    deadlocks: list[str] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)
    deadlock_count: int = 0
    violation_count: int = 0
    exercised: dict[str, int] = field(default_factory=dict)


def tally(state: RaceState, events: Iterable[Event], counts: dict[str, int]) -> None:
    """Count what one checked transition from ``state`` exercised, into ``counts``: each
    event kind, each ``moved`` by its cause (``moved by slipstream``...), a move that ended
    short of its spaces (``blocked``) and a corner paid with Heat (``corner paid``)."""
    position = {index: car.position for index, car in enumerate(state.cars)}
    for event in events:
        keys = [event.kind]
        car = event.car
        if event.kind == "moved" and car is not None:
            keys.append(f"moved by {event.get('by')}")
            if event.get("position") - position[car] < event.get("spaces"):
                keys.append("blocked")
        if event.kind in ("moved", "spun-out") and car is not None:
            position[car] = event.get("position")
        if event.kind == "corner" and event.get("heat"):
            keys.append("corner paid")
        for key in keys:
            counts[key] = counts.get(key, 0) + 1


def _checked_step(state: RaceState, action: object, seed: int,
                  out: Expansion) -> RaceState | None:
    """The state after ``action`` and any shuffles after it, every step checked; None
    (recorded as a violation) when a check fails. The model starts from ``state`` itself:
    ``state`` was checked (validity, the model's legal actions) as the end of the step
    that reached it, or by :func:`start_state`."""
    checker = RaceChecker(model=RaceModel(state), state=state)
    try:
        after, events = apply(state, action)  # type: ignore[arg-type]
        checker.step(state, action, after, events)  # type: ignore[arg-type]
        seen = list(events)
        while after.is_chance():
            shuffle = chance_action(after, seed)
            nxt, events = apply(after, shuffle)
            checker.step(after, shuffle, nxt, events)
            after = nxt
            seen += events
    except (RuleViolation, AssertionError) as error:
        out.violation_count += 1
        if len(out.violations) < KEEP:
            out.violations.append(f"{action} from {state_to_json(state)}: {error}")
        return None
    tally(state, seen, out.exercised)
    return after


def expand(job: tuple[list[str], int]) -> Expansion:
    """Expand each state (canonical JSON) of a part of a level (a job)."""
    states, seed = job
    out = Expansion()
    seen: set[str] = set()
    for text in states:
        state = state_from_json(text)
        if state.is_over():
            out.finished += 1
            out.longest = max(out.longest, state.round)
            continue
        actions = legal_actions(state)
        if not actions:
            out.deadlock_count += 1
            if len(out.deadlocks) < KEEP:
                out.deadlocks.append(text)
            continue
        for action in actions:
            out.transitions += 1
            after = _checked_step(state, action, seed, out)
            if after is None:
                continue
            key = state_to_json(after)
            if key not in seen:
                seen.add(key)
                out.children.append(key)
    return out


@dataclass
class Report:
    """An exhausted configuration."""

    states: int = 0
    transitions: int = 0
    depth: int = 0  # breadth-first levels: the most decisions to a state first reached
    finished: int = 0  # distinct final states
    longest: int = 0  # rounds of the longest race
    deadlocks: int = 0
    violations: int = 0
    examples: list[str] = field(default_factory=list)
    seconds: float = 0.0
    exercised: dict[str, int] = field(default_factory=dict)  # see :func:`tally`

    def figures(self) -> dict[str, int]:
        """The figures that do not depend on the machine (as recorded in explore.json)."""
        return {"states": self.states, "transitions": self.transitions, "depth": self.depth,
                "finished": self.finished, "longest": self.longest,
                "deadlocks": self.deadlocks, "violations": self.violations}

    def lines(self) -> list[str]:
        """The figures for people."""
        rate = self.states / self.seconds if self.seconds > 0 else float("inf")
        out = [f"states: {self.states}", f"transitions: {self.transitions}",
               f"depth: {self.depth} decisions", f"finished races (distinct end states): "
               f"{self.finished}", f"longest race: {self.longest} round{'s' * (self.longest != 1)}",
               f"deadlocks: {self.deadlocks}", f"invariant violations: {self.violations}",
               f"time: {self.seconds:.1f} s ({rate:,.0f} states/s)",
               "exercised (transitions' events): " + ", ".join(
                   f"{key} {count}" for key, count in sorted(self.exercised.items()))]
        out += [f"  {e[:400]}" for e in self.examples]
        return out


def start_state(setup: RaceSetup, seed: int) -> RaceState:
    """The first state of the exploration (the race start; it awaits no shuffle)."""
    state, _ = start_race(setup)
    RaceChecker().start(state)
    return state
