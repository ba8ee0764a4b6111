"""The engine's two entry points: ``legal_actions(state)`` and ``apply(state, action)``.

``apply`` checks the action, carries it out, then runs every step that needs no choice
(reveal, flips, movement, corner checks, replenish) until the next decision or chance point.
A step whose only choice is to pass is skipped. Chance points (shuffles) await a ``Shuffle``
action; ``legal_actions`` is empty there.
"""

from __future__ import annotations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.actions import (
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    ChooseSpeed,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    GainSponsor,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
    UseSymbol,
    require_action,
)
from heatcore.heat.cleanup import (
    apply_discard,
    apply_shuffle,
    check_discard,
    check_shuffle,
    discard_choices,
    discardable,
    draw_to_hand_size,
    enter_replenish,
)
from heatcore.heat.corners import check_corners
from heatcore.heat.planning import apply_plan, check_plan, legal_plans, shift_gears
from heatcore.heat.react import apply_react, check_react, react_choices
from heatcore.heat.reveal import finish_flips, flip_once, reveal
from heatcore.heat.rounds import end_round, has_adrenaline, next_planner
from heatcore.heat.rulings import FINISHED_DISCARD_DRAW, SETBACK_CORNER, SPIN_DISCARD
from heatcore.heat.slipstream import (
    apply_slipstream,
    can_slipstream,
    check_slipstream,
    slipstream_choices,
)
from heatcore.heat.state import Phase, RaceState, Stage, Turn

# The phases and stages tested below, read once: in Python 3.11 reading an attribute of an
# Enum class (``Stage.REACT``) goes through the metaclass's ``__getattr__`` hook, several
# times slower than reading a module global, and the engine tests them at every step.
PLAN, TURN, OVER = Phase.PLAN, Phase.TURN, Phase.OVER
REVEAL, REACT, BOOST, SLIPSTREAM, DISCARD, CHOOSE = (
    Stage.REVEAL, Stage.REACT, Stage.BOOST, Stage.SLIPSTREAM, Stage.DISCARD, Stage.CHOOSE)

REACT_ACTIONS = (Cooldown, AdrenalineCooldown, SectorCooldown, AdrenalineMove, Boost, EndReact,
                 UseSymbol)


def legal_actions(state: RaceState) -> tuple[Action, ...]:
    """Every legal action, in canonical order; empty at a chance point or when over.

    The order: plans by gear, then by cards (each list in card order 1 2 3 4 U0 U5 S H, taken
    as combinations of the hand in that order); react actions as cooldown 1..n, adrenaline
    cooldown, adrenaline move, boost, end react; slipstream before no slipstream; discards
    by number of cards, then card order, nothing first."""
    if state.shuffle is not None or state.phase is OVER:
        return ()
    if state.phase is PLAN:
        return tuple(legal_plans(state, state.order[state.cursor]))
    turn = state.turn
    assert turn is not None
    if turn.stage is REACT:
        return tuple(react_choices(state, turn))
    if turn.stage is SLIPSTREAM:
        return slipstream_choices(state, turn.car)
    if turn.stage is DISCARD:
        return tuple(discard_choices(state, turn.car))
    if turn.stage is CHOOSE:
        return tuple(hooks.speed_choices(state, turn))
    return ()


@implements("round.sequence")
def check_action(state: RaceState, action: Action) -> None:
    """Raise IllegalAction (naming the rule) unless ``action`` is legal in ``state``;
    MalformedInput if it is not an action at all (a string: see ``parse_action``)."""
    require_action(action)
    if isinstance(action, GainSponsor):
        hooks.check_gain(state, action)
        return
    if isinstance(action, LegendShuffle):
        hooks.check_legend_shuffle(state, action.car, action.order)
        return
    if isinstance(action, Shuffle):
        if state.shuffle is not None and state.is_legend(state.shuffle):
            raise IllegalAction("legend.deck", "the Legend deck's shuffle is awaited")
        check_shuffle(state, action)
        return
    if state.shuffle is not None:
        raise IllegalAction("deck.reshuffle",
                            f"a shuffle of P{state.shuffle + 1}'s deck is awaited")
    if state.phase is OVER:
        raise IllegalAction("finish.removed", "the race is over")
    actor = state.actor()
    if action.car != actor:
        raise IllegalAction("order.fixed-at-round-start",
                            f"it is P{(actor or 0) + 1}'s choice, not P{action.car + 1}'s")
    if state.phase is PLAN:
        if not isinstance(action, Plan):
            raise IllegalAction("round.sequence", "steps 1-2 await a gear and cards")
        check_plan(state, action)
        return
    turn = state.turn
    assert turn is not None
    if turn.stage is REACT:
        if not isinstance(action, REACT_ACTIONS):
            raise IllegalAction("round.sequence", "step 5 (react) awaits a react choice")
        check_react(state, turn, action)
    elif turn.stage is SLIPSTREAM:
        if not isinstance(action, Slipstream | DeclineSlipstream):
            raise IllegalAction("round.sequence", "step 6 awaits the slipstream choice")
        check_slipstream(state, action)
    elif turn.stage is DISCARD:
        if not isinstance(action, Discard):
            raise IllegalAction("round.sequence", "step 8 awaits the discard choice")
        check_discard(state, action)
    elif turn.stage is CHOOSE:
        if not isinstance(action, ChooseSpeed):
            raise IllegalAction("garage.choose-speed", "the reveal awaits the cards' speeds")
        hooks.check_choose(state, turn, action)
    elif isinstance(action, ChooseSpeed):
        raise IllegalAction("garage.choose-speed", "no speeds are awaited now")


def apply(state: RaceState, action: Action) -> tuple[RaceState, tuple[Event, ...]]:
    """The state after ``action`` and the events it caused. Raises IllegalAction (and
    leaves ``state`` as it was, as every state is immutable) if the action is not legal."""
    check_action(state, action)
    return apply_listed(state, action)


def apply_listed(state: RaceState, action: Action) -> tuple[RaceState, tuple[Event, ...]]:
    """``apply`` of an action that ``legal_actions(state)`` listed, without checking it again
    (every listed action passes ``check_action``: tests/test_races.py)."""
    events: list[Event] = []
    if isinstance(action, GainSponsor):
        return hooks.gain_sponsor(state, action, events), tuple(events)
    if isinstance(action, Shuffle):
        state = apply_shuffle(state, action, events)
    elif isinstance(action, LegendShuffle):
        state = hooks.apply_legend_shuffle(state, action.order, events)
    elif isinstance(action, Plan):
        state = apply_plan(state, action, events)
        if state.legends is not None:
            state = replace(state, cursor=next_planner(state, state.cursor))
    else:
        turn = state.turn
        assert turn is not None
        if isinstance(action, REACT_ACTIONS):
            state = apply_react(state, turn, action, events)
        elif isinstance(action, Slipstream | DeclineSlipstream):
            state = apply_slipstream(state, turn, action, events)
            state = _after_slipstream(state, events)
        elif isinstance(action, Discard):
            state = apply_discard(state, turn, action, events)
        elif isinstance(action, ChooseSpeed):
            state = hooks.settle_reveal(state, turn, action.speeds, events)
    return _advance(state, events), tuple(events)


def _start_turn(state: RaceState, events: list[Event]) -> RaceState:
    """Open steps 3-9 for the car at the cursor and reveal its cards (``reveal`` puts the
    new turn into the state)."""
    car = state.order[state.cursor]
    start = state.cars[car].position
    # ruling.setback-corner "checked": the farthest space aimed at starts where the car is
    reach = start if state.rulings.chose(SETBACK_CORNER, "checked") else 0
    turn = Turn(car=car, stage=REVEAL, start_position=start,
                adrenaline=has_adrenaline(state, car), reach=reach)
    events.append(event("turn-started", car, adrenaline=turn.adrenaline))
    if state.is_legend(car):
        return replace(state, turn=turn)  # moved by _advance (after a deck shuffle, if due)
    return reveal(state, turn, events)


@implements("ruling.spin-discard", "ruling.finished-car-discard-draw")
def _after_slipstream(state: RaceState, events: list[Event]) -> RaceState:
    """Check corners, then go to discard, or straight to replenish when there is nothing to
    discard (or, under the rulings' alternatives, after a spin or past the finish)."""
    turn = state.turn
    assert turn is not None
    seen = len(events)
    state = check_corners(state, turn, events)
    rulings = state.rulings
    skip = (not discardable(state, turn.car)
            or (rulings.chose(FINISHED_DISCARD_DRAW, "skip") and state.has_finished(turn.car))
            or (rulings.chose(SPIN_DISCARD, "straight-to-replenish")
                and any(e.kind == "spun-out" for e in events[seen:])))
    if skip:
        return enter_replenish(state, replace(turn, stage=DISCARD), events)
    return replace(state, turn=replace(turn, stage=DISCARD))


def _advance(state: RaceState, events: list[Event]) -> RaceState:
    """Run every step that needs no choice, up to the next decision or chance point."""
    while state.shuffle is None:
        if state.phase is PLAN:
            if state.cursor < len(state.order):
                return state
            state = shift_gears(state, events)  # every plan is in (info.gears-shown)
            state = _start_turn(replace(state, phase=TURN, cursor=0), events)
            continue
        if state.phase is not TURN:
            return state
        turn = state.turn
        assert turn is not None
        stage = turn.stage
        if stage is REVEAL and state.legends is not None and state.is_legend(turn.car):
            state = hooks.legend_turn(state, turn, events)
        elif stage in (REVEAL, BOOST):
            if turn.flips_left > 0:
                state = flip_once(state, turn, events)
            else:
                state = finish_flips(state, turn, events)
        elif stage is REACT:
            choices = react_choices(state, turn)
            if len(choices) > 1 or not isinstance(choices[0], EndReact):
                return state
            state = replace(state, turn=replace(turn, stage=SLIPSTREAM))
        elif stage is SLIPSTREAM:
            if can_slipstream(state, turn.car):
                return state
            state = _after_slipstream(state, events)
        elif stage is DISCARD or stage is CHOOSE:
            return state
        else:
            state, done = draw_to_hand_size(state, turn, events)
            if done:
                state = _end_turn(state, events)
    return state


def _end_turn(state: RaceState, events: list[Event]) -> RaceState:
    """Pass to the next car of the round, or end the round."""
    cursor = state.cursor + 1
    if cursor < len(state.order):
        return _start_turn(replace(state, cursor=cursor, turn=None), events)
    return end_round(state, events)
