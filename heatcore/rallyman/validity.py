"""Validity of a Rallyman GT state: a named set of invariant checks, each stated in its own
terms (not by re-running the engine). ``status(state)`` returns every problem."""

from __future__ import annotations

from collections import Counter
from enum import Flag, auto

from heatcore.framework.errors import InvalidState
from heatcore.rallyman.components import DOUBLE_ZERO, TOKENS, components, full_bag
from heatcore.rallyman.order import order_key
from heatcore.rallyman.state import FINISHED, IN_PIT, OFF_TRACK, ON_TRACK, RaceState, Turn


class Problem(Flag):
    """Each flag names one broken invariant (and the rule it comes from)."""

    NONE = 0
    SPACE_OCCUPANCY = auto()  # rgt.move.one-car-per-space
    GEAR_RANGE = auto()  # rgt.dice.gear: markers 00, 0, 1..6; off the track 00
    MARKER_COLOUR = auto()  # rgt.round.marker-colour: played cars show the next colour
    TURN_ORDER = auto()  # rgt.order.speed: cars still to play are in speed/distance/lane order
    TOKENS = auto()  # rgt.ruling.damage-bag: bag + dashboards + track = the full bag
    FOCUS = auto()  # rgt.focus.gain: focus is never negative
    PHASE = auto()  # rgt.turn.sequence: turn, cursor, order and the end agree
    RANKING = auto()  # rgt.finish.end: ranked cars finished, once each
    LAPS = auto()  # rgt.finish.end: one lap or more; a car racing has fewer than the race
    SIDE = auto()  # rgt.loc.double-zero: a car off the track left on edge lane 1 or 3
    PIT = auto()  # rgt.pit.conditions: a car in the pits is on a lane (tyres, repair, both)
    DICE = auto()  # rgt.dice.dashboard: a turn lays no more dice than a dashboard holds


RULE_OF: dict[Problem, str] = {
    Problem.SPACE_OCCUPANCY: "rgt.move.one-car-per-space",
    Problem.GEAR_RANGE: "rgt.dice.gear",
    Problem.MARKER_COLOUR: "rgt.round.marker-colour",
    Problem.TURN_ORDER: "rgt.order.speed",
    Problem.TOKENS: "rgt.ruling.damage-bag",
    Problem.FOCUS: "rgt.focus.gain",
    Problem.PHASE: "rgt.turn.sequence",
    Problem.RANKING: "rgt.finish.end",
    Problem.LAPS: "rgt.finish.end",
    Problem.SIDE: "rgt.loc.double-zero",
    Problem.PIT: "rgt.pit.conditions",
    Problem.DICE: "rgt.dice.dashboard",
}

#: The most dice of any dashboard (rgt.dice.dashboard), in all and of each kind: a turn's
#: laid dice never exceed them (and nothing else bounds the chance outcomes, 2 ** dice).
_DASHBOARDS = [tuple(d) for c in components()["dashboards"].values() for t in c.values()
               for d in t.values()]
MAX_DICE = max(sum(d) for d in _DASHBOARDS)
MAX_BRAKES = max(d[2] for d in _DASHBOARDS)
MAX_BOOSTS = max(d[3] for d in _DASHBOARDS)

#: The most focus tokens a car earns in one round: one per black (gear) or white (coast)
#: die rolled flat out (rgt.focus.gain), at most every such die of the largest dashboard.
FOCUS_PER_ROUND = max(gear + coast for classes in components()["dashboards"].values()
                      for tyres in classes.values() for gear, coast, _, _ in tyres.values())



def _tokens(state: RaceState) -> bool:
    held: Counter[str] = Counter()
    for car in state.cars:
        held.update(car.tokens)
    held["yellow"] += len(state.yellow)
    total = [state.bag[i] + held[t] for i, t in enumerate(TOKENS)]
    return total == list(full_bag()) and min(state.bag) >= 0


def _colours(state: RaceState) -> bool:
    if state.over:
        return True
    played = set(state.order[:state.cursor])
    for i, car in enumerate(state.cars):
        if car.where == FINISHED or i not in state.order:
            continue
        if (car.colour != state.colour) != (i in played):
            return False
    return True


def status(state: RaceState) -> Problem:
    """Every invariant the state breaks (``Problem.NONE`` when valid)."""
    found = Problem.NONE
    on_track = [c.space for c in state.cars if c.where == ON_TRACK]
    if len(on_track) != len(set(on_track)):
        found |= Problem.SPACE_OCCUPANCY
    for car in state.cars:
        if not DOUBLE_ZERO <= car.gear <= 6 or (car.where == OFF_TRACK
                                                 and car.gear != DOUBLE_ZERO):
            found |= Problem.GEAR_RANGE
        if car.where == IN_PIT and car.gear not in (0, DOUBLE_ZERO):
            found |= Problem.GEAR_RANGE
        if not 0 <= car.focus <= FOCUS_PER_ROUND * state.round:
            found |= Problem.FOCUS
        if not 0 <= car.laps <= state.laps or (car.where == FINISHED) != (car.laps == state.laps):
            found |= Problem.LAPS  # a car finishes as it completes the last lap
        if car.side not in (0, 1, 3) or (car.where == OFF_TRACK and car.side == 0):
            found |= Problem.SIDE
        if (car.where == IN_PIT) != (car.pit_lane != ""):
            found |= Problem.PIT
    if state.laps < 1:
        found |= Problem.LAPS
    found |= _turn_problems(state)
    if not _colours(state):
        found |= Problem.MARKER_COLOUR
    if not _tokens(state):
        found |= Problem.TOKENS
    waiting = state.order[state.cursor + 1:]
    if list(waiting) != sorted(waiting, key=lambda i: order_key(state, i)):
        found |= Problem.TURN_ORDER
    if state.over != (state.turn is None and not state.order) or (
            state.turn is not None and (not 0 <= state.cursor < len(state.order)
                                        or state.order[state.cursor] != state.turn.car)):
        found |= Problem.PHASE
    ranked = state.ranking
    finished = {i for i, c in enumerate(state.cars) if c.where == FINISHED}
    if len(set(ranked)) != len(ranked) or not finished <= set(ranked) or (
            not state.over and set(ranked) != finished):
        found |= Problem.RANKING
    return found


def _turn_problems(state: RaceState) -> Problem:
    """Rounds count from 1; the order lists each car still racing once (rgt.order.speed);
    the cursor is in it; a turn's counts are never negative, its results never outnumber
    its laid dice and its dice show gears 1 to 6 (rgt.turn.sequence, rgt.dice.gear)."""
    found = Problem.NONE
    order = state.order
    if state.round < 1 or (not state.over and not 0 <= state.cursor < len(order)):
        found |= Problem.PHASE
    if len(set(order)) != len(order) or (not state.over
                                         and not set(state.racing()) <= set(order)):
        found |= Problem.TURN_ORDER
    turn = state.turn
    if turn is None:
        return found
    steps = turn.plan + turn.relay
    rolled = [*zip(turn.plan, turn.results, strict=False),
              *zip(turn.relay, turn.relay_results, strict=False)]
    if min(turn.fixed, turn.draws, turn.start_laps, *(min(s.brakes, s.boosts,
                                                           s.track_warnings) for s in steps)) < 0 \
            or len(turn.results) > len(turn.plan) \
            or len(turn.relay_results) != len(turn.relay) \
            or any(len(r) != len(s.dice) for s, r in rolled):
        found |= Problem.PHASE  # each rolled step has one result per die
    if any(not 1 <= s.gear <= 6 for s in steps):
        found |= Problem.GEAR_RANGE
    if any(s.brakes > MAX_BRAKES or s.boosts > MAX_BOOSTS for s in steps) or max(
            sum(len(s.dice) for s in turn.plan), sum(len(s.dice) for s in turn.relay)) > MAX_DICE:
        found |= Problem.DICE
    if not _stage_fits(state, turn):
        found |= Problem.PHASE
    return found


def _stage_fits(state: RaceState, turn: Turn) -> bool:
    """Whether the turn's stage fits what the turn holds (rgt.turn.sequence), in the turn's
    own terms (no engine code: a broken engine must not pass its broken states): laying dice
    before any roll; rolling or awaiting dice with dice left to roll; re-laying rolled dice
    from a pool; choosing a side or drawing damage where control was lost, with tokens left
    to draw; focus fixing only dice still to roll. (Whether control was lost at all the
    engine checks when it resolves the loss: InvalidState, rgt.loc.trigger.)"""
    left = len(turn.results) < len(turn.plan)
    if turn.stage == "plan":
        return not turn.results and turn.mode == "" and not turn.fix_next
    if turn.mode == "" or (turn.fix_next and not left):
        return False
    if turn.stage == "roll":
        return turn.mode == "one" and left
    if turn.stage == "dice":
        return left and not turn.fix_next
    if turn.stage == "pit":
        return turn.draws == 0
    if turn.fix_next:
        return False
    if turn.stage == "relay":
        return bool(turn.pool)
    return turn.loc_space != "" and (turn.stage == "side" or turn.draws > 0)


def validate(state: RaceState) -> RaceState:
    """The state if valid; else InvalidState naming every problem and its rule."""
    problems = status(state)
    if problems:
        names = [f"{p.name} ({RULE_OF[p]})" for p in Problem if p and p in problems]
        first = next(p for p in Problem if p and p in problems)
        raise InvalidState(RULE_OF[first], "invalid state: " + ", ".join(names))
    return state
