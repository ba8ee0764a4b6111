"""Z3 proofs over Rallyman GT's rules and track graphs, with negative controls.

The models read the raw track JSON (``spec/rallyman/tracks``) and restate seed 004's rules
themselves; they share no code with ``heatcore.rallyman``. Each is tied back to the engine:

* ``gear-steps``: a gear die may follow gear ``c`` iff it is one gear away or equal, two up
  with one boost die, or ``k >= 2`` down with ``k - 1`` brake dice (the seed's wording as a
  formula). The engine's table (``moves.die_choices`` enumerated over every gear and die
  count) must equal it: the difference is UNSAT. Controls: tables with a free two-gear
  rise, a brake die too few, and no plain one-gear drop (removed behaviour) give SAT.
* ``safe-distance``: from a space and a starting gear, the largest number of dice a car can
  lay flat out without the track making it lose control (no limit exceeded, fewer track
  warnings than the dashboard's 3), on an empty track with a GT6 asphalt dashboard in the
  wet (one brake die, so braking for corners binds). Z3 finds a
  plan of that length (SAT) and proves none is longer (UNSAT); the engine's own planner,
  searched exhaustively, must reach the same number. Controls: models that forget exit
  dotted lines, entry dotted lines, the dangerous corners' warning, or diagonal moves
  (removed behaviour) must disagree with the engine on some sampled start.
* ``min-focus``: from a space and a starting gear, the fewest focus tokens that let a car
  enter a dangerous corner space at its limit rolling one die at a time, whatever the dice it
  does not fix show (every die has a warning face; fixing a space fixes all its dice; the
  k-th die fixed costs k; track warnings cannot be fixed). Z3 finds a plan and dice to fix
  within that budget (SAT) and proves none within one token less (UNSAT); the engine's
  planner, focus costs and loss-of-control test, searched exhaustively, must give the same
  number. Controls: one token per die, focus cancelling track warnings, no dangerous-corner
  warning, and no fixing of a braking space (removed behaviour) must disagree at some start.

``python -m proofs.rallyman`` prints the table of results.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import z3


def _tracks() -> Path:
    from heatcore.rallyman.spec import spec_folder

    return spec_folder() / "tracks"


GEARS = range(0, 7)
MAX_DICE = 8  # GT6 dry: 6 gear dice + 2 coast dice
LIMIT = 3  # warnings on every dashboard (rgt.ruling.dashboards)
BRAKES = 1  # the asphalt dashboard in the wet: 6 gear, 2 coast, 1 brake dice
WEATHER = "wet"

# ------------------------------------------------------------------ gear steps


def seed_gear_step(c: z3.ArithRef, g: z3.ArithRef, b: z3.ArithRef,
                   u: z3.ArithRef) -> z3.BoolRef:
    """Seed 004: one step (or equal) freely; two up with one boost; k >= 2 down with k-1
    brake dice. From gear 0 the change is measured from 0."""
    d = g - c
    return z3.Or(z3.And(d >= -1, d <= 1, b == 0, u == 0),
                 z3.And(d == 2, b == 0, u == 1),
                 z3.And(d <= -2, b == -d - 1, u == 0))


def engine_table(mutation: str = "") -> set[tuple[int, int, int, int]]:
    """(current gear, next gear, brakes, boosts) that the engine offers, plenty of dice left."""
    from heatcore.rallyman.moves import die_choices

    table = set()
    for c in GEARS:
        for choice in die_choices(c, False, (1, 2, 3, 4, 5, 6), False, 5, 1, True):
            table.add((c, choice.gear, choice.brakes, choice.boosts))
    if mutation == "free-rise":
        table = {(c, g, b, 0) if g - c == 2 else (c, g, b, u) for c, g, b, u in table}
    elif mutation == "brake-short":
        table = {(c, g, max(0, b - 1), u) for c, g, b, u in table}
    elif mutation == "no-step-down":
        table = {t for t in table if t[1] - t[0] != -1}
    return table


def gear_steps_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's table equals the seed's formula on every gear and die count."""
    c, g, b, u = z3.Ints("c g b u")
    table = engine_table(mutation)
    in_table = z3.Or([z3.And(c == tc, g == tg, b == tb, u == tu) for tc, tg, tb, tu in table])
    solver = z3.Solver()
    solver.add(c >= 0, c <= 6, g >= 1, g <= 6, b >= 0, b <= 5, u >= 0, u <= 1)
    solver.add(in_table != seed_gear_step(c, g, b, u))
    result: z3.CheckSatResult = solver.check()
    return result


# ------------------------------------------------------------------ safe distance


@dataclass(frozen=True)
class RawTrack:
    """A track file as plain data."""

    spaces: dict[str, dict[str, Any]]
    moves: tuple[dict[str, Any], ...]


@cache
def raw_track(track: str) -> RawTrack:
    """Read ``spec/rallyman/tracks/<track>.json``."""
    data = json.loads((_tracks() / f"{track}.json").read_text(encoding="utf-8"))
    return RawTrack({s["id"]: s for s in data["spaces"]}, tuple(data["moves"]))


def _move_terms(move: dict[str, Any], dst: dict[str, Any], gear: z3.ArithRef,
                mutation: str) -> tuple[z3.BoolRef, z3.ArithRef]:
    """(the track allows entering in ``gear``, warnings the move adds) per seed 004."""
    ok: z3.BoolRef = z3.BoolVal(True)
    warnings: z3.ArithRef = z3.IntVal(move.get("entry_warning", 0) + move.get("exit_warning", 0))
    if "exit_limit" in move and mutation != "no-exit-line":
        ok = z3.And(ok, gear <= move["exit_limit"])
    corner = dst.get("corner")
    if corner is not None:
        limit = corner["limit"]
        if move["kind"] == "straight" and "entry_limit" in move and mutation != "no-entry-line":
            limit = move["entry_limit"]
        ok = z3.And(ok, gear <= limit)
        if mutation == "no-corner-limit":
            ok = z3.BoolVal(True) if "exit_limit" not in move else ok
        if corner["kind"] == "dangerous" and mutation != "no-danger-warning":
            warnings = warnings + z3.If(gear == corner["limit"], 1, 0)
    return ok, warnings


@dataclass
class PlanModel:
    """Z3 variables of a plan of ``n`` dice laid from a space (index 0 is the start): the
    space, gear, whether the die is a coast die, its brake dice and the warnings the track
    adds on arrival; ``solver`` holds seed 004's rules of laying them."""

    solver: z3.Solver
    pos: list[z3.ArithRef]
    gear: list[z3.ArithRef]
    coast: list[z3.BoolRef]
    brakes: list[z3.ArithRef]
    track_w: list[z3.ArithRef]


def plan_model(track: str, start: str, gear0: int, n: int, brakes_max: int,
               mutation: str = "") -> PlanModel:
    """The dice of a plan on an empty track: each a gear die one step from the last (or paid
    with brake dice) or a coast die, no gear die twice, at most two coast and ``brakes_max``
    brake dice, along forward moves of the track data the corner rules allow in its gear
    (``_move_terms``), never back to a space."""
    raw = raw_track(track)
    near = _near(track, start, n)
    moves = [m for m in raw.moves if m["from"] in near
             and (mutation != "no-diagonal" or m["kind"] == "straight")]
    index = {sid: i for i, sid in enumerate(sorted(raw.spaces))}
    pos = [z3.Int(f"p{i}") for i in range(n + 1)]
    gear = [z3.Int(f"g{i}") for i in range(n + 1)]
    coast = [z3.Bool(f"c{i}") for i in range(n + 1)]
    brakes = [z3.Int(f"b{i}") for i in range(n + 1)]
    track_w = [z3.Int(f"t{i}") for i in range(n + 1)]
    s = z3.Solver()
    s.add(pos[0] == index[start], gear[0] == gear0)
    for i in range(1, n + 1):
        s.add(z3.If(coast[i], z3.And(gear[i] == gear[i - 1], gear[i - 1] >= 1, brakes[i] == 0),
                    z3.And(gear[i] >= 1, gear[i] <= 6,
                           seed_gear_step(gear[i - 1], gear[i], brakes[i], z3.IntVal(0)))))
        options = []
        for m in moves:
            ok, added = _move_terms(m, raw.spaces[m["to"]], gear[i], mutation)
            options.append(z3.And(pos[i - 1] == index[m["from"]], pos[i] == index[m["to"]], ok,
                                  track_w[i] == added))
        s.add(z3.Or(options))
    gear_dice = [z3.If(coast[i], 0, gear[i]) for i in range(1, n + 1)]
    for i in range(1, n + 1):
        for j in range(i + 1, n + 1):
            s.add(z3.Or(coast[i], coast[j], gear_dice[i - 1] != gear_dice[j - 1]))
    s.add(z3.Sum([z3.If(c, 1, 0) for c in coast[1:]]) <= 2)
    s.add(z3.Sum(brakes[1:]) <= brakes_max)
    s.add(z3.Distinct(pos))  # a plan never comes back to a space (forward moves, one lap)
    return PlanModel(s, pos, gear, coast, brakes, track_w)


def safe_plan_exists(track: str, start: str, gear0: int, n: int, mutation: str = "") -> bool:
    """Whether some plan of ``n`` dice from ``start`` in ``gear0`` keeps the track from
    causing a loss of control (Z3): the track's warnings stay below the limit all the way."""
    model = plan_model(track, start, gear0, n, BRAKES, mutation)
    for i in range(1, n + 1):
        model.solver.add(z3.Sum(model.track_w[1:i + 1]) < LIMIT)
    return bool(model.solver.check() == z3.sat)


def _near(track: str, start: str, n: int, backward: bool = False) -> set[str]:
    """Spaces within ``n`` moves of ``start`` (the only ones a plan of n dice can use); with
    ``backward``, the spaces ``start`` is within ``n`` moves of."""
    raw = raw_track(track)
    src, dst = ("to", "from") if backward else ("from", "to")
    near, frontier = {start}, {start}
    for _ in range(n):
        frontier = {m[dst] for m in raw.moves if m[src] in frontier} - near
        near |= frontier
    return near


def safe_distance(track: str, start: str, gear0: int, mutation: str = "") -> int:
    """The largest ``n`` with a safe plan (Z3; ``n + 1`` proved impossible, or n = 8)."""
    best = 0
    for n in range(1, MAX_DICE + 1):
        if not safe_plan_exists(track, start, gear0, n, mutation):
            break
        best = n
    return best


def engine_safe_distance(track: str, start: str, gear0: int) -> int:
    """The same number from the engine's own planner (``planning.next_steps``), searched
    exhaustively on an empty track (one car plus a far-away second car)."""
    from heatcore.framework.values import replace
    from heatcore.rallyman.components import full_bag
    from heatcore.rallyman.options import Options
    from heatcore.rallyman.planning import next_steps
    from heatcore.rallyman.state import PLAN, Car, RaceState, Turn
    from heatcore.rallyman.track import load_track

    tr = load_track(track)
    me = Car(space=start, laps=0, gear=gear0, colour="white")
    far = Car(space=start, laps=0, gear=0, colour="white", where="finished")
    state = RaceState(track=tr, laps=2, options=Options(), weather=WEATHER, round=1,
                      order=(0,), cursor=0, cars=(me, far), bag=full_bag())
    turn = Turn(0, PLAN, start, gear0)
    memo: dict[tuple[Any, ...], int] = {}

    def best(plan: tuple[Any, ...]) -> int:
        last = plan[-1] if plan else None
        key = (last.to if last else start, last.gear if last else gear0,
               frozenset(s.die for s in plan), sum(s.brakes for s in plan),
               sum(s.track_warnings for s in plan), len(plan))
        if key in memo:
            return memo[key]
        warnings = key[4]
        out = 0
        for step in next_steps(state, replace(turn, plan=plan)):
            if step.overspeed or warnings + step.track_warnings >= LIMIT:
                continue
            out = max(out, 1 + best((*plan, step)))
            if out == MAX_DICE - len(plan):
                break
        memo[key] = out
        return out

    return best(())


def sample_starts(track: str, per_corner: int = 1) -> list[tuple[str, int]]:
    """Starts worth checking: the spaces two straight moves before each corner space, in
    gears 2, 4 and 6 (and the grid's first space at 0)."""
    raw = raw_track(track)
    before: dict[str, list[str]] = {}
    for m in raw.moves:
        before.setdefault(m["to"], []).append(m["from"])
    starts: list[tuple[str, int]] = []
    for sid, space in sorted(raw.spaces.items()):
        if space.get("corner") is None:
            continue
        for one in sorted(before.get(sid, []))[:per_corner]:
            for two in sorted(before.get(one, []))[:1]:
                for g in (4, 6):
                    if (two, g) not in starts and "T1." not in two[:3]:
                        starts.append((two, g))
    return starts


#: Mutations of the track model and which proof must catch them.
LIMIT_CONTROLS = ("no-exit-line", "no-entry-line", "no-danger-warning", "no-corner-limit")
DISTANCE_CONTROLS = ("no-diagonal",)
#: Starts of the default test run: a forced loss (1), a long and a mid-length safe plan.
QUICK_STARTS = (("T8.L1.3", 6), ("T7.L1.3", 6), ("T5.L1.3", 6))


def track_limits_query(track: str, mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff, on every move of the track and in every gear, the engine's verdict
    (``moves.arrive``: warnings added, limit exceeded) is the model's."""
    from heatcore.rallyman.moves import arrive
    from heatcore.rallyman.track import load_track

    tr = load_track(track)
    raw = raw_track(track)
    gear = z3.Int("gear")
    cases = []
    for i, m in enumerate(raw.moves):
        move = tr.move(m["from"], m["to"])
        assert move is not None
        ok, warnings = _move_terms(m, raw.spaces[m["to"]], gear, mutation)
        pick = z3.Int("move") == i
        for g in range(1, 7):
            w, over = arrive(tr, move, g)
            cases.append(z3.And(pick, gear == g, z3.Or(ok == over, warnings != w)))
    solver = z3.Solver()
    solver.add(z3.Or(cases))
    result: z3.CheckSatResult = solver.check()
    return result


# ------------------------------------------------------------------ minimum focus

#: The dashboard of the focus proof: GT6 asphalt in the dry (6 gear, 2 coast, 3 brake dice).
FOCUS_BRAKES = 3
FOCUS_WEATHER = "dry"


def _lengths(track: str, start: str, target: str, most: int) -> list[int]:
    """The plan lengths (numbers of dice) that take a car from ``start`` onto ``target``."""
    raw = raw_track(track)
    out, frontier = [], {start}
    for n in range(1, most + 1):
        frontier = {m["to"] for m in raw.moves if m["from"] in frontier and m["to"] != start}
        if target in frontier:
            out.append(n)
    return out


def focus_plan_exists(track: str, start: str, gear0: int, target: str, n: int, budget: int,
                      mutation: str = "") -> bool:
    """Whether a plan of ``n`` dice from ``start`` in ``gear0`` enters the dangerous corner
    space ``target`` (its ``n``-th space) in exactly the corner's limit, rolled one die at a
    time, with dice fixed by at most ``budget`` focus tokens so that no roll of the other
    dice can make the car lose control on the way (Z3).

    Seed 004 as the model reads it: every die has a warning face (``components.toml``), so
    the worst roll shows a warning on every unfixed die; fixing a space fixes all of its dice
    (brake dice included) and the k-th die fixed in a turn costs k tokens; focus cannot
    cancel the track's warnings; control is lost when the warnings reach 3."""
    raw = raw_track(track)
    limit_gear = raw.spaces[target]["corner"]["limit"]
    model = plan_model(track, start, gear0, n, FOCUS_BRAKES,
                       "no-danger-warning" if mutation == "no-danger-warning" else "")
    s, brakes, track_w = model.solver, model.brakes, model.track_w
    index = {sid: i for i, sid in enumerate(sorted(raw.spaces))}
    fixed = [z3.Bool(f"f{i}") for i in range(n + 1)]
    s.add(model.pos[n] == index[target], model.gear[n] == limit_gear)
    if mutation == "no-brake-fix":  # removed behaviour: a braking space cannot be fixed
        s.add([z3.Implies(brakes[i] > 0, z3.Not(fixed[i])) for i in range(1, n + 1)])
    dice = [1 + brakes[i] for i in range(1, n + 1)]
    cancels = mutation == "focus-cancels-track"
    worst = z3.Sum([z3.If(fixed[i], 0, dice[i - 1] + (track_w[i] if cancels else 0))
                    + (0 if cancels else track_w[i]) for i in range(1, n + 1)])
    k = z3.Sum([z3.If(fixed[i], dice[i - 1], 0) for i in range(1, n + 1)])
    cost = k if mutation == "linear-cost" else k * (k + 1) / 2
    s.add(worst < LIMIT, cost <= budget)
    return bool(s.check() == z3.sat)


def min_focus(track: str, start: str, gear0: int, target: str,
              mutation: str = "") -> int | None:
    """The fewest focus tokens that pass ``target`` at its limit (Z3: a plan within that
    budget exists, none within one token less does); None if no plan reaches it at its
    limit or no budget suffices."""
    lengths = _lengths(track, start, target, MAX_DICE)
    for budget in range(0, MAX_DICE * (MAX_DICE + 1) // 2 + 1):
        if any(focus_plan_exists(track, start, gear0, target, n, budget, mutation)
               for n in lengths):
            return budget
    return None


def engine_min_focus(track: str, start: str, gear0: int, target: str) -> int | None:
    """The same number from the engine's own functions, searched exhaustively on an empty
    track: its planner (``planning.next_steps``) lays every plan onto ``target``, the dice's
    warning faces (``components.warning_faces``) give the worst roll, ``engine.focus_cost``
    prices each fixed space in turn and ``control.first_loss`` judges the roll."""
    from heatcore.framework.values import replace
    from heatcore.rallyman.components import full_bag, warning_faces
    from heatcore.rallyman.control import first_loss
    from heatcore.rallyman.engine import focus_cost
    from heatcore.rallyman.options import Options
    from heatcore.rallyman.planning import car_dashboard, next_steps
    from heatcore.rallyman.state import PLAN, Car, RaceState, Turn
    from heatcore.rallyman.track import load_track

    tr = load_track(track)
    limit_gear = raw_track(track).spaces[target]["corner"]["limit"]
    lengths = _lengths(track, start, target, MAX_DICE)
    most = max(lengths, default=0)
    reach = {n: _near(track, target, n, backward=True) for n in range(most + 1)}
    me = Car(space=start, laps=0, gear=gear0, colour="white")
    far = Car(space=start, laps=0, gear=0, colour="white", where="finished")
    state = RaceState(track=tr, laps=2, options=Options(), weather=FOCUS_WEATHER, round=1,
                      order=(0,), cursor=0, cars=(me, far), bag=full_bag())
    turn = Turn(0, PLAN, start, gear0)
    limit = car_dashboard(state, 0).limit
    best: int | None = None

    def cheapest(plan: tuple[Any, ...]) -> int | None:
        """Fewest tokens for ``plan`` over every set of spaces to fix, or None."""
        out = None
        for mask in range(2 ** len(plan)):
            results, cost, t = [], 0, replace(turn, plan=plan, mode="one")
            for i, step in enumerate(plan):
                if mask >> i & 1:
                    cost += focus_cost(t, len(step.dice))
                    t = replace(t, fixed=t.fixed + len(step.dice))
                    results.append((False,) * len(step.dice))
                else:
                    results.append(tuple(warning_faces(d, state.options) > 0
                                         for d in step.dice))
            if first_loss(limit, plan, tuple(results)) is None:
                out = cost if out is None else min(out, cost)
        return out

    def walk(plan: tuple[Any, ...]) -> None:
        nonlocal best
        left = most - len(plan)
        for step in next_steps(state, replace(turn, plan=plan)):
            if step.to == target:
                if step.gear == limit_gear:
                    got = cheapest((*plan, step))
                    if got is not None and (best is None or got < best):
                        best = got
            elif left > 1 and step.to in reach[left - 1] and not step.overspeed:
                walk((*plan, step))

    walk(())
    return best


def focus_starts(track: str) -> list[tuple[str, int, str]]:
    """(start, gear, dangerous corner space) worth checking: for each dangerous corner space,
    one space 1 to 4 moves before it, in gears 2, 4 and 6."""
    raw = raw_track(track)
    out: list[tuple[str, int, str]] = []
    for sid, space in sorted(raw.spaces.items()):
        if (space.get("corner") or {}).get("kind") != "dangerous":
            continue
        frontier = {sid}
        for _ in range(4):
            frontier = {m["from"] for m in raw.moves if m["to"] in frontier}
            for g in (2, 4, 6):
                out.append((min(frontier), g, sid))
    return out


#: Mutations of the focus model: cost one token per die, focus cancelling track warnings,
#: no dangerous-corner warning, and (removed behaviour) no fixing a braking space.
FOCUS_CONTROLS = ("linear-cost", "focus-cancels-track", "no-danger-warning", "no-brake-fix")
#: Starts of the default test run, before proving-ground's dangerous corner (limit 4): one
#: space away braking from 6 (a brake die fixed with its gear die: 3), three spaces away
#: (two dice fixed: 3), two spaces away (one die: 1), five spaces away (three dice: 6).
FOCUS_QUICK = (("T5.L1.1", 6, "T5.L1.2"), ("T4.L12.2", 4, "T5.L1.2"),
               ("T4.L1.3", 4, "T5.L1.2"), ("T4.L1.1", 6, "T5.L1.2"))


@dataclass(frozen=True)
class Result:
    """One line of the table: a proof (or control) on a track and whether it came out right."""

    proof: str
    track: str
    control: str
    ok: bool
    detail: str


def run_gear_steps() -> list[Result]:
    """The gear-step equivalence and its three controls."""
    out = [Result("gear-steps", "-", "", gear_steps_query() == z3.unsat, "engine = seed")]
    for bug in ("free-rise", "brake-short", "no-step-down"):
        got = gear_steps_query(bug)
        out.append(Result("gear-steps", "-", bug, got == z3.sat, f"{got}"))
    return out


def run_track_limits(track: str) -> list[Result]:
    """The corner rules of every move and gear, and the controls."""
    got = track_limits_query(track)
    out = [Result("track-limits", track, "", got == z3.unsat, f"{got}")]
    for bug in LIMIT_CONTROLS:
        got = track_limits_query(track, bug)
        out.append(Result("track-limits", track, bug, got == z3.sat, f"{got}"))
    return out


def _agree(proof: str, track: str, starts: list[Any], engine: Callable[..., Any],
           model: Callable[..., Any], controls: tuple[str, ...]) -> list[Result]:
    """The model's number equals the engine's at every start (the proof); each control
    (``model(..., mutation=bug)``) differs from the engine at some start."""
    ours = {st: engine(track, *st) for st in starts}
    theirs = {st: model(track, *st) for st in starts}
    wrong = [st for st in starts if ours[st] != theirs[st]]
    values = sorted({v for v in theirs.values() if v is not None})
    out = [Result(proof, track, "", not wrong,
                  f"{len(starts)} starts: {values}; disagree at {wrong[:3]}")]
    for bug in controls:
        caught = next((st for st in starts if model(track, *st, mutation=bug) != ours[st]),
                      None)
        out.append(Result(proof, track, bug, caught is not None, f"caught at {caught}"))
    return out


def run_safe_distance(track: str, starts: Iterable[tuple[str, int]]) -> list[Result]:
    """Z3's safe distance equals the engine's at every start; each control differs at one."""
    return _agree("safe-distance", track, list(starts), engine_safe_distance, safe_distance,
                  DISTANCE_CONTROLS)


def run_min_focus(track: str, starts: Iterable[tuple[str, int, str]]) -> list[Result]:
    """Z3's minimum focus equals the engine's at every start; each control differs at one."""
    return _agree("min-focus", track, list(starts), engine_min_focus, min_focus,
                  FOCUS_CONTROLS)


@dataclass(frozen=True)
class Claim:
    """A proof of this module as the rulebook site lists it."""

    id: str
    claim: str
    rules: tuple[str, ...]
    controls: tuple[str, ...]


CATALOGUE = (
    Claim("rgt-gear-steps", "A gear die may follow gear c iff it is within one gear of c, two "
          "above with one boost die, or k >= 2 below with k - 1 brake dice; the engine's table "
          "of dice choices equals this formula for every gear and die count.",
          ("rgt.dice.gear-step", "rgt.dice.brake", "rgt.dice.boost"),
          ("free-rise", "brake-short", "no-step-down")),
    Claim("rgt-track-limits", "On every move of each track and in every gear, the engine's "
          "verdict (warnings added, limit exceeded) is seed 004's corner rules read from the "
          "track data.",
          ("rgt.corner.standard", "rgt.corner.dangerous", "rgt.corner.steep-entry",
           "rgt.corner.steep-exit", "rgt.corner.steep-diagonal", "rgt.corner.steep-warning"),
          LIMIT_CONTROLS),
    Claim("rgt-safe-distance", "From a space and a starting gear, the largest number of dice a "
          "car can lay flat out without the track making it lose control is found (a plan of "
          "that length exists, none longer does) and equals the engine planner's.",
          ("rgt.roll.flat-out", "rgt.move.forward"), DISTANCE_CONTROLS),
    Claim("rgt-min-focus", "From a space and a starting gear, the fewest focus tokens that "
          "let a car enter a dangerous corner space at its limit, rolling one die at a time, "
          "whatever the dice it does not fix show, is found (a plan and a choice of dice to "
          "fix within that budget exist, none within one token less does) and equals the "
          "engine's (its planner, focus costs and loss-of-control test, searched "
          "exhaustively).",
          ("rgt.focus.cost", "rgt.focus.not-track", "rgt.focus.brake-group",
           "rgt.corner.dangerous"), FOCUS_CONTROLS),
)


def main(argv: list[str] | None = None) -> int:
    """Print every result; exit 1 if any proof fails or a control is missed."""
    del argv
    rows = run_gear_steps()
    for track in ("proving-ground", "albert-park"):
        rows += run_track_limits(track)
        print(f"safe-distance on {track} ...", file=sys.stderr)
        rows += run_safe_distance(track, sample_starts(track))
        print(f"min-focus on {track} ...", file=sys.stderr)
        rows += run_min_focus(track, focus_starts(track))
    for r in rows:
        status = "ok" if r.ok else "FAILED"
        print(f"{r.proof:14} {r.track:15} {r.control or 'proof':20} {status:7} {r.detail}")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
