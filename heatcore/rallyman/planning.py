"""Step 1 of a turn: laying the dice on the track, one space at a time."""

from __future__ import annotations

from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.rallyman.actions import Go, Lay
from heatcore.rallyman.components import Dashboard, dashboard
from heatcore.rallyman.moves import destinations, die_choices, step_for
from heatcore.rallyman.state import RaceState, Step, Turn


def car_dashboard(state: RaceState, car: int) -> Dashboard:
    """The acting car's dashboard this turn."""
    me = state.cars[car]
    return dashboard(me.car_class, me.tyres, state.weather, me.tokens, state.options)


def path_end(turn: Turn, steps: tuple[Step, ...]) -> tuple[str, int]:
    """(space, gear) at the end of ``steps`` laid from the turn's start."""
    if not steps:
        return turn.start, turn.start_gear
    return steps[-1].to, steps[-1].gear


@implements("rgt.turn.sequence", "rgt.ruling.planning")
def next_steps(state: RaceState, turn: Turn) -> list[Step]:
    """Every step that may be laid next, by die (gear dice up, then coast) then space."""
    board = car_dashboard(state, turn.car)
    plan = turn.plan
    used = {s.die for s in plan}
    gears = tuple(g for g in board.gears if f"G{g}" not in used)
    coast = board.coast - sum(1 for s in plan if s.die == "C")
    brakes = board.brake - sum(s.brakes for s in plan)
    boosts = board.boost - sum(s.boosts for s in plan)
    at, gear = path_end(turn, plan)
    taken = frozenset(s.to for s in plan) | {turn.start}
    out = []
    for choice in die_choices(gear, not plan, gears, coast > 0, brakes, boosts,
                              state.options.first_die_jumps == "yes"):
        for move in destinations(state, turn.car, at, choice.gear, taken):
            out.append(step_for(state.track, choice, move))
    return out


def plan_actions(state: RaceState, turn: Turn) -> list[Lay | Go]:
    """Legal actions while planning: lay a die, or (with at least one laid) roll."""
    out: list[Lay | Go] = [Lay(turn.car, s.die, s.to) for s in next_steps(state, turn)]
    if turn.plan:
        out += [Go(turn.car, "one"), Go(turn.car, "flat")]
    return out


def overtakes_refused(state: RaceState, turn: Turn) -> list[Lay]:
    """The lays refused only by the cars beside their space: each would be legal if every
    other car stood in gear 0 and no yellow flag were out (in canonical order)."""
    others = tuple(c if i == turn.car else replace(c, gear=0) for i, c in enumerate(state.cars))
    free = replace(state, cars=others, yellow=())
    legal = {(s.die, s.to) for s in next_steps(state, turn)}
    return [Lay(turn.car, s.die, s.to) for s in next_steps(free, turn)
            if (s.die, s.to) not in legal]


@implements("rgt.move.overtake-gear", "rgt.damage.yellow-flag")
def lay_refusal_rule(state: RaceState, turn: Turn, lay: Lay) -> str:
    """The rule that refuses an illegal lay: a yellow flag or overtaking when only the cars
    beside its space stand in the way, else moving forward."""
    if lay in overtakes_refused(state, turn):
        return "rgt.damage.yellow-flag" if state.yellow else "rgt.move.overtake-gear"
    return "rgt.move.forward"


@implements("rgt.turn.must-move", "rgt.move.blocked")
def is_blocked(state: RaceState, turn: Turn) -> bool:
    """Whether the car cannot lay a single die (it cannot move: its turn ends)."""
    return not turn.plan and not next_steps(state, turn)
