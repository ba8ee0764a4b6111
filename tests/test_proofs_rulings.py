"""The Z3 encoding of a turn honours each ruling alternative: for every switchable ruling,
a behaviour only the alternative allows is satisfiable under it and unsatisfiable under
the default (so each query is its own negative control)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import z3

from heatcore.heat.rulings import make_rulings
from proofs.encoding import Turn, encode_turn, pre_invariants
from proofs.symbols import size
from proofs.track_graph import track_facts

Behaviour = Callable[[Turn], z3.BoolRef]


def _moved_on_own_racing_line(t: Turn) -> z3.BoolRef:
    p = t.placements["reveal"]
    return z3.And(p.target > p.start.pos, p.result.pos == p.start.pos,
                  p.result.racing != p.start.racing)


def _zero_move_places(t: Turn) -> z3.BoolRef:
    p = t.placements["reveal"]
    return z3.And(p.target == p.start.pos, p.result.racing != p.start.racing)


def _blocked_adrenaline(t: Turn) -> z3.BoolRef:
    first, second = t.placements["react1"], t.placements["react2"]
    return z3.And(t.adr_move, z3.Not(t.boost), second.result.pos == first.start.pos,
                  second.result.racing == first.start.racing)


def _line_checked_before_the_car(t: Turn) -> z3.BoolRef:
    end = t.placements["slipstream"].result
    return z3.Or([z3.And(c.crossed, end.pos <= c.line.at) for c in t.corners.checks])


#: ruling, alternative, a behaviour only the alternative allows.
CASES: list[tuple[str, str, Behaviour]] = [
    ("ruling.cluttered-gear", "free-shifts-only",
     lambda t: z3.And(t.cluttered, z3.Or(t.gear - t.pre.gear == 2, t.pre.gear - t.gear == 2))),
    ("ruling.finished-car-discard-draw", "skip",
     lambda t: z3.And(t.finished, size(t.drawn.first) > 0)),
    ("ruling.spin-discard", "straight-to-replenish",
     lambda t: z3.And(t.corners.spun, size(t.discarded) > 0)),
    ("ruling.stress-supply", "unlimited",
     lambda t: z3.And(t.corners.spun, t.corners.stress_taken > t.pre.zones.supply)),
    ("ruling.zero-move", "place", _zero_move_places),
    ("ruling.blocked-own-space", "stay", _moved_on_own_racing_line),
    ("ruling.blocked-extra-move", "must-gain", _blocked_adrenaline),
    ("ruling.setback-corner", "checked", _line_checked_before_the_car),
]


def _possible(behaviour: Behaviour, rulings: dict[str, str]) -> bool:
    turn = encode_turn(track_facts("usa"), rulings=make_rulings(rulings))
    solver = z3.Solver()
    solver.add(*[c for _, c in turn.enc.constraints], *pre_invariants(turn).values())
    solver.add(behaviour(turn))
    return solver.check() == z3.sat


@pytest.mark.rules("ruling.cluttered-gear", "ruling.finished-car-discard-draw",
                   "ruling.spin-discard", "ruling.stress-supply", "ruling.zero-move",
                   "ruling.blocked-own-space", "ruling.blocked-extra-move",
                   "ruling.setback-corner")
@pytest.mark.parametrize(("ruling", "choice", "behaviour"), CASES,
                         ids=[f"{r}={c}" for r, c, _ in CASES])
def test_the_encoding_follows_each_alternative(ruling: str, choice: str,
                                               behaviour: Behaviour) -> None:
    """The behaviour that tells default and alternative apart is possible under exactly one
    of them (which one depends on whether the alternative allows more or less)."""
    default = _possible(behaviour, {})
    alternative = _possible(behaviour, {ruling: choice})
    assert default != alternative
    allows_more = choice in ("unlimited", "place", "checked")
    assert alternative is allows_more and default is not allows_more
