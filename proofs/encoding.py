"""The Z3 encoding of one car's turn (steps 1-9), of the race setup, and of the turn order.

A turn is encoded from a symbolic pre-state: the acting car (spot, gear, card zones), the
other cars' spots (up to 5, symbolic), the shared Stress supply and the order data that
decide adrenaline. ``race_invariants`` states the race-level invariants used as the
pre-condition of every proof (they are themselves proved inductive in the catalogue).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cache

import z3

from heatcore.heat.rulings import (
    BLOCKED_EXTRA_MOVE,
    DEFAULT_RULINGS,
    FINISHED_DISCARD_DRAW,
    SETBACK_CORNER,
    SPIN_DISCARD,
    STRESS_SUPPLY,
    Rulings,
)
from proofs.enc_cards import (
    DrawRecord,
    FlipRecord,
    card_speed,
    cooldown,
    cooldown_cap,
    discard_step,
    flip,
    is_cluttered,
    pay_engine,
    play_cards,
    replenish,
    shift_gear,
)
from proofs.enc_track import (
    Board,
    CornerOutcome,
    Other,
    Placement,
    Spot,
    board_spot,
    check_corners,
    fixed_spot,
    gains,
    place,
    same_spot,
    slipstream_eligible,
)
from proofs.symbols import (
    BOX_STRESS,
    FIXED,
    HAND_SIZE,
    HEAT,
    KINDS,
    MAX_CARS,
    STRESS,
    Enc,
    Zones,
    size,
)
from proofs.track_graph import TrackFacts

Zone = dict[str, z3.ArithRef]
MAX_STRESS_FLIPS = 4  # at most 4 cards are played
GRID_BACK = -2  # the rearmost grid spot of a 6-car race


@dataclass(frozen=True)
class CarState:
    """The acting car between turns."""

    spot: Spot
    gear: z3.ArithRef
    zones: Zones


@dataclass
class Turn:
    """One car's turn, with every intermediate term the proofs and the miner read."""

    enc: Enc
    facts: TrackFacts
    pre: CarState
    post: CarState
    others: list[Other]
    other_stress: z3.ArithRef
    starters: z3.ArithRef  # cars that started the race
    racing: z3.ArithRef  # cars in this round's order
    index: z3.ArithRef  # this car's index in the round's order
    adrenaline: z3.BoolRef
    cluttered: z3.BoolRef
    gear: z3.ArithRef  # gear chosen for the round
    shift_cost: z3.ArithRef
    played: Zone
    stress_flips: list[tuple[z3.BoolRef, z3.ArithRef]]
    flips: list[FlipRecord]  # the stress flips, then the boost flip
    reveal_speed: z3.ArithRef
    adr_move: z3.BoolRef
    adr_cool: z3.BoolRef
    adr_first: z3.BoolRef
    cool_gear: z3.ArithRef
    boost: z3.BoolRef
    boost_cost: z3.ArithRef
    boost_value: z3.ArithRef
    speed: z3.ArithRef  # the speed step 7 uses
    slip_eligible: z3.BoolRef
    slip: z3.BoolRef
    placements: dict[str, Placement]
    corners: CornerOutcome
    finished: z3.BoolRef
    discarded: Zone
    drawn: DrawRecord
    stages: dict[str, Zones] = field(default_factory=dict)

    def formula(self) -> list[z3.BoolRef]:
        """Every constraint of the turn."""
        return self.enc.formula()

    def line_crossing_end(self) -> z3.ArithRef:
        """Position after slipstream: the end of the stretch whose corner lines are checked."""
        return self.placements["slipstream"].result.pos


def fresh_zones(enc: Enc, name: str) -> Zones:
    """Symbolic zones for a player. The shared Stress supply is never negative, except
    under ruling.stress-supply's alternative "unlimited" (spins then take their full count
    and the supply may go below zero)."""
    unlimited = enc.rulings.chose(STRESS_SUPPLY, "unlimited")
    return Zones(hand=enc.zone(f"{name}.hand"), deck=enc.zone(f"{name}.deck"),
                 discard=enc.zone(f"{name}.discard"), play=enc.zone(f"{name}.play"),
                 engine=enc.new_int(f"{name}.engine", lo=0),
                 supply=enc.new_int("supply", lo=None if unlimited else 0))


def fresh_others(enc: Enc, facts: TrackFacts, count: int = MAX_CARS - 1) -> list[Other]:
    """Symbolic other cars; present ones first."""
    others = []
    for i in range(count):
        o = Other(enc.new_bool(f"other{i}.present"),
                  board_spot(enc, f"other{i}", facts.spaces_per_lap, GRID_BACK, facts.finish + 30))
        others.append(o)
    for a, b in itertools.pairwise(others):
        enc.rule("domain", z3.Implies(b.present, a.present))
    return others


def distinct_spots(spots: list[tuple[z3.BoolRef, Spot]]) -> z3.BoolRef:
    """No two present cars share a spot of the board, whatever laps they are on (rules
    setup.spaces-and-spots, setup.board-space)."""
    out = []
    for i, (pa, a) in enumerate(spots):
        for pb, b in spots[i + 1:]:
            out.append(z3.Implies(z3.And(pa, pb), z3.Not(same_spot(a, b))))
    return z3.And(out)


def race_invariants(facts: TrackFacts, car: CarState, others: list[Other],
                    other_stress: z3.ArithRef, finished: z3.BoolRef | bool = False,
                    rulings: Rulings = DEFAULT_RULINGS) -> dict[str, z3.BoolRef]:
    """The race-level invariants of one player's state between turns, by name, under the
    race's ``rulings``."""
    z = car.zones
    nonneg = [z.engine >= 0, other_stress >= 0]
    if not rulings.chose(STRESS_SUPPLY, "unlimited"):  # ruling.stress-supply
        nonneg.append(z.supply >= 0)
    nonneg += [zone[k] >= 0 for zone in (z.hand, z.deck, z.discard, z.play) for k in KINDS]
    return {
        "nonnegative": z3.And(nonneg),
        "heat": z.total(HEAT) == facts.heat + 1,
        "stress": z3.And(z.supply + z.total(STRESS) + other_stress == BOX_STRESS,
                         z.total(STRESS) >= facts.stress),
        "cards": z3.And([z.total(k) == n for k, n in FIXED.items()]),
        "play-empty": z3.And([z.play[k] == 0 for k in KINDS]),
        "hand": z3.Or(finished, size(z.hand) == HAND_SIZE),
        "gear": z3.And(car.gear >= 1, car.gear <= 4),
        "spots": distinct_spots([(z3.BoolVal(True), car.spot)]
                                + [(o.present, o.spot) for o in others]),
    }


def adrenaline_who(enc: Enc, starters: z3.ArithRef, racing: z3.ArithRef,
                   index: z3.ArithRef) -> z3.BoolRef:
    """adrenaline.who, adrenaline.count-fixed: the last car of the round's order gets
    adrenaline; the last two if the race started with 5 or 6 cars."""
    base = racing if enc.bug("adrenaline-by-remaining-cars") else starters
    count = z3.If(base >= 5, 2, 1)
    return index >= racing - count


@dataclass(frozen=True)
class React:
    """The choices and effects of steps 4-5."""

    zones: Zones
    adr_move: z3.BoolRef
    adr_cool: z3.BoolRef
    adr_first: z3.BoolRef  # the adrenaline +1 moves before the boost's move
    cool_gear: z3.ArithRef  # Heat cooled by the gear's cooldown
    boost: z3.BoolRef
    boost_cost: z3.ArithRef
    boost_flip: FlipRecord
    first: Placement
    second: Placement


def react_step(enc: Enc, z: Zones, gear: z3.ArithRef, adrenaline: z3.BoolRef,
               normal: z3.BoolRef, here: Spot, others: list[Other], board: Board) -> React:
    """adrenaline.effects, react.any-order, react.cooldown, react.boost: a car with
    adrenaline may move +1 and cool 1 more; the gear's cooldown moves Heat from hand to
    engine; one boost pays an engine Heat and flips; each at most once, in any order
    (cooling first is always the most permissive, so it is encoded first; the +1 and the
    boost move in either order). A cluttered car reacts with nothing."""
    adr_move, adr_cool = enc.new_bool("adr_move"), enc.new_bool("adr_cool")
    adr_first = enc.new_bool("adr_first")
    enc.rule("adrenaline.effects", z3.Implies(z3.Or(adr_move, adr_cool),
                                              z3.And(adrenaline, normal)))
    cool_gear = enc.new_int("cool_gear", lo=0)
    enc.rule("react.cooldown", cool_gear <= cooldown_cap(enc, gear),
             z3.Implies(z3.Not(normal), cool_gear == 0))
    z = cooldown(enc, z, cool_gear + z3.If(adr_cool, 1, 0))
    boost = enc.new_bool("boost")
    need = 2 if enc.bug("boost-needs-two-heat") else 1
    enc.rule("react.boost", z3.Implies(boost, normal), z3.Implies(boost, z.engine >= need))
    boost_cost = z3.IntVal(0) if enc.bug("boost-free") else z3.If(boost, 1, 0)
    z = pay_engine(enc, z, boost_cost, "react.boost")
    z, boost_flip = flip(enc, z, boost, "boost")
    adr_n = z3.If(adr_move, 1, 0)
    first = place(enc, here, z3.If(adr_first, adr_n, boost_flip.value), others, board,
                  z3.If(adr_first, adr_move, boost))
    second = place(enc, first.result, z3.If(adr_first, boost_flip.value, adr_n), others, board,
                   z3.If(adr_first, boost, adr_move))
    if enc.rulings.chose(BLOCKED_EXTRA_MOVE, "must-gain"):  # ruling.blocked-extra-move
        # The +1 must leave the car's spot from where the car stands when it is taken:
        # before any boost move (or with no boost), from where the reveal put it, which the
        # react choice alone decides; after a boost, from where the boost's flip put it.
        # Two constraints, so that the first reads nothing fixed after the react choice.
        alone = place(enc, here, z3.IntVal(1), others, board)
        enc.rule("ruling.blocked-extra-move",
                 z3.Implies(z3.And(adr_move, z3.Or(adr_first, z3.Not(boost))), gains(alone)),
                 z3.Implies(z3.And(adr_move, boost, z3.Not(adr_first)), gains(second)))
    return React(z, adr_move, adr_cool, adr_first, cool_gear, boost, boost_cost, boost_flip,
                 first, second)


def slipstream_step(enc: Enc, facts: TrackFacts, here: Spot, normal: z3.BoolRef,
                    others: list[Other], board: Board) -> tuple[z3.BoolRef, z3.BoolRef,
                                                                Placement]:
    """slipstream.eligible, slipstream.move, slipstream.not-past-finish,
    slipstream.earlier-lap, setup.board-space: beside a car or one space behind one
    on the board (the other car on any lap), a car may move 2
    more spaces, once, unless that would cross the final finish line (earlier crossings
    of the line are fine). Returns (eligible, taken, placement)."""
    ok = slipstream_eligible(enc, here, others, board)
    if not enc.bug("slipstream-past-finish"):
        ok = z3.And(ok, here.pos + 2 <= facts.finish)
    if enc.rulings.chose(BLOCKED_EXTRA_MOVE, "must-gain"):  # ruling.blocked-extra-move
        ok = z3.And(ok, gains(place(enc, here, z3.IntVal(2), others, board)))
    slip = enc.new_bool("slip")
    enc.rule("slipstream.eligible", z3.Implies(slip, z3.And(ok, normal)))
    return ok, slip, place(enc, here, z3.If(slip, 2, 0), others, board, slip)


def encode_turn(facts: TrackFacts, bugs: frozenset[str] = frozenset(),
                prefix: str = "t", rulings: Rulings = DEFAULT_RULINGS) -> Turn:
    """Encode one car's turn, steps 1-9 (rule round.sequence), from a symbolic state, under
    the race's ``rulings``."""
    enc = Enc(prefix, bugs, rulings=rulings)
    zones = fresh_zones(enc, "car")
    start = board_spot(enc, "car", facts.spaces_per_lap, GRID_BACK, facts.finish)
    pre = CarState(start, enc.new_int("gear0"), zones)
    others = fresh_others(enc, facts)
    other_stress = enc.new_int("other_stress", lo=0)
    starters = enc.new_int("starters", lo=2, hi=MAX_CARS)
    racing = enc.new_int("racing_cars", lo=1)
    index = enc.new_int("index", lo=0)
    present = z3.Sum([z3.If(o.present, 1, 0) for o in others])
    enc.rule("order.fixed-at-round-start", racing <= starters, index < racing,
             present + 1 >= racing, present + 1 <= starters)
    stages: dict[str, Zones] = {"pre": zones}
    # steps 1-2
    cluttered = is_cluttered(enc, zones, pre.gear)
    z, gear, shift_cost = shift_gear(enc, zones, pre.gear, cluttered)
    z, played = play_cards(enc, z, gear, cluttered)
    stages["planned"] = z
    moving = z3.BoolVal(True) if enc.bug("cluttered-moves") else z3.Not(cluttered)
    normal = z3.Not(cluttered)
    # step 3: reveal, stress flips, move
    flips = []
    records = []
    for i in range(MAX_STRESS_FLIPS):
        active = z3.And(normal, played[STRESS] > i)
        z, record = flip(enc, z, active, f"stress{i}")
        flips.append((active, record.value))
        records.append(record)
    reveal_speed = card_speed(played) + z3.Sum([v for _, v in flips])
    board = Board(facts.spaces_per_lap, start)
    placements = {"reveal": place(enc, start, z3.If(moving, reveal_speed, 0), others, board,
                                  moving)}
    stages["revealed"] = z
    # steps 4-5: adrenaline, react
    adrenaline = adrenaline_who(enc, starters, racing, index)
    react = react_step(enc, z, gear, adrenaline, normal, placements["reveal"].result, others,
                       board)
    z = react.zones
    placements["react1"], placements["react2"] = react.first, react.second
    records.append(react.boost_flip)
    speed = reveal_speed + react.boost_flip.value  # speed.turn-total
    if not enc.bug("adrenaline-not-in-speed"):
        speed = speed + z3.If(react.adr_move, 1, 0)
    stages["reacted"] = z
    # step 6: slipstream
    slip_ok, slip, placements["slipstream"] = slipstream_step(
        enc, facts, react.second.result, normal, others, board)
    end = placements["slipstream"].result
    speed_checked = speed  # slipstream.speed-unchanged
    if enc.bug("slipstream-adds-speed"):
        speed_checked = speed + z3.If(slip, 2, 0)
    if enc.bug("corner-uses-distance"):
        speed_checked = end.pos - start.pos
    # step 7: corners
    reach = None
    if enc.rulings.chose(SETBACK_CORNER, "checked"):  # ruling.setback-corner
        reach = start.pos
        for p in placements.values():
            reach = z3.If(z3.And(p.moves, p.target > reach), p.target, reach)
    corners = check_corners(enc, z, facts.lines, facts.finish, start.pos, end, speed_checked,
                            gear, normal, others, board, reach)
    placements["spin"] = corners.spin_placement
    z = corners.zones
    stages["cornered"] = z
    finished = corners.spot.pos > facts.finish
    # steps 8-9
    # ruling.finished-car-discard-draw: a finished car discards and draws, unless "skip"
    skip_finished = enc.rulings.chose(FINISHED_DISCARD_DRAW, "skip")
    may_discard = z3.And(normal, z3.Not(finished)) if skip_finished else normal
    if enc.rulings.chose(SPIN_DISCARD, "straight-to-replenish"):  # ruling.spin-discard
        may_discard = z3.And(may_discard, z3.Not(corners.spun))
    z, discarded = discard_step(enc, z, may_discard)
    stages["discarded"] = z
    z, drawn = replenish(enc, z, z3.Not(finished) if skip_finished else z3.BoolVal(True))
    stages["post"] = z
    if enc.bug("cluttered-keeps-gear"):
        final_gear = corners.gear
    else:
        final_gear = z3.If(cluttered, 1, corners.gear)  # play.cluttered
    post = CarState(corners.spot, final_gear, z)
    return Turn(enc=enc, facts=facts, pre=pre, post=post, others=others,
                other_stress=other_stress, starters=starters, racing=racing, index=index,
                adrenaline=adrenaline, cluttered=cluttered, gear=gear, shift_cost=shift_cost,
                played=played, stress_flips=flips, flips=records, reveal_speed=reveal_speed,
                adr_move=react.adr_move, adr_cool=react.adr_cool, adr_first=react.adr_first,
                cool_gear=react.cool_gear, boost=react.boost, boost_cost=react.boost_cost,
                boost_value=react.boost_flip.value, speed=speed_checked, slip_eligible=slip_ok,
                slip=slip, placements=placements, corners=corners, finished=finished,
                discarded=discarded, drawn=drawn, stages=stages)


@cache
def cached_turn(facts: TrackFacts, bugs: frozenset[str] = frozenset()) -> Turn:
    """``encode_turn``, built once per process for each track and set of bugs."""
    return encode_turn(facts, bugs)


def pre_invariants(turn: Turn) -> dict[str, z3.BoolRef]:
    """The race invariants on the turn's pre-state."""
    return race_invariants(turn.facts, turn.pre, turn.others, turn.other_stress,
                           rulings=turn.enc.rulings)


def post_invariants(turn: Turn) -> dict[str, z3.BoolRef]:
    """The race invariants on the turn's post-state (a finished car needs no hand)."""
    return race_invariants(turn.facts, turn.post, turn.others, turn.other_stress,
                           finished=turn.finished, rulings=turn.enc.rulings)


@dataclass
class Setup:
    """The state of one player right after setup, in a race of ``cars`` cars."""

    enc: Enc
    facts: TrackFacts
    car: CarState
    others: list[Other]
    other_stress: z3.ArithRef
    cars: z3.ArithRef


def encode_setup(facts: TrackFacts, bugs: frozenset[str] = frozenset(),
                 prefix: str = "s") -> Setup:
    """setup.deck, setup.engine, setup.gear, setup.stress-supply, setup.grid, setup.hand:
    the acting player's cards after setup (the hand is any 7 of the 18 shuffled cards),
    the cars on the grid spots in number order."""
    enc = Enc(prefix, bugs)
    cars = enc.new_int("cars", lo=2, hi=MAX_CARS)
    me = enc.new_int("grid_index", lo=0)
    enc.rule("setup.grid", me < cars)
    deck_all = {**{k: z3.IntVal(n) for k, n in FIXED.items()},
                HEAT: z3.IntVal(1), STRESS: z3.IntVal(facts.stress)}
    hand = enc.zone("hand")
    draw = HAND_SIZE - 1 if enc.bug("setup-hand-six") else HAND_SIZE
    enc.rule("setup.hand", size(hand) == draw, *(hand[k] <= deck_all[k] for k in KINDS))
    engine = facts.heat + (1 if enc.bug("setup-upgrade-heat-in-engine") else 0)
    zero = {k: z3.IntVal(0) for k in KINDS}
    zones = Zones(hand=hand, deck={k: deck_all[k] - hand[k] for k in KINDS},
                  discard=dict(zero), play=dict(zero), engine=z3.IntVal(engine),
                  supply=BOX_STRESS - cars * facts.stress)
    grid = facts.grid

    lap = facts.spaces_per_lap

    def grid_spot(i: z3.ArithRef) -> Spot:
        spot = fixed_spot(grid[-1][0], grid[-1][1], lap)
        for j in range(MAX_CARS - 1, -1, -1):
            here = fixed_spot(grid[j][0], grid[j][1], lap)
            spot = Spot(z3.If(i == j, here.pos, spot.pos), z3.If(i == j, here.racing,
                                                                 spot.racing),
                        z3.If(i == j, here.space, spot.space))
        return spot

    car = CarState(grid_spot(me), z3.IntVal(1), zones)
    others = []
    for i in range(MAX_CARS - 1):
        slot = z3.If(i < me, i, i + 1)
        others.append(Other(slot < cars, grid_spot(slot)))
    other_stress = (cars - 1) * facts.stress
    return Setup(enc, facts, car, others, other_stress, cars)


@dataclass
class Standing:
    """Cars at the start of a round and the order relation between them."""

    enc: Enc
    spots: list[Spot]
    present: list[z3.BoolRef]
    ahead: list[list[z3.BoolRef]]  # ahead[i][j]: car i takes its turn before car j
    rank: list[z3.ArithRef]


def turn_key(enc: Enc, spot: Spot) -> z3.ArithRef:
    """order.fixed-at-round-start: the sort key: further ahead first, racing line first."""
    if enc.bug("order-ignores-racing-line"):
        return spot.pos
    return 2 * spot.pos + z3.If(spot.racing, 1, 0)


def encode_standing(facts: TrackFacts, bugs: frozenset[str] = frozenset(),
                    cars: int = MAX_CARS, prefix: str = "o") -> Standing:
    """order.fixed-at-round-start: the turn order of the cars on the track."""
    enc = Enc(prefix, bugs)
    spots = [board_spot(enc, f"car{i}", facts.spaces_per_lap, GRID_BACK, facts.finish)
             for i in range(cars)]
    present = [enc.new_bool(f"car{i}.present") for i in range(cars)]
    return _standing_of(enc, present, spots)


@dataclass
class Round:
    """A round of ``cars`` cars (all still racing) seen from the turn order: who moves at
    each turn and who gets adrenaline. Each car's move is abstract: any free spot."""

    enc: Enc
    starters: z3.ArithRef
    start: Standing
    movers: list[z3.ArithRef]  # movers[t]: the car taking turn t
    adrenaline: list[z3.BoolRef]  # adrenaline[t]: the car of turn t has adrenaline


def encode_round(facts: TrackFacts, bugs: frozenset[str] = frozenset(),
                 cars: int = 4, prefix: str = "r") -> Round:
    """order.fixed-at-round-start, adrenaline.who, adrenaline.count-fixed: the order is
    taken from the standing once, before the first turn; the last car (two cars if the
    race started with 5 or 6) of that order gets adrenaline."""
    start = encode_standing(facts, bugs, cars, prefix)
    enc = start.enc
    enc.rule("setup.spaces-and-spots", *start.present,
             distinct_spots([(p, s) for p, s in zip(start.present, start.spots, strict=True)]))
    starters = enc.new_int("starters", lo=cars, hi=MAX_CARS)
    spots = list(start.spots)
    standing = start
    movers: list[z3.ArithRef] = []
    adrenaline: list[z3.BoolRef] = []
    for t in range(cars):
        if enc.bug("order-resorted-each-turn") and t > 0:
            standing = _standing_of(enc, start.present, spots)
        mover = z3.Sum([z3.If(standing.rank[i] == t, i, 0) for i in range(cars)])
        movers.append(mover)
        adrenaline.append(adrenaline_who(enc, starters, z3.IntVal(cars), z3.IntVal(t)))
        new = board_spot(enc, f"turn{t}", facts.spaces_per_lap, GRID_BACK, facts.finish + 30)
        spots = [Spot(z3.If(mover == i, new.pos, s.pos), z3.If(mover == i, new.racing, s.racing),
                      z3.If(mover == i, new.space, s.space)) for i, s in enumerate(spots)]
        enc.rule("place.blocked", distinct_spots([(z3.BoolVal(True), s) for s in spots]))
    return Round(enc, starters, start, movers, adrenaline)


def _standing_of(enc: Enc, present: list[z3.BoolRef], spots: list[Spot]) -> Standing:
    """The order relation of cars on the given spots."""
    keys = [turn_key(enc, s) for s in spots]
    n = len(spots)
    sign = -1 if enc.bug("order-ascending") else 1
    ahead = [[z3.And(present[i], present[j], sign * keys[i] > sign * keys[j])
              for j in range(n)] for i in range(n)]
    rank = [z3.Sum([z3.If(ahead[j][i], 1, 0) for j in range(n)]) for i in range(n)]
    return Standing(enc, spots, present, ahead, rank)
