"""A refused Rallyman GT lay names the rule it actually breaks (the die, the gear step, the
space or the stage), not moving forward for all of them (heatcore.rallyman.refusals)."""

from __future__ import annotations

import pytest
from rgt_scenario import act, car, position, run

from heatcore.framework.errors import IllegalAction
from heatcore.rallyman.engine import apply
from heatcore.rallyman.options import Options
from heatcore.rallyman.state import RaceState


def _pg(*cars: object, **kw: object) -> RaceState:
    return position(*cars, **kw)  # type: ignore[arg-type]


def _refused(state: RaceState, action: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        apply(state, act(action))
    return refused.value.rule


CASES = [
    ("no such die on a GT5", lambda: _pg(car("T1.L2.1", 5, car_class="GT5"),
                                         car("T9.L3.1", 0)), "P1 lay G6 T1.L2.2",
     "rgt.dice.dashboard"),
    ("a die twice in a turn", lambda: run(_pg(car("T1.L2.1", 2), car("T9.L3.1", 0)),
                                          "P1 lay G2 T1.L2.2")[0], "P1 lay G2 T1.L2.3",
     "rgt.dice.dashboard"),
    ("four gears up", lambda: _pg(car("T1.L2.1", 1), car("T9.L3.1", 0)), "P1 lay G5 T1.L2.2",
     "rgt.dice.gear-step"),
    ("five gears down with three brake dice", lambda: _pg(car("T1.L2.1", 6), car("T9.L3.1", 0)),
     "P1 lay G1 T1.L2.2", "rgt.dice.brake"),
    ("two up without a boost die", lambda: _pg(car("T1.L2.1", 1), car("T9.L3.1", 0)),
     "P1 lay G3 T1.L2.2", "rgt.dice.boost"),
    ("a first-die jump when the switch forbids it",
     lambda: _pg(car("T1.L2.1", 5), car("T9.L3.1", 0), options=Options(first_die_jumps="no")),
     "P1 lay G3 T1.L2.2", "rgt.ruling.first-die-brake"),
    ("coast from gear 0", lambda: _pg(car("T1.L2.1", 0), car("T9.L3.1", 0)),
     "P1 lay C T1.L2.2", "rgt.dice.coast"),
    ("an occupied space", lambda: _pg(car("T1.L2.1", 2), car("T1.L2.2", 0)),
     "P1 lay G2 T1.L2.2", "rgt.move.one-car-per-space"),
    ("no such move", lambda: _pg(car("T1.L2.1", 2), car("T9.L3.1", 0)), "P1 lay G2 T1.L2.3",
     "rgt.move.forward"),
    ("laying while rolling", lambda: run(_pg(car("T1.L2.1", 2), car("T9.L3.1", 0)),
                                         "P1 lay G2 T1.L2.2", "P1 go one")[0],
     "P1 lay G3 T1.L2.3", "rgt.turn.sequence"),
]


@pytest.mark.rules("rgt.dice.dashboard", "rgt.dice.gear-step", "rgt.dice.brake",
                   "rgt.dice.boost", "rgt.dice.coast", "rgt.ruling.first-die-brake",
                   "rgt.move.one-car-per-space", "rgt.move.forward", "rgt.turn.sequence")
@pytest.mark.parametrize(("why", "build", "action", "rule"), CASES, ids=[c[0] for c in CASES])
def test_a_refused_lay_names_the_rule_it_breaks(why: str, build: object, action: str,
                                                rule: str) -> None:
    assert _refused(build(), action) == rule, why  # type: ignore[operator]
