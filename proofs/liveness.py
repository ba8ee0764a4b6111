"""Liveness of the model: no deadlock and totality, as proof obligations.

Proofs "for all transitions" hold too easily in a model that forbids too much; these two
catch that. Both start from any state satisfying the race invariants.

- ``no-deadlock``: every decision of a turn has an option the model allows: a plan (an
  explicit one, built below from the hand, the gear and the engine), then at each later
  decision the option of doing nothing more (end react, no slipstream, discard nothing),
  given any allowed earlier choices and any chance outcomes the model allows.
- ``totality``: every choice the model allows at its decision has a completion: with the
  chance outcomes picked by explicit terms (each flip finds the first basic kind its deck
  holds and turns nothing else over; each draw takes cards kind by kind), the whole turn
  satisfies every constraint.

With the refinement check (the model allows at each decision exactly the engine's legal
actions), these say the engine's legal choices all have a transition in the model.
"""

from __future__ import annotations

import z3

from proofs.encoding import Turn, cached_turn, pre_invariants
from proofs.stages import DECISIONS, STAGES, staged
from proofs.symbols import HEAT, KINDS, PLAYABLE, size, zmax, zmin
from proofs.track_graph import TrackFacts


def _first_available(kinds: tuple[str, ...], deck: dict[str, z3.ArithRef]) -> z3.ArithRef:
    """Index (in ``kinds``) of the first kind the deck holds; 0 if none."""
    out: z3.ArithRef = z3.IntVal(0)
    for i in range(len(kinds) - 1, -1, -1):
        out = z3.If(deck[kinds[i]] >= 1, i, out)
    return out


def _greedy(kinds: tuple[str, ...], have: dict[str, z3.ArithRef],
            want: z3.ArithRef | int) -> dict[str, z3.ArithRef]:
    """Take ``want`` cards kind by kind from ``have``."""
    out: dict[str, z3.ArithRef] = {}
    left: z3.ArithRef = z3.IntVal(want) if isinstance(want, int) else want
    for k in kinds:
        out[k] = zmax(zmin(have[k], left), 0)
        left = left - out[k]
    return out


def chance_choice(t: Turn) -> list[z3.BoolRef]:
    """Explicit chance outcomes: each flip finds the first accepted kind its deck holds
    and skips nothing; each draw takes its cards kind by kind."""
    out = []
    for f in t.flips:
        out.append(f.pick == _first_available(f.accept, f.deck))
        out += [v == 0 for v in f.skips.values()]
    d = t.drawn
    first = _greedy(KINDS, d.deck, d.need)
    second = _greedy(KINDS, d.refill, d.second_need)
    for k in KINDS:
        out.append(d.first[k] == z3.If(d.reshuffled, d.deck[k], first[k]))
        out.append(d.second[k] == z3.If(d.reshuffled, second[k], 0))
    return out


def plan_choice(t: Turn) -> list[z3.BoolRef]:
    """An explicit plan: the lowest gear reachable (two down if the engine can pay) with
    its cards taken kind by kind; a hand that cannot fill it plays every non-Heat card and
    Heat for the rest, one gear down."""
    hand, g0, engine = t.pre.zones.hand, t.pre.gear, t.pre.zones.engine
    nonheat = size(hand, PLAYABLE)
    lowest = z3.If(engine >= 1, zmax(g0 - 2, 1), zmax(g0 - 1, 1))
    stuck = nonheat < lowest
    gear = z3.If(stuck, zmax(g0 - 1, 1), lowest)
    taken = _greedy(PLAYABLE, hand, gear)
    out = [t.gear == gear]
    for k in PLAYABLE:
        out.append(t.played[k] == z3.If(stuck, hand[k], taken[k]))
    out.append(t.played[HEAT] == z3.If(stuck, gear - nonheat, 0))
    return out


def default_choice(t: Turn, stage: str) -> list[z3.BoolRef]:
    """Doing nothing more at a decision after the plan."""
    if stage == "react":
        return [t.cool_gear == 0, z3.Not(t.adr_cool), z3.Not(t.adr_move),
                z3.Not(t.adr_first), z3.Not(t.boost)]
    if stage == "slipstream":
        return [z3.Not(t.slip)]
    assert stage == "discard"
    return [t.discarded[k] == 0 for k in KINDS]


def _state(t: Turn) -> list[z3.BoolRef]:
    """Any state satisfying the race invariants (and the domain of the state's symbols)."""
    groups = staged(t)
    return [*pre_invariants(t).values(), *(e for _, e in groups.constraints["pre"])]


def no_deadlock(facts: TrackFacts, bugs: frozenset[str]) -> list[tuple[str, tuple[
        z3.BoolRef, ...]]]:
    """Obligations (label, assertions; all UNSAT = proved): each decision has an option."""
    t = cached_turn(facts, bugs)
    groups = staged(t)
    out = []
    before: list[z3.BoolRef] = _state(t)
    for stage in STAGES[1:]:
        mine = [e for _, e in groups.constraints[stage]]
        if stage in DECISIONS:
            option = plan_choice(t) if stage == "plan" else default_choice(t, stage)
            out.append((stage, (*before, *option, z3.Not(z3.And(mine)))))
        before += mine
    return out


def totality(facts: TrackFacts, bugs: frozenset[str]) -> list[tuple[str, tuple[
        z3.BoolRef, ...]]]:
    """Obligations, one per chance point: after any allowed choices and chance outcomes
    before it, the explicit outcome (``chance_choice``) meets its constraints; so every
    allowed choice completes into a whole turn (constraints reading a symbol no stage
    fixes must hold too)."""
    t = cached_turn(facts, bugs)
    groups = staged(t)
    chance = chance_choice(t)
    out = []
    before: list[z3.BoolRef] = _state(t)
    for stage in (*STAGES[1:], "other"):
        mine = [e for _, e in groups.constraints[stage]]
        if stage not in DECISIONS:
            out.append((stage, (*before, *chance, z3.Not(z3.And(mine)))))
        before += mine
    return out


def rulebook_choice(t: Turn, stage: str) -> list[z3.BoolRef]:
    """A choice the rulebook allows at a decision, stated here apart from the encoding:
    plan: a gear one step away (two if the engine holds a Heat) and that many non-Heat
    cards from the hand; react: cooldown up to 3/1/0 Heat in gear 1/2/3-4 (+1 with
    adrenaline) from the hand, adrenaline's +1 with adrenaline, a boost with a Heat in the
    engine after cooling; slipstream: a car beside or on the next space and the move not
    crossing the final finish line; discard: any basic or upgrade cards in hand."""
    normal = z3.Not(t.cluttered)
    if stage == "plan":
        g0, g, hand = t.pre.gear, t.gear, t.pre.zones.hand
        step = z3.If(g >= g0, g - g0, g0 - g)
        return [g >= 1, g <= 4, z3.Or(step <= 1, z3.And(step == 2, t.pre.zones.engine >= 1)),
                size(hand, PLAYABLE) >= g, t.played[HEAT] == 0,
                *(z3.And(t.played[k] >= 0, t.played[k] <= hand[k]) for k in PLAYABLE),
                size(t.played) == g]
    if stage == "react":
        rev = t.stages["revealed"]
        cap = z3.If(t.gear == 1, 3, z3.If(t.gear == 2, 1, 0))
        cooled = t.cool_gear + z3.If(t.adr_cool, 1, 0)
        return [normal, t.cool_gear >= 0, t.cool_gear <= cap, cooled <= rev.hand[HEAT],
                z3.Implies(z3.Or(t.adr_cool, t.adr_move), t.adrenaline),
                z3.Implies(t.boost, rev.engine + cooled >= 1)]
    if stage == "slipstream":
        here = t.placements["react2"].result
        lap = t.facts.spaces_per_lap
        ahead = z3.If(here.space == lap - 1, 0, here.space + 1)  # setup.board-space
        near = z3.Or([z3.And(o.present, z3.Or(
            z3.And(o.spot.space == here.space, o.spot.racing != here.racing),
            o.spot.space == ahead)) for o in t.others])
        return [t.slip, normal, near, here.pos + 2 <= t.facts.finish]
    assert stage == "discard"
    hand = t.stages["cornered"].hand
    return [normal, z3.Not(t.finished), t.discarded[HEAT] == 0, t.discarded["S"] == 0,
            *(z3.And(t.discarded[k] >= 0, t.discarded[k] <= hand[k]) for k in KINDS)]


def choices(facts: TrackFacts, bugs: frozenset[str]) -> list[tuple[str, tuple[
        z3.BoolRef, ...]]]:
    """Obligations: every choice the rulebook allows (``rulebook_choice``), after any
    allowed history, is allowed by the model at its decision."""
    t = cached_turn(facts, bugs)
    groups = staged(t)
    out = []
    before: list[z3.BoolRef] = _state(t)
    for stage in STAGES[1:]:
        mine = [e for _, e in groups.constraints[stage]]
        if stage in DECISIONS:
            out.append((stage, (*before, *rulebook_choice(t, stage), z3.Not(z3.And(mine)))))
        before += mine
    return out
