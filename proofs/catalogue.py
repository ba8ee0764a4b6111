"""The proofs. Each states its claim in words, names its rule IDs, builds its obligations
(premises and the negated claim: every obligation UNSAT means the claim holds), and lists
the deliberate bugs (mutations in ``symbols.MUTATIONS``) that the same obligations must
catch with a counterexample.

Premises: a turn starts from any state satisfying the race invariants
(``encoding.race_invariants``); those invariants are proved inductive here (they hold
after setup and every turn keeps them), so every reachable turn is covered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import z3

from proofs.enc_track import Other, Spot
from proofs.encoding import (
    CarState,
    Turn,
    cached_turn,
    encode_round,
    encode_setup,
    post_invariants,
    pre_invariants,
    race_invariants,
)
from proofs.liveness import choices, no_deadlock, totality
from proofs.symbols import HEAT, KINDS, PLAYABLE, STRESS, size
from proofs.track_graph import TrackFacts

#: Bounds the bound proofs find on every base track (tests check the proofs still find them);
#: the miner uses them to aim at extreme turns.
PROVED_MAX_SPEED = 21
PROVED_MAX_SPIN_BACK = 23


@dataclass(frozen=True)
class Obligation:
    """Assertions that must be unsatisfiable for the claim to hold: the premises, then the
    negated claim (always last)."""

    label: str
    assertions: tuple[z3.BoolRef, ...]

    @property
    def given(self) -> tuple[z3.BoolRef, ...]:
        """The premises alone: they must be satisfiable, or the proof would be vacuous."""
        return self.assertions[:-1]


@dataclass(frozen=True)
class Ctx:
    """What a proof's obligations may rely on besides the encoding."""

    bound: int | None = None  # a bound proof's optimised value
    speed_limit: int | None = None  # proved by bound-speed: no turn's speed exceeds it
    movement: bool = False  # assume the claim proved by the movement proof


Builder = Callable[[TrackFacts, frozenset[str], Ctx], list[Obligation]]
Objective = Callable[[Turn], z3.ArithRef]


@dataclass(frozen=True)
class Proof:
    """A claim, its rules, how to build its obligations, and its negative controls.

    A bound proof has an ``objective``: the runner maximises it on the correct encoding,
    then proves ``objective > bound`` unsatisfiable (the bound is passed to ``build``).
    """

    id: str
    claim: str
    rules: tuple[str, ...]
    controls: tuple[str, ...]
    build: Builder
    objective: Objective | None = None
    lemmas: tuple[str, ...] = ()  # proofs whose proved result this one assumes
    kind: str = "proof"  # or "sanity": restates a constraint of the encoding, not counted

    @property
    def tie(self) -> str:
        """Whether the proof is about the model only or tied to the engine, and by what."""
        from proofs.ties import tie_of

        return tie_of(self.id)


def premises(t: Turn, ctx: Ctx) -> tuple[z3.BoolRef, ...]:
    """The turn's constraints, the race invariants on its pre-state, and proved lemmas."""
    lemmas = [] if ctx.speed_limit is None else [ref_speed(t) <= ctx.speed_limit]
    if ctx.movement:
        lemmas.append(movement_claim(t))
    return (*t.formula(), *pre_invariants(t).values(), *lemmas)


def _turn_obligation(label: str, claim: Callable[[Turn], z3.BoolRef]) -> Builder:
    """One obligation: any turn from a state satisfying the invariants meets ``claim``."""
    def build(facts: TrackFacts, bugs: frozenset[str], ctx: Ctx) -> list[Obligation]:
        t = cached_turn(facts, bugs)
        return [Obligation(label, (*premises(t, ctx), z3.Not(claim(t))))]
    return build


StateClaim = Callable[[TrackFacts, CarState, list[Other], z3.ArithRef, "z3.BoolRef | bool"],
                      z3.BoolRef]


def _inductive(claim: StateClaim, extra: Callable[[Turn], z3.BoolRef] | None = None) -> Builder:
    """Two obligations: the claim holds after setup, and every turn from a state where the
    race invariants hold keeps it (plus an optional per-turn claim ``extra``)."""
    def build(facts: TrackFacts, bugs: frozenset[str], ctx: Ctx) -> list[Obligation]:
        s = encode_setup(facts, bugs)
        base = Obligation("setup", (*s.enc.formula(),
                                    z3.Not(claim(facts, s.car, s.others, s.other_stress,
                                                             False))))
        t = cached_turn(facts, bugs)
        pre = premises(t, ctx)
        post = claim(facts, t.post, t.others, t.other_stress, t.finished)
        out = [base, Obligation("turn", (*pre, z3.Not(post)))]
        if extra is not None:
            out.append(Obligation("turn-claim", (*pre, z3.Not(extra(t)))))
        return out
    return build


def _inv(*names: str) -> StateClaim:
    """A state claim made of named race invariants."""
    def claim(facts: TrackFacts, car: CarState, others: list[Other], stress: z3.ArithRef,
              finished: z3.BoolRef | bool) -> z3.BoolRef:
        inv = race_invariants(facts, car, others, stress, finished)
        return z3.And([inv[n] for n in names])
    return claim


def ref_speed(t: Turn) -> z3.ArithRef:
    """The turn's speed as the rules define it (speed.turn-total), from the cards played,
    the values found by flips, the boost and the adrenaline +1."""
    p = t.played
    cards = p["1"] + 2 * p["2"] + 3 * p["3"] + 4 * p["4"] + 5 * p["U5"]
    flips = z3.Sum([v for _, v in t.stress_flips])
    return cards + flips + t.boost_value + z3.If(t.adr_move, 1, 0)


def _key(pos: z3.ArithRef, racing: z3.BoolRef | bool) -> z3.ArithRef:
    return 2 * pos + z3.If(racing, 1, 0)


def _held(t: Turn, space: z3.ArithRef, racing: z3.BoolRef | bool) -> z3.BoolRef:
    """Another car, on any lap, stands on the given spot of board space ``space``."""
    return z3.Or([z3.And(o.present, o.spot.racing == racing, o.spot.space == space)
                  for o in t.others])


def _next_space(t: Turn, space: z3.ArithRef, ahead: int) -> z3.ArithRef:
    """The board space ``ahead`` spaces further on (negative: back), round the loop."""
    lap = t.facts.spaces_per_lap
    moved = space + ahead
    return z3.If(moved < 0, moved + lap, z3.If(moved > lap - 1, moved - lap, moved))


def _beside_or_behind(t: Turn, spot: Spot) -> z3.BoolRef:
    ahead = _next_space(t, spot.space, 1)
    return z3.Or([z3.And(o.present, z3.Or(
        z3.And(o.spot.space == spot.space, o.spot.racing != spot.racing),
        o.spot.space == ahead)) for o in t.others])


def board_claim(t: Turn) -> z3.BoolRef:
    """setup.board-space, stated apart from the encoding: every spot of the turn (the car's
    start, each placement's result and the target of each placement made, the other cars)
    carries as its board space
    its position modulo the lap length: 0 <= space < L and position - space is a whole
    number of laps."""
    lap = t.facts.spaces_per_lap
    pairs = [(t.pre.spot.pos, t.pre.spot.space)]
    pairs += [(o.spot.pos, o.spot.space) for o in t.others]
    moving = []
    for p in t.placements.values():
        pairs.append((p.result.pos, p.result.space))
        moving.append((p.moves, p.target, p.target_space))
    laps = range(-1, t.facts.laps + 2)

    def carried(pos: z3.ArithRef, space: z3.ArithRef) -> z3.BoolRef:
        return z3.And(space >= 0, space < lap, z3.Or([pos - space == lap * k for k in laps]))
    return z3.And([carried(pos, space) for pos, space in pairs]
                  + [z3.Implies(moves, carried(pos, space)) for moves, pos, space in moving])


# ---- claims -------------------------------------------------------------------------

def heat_claim(facts: TrackFacts, car: CarState, others: list[Other], stress: z3.ArithRef,
               finished: z3.BoolRef | bool) -> z3.BoolRef:
    """Heat cards total track Heat + 1 and no count is negative."""
    z = car.zones
    counts = [z.engine] + [zone[HEAT] for zone in (z.hand, z.deck, z.discard, z.play)]
    return z3.And(z.total(HEAT) == facts.heat + 1, *(c >= 0 for c in counts))


def stress_claim(facts: TrackFacts, car: CarState, others: list[Other], stress: z3.ArithRef,
                 finished: z3.BoolRef | bool) -> z3.BoolRef:
    """Stress cards: supply + this player's + the others' = the box's 37; none negative."""
    z = car.zones
    inv = race_invariants(facts, car, others, stress, finished)
    counts = [z.supply] + [zone[STRESS] for zone in (z.hand, z.deck, z.discard, z.play)]
    return z3.And(inv["stress"], *(c >= 0 for c in counts))


def heat_source_claim(t: Turn) -> z3.BoolRef:
    """Heat leaves the engine only as payment, and leaves the hand only by cooldown."""
    pre, rev, rea, cor = (t.stages[k] for k in ("pre", "revealed", "reacted", "cornered"))
    cooled = rev.hand[HEAT] - rea.hand[HEAT]
    step = t.gear - t.pre.gear
    shift = z3.If(z3.Or(step == 2, step == -2), 1, 0)
    paid = shift + z3.If(t.boost, 1, 0) + t.corners.paid
    return z3.And(cor.engine == pre.engine + cooled - paid,
                  cor.hand[HEAT] == rea.hand[HEAT],
                  t.stages["discarded"].hand[HEAT] == cor.hand[HEAT],
                  t.stages["planned"].hand[HEAT] == pre.hand[HEAT] - t.played[HEAT])


def gear_claim(t: Turn) -> z3.BoolRef:
    """Gear 1-4; a shift of at most 2; exactly 1 Heat from engine to discard for a shift of
    2 and none otherwise; gear 1 after a spin or a cluttered play, else the chosen gear."""
    g0, g = t.pre.gear, t.gear
    step = z3.If(g >= g0, g - g0, g0 - g)
    pre, planned = t.stages["pre"], t.stages["planned"]
    cost = z3.If(step == 2, 1, 0)
    return z3.And(g >= 1, g <= 4, step <= 2, planned.engine == pre.engine - cost,
                  planned.discard[HEAT] == pre.discard[HEAT] + cost,
                  t.post.gear == z3.If(z3.Or(t.cluttered, t.corners.spun), 1, g))


def play_claim(t: Turn) -> z3.BoolRef:
    """Exactly ``gear`` cards; Heat only when cluttered; cluttered exactly when no reachable
    gear allows a play of non-Heat cards; a cluttered play holds every non-Heat card and
    the car does not move."""
    g0, hand, engine = t.pre.gear, t.pre.zones.hand, t.pre.zones.engine
    nonheat = size(hand, PLAYABLE)

    def reachable(gp: int) -> z3.BoolRef:
        return z3.Or(z3.And(gp - g0 <= 1, g0 - gp <= 1),
                     z3.And(z3.Or(gp - g0 == 2, g0 - gp == 2), engine >= 1))

    forced = z3.Not(z3.Or([z3.And(reachable(gp), nonheat >= gp) for gp in range(1, 5)]))
    still = z3.And(t.post.spot.pos == t.pre.spot.pos, t.post.spot.racing == t.pre.spot.racing)
    return z3.And(size(t.played) == t.gear, t.cluttered == forced,
                  z3.Implies(z3.Not(t.cluttered), t.played[HEAT] == 0),
                  z3.Implies(t.cluttered, z3.And(still, *(t.played[k] == hand[k]
                                                          for k in PLAYABLE))))


def corner_claim(t: Turn) -> z3.BoolRef:
    """Corner Heat paid = min(summed excess of the turn's speed over the limits of the
    lines crossed up to the finish, engine Heat); a spin exactly when the engine cannot
    pay; a spun car ends before the line where the summed excess passed the engine."""
    a, b = t.pre.spot.pos, t.line_crossing_end()
    engine = t.stages["reacted"].engine
    speed = ref_speed(t)
    demand: z3.ArithRef = z3.IntVal(0)
    before_spin = []
    for line in t.facts.lines:
        if line.at > t.facts.finish:
            continue
        crossed = z3.And(z3.Not(t.cluttered), a <= line.at, line.at < b)
        demand = demand + z3.If(z3.And(crossed, speed > line.limit), speed - line.limit, 0)
        before_spin.append(z3.Implies(z3.And(crossed, demand > engine),
                                      t.post.spot.pos <= line.at))
    paid = engine - t.stages["cornered"].engine
    return z3.And(paid == z3.If(demand <= engine, demand, engine),
                  t.corners.spun == (demand > engine), *before_spin,
                  t.stages["cornered"].hand[HEAT] == t.stages["reacted"].hand[HEAT])


def movement_claim(t: Turn) -> z3.BoolRef:
    """Before step 7 the car is never behind its start and at most speed spaces ahead,
    plus 2 if it slipstreamed; a spin never puts it behind its start spot."""
    a, end = t.pre.spot, t.placements["slipstream"].result
    return z3.And(end.pos >= a.pos,
                  end.pos <= a.pos + ref_speed(t) + z3.If(t.slip, 2, 0),
                  z3.Implies(t.corners.spun, _key(t.post.spot.pos, t.post.spot.racing)
                             >= _key(a.pos, a.racing)))


def exact_move_claim(t: Turn) -> z3.BoolRef:
    """move.exact, slipstream.move: a car that is not cluttered and none of whose moves
    (the reveal, the react moves, the slipstream) is set back by a full space ends step 6
    exactly its speed ahead, plus 2 if it slipstreamed."""
    clear = [z3.Implies(p.moves, p.result.pos == p.target)
             for name, p in t.placements.items() if name != "spin"]
    end = t.placements["slipstream"].result
    return z3.Implies(z3.And(z3.Not(t.cluttered), *clear),
                      end.pos == t.pre.spot.pos + ref_speed(t) + z3.If(t.slip, 2, 0))


#: For each key proof, a control that *removes* behaviour (a payment, a move, a card's way
#: into a pile, a flip) which the proof's own obligations catch: "for all" proofs pass most
#: such bugs, so each of these proofs names one it does not.
REMOVAL_CONTROLS: dict[str, str] = {
    "corner-payment": "spin-keeps-engine-heat", "placement": "placement-racing-line-only",
    "movement": "slipstream-moves-nothing", "heat-conservation": "cooldown-heat-lost",
    "stress-conservation": "spin-stress-not-in-hand", "deck-integrity": "draw-to-six",
    "react": "boost-flips-nothing", "spin-stress": "spin-takes-no-stress",
}


#: The obligations of a lemma that other proofs assume (the rest are not assumed).
LEMMA_OBLIGATIONS: dict[str, tuple[str, ...]] = {"movement": ("turn",)}


def movement_build(facts: TrackFacts, bugs: frozenset[str], ctx: Ctx) -> list[Obligation]:
    """The movement claim (a lemma of the bound proofs: only this obligation, "turn", is
    assumed), then the exact move."""
    t = cached_turn(facts, bugs)
    pre = premises(t, ctx)
    return [Obligation("turn", (*pre, z3.Not(movement_claim(t)))),
            Obligation("turn-exact", (*pre, z3.Not(exact_move_claim(t))))]


def spin_stress_claim(t: Turn) -> z3.BoolRef:
    """corner.spin, ruling.stress-supply, stated apart from the encoding: a spin in gear 1-2
    takes 1 Stress, in gear 3-4 takes 2, from the supply into the hand (what is left when
    the supply holds fewer), empties the engine and sets gear 1; no spin, no Stress."""
    rea, cor = t.stages["reacted"], t.stages["cornered"]
    wanted = z3.If(t.gear <= 2, 1, 2)
    due = z3.If(wanted <= rea.supply, wanted, rea.supply)
    taken = cor.hand[STRESS] - rea.hand[STRESS]
    spun = t.corners.spun
    return z3.And(z3.Implies(spun, z3.And(taken == due, cor.supply == rea.supply - due,
                                          cor.engine == 0, t.post.gear == 1)),
                  z3.Implies(z3.Not(spun), z3.And(taken == 0, cor.supply == rea.supply)))


def placement_claims(t: Turn) -> dict[str, z3.BoolRef]:
    """Every placement of the turn (move, react moves, slipstream, spin) ends on a free
    spot of the board, in or behind the target space, with every spot tried before it
    (racing line first, then the other, space by space backwards) held by a car on some
    lap (that it never ends behind where it started is the movement proof). One claim per
    placement, checked apart (smaller queries); that the car ends its turn on a spot no
    other car holds is the inductive spots invariant."""
    out = {}
    for name, p in t.placements.items():
        res = p.result
        checks = [z3.Not(_held(t, res.space, res.racing)), res.pos <= p.target]
        for k in range(6):
            pos, racing = p.target - k // 2, k % 2 == 0
            checks.append(z3.Implies(_key(pos, racing) > _key(res.pos, res.racing),
                                     _held(t, _next_space(t, p.target_space, -(k // 2)),
                                           racing)))
        out[name] = z3.Implies(p.moves, z3.And(checks))
    return out


def placement_build(facts: TrackFacts, bugs: frozenset[str], ctx: Ctx) -> list[Obligation]:
    """The spots invariant is inductive, every spot's board space is its position modulo
    the lap, and each placement claim holds on every turn."""
    out = _inductive(_inv("spots"))(facts, bugs, ctx)
    t = cached_turn(facts, bugs)
    pre = premises(t, ctx)
    out.append(Obligation("board", (*pre, z3.Not(board_claim(t)))))
    for name, claim in placement_claims(t).items():
        out.append(Obligation(f"turn-claim {name}", (*pre, z3.Not(claim))))
    return out


def slipstream_claim(t: Turn) -> z3.BoolRef:
    """A slipstream is offered exactly when a car (on any lap) is beside or in the next
    board space and the move would not cross the final finish line; it is not taken after
    that line."""
    here = t.placements["react2"].result
    end = t.line_crossing_end()
    finish = t.facts.finish
    offered = z3.And(_beside_or_behind(t, here), here.pos + 2 <= finish)
    return z3.And(t.slip_eligible == offered,
                  z3.Implies(t.slip, z3.And(offered, end <= finish)))


def finish_corner_claim(t: Turn) -> z3.BoolRef:
    """No corner line after the final finish line asks for Heat or causes a spin."""
    out = []
    for check in t.corners.checks:
        if check.line.at > t.facts.finish:
            out += [check.demand == 0, z3.Not(check.spin), check.paid == 0]
    out.append(z3.Implies(t.corners.spun, t.corners.spin_line <= t.facts.finish))
    return z3.And(out)


def flip_claim(t: Turn) -> z3.BoolRef:
    """Every Stress and boost flip finds a basic card (so ruling.flip-no-basic never
    applies in the core race: hand and play area hold at most 11 of the 12 basics)."""
    return z3.And([z3.Implies(f.active, z3.And(f.found, f.value >= 1)) for f in t.flips])


def react_claim(t: Turn) -> z3.BoolRef:
    """Cooldown moves at most 3 (gear 1), 1 (gear 2), 0 (gears 3-4) Heat, +1 with
    adrenaline, from hand to engine; a boost needs and costs exactly one engine Heat and
    adds a flip value 0-4; adrenaline only for the last car(s)."""
    rev, rea = t.stages["revealed"], t.stages["reacted"]
    cooled = rev.hand[HEAT] - rea.hand[HEAT]
    adr = z3.If(t.adr_cool, 1, 0)
    g = t.gear
    cap_ok = z3.Or(z3.And(g == 1, cooled <= 3 + adr), z3.And(g == 2, cooled <= 1 + adr),
                   z3.And(g >= 3, cooled <= adr))
    boost = z3.If(t.boost, 1, 0)
    return z3.And(cooled >= 0, cap_ok, rea.engine == rev.engine + cooled - boost,
                  z3.Implies(t.boost, rev.engine + cooled >= 1),
                  t.boost_value >= 0, t.boost_value <= 4,
                  z3.Implies(t.boost, t.boost_value >= 1),
                  z3.Implies(z3.Or(t.adr_move, t.adr_cool), t.adrenaline))


def discard_claim(t: Turn) -> z3.BoolRef:
    """The optional discard never takes Heat or Stress from the hand."""
    cor, dis = t.stages["cornered"], t.stages["discarded"]
    return z3.And(dis.hand[HEAT] == cor.hand[HEAT], dis.hand[STRESS] == cor.hand[STRESS],
                  *(dis.hand[k] <= cor.hand[k] for k in KINDS))


def _further(a: Spot, b: Spot) -> z3.BoolRef:
    """The rule's "further ahead": a higher position, or the same space on the racing
    line (stated here apart from the encoding's sort key)."""
    return z3.Or(a.pos > b.pos, z3.And(a.pos == b.pos, a.racing, z3.Not(b.racing)))


def _mover_spot(spots: list[Spot], mover: z3.ArithRef) -> Spot:
    pos: z3.ArithRef = spots[0].pos
    racing: z3.BoolRef = spots[0].racing
    space: z3.ArithRef = spots[0].space
    for i, s in enumerate(spots[1:], start=1):
        pos = z3.If(mover == i, s.pos, pos)
        racing = z3.If(mover == i, s.racing, racing)
        space = z3.If(mover == i, s.space, space)
    return Spot(pos, racing, space)


ROUND_CARS = tuple(range(2, 7))  # the core race's car counts


def order_claim(facts: TrackFacts, bugs: frozenset[str], _: Ctx) -> list[Obligation]:
    """Turn order, from the rule: in a round of 2-6 cars on distinct spots, each car takes
    its turn before every car it is further ahead of at the round's start (a higher
    position, or the same space on the racing line)."""
    out = []
    for cars in ROUND_CARS:
        r = encode_round(facts, bugs, cars, prefix=f"order{cars}")
        spots = [_mover_spot(r.start.spots, m) for m in r.movers]
        claim = [_further(spots[t], spots[t + 1]) for t in range(cars - 1)]
        out.append(Obligation(f"{cars} cars", (*r.enc.formula(), z3.Not(z3.And(claim)))))
    return out


def round_claim(facts: TrackFacts, bugs: frozenset[str], _: Ctx) -> list[Obligation]:
    """In a round of 2-6 cars every car takes exactly one turn; adrenaline goes to exactly
    one car (two if 5-6 cars started), the last of the order fixed at the round's start."""
    out = []
    for cars in ROUND_CARS:
        r = encode_round(facts, bugs, cars, prefix=f"round{cars}")
        n = len(r.movers)
        claim = [z3.Distinct(*r.movers)]
        claim += [z3.And(m >= 0, m < n) for m in r.movers]
        count = z3.Sum([z3.If(a, 1, 0) for a in r.adrenaline])
        claim.append(count == z3.If(r.starters >= 5, 2, 1))
        for m, a in zip(r.movers, r.adrenaline, strict=True):
            rank = z3.Sum([z3.If(m == i, r.start.rank[i], 0) for i in range(n)])
            claim.append(z3.Implies(a, rank >= n - count))
        out.append(Obligation(f"{cars} cars", (*r.enc.formula(), z3.Not(z3.And(claim)))))
    return out


# ---- bounds -------------------------------------------------------------------------

def speed_objective(t: Turn) -> z3.ArithRef:
    """The turn's speed (speed.turn-total) of a turn that moves."""
    return z3.If(t.cluttered, 0, ref_speed(t))


def heat_cost_objective(t: Turn) -> z3.ArithRef:
    """Heat the turn pays: two-gear shift, boost and corners."""
    return t.shift_cost + t.boost_cost + t.corners.paid


def heat_demand_objective(t: Turn) -> z3.ArithRef:
    """Heat the corners crossed ask for, summed over all of them (before any spin)."""
    return z3.Sum([z3.If(z3.And(c.crossed, t.speed > c.line.limit), t.speed - c.line.limit, 0)
                   for c in t.corners.checks])


def spin_back_objective(t: Turn) -> z3.ArithRef:
    """Spaces a spin sends the car back from where it stood after slipstream."""
    return z3.If(t.corners.spun, t.line_crossing_end() - t.post.spot.pos, 0)


def bound_obligation(t: Turn, ctx: Ctx, objective: Objective, bound: int) -> Obligation:
    """The obligation of a bound proof: no turn's objective exceeds ``bound``."""
    return Obligation(f"above {bound}", (*premises(t, ctx), objective(t) > bound))


def _bound(objective: Objective) -> Builder:
    def build(facts: TrackFacts, bugs: frozenset[str], ctx: Ctx) -> list[Obligation]:
        assert ctx.bound is not None, "a bound proof needs the optimised bound"
        return [bound_obligation(cached_turn(facts, bugs), ctx, objective, ctx.bound)]
    return build


def _obligations(make: Callable[[TrackFacts, frozenset[str]],
                                list[tuple[str, tuple[z3.BoolRef, ...]]]]) -> Builder:
    """A builder from a function of (facts, bugs) giving (label, assertions) pairs."""
    def build(facts: TrackFacts, bugs: frozenset[str], _: Ctx) -> list[Obligation]:
        return [Obligation(label, assertions) for label, assertions in make(facts, bugs)]
    return build


def _post_inv(*names: str) -> Callable[[Turn], z3.BoolRef]:
    def claim(t: Turn) -> z3.BoolRef:
        inv = post_invariants(t)
        return z3.And([inv[n] for n in names])
    return claim


PROOFS: tuple[Proof, ...] = (
    Proof("heat-conservation",
          "No step creates or destroys Heat: engine + hand + deck + discard + play area "
          "hold track Heat + 1 cards after setup and after every turn, none negative.",
          ("setup.engine", "setup.deck", "gear.shift.two-costs-heat", "react.cooldown",
           "react.boost", "corner.pay-heat", "corner.spin", "play.cluttered",
           "replenish.cleanup", "deck.reshuffle"),
          ("cooldown-copies-heat", "shift-two-heat-vanishes", "reshuffle-keeps-discard",
           "setup-upgrade-heat-in-engine", "cooldown-heat-lost"),
          _inductive(heat_claim)),
    Proof("heat-from-engine",
          "Heat is paid only from the engine (shift, boost, corners) and leaves the hand "
          "only by cooldown or a cluttered play: never by discard or payment.",
          ("corner.pay-heat", "gear.shift.two-costs-heat", "react.boost", "react.cooldown",
           "discard.optional", "play.heat-not-playable"),
          ("heat-paid-from-hand", "discard-allows-heat", "boost-free"),
          _turn_obligation("turn", heat_source_claim)),
    Proof("stress-conservation",
          "No step creates or destroys Stress: supply + every player's Stress = 37, the "
          "supply never negative; spins take from the supply.",
          ("setup.stress-supply", "setup.deck", "corner.spin", "ruling.stress-supply",
           "reveal.stress-flip"),
          ("spin-stress-from-nowhere", "spin-stress-ignores-supply", "spin-stress-not-in-hand"),
          _inductive(stress_claim)),
    Proof("deck-integrity",
          "Each card kind's count over hand, deck, discard and play area is conserved, no "
          "count is negative, the play area is empty and the hand holds 7 after replenish.",
          ("setup.deck", "setup.hand", "reveal.stress-flip", "deck.reshuffle",
           "replenish.cleanup", "replenish.draw", "discard.optional",
           "replenish.discard-before-draw", "ruling.replenish-empty",
           "ruling.flip-no-basic"),
          ("reshuffle-keeps-discard", "played-cards-stay", "draw-to-six", "setup-hand-six"),
          _inductive(_inv("cards", "nonnegative", "play-empty", "hand"))),
    Proof("gear-shifts",
          "Gear stays in 1-4; a shift is at most 2; a shift of 2 costs exactly 1 engine "
          "Heat, others nothing; gear 1 after a spin or a cluttered play.",
          ("gear.range", "gear.shift.free", "gear.shift.two-costs-heat",
           "gear.shift.no-three", "corner.spin", "play.cluttered", "ruling.cluttered-gear"),
          ("shift-two-free", "shift-three-allowed", "spin-keeps-gear", "cluttered-keeps-gear"),
          _inductive(_inv("gear"), gear_claim),
          kind="sanity"),
    Proof("play-legal",
          "Exactly gear-many cards are played; Heat only in a cluttered play, which happens "
          "exactly when no reachable gear allows a non-Heat play, plays every non-Heat "
          "card and does not move the car.",
          ("play.card-count", "play.playable-cards", "play.heat-not-playable",
           "play.cluttered", "play.cluttered-only-when-forced", "ruling.cluttered-gear"),
          ("heat-playable", "cluttered-when-not-forced", "cluttered-moves"),
          _turn_obligation("turn", play_claim)),
    Proof("turn-order",
          "In a round of 2-6 cars on distinct spots, each car takes its turn before every "
          "car it is further ahead of at the round's start (a higher position, or the same "
          "space on the racing line), the rule's order stated apart from the encoding.",
          ("order.fixed-at-round-start", "finish.ranking"),
          ("order-ignores-racing-line", "order-ascending"),
          order_claim),
    Proof("round-order",
          "In a round of 2-6 cars each car takes exactly one turn in the order fixed at "
          "its start, however the cars pass each other; exactly 1 car (2 if 5-6 started) "
          "gets adrenaline: the last of that order.",
          ("order.fixed-at-round-start", "round.sequence", "adrenaline.who",
           "adrenaline.count-fixed"),
          ("order-resorted-each-turn", "adrenaline-by-remaining-cars"),
          round_claim),
    Proof("corner-payment",
          "Corner Heat paid = min(summed excess of the turn's speed (cards, flips, boost, "
          "adrenaline; never slipstream or placement) over each line crossed, engine); "
          "spin exactly when the engine cannot pay; a spun car ends before the spin line.",
          ("corner.check", "corner.pay-heat", "corner.spin", "speed.turn-total",
           "slipstream.speed-unchanged", "place.speed-unchanged", "adrenaline.effects"),
          ("corner-once-per-turn", "slipstream-adds-speed", "adrenaline-not-in-speed",
           "corner-uses-distance", "heat-paid-from-hand", "spin-lands-past-line",
           "engine-debt", "spin-keeps-engine-heat"),
          _turn_obligation("turn", corner_claim)),
    Proof("spin-stress",
          "A spin takes 1 Stress card (gear 1-2) or 2 (gear 3-4) from the supply into the "
          "hand, fewer only when the supply holds fewer; it leaves the engine empty and the "
          "car in gear 1. A turn without a spin takes no Stress.",
          ("corner.spin", "ruling.stress-supply", "setup.stress-supply"),
          ("spin-stress-gear-2-two", "spin-takes-no-stress"),
          _turn_obligation("turn", spin_stress_claim)),
    Proof("placement",
          "Every placement ends on a free spot of the board: the first free one from the "
          "target space backwards, racing line first, cars on every lap counted; no two cars "
          "ever share a spot of the board.",
          ("move.exact", "place.racing-line-first", "place.blocked", "ruling.zero-move",
           "slipstream.move", "corner.spin", "setup.grid", "setup.board-space"),
          ("placement-ignores-occupancy", "place-other-lane-first", "blocked-moves-ahead",
           "placement-ignores-lapped-cars", "placement-racing-line-only"),
          placement_build),
    Proof("movement",
          "A turn moves the car forward at most its speed (+2 with slipstream), never "
          "backwards before step 7; a spin never puts it behind its start spot; a car none "
          "of whose moves is set back by a full space ends step 6 exactly its speed ahead "
          "(+2 with slipstream).",
          ("move.exact", "place.blocked", "place.speed-unchanged", "slipstream.move",
           "adrenaline.effects", "corner.spin", "ruling.blocked-extra-move"),
          ("blocked-moves-ahead", "spin-one-space-short", "slipstream-moves-nothing"),
          movement_build),
    Proof("slipstream",
          "A slipstream is offered exactly when a car on any lap is beside or one board "
          "space ahead and the move would not cross the final finish line; it is never "
          "taken after that line.",
          ("slipstream.eligible", "slipstream.move", "slipstream.not-past-finish",
           "slipstream.earlier-lap", "setup.board-space"),
          ("slipstream-past-finish", "slipstream-two-ahead", "slipstream-ignores-lapped-cars"),
          _turn_obligation("turn", slipstream_claim)),
    Proof("finish-corners",
          "No corner line after the final finish line asks for Heat or causes a spin.",
          ("corner.after-finish-ignored", "finish.line"),
          ("corner-after-finish-counts",),
          _turn_obligation("turn", finish_corner_claim),
          kind="sanity"),
    Proof("flip-always-finds",
          "Every Stress or boost flip finds a basic card: the hand and play area never hold "
          "all 12 basics, so the no-basic ruling never applies in the core race.",
          ("reveal.stress-flip", "react.boost", "deck.reshuffle", "ruling.flip-no-basic"),
          ("flip-no-reshuffle", "flip-accepts-upgrades"),
          _turn_obligation("turn", flip_claim)),
    Proof("react",
          "Cooldown moves at most 3/1/0 Heat (gear 1/2/3-4, +1 adrenaline) from hand to "
          "engine; a boost needs and costs one engine Heat and adds the 1-4 of the basic "
          "card its flip finds.",
          ("react.cooldown", "react.boost", "react.any-order", "adrenaline.effects",
           "adrenaline.who"),
          ("cooldown-3-in-gear-2", "cooldown-copies-heat", "boost-free", "boost-flips-nothing"),
          _turn_obligation("turn", react_claim),
          kind="sanity"),
    Proof("discard",
          "The optional discard never removes Heat or Stress from the hand.",
          ("discard.optional",),
          ("discard-allows-stress", "discard-allows-heat"),
          _turn_obligation("turn", discard_claim),
          kind="sanity"),
    Proof("no-deadlock",
          "From every state satisfying the race invariants each decision of a turn has an "
          "option: a plan (one is built from the hand, gear and engine), then ending the "
          "react, declining the slipstream and discarding nothing, after any allowed "
          "earlier choices and chance outcomes.",
          ("round.sequence", "play.cluttered", "play.cluttered-only-when-forced",
           "ruling.cluttered-gear", "react.any-order", "discard.optional", "corner.spin",
           "deck.reshuffle"),
          ("replenish-no-reshuffle", "no-spin-in-gear-2"),
          _obligations(no_deadlock)),
    Proof("totality",
          "Every choice the model allows at its decision completes into a whole turn: "
          "each flip and each draw has an outcome (the first basic card of the deck; "
          "cards taken kind by kind), whatever the state and the earlier choices.",
          ("reveal.stress-flip", "deck.reshuffle", "replenish.draw",
           "ruling.replenish-empty", "ruling.flip-no-basic"),
          ("draw-ignores-short-deck",),
          _obligations(totality)),
    Proof("choices",
          "Every choice the rulebook allows (restated apart from the encoding: the gear "
          "shifts, plays of non-Heat cards, cooldown caps, adrenaline, a boost with engine "
          "Heat, slipstream beside or behind a car, discards of basic and upgrade cards) "
          "is allowed by the model at its decision.",
          ("gear.shift.free", "gear.shift.two-costs-heat", "play.card-count",
           "react.cooldown", "react.boost", "adrenaline.effects", "slipstream.eligible",
           "slipstream.not-past-finish", "discard.optional"),
          ("slipstream-no-beside", "cooldown-2-in-gear-1", "boost-needs-two-heat"),
          _obligations(choices)),
    Proof("bound-speed",
          "The largest speed a turn can reach (optimised), and no turn exceeds it.",
          ("speed.turn-total", "reveal.speed", "reveal.stress-flip", "react.boost",
           "adrenaline.effects", "slipstream.speed-unchanged"),
          ("flip-leaves-card-in-deck", "reshuffle-includes-play-area"),
          _bound(speed_objective), speed_objective),
    Proof("bound-heat-cost",
          "The most Heat one turn can cost (shift + boost + corners, optimised).",
          ("corner.pay-heat", "corner.spin", "react.boost", "gear.shift.two-costs-heat"),
          ("engine-debt",),
          _bound(heat_cost_objective), heat_cost_objective),
    Proof("bound-heat-demand",
          "The most Heat the corners crossed in one turn can ask for on this track "
          "(summed excess before any spin, optimised).",
          ("corner.check", "corner.pay-heat", "speed.turn-total"),
          ("slipstream-adds-speed",),
          _bound(heat_demand_objective), heat_demand_objective, ("bound-speed", "movement")),
    Proof("bound-spin-back",
          "The largest distance a spin sends a car back (optimised).",
          ("corner.spin", "place.blocked"),
          ("spin-one-space-short",),
          _bound(spin_back_objective), spin_back_objective, ("bound-speed", "movement")),
)


def obligations(proof: Proof, facts: TrackFacts, bugs: frozenset[str] = frozenset(),
                ctx: Ctx | None = None) -> list[Obligation]:
    """Build the obligations of ``proof`` on a track, with some bugs switched on."""
    return proof.build(facts, bugs, ctx or Ctx())


def by_id(proof_id: str) -> Proof:
    """The proof with this id."""
    for p in PROOFS:
        if p.id == proof_id:
            return p
    raise KeyError(proof_id)
