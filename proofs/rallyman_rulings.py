"""Z3 proofs over Rallyman GT's seed clauses and ruling switches, with negative controls.

Each proof states a rule of seed 004 (or each alternative of a ruling) as a formula over a
small finite domain, enumerates the engine's answer over the same domain as a table, and asks
Z3 for a point where table and formula differ: UNSAT is the proof. Every control is a table
of a deliberately wrong engine (a reading the seed or the ruling rules out, or removed
behaviour) that the same query must find (SAT). The formulas are written here from the seed
and the rulings; they share no code with ``heatcore.rallyman``.

* ``entry``: may a car in gear ``g`` enter a space beside another car in gear ``o``
  (``o = -1`` for 00), given whether it was already beside that car, whether a yellow flag is
  out that another car drew, and whether the mover drew one itself? Seed 004: beside only at
  ``g >= o`` unless already beside; cars at 0 or 00 never count; under a yellow flag nobody
  may draw level (``rgt.ruling.yellow-beside``: not even a car already beside; with the
  switch "already-beside", that car goes on); the mover's own flag leaves the track as it
  moves off (never blocks it). Both switch values are in the domain. Controls: the own flag
  blocks (the bug of issue 26), any gear may overtake, the yellow flag ignored, the switch's
  values swapped.

* ``gear-damage``: which gear dice a car with ``t`` gear damage tokens may lay, and how many
  in a turn, for each value of ``rgt.ruling.gear-damage-die``. Controls: the count reading
  played as the highest-die one, the tokens ignored (removed behaviour).

* ``first-die``: the first gear die of a turn for every start gear and both switches that
  bear on it (``first_die_jumps``, ``zero_start``). Controls: the gear-0 switch ignored, the
  first die treated like any other (removed behaviour of both switches).

* ``more-dice``: whether a die may follow one whose space makes a loss of control certain,
  for both values of ``dice_after_loss``. Controls: the switch ignored, the track's warnings
  ignored (removed behaviour).

* ``dotted-limit``: the limit of a steep corner space entered straight across its dotted
  line or diagonally, for every dotted and centre number (the shipped tracks never print a
  dotted number above the centre one, where the two values of ``dotted_limit`` part).
  Controls: the switch ignored, a diagonal entry taken as crossing the line.

* ``relay-cross``: whether a re-laid die may cross the finish line, by laps done, race
  laps and the value of ``relay_finish``. Controls: the switch ignored, every crossing taken
  as the last lap's.

* ``beside``: which spaces are beside each other, from their lanes and progress intervals
  in the track files, for both values of ``beside``. Controls: the switch ignored, a map
  that is not symmetric.

``python -m proofs.rallyman_rulings`` prints the table of results.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import z3

# ------------------------------------------------------------------ entry (overtaking, flags)

#: A row of the entry table: (other gear, my gear, beside the space entered, beside the space
#: left, a yellow flag of another car out, my own yellow flag out, switch value index, allowed)
EntryRow = tuple[int, int, bool, bool, bool, bool, int, bool]


def seed_entry(o: z3.ArithRef, g: z3.ArithRef, bd: z3.BoolRef, ba: z3.BoolRef,
               foreign: z3.BoolRef, own: z3.BoolRef, sw: z3.ArithRef) -> z3.BoolRef:
    """Seed 004 追い越し and イエローフラッグ: may the car enter the space? ``own`` never
    matters (the flag leaves the track as its car moves off). ``sw`` is the value of
    ``rgt.ruling.yellow-beside``: 0 nobody may be beside under a flag (the seed), 1 a car
    already beside may go on beside."""
    del own
    counts = z3.And(bd, o >= 1)
    flag_ok = z3.Or(z3.Not(foreign), z3.And(ba, sw == 1))
    return z3.Or(z3.Not(counts), z3.And(flag_ok, z3.Or(ba, g >= o)))


def _entry_triples(track: str) -> Iterator[tuple[str, str, str]]:
    """(space left, space entered, the other car's space): the other car beside the space
    entered (left too, where the track has such), and one not beside it at all."""
    from heatcore.rallyman.track import load_track

    tr = load_track(track)
    kinds: dict[tuple[bool, bool], tuple[str, str, str]] = {}
    for at, moves in sorted(tr.moves.items()):
        for move in moves:
            for sp in sorted(tr.spaces):
                if sp in (at, move.dst):
                    continue
                key = (sp in tr.beside[move.dst], sp in tr.beside[at])
                kinds.setdefault(key, (at, move.dst, sp))
    yield from kinds.values()


def engine_entry(mutation: str = "", switch: str = "", values: tuple[str, ...] = ("",),
                 ) -> set[EntryRow]:
    """The engine's ``moves.destinations`` over the domain (both tracks), as a table."""
    from heatcore.rallyman.moves import destinations
    from heatcore.rallyman.options import Options
    from heatcore.rallyman.state import ON_TRACK, WHITE, Car, RaceState
    from heatcore.rallyman.track import load_track

    table: set[EntryRow] = set()
    for track in ("proving-ground", "albert-park"):
        tr = load_track(track)
        for at, dst, sp in _entry_triples(track):
            bd, ba = sp in tr.beside[dst], sp in tr.beside[at]
            for k, value in enumerate(values):
                options = Options(**{switch: value}) if switch else Options()
                for o in range(-1, 7):
                    for foreign in (False, True):
                        for own in (False, True):
                            flags = (0,) * own + (1,) * foreign
                            if mutation == "own-flag-blocks" and own:
                                flags = (0, 1)
                            if mutation == "flag-ignored":
                                flags = ()
                            cars = (Car(space=at, laps=0, gear=1, colour=WHITE),
                                    Car(space=sp, laps=0, gear=o, colour=WHITE, where=ON_TRACK))
                            state = RaceState(track=tr, laps=1, options=options,
                                              weather="dry", round=1, order=(0, 1), cursor=0,
                                              cars=cars, bag=(0,) * 6, yellow=flags)
                            for g in range(1, 7):
                                gear = 6 if mutation == "any-gear" else g
                                ok = any(m.dst == dst for m in destinations(state, 0, at, gear))
                                table.add((o, g, bd, ba, foreign, own, k, ok))
    return table


def entry_query(mutation: str = "", switch: str = "", values: tuple[str, ...] = ("",),
                formula: Callable[..., z3.BoolRef] = seed_entry) -> z3.CheckSatResult:
    """UNSAT iff the engine's table equals ``formula`` at every row of the domain."""
    o, g, sw = z3.Ints("o g sw")
    bd, ba, foreign, own = z3.Bools("bd ba foreign own")
    rows = engine_entry(mutation, switch, values[::-1] if mutation == "swapped" else values)
    solver = z3.Solver()
    solver.add(z3.Or([z3.And(o == ro, g == rg, bd == rbd, ba == rba, foreign == rf,
                             own == rown, sw == rk, formula(o, g, bd, ba, foreign, own, sw)
                             != z3.BoolVal(ok))
                      for ro, rg, rbd, rba, rf, rown, rk, ok in rows]))
    result: z3.CheckSatResult = solver.check()
    return result


ENTRY_CONTROLS = ("own-flag-blocks", "any-gear", "flag-ignored", "swapped")

# ------------------------------------------------------------------ gear damage

GEAR_DAMAGE_VALUES = ("highest", "lowest", "count")


def seed_gear_damage(n: z3.ArithRef, t: z3.ArithRef, d: z3.ArithRef, sw: z3.ArithRef,
                     ) -> tuple[z3.BoolRef, z3.ArithRef]:
    """(gear die ``d`` may be laid, how many gear dice may be laid in a turn) for a dashboard
    of ``n`` gear dice with ``t`` gear damage tokens; ``sw`` indexes GEAR_DAMAGE_VALUES.
    Seed 004 ギアダメージ: one gear die fewer per token; rgt.ruling.gear-damage-die: the
    highest die (0), the lowest (1), or no particular die, one fewer laid (2)."""
    kept = z3.If(n - t > 0, n - t, 0)
    on_board = z3.And(d >= 1, d <= n)
    which = z3.If(sw == 0, d <= kept, z3.If(sw == 1, d > n - kept, kept > 0))
    return z3.And(on_board, which), kept


def engine_gear_damage(mutation: str = "") -> set[tuple[int, int, int, int, bool, int]]:
    """(gear dice printed, tokens, die, value index, die available, gear dice per turn) by
    ``components.dashboard`` on the GT6, GT5 and GT4 dry asphalt dashboards."""
    from heatcore.rallyman.components import dashboard
    from heatcore.rallyman.options import Options

    rows = set()
    for k, value in enumerate(GEAR_DAMAGE_VALUES):
        if mutation == "count-as-highest" and value == "count":
            value = "highest"
        for cls in ("GT6", "GT5", "GT4"):
            printed = len(dashboard(cls, "asphalt", "dry", (), Options()).gears)
            for t in range(0, 8):
                tokens = () if mutation == "tokens-ignored" else ("gear",) * t
                board = dashboard(cls, "asphalt", "dry", tokens,
                                  Options(gear_damage_removes=value))
                for d in range(1, 7):
                    rows.add((printed, t, d, k, d in board.gears, board.gear_dice))
    return rows


def gear_damage_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's dashboards equal the formula for every value, die and token
    count."""
    n, t, d, sw = z3.Ints("n t d sw")
    solver = z3.Solver()
    cases = []
    for rn, rt, rd, rk, ok, cap in engine_gear_damage(mutation):
        avail, kept = seed_gear_damage(n, t, d, sw)
        cases.append(z3.And(n == rn, t == rt, d == rd, sw == rk,
                            z3.Or(avail != z3.BoolVal(ok), kept != cap)))
    solver.add(z3.Or(cases))
    result: z3.CheckSatResult = solver.check()
    return result


GEAR_DAMAGE_CONTROLS = ("count-as-highest", "tokens-ignored")


# ------------------------------------------------------------------ first gear die


def seed_first_die(c: z3.ArithRef, g: z3.ArithRef, b: z3.ArithRef, u: z3.ArithRef,
                   jumps: z3.BoolRef, zero_boost: z3.BoolRef) -> z3.BoolRef:
    """Seed 004 ギアダイス, ブレーキダイス, ブーストダイス for the first gear die of a turn
    from gear ``c``: one gear away or equal freely, two up with a boost die, k >= 2 down with
    k - 1 brake dice; brake or boost dice only when rgt.ruling.first-die-brake allows
    (``jumps``); from gear 0 only gear die 1 unless rgt.ruling.gear-zero-start allows gear 2
    with a boost die (``zero_boost``)."""
    d = g - c
    step = z3.Or(z3.And(d >= -1, d <= 1, b == 0, u == 0), z3.And(d == 2, b == 0, u == 1),
                 z3.And(d <= -2, b == -d - 1, u == 0))
    return z3.And(step, z3.Or(jumps, z3.And(b == 0, u == 0)),
                  z3.Or(c > 0, g == 1, zero_boost))


def engine_first_die(mutation: str = "") -> set[tuple[int, int, int, int, bool, bool]]:
    """(start gear, gear, brakes, boosts, first_die_jumps, zero_start boost) of every first
    die the engine offers, plenty of dice left."""
    from heatcore.rallyman.moves import die_choices

    rows = set()
    for c in range(0, 7):
        for jumps in (False, True):
            for zero in (False, True):
                allow = True if mutation == "zero-switch-ignored" else zero
                first = mutation != "first-not-special"
                for ch in die_choices(c, first, (1, 2, 3, 4, 5, 6), False, 5, 1, jumps, allow):
                    rows.add((c, ch.gear, ch.brakes, ch.boosts, jumps, zero))
    return rows


def first_die_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's first dice equal the formula for every start gear, die count
    and value of both switches."""
    c, g, b, u = z3.Ints("c g b u")
    jumps, zero = z3.Bools("jumps zero")
    table = engine_first_die(mutation)
    in_table = z3.Or([z3.And(c == tc, g == tg, b == tb, u == tu, jumps == tj, zero == tz)
                      for tc, tg, tb, tu, tj, tz in table])
    solver = z3.Solver()
    solver.add(c >= 0, c <= 6, g >= 1, g <= 6, b >= 0, b <= 5, u >= 0, u <= 1)
    solver.add(in_table != seed_first_die(c, g, b, u, jumps, zero))
    result: z3.CheckSatResult = solver.check()
    return result


FIRST_DIE_CONTROLS = ("zero-switch-ignored", "first-not-special")


# ------------------------------------------------------------------ dice after a certain loss


def seed_more_dice(over: z3.BoolRef, tw: z3.ArithRef, limit: z3.ArithRef,
                   sw: z3.ArithRef) -> z3.BoolRef:
    """May another die be laid after one die whose space exceeds a limit (``over``) or adds
    ``tw`` track warnings, with a dashboard limit of ``limit``? rgt.ruling.dice-after-loss:
    yes (``sw == 0``, seed 004 rolls every laid die), or (``sw == 1``) only while the loss is
    not certain."""
    return z3.Or(sw == 0, z3.And(z3.Not(over), tw < limit))


def engine_more_dice(mutation: str = "") -> set[tuple[bool, int, int, int, bool]]:
    """(overspeed, track warnings, limit, value index, another die offered) by the engine's
    planner, after one laid die on a straight (its verdict set by hand), dry or wet with
    asphalt tyres and a mismatch limit of 2."""
    from heatcore.framework.values import replace
    from heatcore.rallyman.crafted import car, placed
    from heatcore.rallyman.options import Options
    from heatcore.rallyman.planning import car_dashboard, next_steps
    from heatcore.rallyman.state import Step

    rows = set()
    for k, value in enumerate(("allowed", "stop")):
        if mutation == "switch-ignored":
            value = "allowed"
        options = Options(dice_after_loss=value, mismatch_limit="2")
        for weather in ("dry", "wet"):
            state = placed(car("T1.L2.1", 1, tyres="asphalt"), car("T9.L3.1", 0),
                           options=options, weather=weather)
            turn = state.turn
            assert turn is not None and turn.car == 0
            limit = car_dashboard(state, 0).limit
            for over in (False, True):
                for tw in range(0, 4):
                    laid = 0 if mutation == "track-warnings-ignored" else tw
                    step = Step("G1", 1, 0, 0, "T1.L2.2", laid, over, False)
                    more = bool(next_steps(state, replace(turn, plan=(step,))))
                    rows.add((over, tw, limit, k, more))
    return rows


def more_dice_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's planner equals the formula at every row."""
    tw, limit, sw = z3.Ints("tw limit sw")
    over = z3.Bool("over")
    solver = z3.Solver()
    solver.add(z3.Or([z3.And(over == ro, tw == rt, limit == rl, sw == rk,
                             seed_more_dice(over, tw, limit, sw) != z3.BoolVal(more))
                      for ro, rt, rl, rk, more in engine_more_dice(mutation)]))
    result: z3.CheckSatResult = solver.check()
    return result


MORE_DICE_CONTROLS = ("switch-ignored", "track-warnings-ignored")


# ------------------------------------------------------------------ dotted-line limit


def seed_dotted(e: z3.ArithRef, c: z3.ArithRef, straight: z3.BoolRef, g: z3.ArithRef,
                sw: z3.ArithRef) -> z3.BoolRef:
    """Whether gear ``g`` exceeds the limit of a corner space of centre number ``c`` with an
    entry dotted line ``e``, entered straight across it or diagonally. Seed 004 急なコーナー:
    across the line the dotted number replaces the centre (``sw == 0``, the ruling) or, the
    centre always applying, the lower of both counts (``sw == 1``); diagonally the centre."""
    across = z3.If(sw == 0, e, z3.If(e < c, e, c))
    return g > z3.If(straight, across, c)


def engine_dotted(mutation: str = "") -> set[tuple[int, int, bool, int, int, bool]]:
    """(dotted number, centre, straight, gear, value index, limit exceeded) by
    ``moves.arrive`` on a steep corner space with every pair of numbers 1 to 6."""
    from types import SimpleNamespace

    from heatcore.rallyman.moves import arrive
    from heatcore.rallyman.track import Corner, Move

    rows = set()
    for c in range(1, 7):
        track: Any = SimpleNamespace(spaces={"B": SimpleNamespace(corner=Corner(c, "steep", 1))})
        for e in range(1, 7):
            for straight in (True, False):
                kind = "straight" if straight or mutation == "diagonal-crosses" else "diagonal"
                move = Move("A", "B", kind, entry_limit=e)
                for k, lower in enumerate((False, True)):
                    for g in range(1, 7):
                        over = arrive(track, move, g, lower and mutation != "switch-ignored")[1]
                        rows.add((e, c, straight, g, k, over))
    return rows


def dotted_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's verdicts equal the formula at every row."""
    e, c, g, sw = z3.Ints("e c g sw")
    straight = z3.Bool("straight")
    solver = z3.Solver()
    solver.add(z3.Or([z3.And(e == re, c == rc, straight == rs, g == rg, sw == rk,
                             seed_dotted(e, c, straight, g, sw) != z3.BoolVal(over))
                      for re, rc, rs, rg, rk, over in engine_dotted(mutation)]))
    result: z3.CheckSatResult = solver.check()
    return result


DOTTED_CONTROLS = ("switch-ignored", "diagonal-crosses")


# ------------------------------------------------------------------ re-lay across the line


def seed_relay_cross(sl: z3.ArithRef, laps: z3.ArithRef, sw: z3.ArithRef) -> z3.BoolRef:
    """May a re-laid die cross the finish line for a car that started its turn with ``sl``
    laps done in a race of ``laps``? rgt.ruling.relay-finish: yes (``sw == 0``, seed 004's
    re-lay follows the track rules of a plan), or (``sw == 1``) only if that crossing does
    not end its race."""
    return z3.Or(sw == 0, sl + 1 < laps)


def engine_relay_cross(mutation: str = "") -> set[tuple[int, int, int, bool]]:
    """(laps done, race laps, value index, a re-lay across the line offered) by the engine's
    re-lay generator on the crafted albert-park loss before the line (four dice re-laid under
    the default, then the switch set: the fifth can reach across)."""
    from heatcore.framework.values import replace
    from heatcore.rallyman.control import relay_options
    from heatcore.rallyman.crafted import AP, RELAY_DICE, RELAY_ROLL, car, placed
    from heatcore.rallyman.engine import apply
    from heatcore.rallyman.notation import parse_action
    from heatcore.rallyman.options import Options

    rows = set()
    for k, value in enumerate(("finishes", "before-line")):
        for done, laps in ((0, 1), (0, 2), (1, 2)):
            v = "finishes" if mutation == "switch-ignored" else value
            race = done + 1 if mutation == "laps-ignored" else laps
            state = placed(car("T20.L3.3", 2, laps=done), car("T5.L3.1", 0), track=AP,
                           laps=race)
            for text in RELAY_ROLL + RELAY_DICE[:4]:
                state, _ = apply(state, parse_action(text))
            state = replace(state, options=Options(relay_finish=v))
            turn = state.turn
            assert turn is not None
            crossing = any(step.finish for _, step, _ in relay_options(state, turn))
            rows.add((done, laps, k, crossing))
    return rows


def relay_cross_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's re-lays equal the formula at every row."""
    sl, laps, sw = z3.Ints("sl laps sw")
    solver = z3.Solver()
    solver.add(z3.Or([z3.And(sl == rs, laps == rl, sw == rk,
                             seed_relay_cross(sl, laps, sw) != z3.BoolVal(ok))
                      for rs, rl, rk, ok in engine_relay_cross(mutation)]))
    result: z3.CheckSatResult = solver.check()
    return result


RELAY_CROSS_CONTROLS = ("switch-ignored", "laps-ignored")


# ------------------------------------------------------------------ beside


def seed_beside(a0: z3.ArithRef, a1: z3.ArithRef, al: z3.ArithRef, ah: z3.ArithRef,
                b0: z3.ArithRef, b1: z3.ArithRef, bl: z3.ArithRef, bh: z3.ArithRef,
                sw: z3.ArithRef) -> z3.BoolRef:
    """Spaces ``a`` and ``b`` (progress interval ``[x0, x1)``, lanes ``xl`` to ``xh``) are
    beside each other: adjacent lanes, and (rgt.ruling.beside) any shared length
    (``sw == 0``) or the centre of one within the other's interval (``sw == 1``)."""
    adjacent = z3.Or(ah + 1 == bl, bh + 1 == al)
    overlap = z3.And(a0 < b1, b0 < a1)
    centre = z3.Or(z3.And(2 * b0 <= a0 + a1, a0 + a1 < 2 * b1),
                   z3.And(2 * a0 <= b0 + b1, b0 + b1 < 2 * a1))
    return z3.And(adjacent, z3.If(sw == 0, overlap, centre))


BesideRow = tuple[int, int, int, int, int, int, int, int, int, bool]


def engine_beside(mutation: str = "") -> set[BesideRow]:
    """Every pair of spaces within 120 progress units of each other on both tracks: their
    intervals and lanes, the value index, and whether the engine's map (``beside_map``)
    has them beside."""
    from heatcore.rallyman.track import beside_map, load_track

    rows: set[BesideRow] = set()
    for track in ("proving-ground", "albert-park"):
        tr = load_track(track)
        for k, value in enumerate(("overlap", "centre")):
            reading = "overlap" if mutation == "switch-ignored" else value
            near = beside_map(tr, reading)
            for a in tr.spaces.values():
                for b in tr.spaces.values():
                    if a.id == b.id or abs(a.span[0] - b.span[0]) > 120:
                        continue
                    beside = b.id in near[a.id]
                    if mutation == "one-way":
                        beside = beside and a.span[0] <= b.span[0]
                    rows.add((a.span[0], a.span[1], min(a.lanes), max(a.lanes), b.span[0],
                              b.span[1], min(b.lanes), max(b.lanes), k, beside))
    return rows


def beside_query(mutation: str = "") -> z3.CheckSatResult:
    """UNSAT iff the engine's maps equal the formula on every near pair, both values."""
    a0, a1, al, ah, b0, b1, bl, bh, sw = z3.Ints("a0 a1 al ah b0 b1 bl bh sw")
    solver = z3.Solver()
    solver.add(z3.Or([z3.And(a0 == r[0], a1 == r[1], al == r[2], ah == r[3], b0 == r[4],
                             b1 == r[5], bl == r[6], bh == r[7], sw == r[8],
                             seed_beside(a0, a1, al, ah, b0, b1, bl, bh, sw)
                             != z3.BoolVal(r[9]))
                      for r in engine_beside(mutation)]))
    result: z3.CheckSatResult = solver.check()
    return result


BESIDE_CONTROLS = ("switch-ignored", "one-way")


# ------------------------------------------------------------------ results


@dataclass(frozen=True)
class Result:
    """One line of the table: a proof (or control) and whether it came out right."""

    proof: str
    control: str
    ok: bool
    detail: str


def _run(proof: str, query: Callable[..., Any], controls: tuple[str, ...],
         **kw: Any) -> list[Result]:
    got = query(**kw)
    out = [Result(proof, "", got == z3.unsat, f"{got}")]
    for bug in controls:
        got = query(bug, **kw)
        out.append(Result(proof, bug, got == z3.sat, f"{got}"))
    return out


def run_entry() -> list[Result]:
    """The entry proof (both values of ``yellow_beside``) and its controls."""
    return _run("entry", entry_query, ENTRY_CONTROLS, switch="yellow_beside",
                values=("nobody", "already-beside"))


@dataclass(frozen=True)
class Claim:
    """A proof of this module as the rulebook site lists it."""

    id: str
    claim: str
    rules: tuple[str, ...]
    controls: tuple[str, ...]


CATALOGUE = (
    Claim("rgt-entry", "A car may enter a space beside another car in gear 1 or more only at "
          "that car's gear or higher, unless already beside it, and not at all while another "
          "car's yellow flag is out (rgt.ruling.yellow-beside: not even when already beside, "
          "or, switched, then yes); its own yellow flag never holds it back. The engine's "
          "destinations equal this on both tracks for every gear, flag and switch value.",
          ("rgt.move.overtake-gear", "rgt.damage.yellow-flag", "rgt.ruling.yellow-flag-ends",
           "rgt.ruling.yellow-beside"),
          ENTRY_CONTROLS),
    Claim("rgt-gear-damage", "With t gear damage tokens a dashboard of n gear dice keeps "
          "max(0, n - t) gear dice per turn: the dice 1 to n - t (rgt.ruling.gear-damage-die), "
          "or switched the dice t + 1 to n, or every die but one fewer laid per token; the "
          "engine's dashboards equal this for every class, token count and value.",
          ("rgt.damage.gear", "rgt.ruling.gear-damage-die"), GEAR_DAMAGE_CONTROLS),
    Claim("rgt-first-die", "The first gear die of a turn follows the gear steps of seed "
          "004, with brake or boost dice only as rgt.ruling.first-die-brake allows, and from "
          "gear 0 is gear die 1 or (rgt.ruling.gear-zero-start) gear die 2 with a boost die; "
          "the engine's choices equal this for every start gear and both switches.",
          ("rgt.dice.gear-step", "rgt.ruling.first-die-brake", "rgt.ruling.gear-zero-start"),
          FIRST_DIE_CONTROLS),
    Claim("rgt-more-dice", "After a laid die whose space exceeds a limit, or whose track "
          "warnings reach the dashboard's limit, another die may be laid "
          "(rgt.ruling.dice-after-loss), or, switched, none; the engine's planner equals this "
          "for both limits, every track warning count and both values.",
          ("rgt.ruling.dice-after-loss", "rgt.turn.sequence"), MORE_DICE_CONTROLS),
    Claim("rgt-dotted-limit", "Entering a steep corner space straight across its dotted line, "
          "the limit is the dotted number (rgt.ruling.dotted-limit) or, switched, the lower of "
          "it and the centre number; entering diagonally, the centre number. The engine's "
          "verdict equals this for every pair of numbers and gear, above the shipped tracks' "
          "own pairs.", ("rgt.ruling.dotted-limit", "rgt.corner.steep-entry",
                         "rgt.corner.steep-diagonal"), DOTTED_CONTROLS),
    Claim("rgt-relay-cross", "Re-laid dice may cross the finish line (rgt.ruling.relay-finish), "
          "or, switched, only when that crossing does not end the car's race; the engine's "
          "re-lays equal this for the last lap and an earlier one, both values.",
          ("rgt.ruling.relay-finish", "rgt.loc.relay"), RELAY_CROSS_CONTROLS),
    Claim("rgt-beside", "Two spaces are beside each other when their lanes are adjacent and "
          "they share any length of track (rgt.ruling.beside), or, switched, when the centre "
          "of one lies within the other; the engine's maps equal this on every near pair of "
          "spaces of both tracks.", ("rgt.ruling.beside", "rgt.move.overtake-gear"),
          BESIDE_CONTROLS),
)

def run_gear_damage() -> list[Result]:
    """The gear damage proof (every value of ``gear_damage_removes``) and its controls."""
    return _run("gear-damage", gear_damage_query, GEAR_DAMAGE_CONTROLS)


def run_first_die() -> list[Result]:
    """The first-die proof (both switches) and its controls."""
    return _run("first-die", first_die_query, FIRST_DIE_CONTROLS)


def run_more_dice() -> list[Result]:
    """The dice-after-a-loss proof (both values) and its controls."""
    return _run("more-dice", more_dice_query, MORE_DICE_CONTROLS)


def run_dotted_limit() -> list[Result]:
    """The dotted-line proof (both values) and its controls."""
    return _run("dotted-limit", dotted_query, DOTTED_CONTROLS)


def run_relay_cross() -> list[Result]:
    """The re-lay-across-the-line proof (both values) and its controls."""
    return _run("relay-cross", relay_cross_query, RELAY_CROSS_CONTROLS)


def run_beside() -> list[Result]:
    """The beside proof (both values) and its controls."""
    return _run("beside", beside_query, BESIDE_CONTROLS)


RUNS: tuple[Callable[[], list[Result]], ...] = (run_entry, run_gear_damage, run_first_die,
                                                run_more_dice, run_dotted_limit,
                                                run_relay_cross, run_beside)


def main(argv: list[str] | None = None) -> int:
    """Print every result; exit 1 if any proof fails or a control is missed."""
    del argv
    rows = [r for run in RUNS for r in run()]
    for r in rows:
        status = "ok" if r.ok else "FAILED"
        print(f"{r.proof:16} {r.control or 'proof':22} {status:7} {r.detail}")
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
