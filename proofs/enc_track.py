"""Encoded rules that move cars over the track: placement, slipstream eligibility, corner
checks with their Heat payments, and the spin. Each function names its rule IDs."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import z3

from proofs.enc_cards import pay_engine, take_stress
from proofs.symbols import HEAT, MAX_CARS, Enc, Zones
from proofs.track_graph import Line

#: Spots scanned back from a target: the other cars hold at most MAX_CARS - 1 of them.
SCAN = MAX_CARS


@dataclass(frozen=True)
class Spot:
    """A spot: unrolled position and whether it is the racing-line spot."""

    pos: z3.ArithRef
    racing: z3.BoolRef


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
    """One placement: from ``start``, aiming at space ``target``, ending on ``result``."""

    start: Spot
    moves: z3.BoolRef
    target: z3.ArithRef
    result: Spot


def occupied(others: list[Other], pos: z3.ArithRef, racing: z3.BoolRef | bool) -> z3.BoolRef:
    """Whether another car holds the spot."""
    key = spot_key(pos, racing)
    return z3.Or([z3.And(o.present, o.key == key) for o in others])


def scan_order(enc: Enc, target: z3.ArithRef) -> list[tuple[z3.ArithRef, bool]]:
    """place.racing-line-first, place.blocked: the spots tried from ``target`` backwards:
    the racing-line spot, then the other, then the space behind, and so on."""
    first = not enc.bug("place-other-lane-first")
    way = 1 if enc.bug("blocked-moves-ahead") else -1
    return [(target + way * (k // 2), first if k % 2 == 0 else not first)
            for k in range(SCAN)]


def first_free(enc: Enc, target: z3.ArithRef, others: list[Other]) -> Spot:
    """The first free spot scanning back from ``target`` (rules place.racing-line-first,
    place.blocked)."""
    if enc.bug("placement-ignores-occupancy"):
        return Spot(target, z3.BoolVal(True))
    spots = scan_order(enc, target)
    pos, racing = spots[-1][0], z3.BoolVal(spots[-1][1])
    for p, r in reversed(spots[:-1]):
        free = z3.Not(occupied(others, p, r))
        pos = z3.If(free, p, pos)
        racing = z3.If(free, z3.BoolVal(r), racing)
    return Spot(pos, racing)


def place(enc: Enc, start: Spot, spaces: z3.ArithRef, others: list[Other]) -> Placement:
    """move.exact, place.racing-line-first, place.blocked, ruling.zero-move: move
    ``spaces`` forward (cars passed never block), then take the first free spot from the
    target space backwards; the car's own former spot counts as free. 0 spaces: no move."""
    moves = spaces > 0
    target = start.pos + spaces
    landing = first_free(enc, target, others)
    result = Spot(z3.If(moves, landing.pos, start.pos), z3.If(moves, landing.racing,
                                                              start.racing))
    return Placement(start, moves, target, result)


def slipstream_eligible(enc: Enc, spot: Spot, others: list[Other]) -> z3.BoolRef:
    """slipstream.eligible: another car on the other spot of this space, or on either spot
    of the next space."""
    ahead = [1, 2] if enc.bug("slipstream-two-ahead") else [1]
    out = []
    for o in others:
        beside = [] if enc.bug("slipstream-no-beside") else [
            z3.And(o.spot.pos == spot.pos, o.spot.racing != spot.racing)]
        out.append(z3.And(o.present, z3.Or(*beside,
                                           *(o.spot.pos == spot.pos + d for d in ahead))))
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
                  others: list[Other]) -> CornerOutcome:
    """corner.check, corner.pay-heat, corner.spin, corner.after-finish-ignored: for each
    corner line crossed from ``start`` to ``end`` (start <= line < end), in crossing order,
    pay speed - limit Heat if positive; a car that cannot pay pays all its engine Heat,
    spins to the first free spot before that line, takes 1 Stress (gear 1-2) or 2 (gear
    3-4) into hand, goes to gear 1 and checks no further line. Earlier payments stand."""
    checks: list[LineCheck] = []
    spun: z3.BoolRef = z3.BoolVal(False)
    seen: z3.BoolRef = z3.BoolVal(False)
    spin_line: z3.ArithRef = z3.IntVal(0)
    paid_total: z3.ArithRef = z3.IntVal(0)
    from_hand = enc.bug("heat-paid-from-hand")
    for line in lines:
        crossed = z3.And(active, start <= line.at, end.pos > line.at)
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
    target = spin_line
    if enc.bug("spin-lands-past-line"):
        target = spin_line + 1
    if enc.bug("spin-one-space-short"):
        target = spin_line - 1
    spin_place = place_at(enc, end, target, spun, others)
    wanted = z3.If(spun, z3.If(gear <= 2, 1, 2), 0)
    z, taken = take_stress(enc, z, wanted)
    new_gear = gear if enc.bug("spin-keeps-gear") else z3.If(spun, 1, gear)
    return CornerOutcome(z, tuple(checks), spun, spin_line, paid_total, spin_place.result,
                         spin_place, taken, new_gear)


def place_at(enc: Enc, start: Spot, target: z3.ArithRef, active: z3.BoolRef,
             others: list[Other]) -> Placement:
    """corner.spin: put the car on the first free spot scanning back from space ``target``
    (the space just before the corner line)."""
    landing = first_free(enc, target, others)
    result = Spot(z3.If(active, landing.pos, start.pos), z3.If(active, landing.racing,
                                                               start.racing))
    return Placement(start, active, target, result)
