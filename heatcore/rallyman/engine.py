"""Rallyman GT's entry points: ``legal_actions``, ``chance_outcomes`` and ``apply``.

``apply`` checks the action, carries it out, then runs every step that needs no choice
(returns from the pits or from off the track, blocked turns, the end of a turn and of a
round) up to the next choice or chance point. At a chance point (dice to roll, a damage
token to draw) ``legal_actions`` is empty and ``chance_outcomes`` lists the outcomes with
their probabilities.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from heatcore.framework.errors import IllegalAction, MalformedInput
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.rallyman import control, pits, rounds
from heatcore.rallyman.actions import (
    Action,
    Dice,
    Draw,
    Focus,
    Go,
    Keep,
    Lay,
    Pit,
    Relay,
    Roll,
    Side,
    Stop,
)
from heatcore.rallyman.components import TOKENS, warning_chance
from heatcore.rallyman.planning import (
    car_dashboard,
    next_steps,
    plan_actions,
)
from heatcore.rallyman.refusals import lay_rule
from heatcore.rallyman.state import (
    DICE,
    DRAW,
    PIT,
    PLAN,
    RELAY,
    ROLL,
    SIDE,
    RaceState,
    Step,
    Turn,
)


def focus_cost(turn: Turn, dice: int) -> int:
    """Focus tokens to fix ``dice`` more dice in this turn (1, 2, 3, ... per die)."""
    return sum(range(turn.fixed + 1, turn.fixed + dice + 1))


@implements("rgt.focus.spend", "rgt.focus.cost", "rgt.focus.brake-group")
def can_focus(state: RaceState, turn: Turn) -> bool:
    """Whether the next space's dice (all of them) can be fixed now."""
    if turn.mode != "one" or turn.fix_next or len(turn.results) >= len(turn.plan):
        return False
    step = turn.plan[len(turn.results)]
    return state.cars[turn.car].focus >= focus_cost(turn, len(step.dice))


def legal_actions(state: RaceState) -> tuple[Action, ...]:
    """Every legal choice in canonical order; empty at a chance point or when over."""
    turn = state.turn
    if turn is None or state.over:
        return ()
    car = turn.car
    if turn.stage == PLAN:
        return tuple(plan_actions(state, turn))
    if turn.stage == ROLL:
        out: list[Action] = [Focus(car)] if can_focus(state, turn) else []
        out.append(Roll(car))
        if turn.results:
            out.append(Stop(car))
        return tuple(out)
    if turn.stage == RELAY:
        relays = [a for a, _, _ in control.relay_options(state, turn)]
        return ((Keep(car),) if not turn.relay else ()) + tuple(relays)
    if turn.stage == SIDE:
        return (Side(car, 1), Side(car, 3))
    if turn.stage == PIT:
        return tuple(Pit(car, lane) for lane in ("none", *pits.LANES))
    return ()


def _pending_dice(turn: Turn) -> tuple[Step, ...]:
    if turn.mode == "flat":
        return turn.plan
    return (turn.plan[len(turn.results)],)


def chance_outcomes(state: RaceState) -> tuple[tuple[Action, Fraction], ...]:
    """At a chance point: every outcome with its probability (they sum to 1)."""
    turn = state.turn
    if turn is None or not state.is_chance():
        return ()
    if turn.stage == DRAW:
        total = sum(state.bag)
        return tuple((Draw(turn.car, token), Fraction(n, total))
                     for token, n in zip(TOKENS, state.bag, strict=True) if n)
    dice = [d for step in _pending_dice(turn) for d in step.dice]
    outcomes: list[tuple[Action, Fraction]] = []
    for mask in range(2 ** len(dice)):
        flags = [bool(mask >> (len(dice) - 1 - i) & 1) for i in range(len(dice))]
        p = Fraction(1)
        for die, warn in zip(dice, flags, strict=True):
            q = warning_chance(die, state.options)
            p *= q if warn else 1 - q
        if p:
            outcomes.append((Dice(turn.car, _group(turn, flags)), p))
    return tuple(outcomes)


def _group(turn: Turn, flags: list[bool]) -> tuple[tuple[bool, ...], ...]:
    out, at = [], 0
    for step in _pending_dice(turn):
        out.append(tuple(flags[at:at + len(step.dice)]))
        at += len(step.dice)
    return tuple(out)


@implements("rgt.turn.sequence")
def check_action(state: RaceState, action: Action) -> None:
    """Raise IllegalAction (naming the rule) unless ``action`` is legal in ``state``;
    MalformedInput if it is not an action at all (a string: see ``parse_action``)."""
    if not isinstance(action, Action):
        hint = "read it first with heatcore.rallyman.notation.parse_action" \
            if isinstance(action, str) else "build one or read its string with parse_action"
        raise MalformedInput("rgt.turn.sequence",
                             f"an action must be an Action, not {type(action).__name__}; {hint}")
    turn = state.turn
    if turn is None or state.over:
        raise IllegalAction("rgt.finish.end", "the race is over")
    if action.car != turn.car:
        raise IllegalAction("rgt.order.speed",
                            f"it is P{turn.car + 1}'s turn, not P{action.car + 1}'s")
    if state.is_chance():
        if not any(action == a for a, _ in chance_outcomes(state)):
            rule = "rgt.loc.table" if turn.stage == DRAW else "rgt.dice.warning-faces"
            raise IllegalAction(rule, f"{action} is not a possible outcome here")
        return
    if action not in legal_actions(state):
        raise IllegalAction(_rule_for(state, turn, action), f"{action} is not legal here")


def _rule_for(state: RaceState, turn: Turn, action: Action) -> str:
    if isinstance(action, Focus):
        return "rgt.focus.cost" if turn.mode == "one" else "rgt.focus.spend"
    if isinstance(action, Stop):
        return "rgt.roll.one-by-one"
    if isinstance(action, Relay | Keep):
        return "rgt.loc.relay"
    if isinstance(action, Lay):
        return lay_rule(state, turn, action)
    return "rgt.turn.sequence"


def apply(state: RaceState, action: Action) -> tuple[RaceState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused; IllegalAction leaves ``state``
    as it was (states are immutable)."""
    check_action(state, action)
    events: list[Event] = []
    turn = state.turn
    assert turn is not None
    if isinstance(action, Lay):
        step = next(s for s in next_steps(state, turn) if (s.die, s.to) == (action.die, action.to))
        state = replace(state, turn=replace(turn, plan=(*turn.plan, step)))
        events.append(event("laid", turn.car, die=step.die, to=step.to, brakes=step.brakes,
                            boosts=step.boosts))
    elif isinstance(action, Go):
        state = _go(state, turn, action.mode, events)
    elif isinstance(action, Focus):
        cost = focus_cost(turn, len(turn.plan[len(turn.results)].dice))
        me = state.cars[turn.car]
        n = len(turn.plan[len(turn.results)].dice)
        state = state.with_car(turn.car, replace(me, focus=me.focus - cost),
                               turn=replace(turn, fixed=turn.fixed + n, fix_next=True))
        events.append(event("focus-spent", turn.car, tokens=cost, dice=n))
    elif isinstance(action, Roll):
        if turn.fix_next:
            step = turn.plan[len(turn.results)]
            state = rounds.resolve_rolled(state, turn, ((False,) * len(step.dice),), events)
        else:
            state = replace(state, turn=replace(turn, stage=DICE))
    elif isinstance(action, Dice):
        state = rounds.resolve_rolled(state, turn, action.results, events)
    elif isinstance(action, Stop):
        events.append(event("stopped", turn.car))
        state = rounds.finish_moving(state, turn, events)
    elif isinstance(action, Keep):
        state = rounds.lose_control(state, turn, turn.plan, turn.results, events)
    elif isinstance(action, Relay):
        state = _relay(state, turn, action, events)
    elif isinstance(action, Side):
        state = rounds.after_side(state, replace(turn, loc_space=turn.loc_space), action.edge,
                                  events)
    elif isinstance(action, Draw):
        state = rounds.draw_token(state, turn, action.token, events)
    elif isinstance(action, Pit):
        state = rounds.end_turn(pits.pit_stop(state, turn, action.lane, events), events)
    return rounds.advance(state, events), tuple(events)


@implements("rgt.roll.flat-out", "rgt.focus.gain")
def _go(state: RaceState, turn: Turn, mode: str, events: list[Event]) -> RaceState:
    events.append(event("rolls", turn.car, mode=mode, dice=sum(len(s.dice) for s in turn.plan)))
    if mode == "flat":
        me = state.cars[turn.car]
        gained = len(turn.plan)
        events.append(event("focus-gained", turn.car, tokens=gained))
        state = state.with_car(turn.car, replace(me, focus=me.focus + gained))
        return replace(state, turn=replace(turn, mode="flat", stage=DICE))
    return replace(state, turn=replace(turn, mode="one", stage=ROLL))


def _relay(state: RaceState, turn: Turn, action: Relay, events: list[Event]) -> RaceState:
    options = control.relay_options(state, turn)
    _, step, res = next(o for o in options if o[0] == action)
    turn = replace(turn, relay=(*turn.relay, step), relay_results=(*turn.relay_results, res))
    events.append(event("relaid", turn.car, dice=action.dice, to=step.to))
    limit = car_dashboard(state, turn.car).limit
    if control.first_loss(limit, turn.relay, turn.relay_results) is not None:
        return rounds.lose_control(state, turn, turn.relay, turn.relay_results, events)
    return replace(state, turn=turn)


def bag_counter(state: RaceState) -> Counter[str]:
    """The bag as a multiset of token names."""
    return Counter({t: n for t, n in zip(TOKENS, state.bag, strict=True) if n})
