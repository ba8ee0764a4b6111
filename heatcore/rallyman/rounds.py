"""The flow of turns and rounds: moving after a roll, losing control, damage draws, the end
of a turn (gear marker), of a round (turn order) and of the race."""

from __future__ import annotations

from heatcore.framework.errors import InvalidState
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.rallyman.components import DOUBLE_ZERO, TOKENS, loss_of_control
from heatcore.rallyman.control import first_loss, relay_pool
from heatcore.rallyman.order import turn_order
from heatcore.rallyman.pits import may_pit
from heatcore.rallyman.planning import car_dashboard, is_blocked
from heatcore.rallyman.state import (
    DRAW,
    FINISHED,
    IN_PIT,
    OFF_TRACK,
    ON_TRACK,
    PIT,
    PLAN,
    RELAY,
    ROLL,
    SIDE,
    RaceState,
    Step,
    Turn,
    other_colour,
)
from heatcore.rallyman.track import beside_map


def _place(state: RaceState, turn: Turn, steps: tuple[Step, ...], events: list[Event],
           ) -> tuple[RaceState, bool]:
    """Put the acting car at the end of ``steps`` (from its turn's start); True if that
    crosses the final finish line (the car is then ranked and off the track)."""
    me = state.cars[turn.car]
    laps = turn.start_laps + sum(1 for s in steps if s.finish)
    space = steps[-1].to if steps else turn.start
    moved = bool(steps) and (me.space != space or me.laps != laps)
    state = state.with_car(turn.car, replace(me, space=space, laps=laps))
    if steps and turn.car in state.yellow:
        state = _yellow_to_dashboard(state, turn.car, events)
    if moved:
        events.append(event("moved", turn.car, to=space, lap=laps))
    if laps >= state.laps:
        return _finish(state, turn.car, events), True
    return state, False


@implements("rgt.damage.yellow-flag", "rgt.ruling.yellow-flag-ends")
def _yellow_to_dashboard(state: RaceState, car: int, events: list[Event]) -> RaceState:
    """The car that drew a yellow flag moves off: the flag leaves the track."""
    count = state.yellow.count(car)
    me = state.cars[car]
    events.append(event("yellow-flag-lifted", car))
    return state.with_car(car, replace(me, tokens=tuple(sorted(me.tokens + ("yellow",) * count))),
                          yellow=tuple(c for c in state.yellow if c != car))


@implements("rgt.finish.end", "rgt.ruling.finished-cars")
def _finish(state: RaceState, car: int, events: list[Event]) -> RaceState:
    me = state.cars[car]
    ranking = (*state.ranking, car)
    events.append(event("finished", car, place=len(ranking)))
    state = state.with_car(car, replace(me, where=FINISHED), ranking=ranking, turn=None)
    racing = state.racing()
    if len(racing) <= 1:
        for last in racing:
            events.append(event("finished", last, place=len(state.ranking) + 1, last=True))
            state = replace(state, ranking=(*state.ranking, last))
        events.append(event("race-over", None, ranking=tuple(f"P{i + 1}" for i in state.ranking)))
        return replace(state, over=True, order=(), cursor=0, turn=None)
    return _next_turn(state, events)


@implements("rgt.roll.one-by-one", "rgt.roll.one-by-one-loc", "rgt.roll.flat-out-loc")
def resolve_rolled(state: RaceState, turn: Turn, results: tuple[tuple[bool, ...], ...],
                   events: list[Event]) -> RaceState:
    """Move the car after dice are rolled (one space, or all flat out); lose control if the
    warnings reach the limit or a corner's limit is exceeded."""
    done = turn.results + results
    turn = replace(turn, results=done, fix_next=False)
    rolled = turn.plan[:len(done)]
    events.append(event("dice", turn.car, results="/".join(
        "".join("!" if w else "-" for w in g) for g in results)))
    limit = car_dashboard(state, turn.car).limit
    lost = first_loss(limit, rolled, done)
    path = rolled if lost is None else rolled[:lost + 1]
    state, finished = _place(state, turn, path, events)
    if finished:
        return state
    if lost is not None:
        events.append(event("control-lost", turn.car, at=path[-1].to,
                            warnings=_warnings(path, done)))
        return replace(state, turn=replace(turn, stage=RELAY, pool=relay_pool(
            replace(turn, plan=path, results=done[:len(path)]))))
    if len(done) == len(turn.plan):
        return finish_moving(state, turn, events)
    return replace(state, turn=replace(turn, stage=ROLL))


def _warnings(steps: tuple[Step, ...], results: tuple[tuple[bool, ...], ...]) -> int:
    return sum(sum(r) + s.track_warnings for s, r in zip(steps, results, strict=False))


@implements("rgt.end.turn", "rgt.end.marker")
def finish_moving(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """The car stops without losing control: its marker is the last gear die rolled (the
    same gear after coast dice only); then a pit stop may follow."""
    rolled = turn.plan[:len(turn.results)]
    gears = [s.gear for s in rolled if s.die.startswith("G")]
    me = state.cars[turn.car]
    state = state.with_car(turn.car, replace(me, gear=gears[-1] if gears else me.gear))
    if may_pit(state, turn.car):
        return replace(state, turn=replace(turn, stage=PIT))
    return end_turn(state, events)


def lose_control(state: RaceState, turn: Turn, steps: tuple[Step, ...],
                 results: tuple[tuple[bool, ...], ...], events: list[Event]) -> RaceState:
    """Resolve the loss of control found along ``steps`` (the dice as finally laid)."""
    limit = car_dashboard(state, turn.car).limit
    index = first_loss(limit, steps, results)
    if index is None:  # a state that claims a loss of control its dice do not show
        raise InvalidState("rgt.loc.trigger", "the turn resolves a loss of control, but its "
                           "dice and the track give fewer warnings than the limit")
    path = steps[:index + 1]
    state, finished = _place(state, turn, path, events)
    if finished:
        return state
    where = path[-1]
    danger = state.track.danger_of(where.to)
    marker, tokens = loss_of_control(where.gear, danger, state.options)
    draws = min(tokens, sum(state.bag))
    events.append(event("spin" if marker == 0 else "off-track", turn.car, at=where.to,
                        gear=where.gear, danger=danger, tokens=tokens))
    turn = replace(turn, marker=marker, loc_space=where.to, draws=draws)
    space = state.track.spaces[where.to]
    if marker == DOUBLE_ZERO and space.middle:
        return replace(state, turn=replace(turn, stage=SIDE))
    edge = 0 if marker == 0 else (1 if 1 in space.lanes else 3)
    return after_side(state, turn, edge, events)


@implements("rgt.loc.double-zero")
def after_side(state: RaceState, turn: Turn, edge: int, events: list[Event]) -> RaceState:
    """Record the side a 00 car leaves the track on, then draw damage."""
    me = state.cars[turn.car]
    state = state.with_car(turn.car, replace(me, side=edge))
    if turn.draws > 0:
        return replace(state, turn=replace(turn, stage=DRAW))
    return _end_loc(state, turn, events)


@implements("rgt.damage.weather", "rgt.damage.green-flag", "rgt.ruling.damage-bag")
def draw_token(state: RaceState, turn: Turn, token: str, events: list[Event]) -> RaceState:
    """A damage token drawn from the bag and its effect."""
    bag = list(state.bag)
    bag[TOKENS.index(token)] -= 1
    state = replace(state, bag=tuple(bag))
    events.append(event("damage-drawn", turn.car, token=token))
    me = state.cars[turn.car]
    if token == "yellow":
        state = replace(state, yellow=tuple(sorted((*state.yellow, turn.car))))
    else:
        state = state.with_car(turn.car, replace(me, tokens=tuple(sorted((*me.tokens, token)))))
    if token == "weather":
        weather = "wet" if state.weather == "dry" else "dry"
        events.append(event("weather-changed", None, weather=weather))
        state = replace(state, weather=weather)
    turn = replace(turn, draws=turn.draws - 1)
    if turn.draws > 0 and sum(state.bag) > 0:
        return replace(state, turn=turn)
    return _end_loc(state, turn, events)


@implements("rgt.loc.zero")
def _end_loc(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    me = state.cars[turn.car]
    where = ON_TRACK if turn.marker == 0 else OFF_TRACK
    state = state.with_car(turn.car, replace(me, gear=turn.marker, where=where))
    return end_turn(state, events)


@implements("rgt.round.marker-colour")
def end_turn(state: RaceState, events: list[Event]) -> RaceState:
    """The car puts down its marker in the next round's colour; the next car plays."""
    turn = state.turn
    assert turn is not None
    me = state.cars[turn.car]
    events.append(event("turn-ended", turn.car, gear=_name(me.gear)))
    state = state.with_car(turn.car, replace(me, colour=other_colour(state.colour)), turn=None)
    return _next_turn(state, events)


def _name(gear: int) -> str:
    return "00" if gear == DOUBLE_ZERO else str(gear)


@implements("rgt.round.alternate")
def _next_turn(state: RaceState, events: list[Event]) -> RaceState:
    cursor = state.cursor + 1
    if cursor < len(state.order):
        return replace(state, cursor=cursor, turn=None)
    state = replace(state, round=state.round + 1, cursor=0, turn=None)
    order = turn_order(state, state.racing())
    events.append(event("round-started", None, round=state.round, colour=state.colour,
                        order=tuple(f"P{i + 1}" for i in order)))
    return replace(state, order=order)


def start_turn(state: RaceState, events: list[Event]) -> RaceState:
    """Open the turn of the car at the cursor (coming back from the pits or off the track
    first), ending it at once when it has nothing to choose."""
    car = state.order[state.cursor]
    me = state.cars[car]
    turn = Turn(car, PLAN, me.space, me.gear, me.laps)
    state = replace(state, turn=turn)
    if me.where == FINISHED:
        return _next_turn(replace(state, turn=None), events)
    if me.where in (OFF_TRACK, IN_PIT):
        return _come_back(state, car, events)
    if is_blocked(state, turn):
        events.append(event("blocked", car))
        return end_turn(state, events)
    return state


@implements("rgt.pit.blocked-return", "rgt.ruling.off-track-return")
def _come_back(state: RaceState, car: int, events: list[Event]) -> RaceState:
    me = state.cars[car]
    space = _return_space(state, car)
    if state.occupant(space) is not None:
        events.append(event("cannot-return", car, space=space))
        return end_turn(state, events)
    plays_on = me.where == IN_PIT and me.pit_lane == "tyres"
    state = state.with_car(car, replace(me, where=ON_TRACK, space=space, gear=0, side=0,
                                        pit_lane=""))
    events.append(event("back-on-track", car, space=space))
    if plays_on:
        turn = Turn(car, PLAN, space, 0, me.laps)
        state = replace(state, turn=turn)
        if is_blocked(state, turn):
            events.append(event("blocked", car))
            return end_turn(state, events)
        return state
    return end_turn(state, events)


def _return_space(state: RaceState, car: int) -> str:
    me = state.cars[car]
    if state.options.return_space != "side-edge" or me.where != OFF_TRACK or not me.side:
        return me.space
    here = state.track.spaces[me.space]
    if me.side in here.lanes:
        return me.space
    near = [s for s in beside_map(state.track, state.options.beside)[me.space]
            if me.side in state.track.spaces[s].lanes]
    return min(near, key=lambda s: abs(state.track.spaces[s].progress2 - here.progress2),
               default=me.space)


def advance(state: RaceState, events: list[Event]) -> RaceState:
    """Run every step that needs no choice, up to the next choice or chance point."""
    while not state.over and state.turn is None:
        state = start_turn(state, events)
    return state
