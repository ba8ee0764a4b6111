"""Which rule a refused lay breaks: the die (not on the dashboard, taken by damage, already
used), the gear step (brake, boost, the first die's rulings), the plan's end after a certain
loss of control, the space (no such move, occupied, already on the path) or the cars beside
it (overtaking, yellow flag)."""

from __future__ import annotations

from heatcore.rallyman.actions import Lay
from heatcore.rallyman.components import dashboard
from heatcore.rallyman.moves import die_choices
from heatcore.rallyman.planning import (
    car_dashboard,
    lay_refusal_rule,
    loss_certain,
    path_end,
)
from heatcore.rallyman.state import PLAN, RaceState, Turn


def _die_rule(state: RaceState, turn: Turn, die: str) -> str | None:
    """The rule that keeps ``die`` out of this lay, if the die itself is the problem."""
    me = state.cars[turn.car]
    board = car_dashboard(state, turn.car)
    plan = turn.plan
    if die == "C":
        if board.coast - sum(1 for s in plan if s.die == "C") > 0:
            return None
        printed = dashboard(me.car_class, me.tyres, state.weather, (), state.options)
        return "rgt.damage.coast" if printed.coast > board.coast and \
            sum(1 for s in plan if s.die == "C") < printed.coast else "rgt.dice.dashboard"
    if not (die.startswith("G") and die[1:].isdigit()):
        return "rgt.dice.dashboard"
    gear = int(die[1:])
    printed = dashboard(me.car_class, me.tyres, state.weather, (), state.options)
    if gear not in printed.gears or any(s.die == die for s in plan):
        return "rgt.dice.dashboard"  # no such die, or each die once a turn
    if gear not in board.gears or sum(1 for s in plan if s.die != "C") >= board.gear_dice:
        return "rgt.damage.gear"
    return None


def _step_rule(state: RaceState, turn: Turn, die: str) -> str | None:
    """The gear-step rule that forbids ``die`` after the plan so far, if any."""
    board = car_dashboard(state, turn.car)
    at_gear = path_end(turn, turn.plan)[1]
    first = not turn.plan
    if die == "C":
        return "rgt.dice.coast" if at_gear <= 0 else None
    gear = int(die[1:])
    brakes = board.brake - sum(s.brakes for s in turn.plan)
    boosts = board.boost - sum(s.boosts for s in turn.plan)
    options = state.options

    def offered(jumps: bool, zero: bool, b: int, u: int) -> bool:
        return any(c.gear == gear for c in die_choices(at_gear, first, (gear,), False, b, u,
                                                       jumps, zero))

    jumps, zero = options.first_die_jumps == "yes", options.zero_start == "boost"
    if offered(jumps, zero, brakes, boosts):
        return None
    if not offered(True, True, 99, 99):
        return "rgt.dice.gear-step"
    if not offered(jumps, True, 99, 99):
        return "rgt.ruling.first-die-brake"
    if not offered(jumps, zero, 99, 99):
        return "rgt.ruling.gear-zero-start"
    return "rgt.dice.brake" if gear < at_gear else "rgt.dice.boost"


def lay_rule(state: RaceState, turn: Turn, lay: Lay) -> str:
    """The rule a refused ``lay`` breaks, the most specific first."""
    if turn.stage != PLAN:
        return "rgt.turn.sequence"  # dice are laid only while planning
    if state.options.dice_after_loss == "stop" and \
            loss_certain(turn.plan, car_dashboard(state, turn.car).limit):
        return "rgt.ruling.dice-after-loss"
    rule = _die_rule(state, turn, lay.die) or _step_rule(state, turn, lay.die)
    if rule is not None:
        return rule
    at = path_end(turn, turn.plan)[0]
    if state.track.move(at, lay.to) is None or lay.to in {s.to for s in turn.plan}:
        return "rgt.move.forward"
    if state.occupant(lay.to) is not None:
        return "rgt.move.one-car-per-space"
    return lay_refusal_rule(state, turn, lay)
