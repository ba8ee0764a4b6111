"""The encoded turn's symbols and constraints, grouped by the point of the turn that
fixes them: the state before the turn, each decision (plan, react, slipstream, discard)
and each chance point (the reveal's flips, the boost's flip, the draw).

A stage's constraints are those that read its symbols and nothing fixed later: what the
model demands of that decision or chance outcome given everything before it. The
refinement check compares a decision's constraints with the engine's legal actions; the
totality and no-deadlock proofs (``proofs.liveness``) show each stage always has an
option and every allowed option has a completion.
"""

from __future__ import annotations

from dataclasses import dataclass

import z3

from proofs.encoding import Turn
from proofs.symbols import KINDS
from proofs.z3eval import Dag

#: The points of a turn in order; ``DECISIONS`` are the players', the rest chance's.
STAGES: tuple[str, ...] = ("pre", "plan", "reveal", "react", "boost", "slipstream",
                           "discard", "draw")
DECISIONS: tuple[str, ...] = ("plan", "react", "slipstream", "discard")


def stage_symbols(t: Turn) -> dict[str, list[z3.ExprRef]]:
    """The input symbols of the turn by the stage that fixes them."""
    pre = t.stages["pre"]
    return {
        "pre": [t.pre.spot.pos, t.pre.spot.racing, t.pre.gear, pre.engine, pre.supply,
                t.other_stress, t.starters, t.racing, t.index,
                *(zone[k] for zone in (pre.hand, pre.deck, pre.discard, pre.play)
                  for k in KINDS),
                *(v for o in t.others for v in (o.present, o.spot.pos, o.spot.racing))],
        "plan": [t.gear, *(t.played[k] for k in KINDS)],
        "reveal": [v for f in t.flips[:-1] for v in (f.pick, *f.skips.values())],
        "react": [t.cool_gear, t.adr_cool, t.adr_move, t.adr_first, t.boost],
        "boost": [t.flips[-1].pick, *t.flips[-1].skips.values()],
        "slipstream": [t.slip],
        "discard": [t.discarded[k] for k in KINDS],
        "draw": [*t.drawn.first.values(), *t.drawn.second.values()],
    }


def symbol_name(e: z3.ExprRef) -> str:
    """The name of an input symbol of the encoding."""
    if not (z3.is_const(e) and e.decl().kind() == z3.Z3_OP_UNINTERPRETED):
        raise TypeError(f"not a symbol of the encoding: {e}")
    return str(e.decl().name())


@dataclass(frozen=True)
class Staged:
    """The turn's constraints by stage (``pre``: those reading only the state before the
    turn; ``other``: those reading a symbol no stage fixes, e.g. a bug's free choice)."""

    dag: Dag
    names: dict[str, frozenset[str]]  # stage -> names of its symbols
    constraints: dict[str, list[tuple[str, z3.BoolRef]]]


def staged(t: Turn, dag: Dag | None = None) -> Staged:
    """Group the turn's constraints by stage."""
    cons = t.enc.constraints
    dag = dag or Dag([e for _, e in cons])
    names = {g: frozenset(symbol_name(v) for v in vs) for g, vs in stage_symbols(t).items()}
    out: dict[str, list[tuple[str, z3.BoolRef]]] = {g: [] for g in (*STAGES, "other")}
    for rule, e in cons:
        deps = dag.depends(e)
        known: frozenset[str] = frozenset()
        home = "other"
        for g in STAGES:
            known |= names[g]
            if deps <= known:
                home = g
                break
        out[home].append((rule, e))
    return Staged(dag, names, out)
