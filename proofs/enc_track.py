"""Encoded rules that move cars over the track: placement, slipstream eligibility, corner
checks with their Heat payments, and the spin. Each function names its rule IDs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import z3

from heatcore.heat.rulings import BLOCKED_OWN_SPACE, ZERO_MOVE
from proofs.enc_cards import pay_engine, take_stress
from proofs.symbols import HEAT, MAX_CARS, Enc, Zones
from proofs.track_graph import Line

#: Spots scanned back from a target: the other cars hold at most MAX_CARS - 1 of them.
SCAN = MAX_CARS


@dataclass(frozen=True)
class Spot:
    """A spot: unrolled position (counted over the race), whether it is the racing-line
    spot, and its board space ``space`` (0..L-1): the position modulo the lap length L,
    carried along with the position (rule setup.board-space)."""

    pos: z3.ArithRef
    racing: z3.BoolRef
    space: z3.ArithRef


def wrap(space: z3.ArithRef, lap: int) -> z3.ArithRef:
    """setup.board-space: a board space moved by fewer than ``lap`` spaces either way,
    brought back onto the loop 0..lap-1 (the board is a loop of ``lap`` spaces)."""
    return z3.If(space >= lap, space - lap, z3.If(space < 0, space + lap, space))


def board_spot(enc: Enc, name: str, lap: int, lo: int, hi: int) -> Spot:
    """A fresh spot with a position in lo..hi; its board space (0..L-1) is the position
    less a whole number of laps, by cases over the laps lo..hi spans."""
    pos = enc.new_int(f"{name}.pos", lo=lo, hi=hi)
    space = pos - lap * (hi // lap)
    for k in reversed(range(lo // lap, hi // lap)):
        space = z3.If(pos < lap * (k + 1), pos - lap * k, space)
    return Spot(pos, enc.new_bool(f"{name}.racing"), space)


@dataclass(frozen=True)
class Board:
    """The board seen from one turn: a loop of ``lap`` spaces, and the spot the turn
    starts from. Every position the car reaches in the turn is less than a lap from that
    spot (a turn moves at most 20 + 4 + 1 + 2 spaces, a placement goes back at most 2 and
    a spin never behind the start), so its board space is the start's plus the distance,
    wrapped once."""

    lap: int
    origin: Spot

    def space(self, pos: z3.ArithRef) -> z3.ArithRef:
        """setup.board-space: the board space of a position reached in this turn."""
        return wrap(self.origin.space + (pos - self.origin.pos), self.lap)


def fixed_spot(pos: int, racing: bool, lap: int) -> Spot:
    """A spot at a known position."""
    return Spot(z3.IntVal(pos), z3.BoolVal(racing), z3.IntVal(pos % lap))


def spot_key(pos: z3.ArithRef, racing: z3.BoolRef | bool) -> z3.ArithRef:
    """A number per spot, larger further ahead; the racing-line spot ahead in its space."""
    if isinstance(racing, bool):
        return 2 * pos + (1 if racing else 0)
    return 2 * pos + z3.If(racing, 1, 0)


@dataclass(frozen=True)
class Other:
    """Another car: on the track or not, and its spot."""

    present: z3.BoolRef
    spot: Spot

    @cached_property
    def key(self) -> z3.ArithRef:
        """The spot's key (``spot_key``)."""
        return spot_key(self.spot.pos, self.spot.racing)


@dataclass(frozen=True)
class Placement:
    """One placement: from ``start``, aiming at space ``target`` (board space
    ``target_space``), ending on ``result``."""

    start: Spot
    moves: z3.BoolRef
    target: z3.ArithRef
    target_space: z3.ArithRef
    result: Spot


def same_spot(a: Spot, b: Spot) -> z3.BoolRef:
    """setup.board-space: two spots are one spot of the board, whatever laps the cars
    standing there are on."""
    return z3.And(a.space == b.space, a.racing == b.racing)


def scan_order(enc: Enc) -> list[tuple[int, bool]]:
    """place.racing-line-first, place.blocked: the spots tried from the target backwards,
    as (spaces from the target, racing line): the racing-line spot, then the other, then
    the space behind, and so on."""
    first = not enc.bug("place-other-lane-first")
    way = 1 if enc.bug("blocked-moves-ahead") else -1
    return [(way * (k // 2), first if k % 2 == 0 else not first) for k in range(SCAN)]


def first_free(enc: Enc, target: z3.ArithRef, others: list[Other], board: Board) -> Spot:
    """The first free spot of the board scanning back from ``target``: rules
    place.racing-line-first, place.blocked, setup.board-space."""
    if enc.bug("placement-ignores-occupancy"):
        return Spot(target, z3.BoolVal(True), board.space(target))
    lapped = not enc.bug("placement-ignores-lapped-cars")

    def held(d: int, r: bool) -> z3.BoolRef:
        if not lapped:
            key = spot_key(target + d, r)
            return z3.Or([z3.And(o.present, o.key == key) for o in others])
        there = board.space(target + d)
        return z3.Or([z3.And(o.present, o.spot.racing == r, o.spot.space == there)
                      for o in others])
    spots = scan_order(enc)
    d, r = spots[-1]
    pos, racing = target + d, z3.BoolVal(r)
    for d, r in reversed(spots[:-1]):
        free = z3.Not(held(d, r))
        pos = z3.If(free, target + d, pos)
        racing = z3.If(free, z3.BoolVal(r), racing)
    return Spot(pos, racing, board.space(pos))


def place(enc: Enc, start: Spot, spaces: z3.ArithRef, others: list[Other],
          board: Board, taken: z3.BoolRef | None = None) -> Placement:
    """move.exact, place.racing-line-first, place.blocked, ruling.zero-move,
    ruling.blocked-own-space: move ``spaces`` forward (cars passed never block), then take
    the first free spot from the target space backwards; the car's own former spot counts
    as free. 0 spaces: no move (under zero-move's alternative "place", a move that is
    ``taken`` places the car even for 0 spaces). Under blocked-own-space's alternative
    "stay", a move whose placement comes back to the car's own space keeps its spot."""
    moves = spaces > 0
    if taken is not None and enc.rulings.chose(ZERO_MOVE, "place"):
        moves = z3.And(taken, spaces >= 0)
    target = start.pos + spaces
    landing = first_free(enc, target, others, board)
    if enc.rulings.chose(BLOCKED_OWN_SPACE, "stay"):
        home = z3.And(spaces > 0, landing.pos == start.pos)
        landing = Spot(z3.If(home, start.pos, landing.pos),
                       z3.If(home, start.racing, landing.racing),
                       z3.If(home, start.space, landing.space))
    return Placement(start, moves, target, board.space(target),
                     _result(moves, landing, start))


def _result(active: z3.BoolRef, landing: Spot, start: Spot) -> Spot:
    return Spot(z3.If(active, landing.pos, start.pos), z3.If(active, landing.racing,
                                                             start.racing),
                z3.If(active, landing.space, start.space))


def gains(placement: Placement) -> z3.BoolRef:
    """Whether a placement leaves the car on another spot than the one it started from."""
    return z3.Or(placement.result.pos != placement.start.pos,
                 placement.result.racing != placement.start.racing)


def slipstream_eligible(enc: Enc, spot: Spot, others: list[Other], board: Board) -> z3.BoolRef:
    """slipstream.eligible, setup.board-space: another car, on any lap, on the other spot
    of this board space, or on either spot of the next board space."""
    ahead = [1, 2] if enc.bug("slipstream-two-ahead") else [1]
    lapped = not enc.bug("slipstream-ignores-lapped-cars")
    out = []
    for o in others:
        if lapped:
            same = o.spot.space == spot.space
            nxt = [o.spot.space == board.space(spot.pos + d) for d in ahead]
        else:
            same = o.spot.pos == spot.pos
            nxt = [o.spot.pos == spot.pos + d for d in ahead]
        beside = [] if enc.bug("slipstream-no-beside") else [
            z3.And(same, o.spot.racing != spot.racing)]
        out.append(z3.And(o.present, z3.Or(*beside, *nxt)))
    return z3.Or(out)


@dataclass(frozen=True)
class LineCheck:
    """The check of one corner line."""

    line: Line
    crossed: z3.BoolRef  # crossed and counted (before the final finish line)
    demand: z3.ArithRef  # Heat this line asks for (0 if not checked)
    paid: z3.ArithRef
    spin: z3.BoolRef  # the car spins at this line


@dataclass(frozen=True)
class CornerOutcome:
    """Result of step 7."""

    zones: Zones
    checks: tuple[LineCheck, ...]
    spun: z3.BoolRef
    spin_line: z3.ArithRef
    paid: z3.ArithRef
    spot: Spot
    spin_placement: Placement
    stress_taken: z3.ArithRef
    gear: z3.ArithRef


def check_corners(enc: Enc, z: Zones, lines: tuple[Line, ...], finish: int, start: z3.ArithRef,
                  end: Spot, speed: z3.ArithRef, gear: z3.ArithRef, active: z3.BoolRef,
                  others: list[Other], board: Board,
                  reach: z3.ArithRef | None = None) -> CornerOutcome:
    """corner.check, corner.pay-heat, corner.spin, corner.after-finish-ignored: for each
    corner line crossed from ``start`` to ``end`` (start <= line < end), in crossing order,
    pay speed - limit Heat if positive; a car that cannot pay pays all its engine Heat,
    spins to the first free spot before that line, takes 1 Stress (gear 1-2) or 2 (gear
    3-4) into hand, goes to gear 1 and checks no further line. Earlier payments stand.
    ``reach`` (ruling.setback-corner "checked"): lines up to the farthest space a move
    aimed at are checked too."""
    checks: list[LineCheck] = []
    spun: z3.BoolRef = z3.BoolVal(False)
    seen: z3.BoolRef = z3.BoolVal(False)
    spin_line: z3.ArithRef = z3.IntVal(0)
    paid_total: z3.ArithRef = z3.IntVal(0)
    from_hand = enc.bug("heat-paid-from-hand")
    for line in lines:
        crossed = z3.And(active, start <= line.at, end.pos > line.at)
        if reach is not None:  # ruling.setback-corner "checked"
            crossed = z3.And(active, start <= line.at, z3.Or(end.pos > line.at,
                                                             reach > line.at))
        if line.at > finish and not enc.bug("corner-after-finish-counts"):
            crossed = z3.BoolVal(False)  # corner.after-finish-ignored
        checked = z3.And(crossed, z3.Not(seen)) if enc.bug("corner-once-per-turn") else crossed
        seen = z3.Or(seen, crossed)
        excess = speed - line.limit
        demand = z3.If(z3.And(checked, z3.Not(spun), excess > 0), excess, 0)
        have = z.hand[HEAT] if from_hand else z.engine
        spin = z3.BoolVal(False) if enc.bug("engine-debt") else demand > have
        if enc.bug("no-spin-in-gear-2"):
            spin = z3.And(spin, gear != 2)
        paid = z3.If(spin, have, demand)
        if enc.bug("engine-debt"):
            discard = dict(z.discard)
            discard[HEAT] = discard[HEAT] + paid
            z = z.with_(engine=z.engine - paid, discard=discard)
        elif from_hand:
            hand = dict(z.hand)
            hand[HEAT] = hand[HEAT] - paid
            discard = dict(z.discard)
            discard[HEAT] = discard[HEAT] + paid
            z = z.with_(hand=hand, discard=discard)
        else:
            z = pay_engine(enc, z, paid, "corner.pay-heat")
        spin_line = z3.If(spin, line.at, spin_line)
        spun = z3.Or(spun, spin)
        paid_total = paid_total + paid
        checks.append(LineCheck(line, crossed, demand, paid, spin))
    shift = 1 if enc.bug("spin-lands-past-line") else -1 if enc.bug("spin-one-space-short") else 0
    spin_place = place_at(enc, end, spin_line + shift, spun, others, board)
    wanted = z3.If(spun, z3.If(gear <= 2, 1, 2), 0)
    z, taken = take_stress(enc, z, wanted)
    new_gear = gear if enc.bug("spin-keeps-gear") else z3.If(spun, 1, gear)
    return CornerOutcome(z, tuple(checks), spun, spin_line, paid_total, spin_place.result,
                         spin_place, taken, new_gear)


def place_at(enc: Enc, start: Spot, target: z3.ArithRef, active: z3.BoolRef,
             others: list[Other], board: Board) -> Placement:
    """corner.spin: put the car on the first free spot of the board scanning back from
    space ``target``, the space just before the corner line."""
    landing = first_free(enc, target, others, board)
    return Placement(start, active, target, board.space(target),
                     _result(active, landing, start))
