"""Refinement of the race's start and of its rounds: the engine's starting states and turn
orders, checked against the Z3 model's setup (``encoding.encode_setup``) and round
(``encoding.encode_round``).

The turn refinement (``proofs.refine``) takes the order of a round and the state a race
starts from as given. This module closes both gaps on the same sampled races:

- **setup**: each player's car right after ``start_race``, pinned to its grid slot (the
  setup's chance outcome) and to the cards it drew, must be the model's: its spot, gear,
  engine Heat, the rest of its deck, an empty discard pile and play area, and the Stress
  supply. A failing constraint or a differing field names the setup rule.
- **order**: at the start of every round the model's round is fed the engine's state (the
  spots of the cars still racing, the cars that started) and, after each turn, the spot the
  engine's car ended on; the model's movers (the order it fixes) and adrenaline must be the
  engine's order and the adrenaline each turn started with.

Like ``proofs.refine`` it reads the engine's records only, never its rules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache

import z3

from heatcore.framework.events import Event
from heatcore.heat.actions import Action
from heatcore.heat.state import RaceState
from proofs.encoding import encode_round, encode_setup
from proofs.symbols import KINDS, MUTATIONS
from proofs.track_graph import track_facts
from proofs.z3eval import Compiled, Value, compile_terms, symbols

SETUP_RULES: dict[str, tuple[str, ...]] = {
    "position": ("setup.grid",), "racing_line": ("setup.grid", "setup.spaces-and-spots"),
    "gear": ("setup.gear",), "engine": ("setup.engine",), "deck": ("setup.deck",),
    "hand": ("setup.hand", "setup.deck"), "discard": ("setup.deck", "setup.engine"),
    "play": ("setup.hand",), "supply": ("setup.stress-supply", "ruling.stress-supply"),
}
ORDER_RULES = ("order.fixed-at-round-start",)
ADRENALINE_RULES = ("adrenaline.who", "adrenaline.count-fixed")


@dataclass
class RoundRecord:
    """One round as the engine played it: the spots of the cars in its order at its start,
    the order, the adrenaline each turn started with, and the spot each mover ended on."""

    round: int
    order: tuple[int, ...]
    spots: dict[int, tuple[int, bool]]
    adrenaline: list[bool] = field(default_factory=list)
    after: list[tuple[int, bool]] = field(default_factory=list)


@dataclass
class RaceRecord:
    """A sampled race's start and rounds."""

    label: str
    track: str
    laps: int
    grid: tuple[int, ...]  # the setup's grid order (car indices, pole first)
    start: RaceState | None = None
    rounds: list[RoundRecord] = field(default_factory=list)


class RoundRecorder:
    """Follows a race (``on_step``, beside ``turns.Recorder``) and records its start and
    rounds from the engine's states and events."""

    def __init__(self, race: RaceRecord) -> None:
        self.race = race
        self.where: dict[int, tuple[int, bool]] = {}
        self.mover: int | None = None

    def _open(self, number: int, order: tuple[int, ...]) -> None:
        self.race.rounds.append(RoundRecord(number, order, {i: self.where[i] for i in order}))

    def _close_turn(self) -> None:
        if self.mover is not None and self.race.rounds:
            self.race.rounds[-1].after.append(self.where[self.mover])
        self.mover = None

    def on_step(self, state: RaceState, action: Action, after: RaceState,
                events: tuple[Event, ...]) -> None:
        """Record one applied action and its events."""
        if self.race.start is None:
            self.race.start = state
            self.where = {i: c.spot for i, c in enumerate(state.cars)}
            self._open(state.round, state.order)
        for ev in events:
            if ev.kind in ("turn-started", "ranked", "round-started", "race-over"):
                self._close_turn()
            if ev.kind == "turn-started" and ev.car is not None:
                self.mover = ev.car
                self.race.rounds[-1].adrenaline.append(bool(ev.get("adrenaline")))
            elif ev.kind in ("moved", "spun-out") and ev.car is not None:
                self.where[ev.car] = (int(ev.get("position")), bool(ev.get("racing_line")))
            elif ev.kind == "round-started":
                order = tuple(int(str(p)[1:]) - 1 for p in ev.get("order"))
                self._open(int(ev.get("round")), order)


@dataclass(frozen=True)
class Compiledmodel:
    """A compiled encoding: constraints (with their rules), named outputs, symbol names."""

    run: Compiled
    rules: tuple[str, ...]
    outputs: dict[str, int]
    names: dict[str, str]  # short name (prefix and counter stripped) -> symbol name


def _compile(constraints: list[tuple[str, z3.BoolRef]], outputs: dict[str, z3.ExprRef],
             prefix: str) -> Compiledmodel:
    terms = [e for _, e in constraints] + list(outputs.values())
    names = {n.removeprefix(prefix + ".").split("#")[0]: n for n in symbols(terms)}
    return Compiledmodel(compile_terms(terms), tuple(r for r, _ in constraints),
                         {k: len(constraints) + i for i, k in enumerate(outputs)}, names)


@cache
def setup_model(track: str, laps: int, bugs: frozenset[str] = frozenset()) -> Compiledmodel:
    """The compiled setup of one player's car on ``track`` over ``laps`` laps."""
    prefix = f"setup.{track}.{laps}"
    s = encode_setup(track_facts(f"{track}@{laps}"), bugs, prefix=prefix)
    z = s.car.zones
    outputs: dict[str, z3.ExprRef] = {
        "position": s.car.spot.pos, "racing_line": s.car.spot.racing, "gear": s.car.gear,
        "engine": z.engine, "supply": z.supply}
    for zone in ("deck", "discard", "play"):
        for k in KINDS:
            outputs[f"{zone}.{k}"] = getattr(z, zone)[k]
    return _compile(s.enc.constraints, outputs, prefix)


@cache
def round_model(track: str, laps: int, cars: int,
                bugs: frozenset[str] = frozenset()) -> Compiledmodel:
    """The compiled round of ``cars`` cars on ``track`` over ``laps`` laps."""
    prefix = f"round.{track}.{laps}.{cars}"
    r = encode_round(track_facts(f"{track}@{laps}"), bugs, cars, prefix=prefix)
    outputs: dict[str, z3.ExprRef] = {}
    for t, (mover, adr) in enumerate(zip(r.movers, r.adrenaline, strict=True)):
        outputs[f"mover{t}"] = mover
        outputs[f"adrenaline{t}"] = adr
    return _compile(r.enc.constraints, outputs, prefix)


@dataclass(frozen=True)
class RaceDisagreement:
    """Where the model and the engine part on a race's start or a round."""

    turn: str
    what: str
    rules: tuple[str, ...]
    detail: str

    def __str__(self) -> str:
        return f"{self.turn}: {self.what} [{', '.join(self.rules)}]: {self.detail}"


def _failed(m: Compiledmodel, values: tuple[Value, ...]) -> tuple[str, ...]:
    return tuple(sorted({r for r, v in zip(m.rules, values, strict=False) if v is False}))


def check_start(race: RaceRecord, bugs: frozenset[str] = frozenset()) -> list[RaceDisagreement]:
    """Each player's car after setup against the model's setup (one car at a time)."""
    state = race.start
    assert state is not None
    m = setup_model(race.track, race.laps, bugs)
    out: list[RaceDisagreement] = []
    for slot, index in enumerate(race.grid):
        if index >= len(state.cars) or state.cars[index].legend is not None:
            continue
        car = state.cars[index]
        label = f"{race.label} setup P{index + 1}"
        hand = Counter(car.hand)
        env: dict[str, Value] = {m.names["cars"]: len(state.cars),
                                 m.names["grid_index"]: slot}
        env.update({m.names[f"hand.{k}"]: hand[k] for k in KINDS})
        values = m.run.run(env)
        failed = _failed(m, values)
        if failed:
            out.append(RaceDisagreement(label, "setup admits", failed,
                                        f"the model has no setup with the hand {car.hand}"))
        engine: dict[str, Value] = {"position": car.position, "racing_line": car.racing_line,
                                    "gear": car.gear, "engine": car.engine,
                                    "supply": state.supply}
        for zone, cards in (("deck", car.deck), ("discard", car.discard),
                            ("play", car.played + car.flipped)):
            counts = Counter(cards)
            engine.update({f"{zone}.{k}": counts[k] for k in KINDS})
        diffs: dict[str, list[str]] = {}
        for key, want in engine.items():
            got = values[m.outputs[key]]
            if got != want:
                diffs.setdefault(key.split(".")[0], []).append(
                    f"{key}: model {got}, engine {want}")
        for group, lines in diffs.items():
            out.append(RaceDisagreement(label, f"setup {group}", SETUP_RULES[group],
                                        "; ".join(lines)))
    return out


def check_round(race: RaceRecord, rnd: RoundRecord,
                bugs: frozenset[str] = frozenset()) -> list[RaceDisagreement]:
    """One round: the model's order and adrenaline, fed the engine's spots, against the
    engine's."""
    label = f"{race.label} round {rnd.round}"
    cars = sorted(rnd.order)
    n = len(cars)
    if len(rnd.after) > n or len(rnd.adrenaline) > n:
        return [RaceDisagreement(label, "round", ("round.sequence",),
                                 f"{len(rnd.after)} turns in a round of {n} cars")]
    if len(rnd.after) < n or len(rnd.adrenaline) < n:
        return []  # the last round of a race stopped short: nothing to compare
    m = round_model(race.track, race.laps, n, bugs)
    starters = len(race.grid)
    env: dict[str, Value] = {m.names["starters"]: starters}
    for i, car in enumerate(cars):
        pos, racing = rnd.spots[car]
        for key, value in ((f"car{i}.pos", pos), (f"car{i}.racing", racing),
                           (f"car{i}.present", True)):
            if key in m.names:
                env[m.names[key]] = value
    for t, (pos, racing) in enumerate(rnd.after):  # symbols the model does not read: unset
        for key, value in ((f"turn{t}.pos", pos), (f"turn{t}.racing", racing)):
            if key in m.names:
                env[m.names[key]] = value
    missing = sorted(m.run.needs - env.keys())
    if missing:
        return [RaceDisagreement(label, "round unique", ("round.sequence",),
                                 f"the model leaves {', '.join(missing)} open")]
    values = m.run.run(env)
    out: list[RaceDisagreement] = []
    failed = _failed(m, values)
    if failed:
        out.append(RaceDisagreement(label, "round admits", failed,
                                    "the model has no round with the engine's spots"))
    raw = [int(values[m.outputs[f"mover{t}"]]) for t in range(n)]
    movers = tuple(cars[k] if 0 <= k < n else -1 for k in raw)
    if movers != rnd.order:
        mine = [f"P{c + 1}" if c >= 0 else "?" for c in movers]
        out.append(RaceDisagreement(label, "order", ORDER_RULES,
                                    f"model {mine}, engine "
                                    f"{[f'P{c + 1}' for c in rnd.order]} (spots "
                                    f"{ {f'P{c + 1}': rnd.spots[c] for c in cars} })"))
    adrenaline = [bool(values[m.outputs[f"adrenaline{t}"]]) for t in range(n)]
    if adrenaline != rnd.adrenaline:
        out.append(RaceDisagreement(label, "adrenaline", ADRENALINE_RULES,
                                    f"model {adrenaline}, engine {rnd.adrenaline}"))
    return out


def check_races(races: Iterable[RaceRecord], bugs: frozenset[str] = frozenset(),
                stats: Counter[str] | None = None) -> list[RaceDisagreement]:
    """Every race's start and rounds against the model; ``stats`` counts what was checked."""
    bugs = frozenset(b for b in bugs if b in MUTATIONS)
    out: list[RaceDisagreement] = []
    for race in races:
        if race.start is None:
            continue
        out += check_start(race, bugs)
        for rnd in race.rounds:
            out += check_round(race, rnd, bugs)
        if stats is not None:
            stats["starts"] += 1
            stats["rounds"] += len(race.rounds)
    return out
