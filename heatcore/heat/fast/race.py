"""``FastRace``: a race as one mutable object, stepped in place by the rules of the core race.

Every method mirrors a function of the reference engine and names the same rule IDs; the
reference module is given in each docstring. Hands are tuples in canonical order (plans
and discards are looked up by hand); decks are lists, top card first; discard piles are
lists in no particular order (``to_state`` sorts them).
"""

from __future__ import annotations

from bisect import bisect_left
from typing import ClassVar, Final, NoReturn

from heatcore.framework.errors import IllegalAction, UnsupportedModule
from heatcore.heat import cards as _cards
from heatcore.heat import react as _react
from heatcore.heat import slipstream as _slipstream
from heatcore.heat.actions import (
    ACTION_CLASSES,
    Action,
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    Discard,
    EndReact,
    Plan,
    Shuffle,
    Slipstream,
    require_action,
)
from heatcore.heat.cards import Card, canonical
from heatcore.heat.corners import spin_stress
from heatcore.heat.engine import check_action
from heatcore.heat.fast import tables
from heatcore.heat.fast.tables import Hand
from heatcore.heat.rounds import adrenaline_count
from heatcore.heat.rulings import (
    BLOCKED_EXTRA_MOVE,
    BLOCKED_OWN_SPACE,
    CLUTTERED_GEAR,
    FINISHED_DISCARD_DRAW,
    SETBACK_CORNER,
    SPIN_DISCARD,
    STRESS_SUPPLY,
    ZERO_MOVE,
)
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import Car, Phase, RaceState, Stage, Turn
from heatcore.heat.track import Track, unrolled_lines

# Final: the compiled build keeps these in C variables rather than the module's dict.
BASIC_SET: Final = _cards.BASIC_SET
DISCARDABLE: Final = _cards.DISCARDABLE
HAND_SIZE: Final = _cards.HAND_SIZE
HEAT: Final = _cards.HEAT
STRESS: Final = _cards.STRESS
VALUE: Final = _cards.VALUE
COOLDOWN: Final = _react.COOLDOWN
SLIPSTREAM_SPACES: Final = _slipstream.SLIPSTREAM_SPACES
PLAN_ACTIONS: Final = tables.plan_actions
PLANS: Final = tables.plans
DISCARD_ACTIONS: Final = tables.discard_actions
DISCARDS: Final = tables.discards
REACT_ACTIONS: Final = tables.react_actions
WITH_CARDS: Final = tables.with_cards
SLIPSTREAM_ACTIONS: Final = tables.slipstream_actions
PLAN: Final = Phase.PLAN
TURN: Final = Phase.TURN
OVER: Final = Phase.OVER
REVEAL: Final = Stage.REVEAL
REACT: Final = Stage.REACT
BOOST: Final = Stage.BOOST
SLIPSTREAM: Final = Stage.SLIPSTREAM
DISCARD: Final = Stage.DISCARD
REPLENISH: Final = Stage.REPLENISH


def _without(cards: tuple[Card, ...], taken: tuple[Card, ...]) -> tuple[Card, ...]:
    """heatcore.heat.cards.remove for ``taken`` known to be among ``cards`` (a checked action's)."""
    left = list(cards)
    for card in taken:
        left.remove(card)
    return tuple(left)

#: The subclass that plays modules, registered by :mod:`heatcore.heat.fast.modules` (which
#: imports this module: a registry rather than an import here, so that each build, compiled
#: or pure, makes its own subclass).
MODULE_RACE: Final[list[type[FastRace]]] = []


class FastCar:
    """One car, mutable: the fields of :class:`heatcore.heat.state.Car`."""

    __slots__ = ("deck", "discard", "engine", "flipped", "gear", "hand", "played", "position",
                 "racing_line")

    def __init__(self, car: Car) -> None:
        self.position: int = car.position
        self.racing_line: bool = car.racing_line
        self.gear: int = car.gear
        self.engine: int = car.engine
        self.hand: Hand = car.hand
        self.deck: list[Card] = list(car.deck)
        self.discard: list[Card] = list(car.discard)
        self.played: Hand = car.played
        self.flipped: list[Card] = list(car.flipped)

    def to_car(self) -> Car:
        """The immutable car (discard pile in canonical order)."""
        return Car(position=self.position, racing_line=self.racing_line, gear=self.gear,
                   engine=self.engine, hand=self.hand, deck=tuple(self.deck),
                   discard=canonical(self.discard), played=self.played,
                   flipped=tuple(self.flipped))


class FastRace:
    """A race stepped in place: ``legal_actions()``, ``apply(action)``, ``to_state()``.

    The fields are those of :class:`heatcore.heat.state.RaceState` and, flattened, of its
    :class:`heatcore.heat.state.Turn` (meaningful in phase TURN only: a valid state has a turn
    exactly then).
    """

    __slots__ = (
        "_checked_setback", "_cluttered_free_only", "_finished_skip", "_lap", "_legal",
        "_must_gain", "_own_stay", "_pool",
        "_spin_skip_discard", "_stress_unlimited", "_zero_place", "adrenaline",
        "adrenaline_cars", "adrenaline_cooldown_used",
        "adrenaline_move_used", "boosted", "car", "cars", "cooldown_used", "corner_lines",
        "corner_positions", "cursor", "finish", "flips_left", "laps", "modules",
        "order", "phase", "ranking", "reach", "round", "rulings", "shuffle", "speed", "spins",
        "spots", "stage", "start_position", "supply", "to_move", "track")

    #: The modules this class plays (a state with modules makes a
    #: :class:`heatcore.heat.fast.modules.ModuleRace`, which plays them all).
    SUPPORTED_MODULES: ClassVar[tuple[str, ...]] = ()

    def __new__(cls, state: RaceState) -> FastRace:
        """A :class:`~heatcore.heat.fast.modules.ModuleRace` for a state that plays modules."""
        if state.modules and cls is FastRace:
            if not MODULE_RACE:
                import heatcore.heat.fast.modules  # noqa: F401 (it registers its class)
            module_race = MODULE_RACE[0]
            return module_race.__new__(module_race, state)
        return object.__new__(cls)

    def __init__(self, state: RaceState) -> None:
        """Start from a reference state (taken as valid: see ``heatcore.heat.validity``).
        Raises UnsupportedModule for a module this class does not play."""
        for module in state.modules:
            if module not in self.SUPPORTED_MODULES:
                raise UnsupportedModule(module, "the fast engine", "weather.module")
        if not state.changes.is_core():  # event.setup-changes: played by the reference only
            raise UnsupportedModule("championship", "the fast engine", "weather.module")
        self.track: Track = state.track
        self.laps = state.laps
        self.spins = 0  # spin-outs since this object was made (a tally, not race state)
        self.finish = state.finish_position
        self.corner_lines = unrolled_lines(state.track, state.laps)
        self.corner_positions = [position for position, _, _ in self.corner_lines]
        self.modules = state.modules
        self.rulings = rulings = state.rulings
        self._cluttered_free_only = rulings.chose(CLUTTERED_GEAR, "free-shifts-only")
        self._stress_unlimited = rulings.chose(STRESS_SUPPLY, "unlimited")
        self._zero_place = rulings.chose(ZERO_MOVE, "place")
        self._own_stay = rulings.chose(BLOCKED_OWN_SPACE, "stay")
        self._must_gain = rulings.chose(BLOCKED_EXTRA_MOVE, "must-gain")
        self._spin_skip_discard = rulings.chose(SPIN_DISCARD, "straight-to-replenish")
        self._finished_skip = rulings.chose(FINISHED_DISCARD_DRAW, "skip")
        self._checked_setback = rulings.chose(SETBACK_CORNER, "checked")
        self.cars = [FastCar(car) for car in state.cars]
        self.adrenaline_cars = adrenaline_count(len(state.cars))
        self.supply = state.supply
        self.round = state.round
        self.phase = state.phase
        self.order = state.order
        self.cursor = state.cursor
        self.shuffle = state.shuffle
        self.ranking = state.ranking
        self._lap: int = state.track.spaces_per_lap
        self.spots: set[int] = {self._board(state.cars[i].position, state.cars[i].racing_line)
                      for i in state.on_track()}
        turn = state.turn or Turn(car=0, stage=REVEAL, start_position=0)
        self.car = turn.car
        self.stage = turn.stage
        self.start_position = turn.start_position
        self.speed = turn.speed
        self.to_move = turn.to_move
        self.flips_left = turn.flips_left
        self.adrenaline = turn.adrenaline
        self.cooldown_used = turn.cooldown_used
        self.adrenaline_move_used = turn.adrenaline_move_used
        self.adrenaline_cooldown_used = turn.adrenaline_cooldown_used
        self.boosted = turn.boosted
        self.reach = turn.reach
        self._legal: tuple[Action, ...] | None = None
        self._pool: list[Card] | None = None  # shuffle_pool's list at this chance point

    @classmethod
    def start(cls, setup: RaceSetup) -> FastRace:
        """The race at the start of round 1 (set up by :func:`heatcore.heat.setup.start_race`)."""
        state, _ = start_race(setup)
        return cls(state)

    @classmethod
    def from_state(cls, state: RaceState) -> FastRace:
        """The race at ``state``."""
        return cls(state)

    def to_state(self) -> RaceState:
        """The reference engine's value of the race now."""
        turn = None
        if self.phase is TURN:
            turn = Turn(car=self.car, stage=self.stage, start_position=self.start_position,
                        speed=self.speed, to_move=self.to_move, flips_left=self.flips_left,
                        adrenaline=self.adrenaline, cooldown_used=self.cooldown_used,
                        adrenaline_move_used=self.adrenaline_move_used,
                        adrenaline_cooldown_used=self.adrenaline_cooldown_used,
                        boosted=self.boosted, reach=self.reach)
        return RaceState(track=self.track, laps=self.laps,
                         cars=tuple(car.to_car() for car in self.cars), supply=self.supply,
                         round=self.round, phase=self.phase, order=self.order,
                         cursor=self.cursor, turn=turn, shuffle=self.shuffle,
                         ranking=self.ranking, modules=self.modules, rulings=self.rulings)

    def copy(self) -> FastRace:
        """An independent copy (to try actions without changing this race)."""
        return type(self)(self.to_state())

    # ------------------------------------------------------------------ queries

    def is_over(self) -> bool:
        """Whether every car has finished."""
        return self.phase is OVER

    def is_chance(self) -> bool:
        """Whether the next input is a chance outcome (a shuffle)."""
        return self.shuffle is not None

    def shuffle_pool(self) -> list[Card]:
        """The cards the awaited shuffle orders (the deck and discard pile of the car that
        awaits it), sorted: a new list each time (a chance point must be awaited)."""
        pool = self._pool
        if pool is None:
            assert self.shuffle is not None
            car = self.cars[self.shuffle]
            pool = self._pool = sorted(car.deck + car.discard)
        return list(pool)

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action in the reference engine's canonical order; empty at a chance
        point or when the race is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._current_legal()
        return legal

    def _current_legal(self) -> tuple[Action, ...]:
        if self.shuffle is not None or self.phase is OVER:
            return ()
        if self.phase is PLAN:
            index = self.order[self.cursor]
            car = self.cars[index]
            return PLAN_ACTIONS(index, car.gear, car.engine >= 1, car.hand,
                                       self._cluttered_free_only)
        stage = self.stage
        if stage is REACT:
            return self._react_actions()
        if stage is SLIPSTREAM:
            return SLIPSTREAM_ACTIONS(self.car)
        if stage is DISCARD:
            return DISCARD_ACTIONS(self.car, self.cars[self.car].hand)
        return ()

    # implements: react.any-order, react.cooldown, react.boost, adrenaline.effects
    def _react_actions(self) -> tuple[Action, ...]:
        """heatcore.heat.react.react_choices: the options still open, as a shared table."""
        car = self.cars[self.car]
        heat = car.hand.count(HEAT)
        return REACT_ACTIONS(
            self.car,
            0 if self.cooldown_used else min(COOLDOWN[car.gear], heat),
            self.adrenaline and not self.adrenaline_cooldown_used and heat > 0,
            self.adrenaline and not self.adrenaline_move_used and self._extra_move_open(1),
            not self.boosted and car.engine >= 1)

    # ------------------------------------------------------------------ apply

    def apply(self, action: Action) -> None:
        """Carry out ``action`` and every step after it that needs no choice. An illegal
        action raises the reference engine's IllegalAction and changes nothing."""
        kind = type(action)  # exactly an action class (require_action): compared by identity
        if kind not in ACTION_CLASSES:
            require_action(action)
        if kind is Plan:
            assert isinstance(action, Plan)
            self._check_plan(action)
            self._apply_plan(action)
        elif kind is Discard:
            assert isinstance(action, Discard)
            self._check_discard(action)
            self._apply_discard(action)
        elif kind is Shuffle:
            assert isinstance(action, Shuffle)
            self._check_shuffle(action)
            self._apply_shuffle(action)
        elif not self._offered(action):  # react and slipstream choices
            self._reject(action)
        elif kind is EndReact:
            self.stage = SLIPSTREAM
        elif kind is Slipstream:
            self._move(self.car, SLIPSTREAM_SPACES)
            self._after_slipstream()
        elif kind is Boost:
            self._boost()
        elif kind is AdrenalineMove:
            self._adrenaline_move()
        elif kind is Cooldown:
            assert isinstance(action, Cooldown)
            self._cool(action.amount)
            self.cooldown_used = True
        elif kind is AdrenalineCooldown:
            self._cool(1)
            self.adrenaline_cooldown_used = True
        else:  # DeclineSlipstream
            self._after_slipstream()
        self._legal = None
        self._advance()

    def _offered(self, action: Action) -> bool:
        """Whether ``action`` is among the legal actions (tried by identity first: a chosen
        action is usually the table's own object)."""
        legal = self.legal_actions()
        for offered in legal:
            if offered is action:
                return True
        return action in legal

    def _offered_here(self, action: Action) -> bool:
        """Whether ``action`` is, by identity, one of the legal actions already listed for
        this moment (a chosen action usually is; any other answer is checked in full)."""
        legal = self._legal
        if legal is not None:
            for offered in legal:
                if offered is action:
                    return True
        return False

    def _reject(self, action: Action) -> NoReturn:
        """Raise the reference engine's error for an action that is not legal here."""
        check_action(self.to_state(), action)
        raise IllegalAction("round.sequence", f"{action} is not a legal action now")

    def _check_plan(self, plan: Plan) -> None:
        """Reject (with the reference engine's error) a plan that is not legal now."""
        if self._offered_here(plan):
            return
        if self.shuffle is None and self.phase is PLAN and plan.car == self.order[self.cursor]:
            car = self.cars[plan.car]
            if (plan.gear, plan.cards) in PLANS(car.gear, car.engine >= 1, car.hand,
                                                       self._cluttered_free_only):
                return
        self._reject(plan)

    def _check_discard(self, discard: Discard) -> None:
        """Reject (with the reference engine's error) a discard that is not legal now."""
        if self._offered_here(discard):
            return
        if (self.shuffle is None and self.phase is TURN and self.stage is DISCARD
                and discard.car == self.car
                and discard.cards in DISCARDS(self.cars[self.car].hand)):
            return
        self._reject(discard)

    # implements: deck.reshuffle
    def _check_shuffle(self, action: Shuffle) -> None:
        """heatcore.heat.cleanup.check_shuffle."""
        if self.shuffle != action.car or sorted(action.order) != self.shuffle_pool():
            self._reject(action)

    # implements: deck.reshuffle
    def _apply_shuffle(self, action: Shuffle) -> None:
        """heatcore.heat.cleanup.apply_shuffle: the discard pile and the deck become the deck."""
        car = self.cars[action.car]
        car.deck = list(action.order)
        car.discard = []
        self.shuffle = None
        self._pool = None

    # implements: play.card-count, info.plan-simultaneous, ruling.simultaneous-planning
    def _apply_plan(self, plan: Plan) -> None:
        """heatcore.heat.planning.apply_plan, then (after the last plan) the shifts and the
        first turn."""
        car = self.cars[plan.car]
        car.hand = _without(car.hand, plan.cards)
        car.played = plan.cards
        self.cursor += 1
        if self.cursor == len(self.order):
            self._shift_gears()
            self.phase = TURN
            self.cursor = 0
            self._start_turn()

    # implements: gear.shift.free, gear.shift.two-costs-heat, info.gears-shown,
    # implements: ruling.simultaneous-planning
    def _shift_gears(self) -> None:
        """heatcore.heat.planning.shift_gears: each car takes the gear of its plan; a two-gear
        shift pays one Heat."""
        for index in self.order:
            car = self.cars[index]
            gear = len(car.played)
            if abs(gear - car.gear) == 2:
                car.engine -= 1
                car.discard.append(HEAT)
            car.gear = gear

    # implements: react.cooldown, adrenaline.effects
    def _cool(self, amount: int) -> None:
        """heatcore.heat.react.apply_react: cooldown moves Heat from hand (where Heat sorts last)
        to the engine."""
        car = self.cars[self.car]
        car.hand = car.hand[:len(car.hand) - amount]
        car.engine += amount

    # implements: adrenaline.effects, speed.turn-total, ruling.blocked-extra-move
    def _adrenaline_move(self) -> None:
        """heatcore.heat.react.apply_react: +1 speed, one space."""
        self.adrenaline_move_used = True
        self.speed += 1
        self._move(self.car, 1)

    # implements: react.boost
    def _boost(self) -> None:
        """heatcore.heat.react.apply_react: pay one Heat and flip for a basic card."""
        car = self.cars[self.car]
        car.engine -= 1
        car.discard.append(HEAT)
        self.boosted = True
        self.stage = BOOST
        self.flips_left = 1

    def _apply_discard(self, action: Discard) -> None:
        """heatcore.heat.cleanup.apply_discard."""
        car = self.cars[self.car]
        car.hand = _without(car.hand, action.cards)
        car.discard += action.cards
        self._enter_replenish()

    # ------------------------------------------------------------------ automatic steps

    def _advance(self) -> None:
        """heatcore.heat.engine._advance: every step that needs no choice."""
        while self.shuffle is None and self.phase is TURN:
            stage = self.stage
            if stage is REVEAL or stage is BOOST:
                if self.flips_left > 0:
                    self._flip_once()
                else:
                    self._finish_flips()
            elif stage is REACT:
                legal = self._react_actions()
                if len(legal) > 1:
                    self._legal = legal
                    return
                self.stage = SLIPSTREAM
            elif stage is SLIPSTREAM:
                if self._can_slipstream():
                    return
                self._after_slipstream()
            elif stage is DISCARD:
                return
            elif self._draw_to_hand_size():
                self._end_turn()

    # implements: round.sequence, adrenaline.who, ruling.adrenaline-order
    def _start_turn(self) -> None:
        """heatcore.heat.engine._start_turn: open steps 3-9 for the car at the cursor."""
        index = self.order[self.cursor]
        self.car = index
        self.start_position = self.cars[index].position
        self.speed = self.to_move = self.flips_left = 0
        self.adrenaline = self.cursor >= len(self.order) - self.adrenaline_cars
        self.cooldown_used = self.adrenaline_move_used = False
        self.adrenaline_cooldown_used = self.boosted = False
        # ruling.setback-corner "checked": the farthest space aimed at starts where the car is
        self.reach = self.start_position if self._checked_setback else 0
        self._reveal()

    # implements: reveal.speed, play.cluttered
    def _reveal(self) -> None:
        """heatcore.heat.reveal.reveal: speed is the cards' sum; each Stress asks for a flip; a
        cluttered play drops to gear 1, discards its cards and goes to replenish."""
        car = self.cars[self.car]
        played = car.played
        if HEAT in played:
            car.gear = 1
            car.discard += played
            car.played = ()
            self.stage = REPLENISH
            return
        self.speed = self.to_move = sum([VALUE[card] for card in played])
        self.flips_left = played.count(STRESS)
        self.stage = REVEAL

    # implements: reveal.stress-flip, react.boost, deck.reshuffle, ruling.flip-no-basic
    def _flip_once(self) -> None:
        """heatcore.heat.reveal.flip_once: turn over one card, or await a shuffle."""
        car = self.cars[self.car]
        deck = car.deck
        top_is_basic = bool(deck) and deck[0] in BASIC_SET  # the usual case: no search
        if (not top_is_basic and BASIC_SET.isdisjoint(deck)
                and BASIC_SET.isdisjoint(car.discard)):
            self.flips_left -= 1
            return
        if not deck:
            self.shuffle = self.car
            self._pool = None  # a new chance point: shuffle_pool's cards are made anew
            return
        top = deck.pop(0)
        if top in BASIC_SET:
            car.flipped.append(top)
            self.flips_left -= 1
            self.speed += VALUE[top]
            self.to_move += VALUE[top]
        else:
            car.discard.append(top)

    def _finish_flips(self) -> None:
        """heatcore.heat.reveal.finish_flips: move the pending spaces, then react."""
        self._move(self.car, self.to_move)
        self.stage = REACT
        self.to_move = 0

    def _board(self, position: int, racing_line: bool) -> int:
        """heatcore.heat.track.Track.board_spot (space 1..L, racing line) of an unrolled position,
        as one number: twice the space, plus one on the racing line."""
        return ((position - 1) % self._lap + 1) * 2 + (1 if racing_line else 0)

    # implements: place.racing-line-first, place.blocked, setup.board-space
    def _place(self, car: FastCar, position: int) -> None:
        """heatcore.heat.placement.free_spot_from: put ``car`` on the first free spot scanning
        back from ``position``, racing line first. ``spots`` holds the board spots of the
        cars on the track, on any lap (heatcore.heat.placement.occupied, plus the moving car)."""
        spots = self.spots
        spots.remove(self._board(car.position, car.racing_line))
        spot = self._free_spot(position)
        spots.add(self._board(spot[0], spot[1]))
        car.position, car.racing_line = spot

    def _free_spot(self, position: int) -> tuple[int, bool]:
        """The first spot whose board spot is not in ``spots`` scanning back from
        ``position``, racing line first (an unrolled position and its line)."""
        spots = self.spots
        while self._board(position, True) in spots and self._board(position, False) in spots:
            position -= 1
        return (position, self._board(position, True) not in spots)

    # implements: move.exact, ruling.zero-move, ruling.blocked-own-space
    def _landing(self, car: FastCar, spaces: int) -> tuple[int, bool] | None:
        """heatcore.heat.placement.landing: where a move of ``spaces`` puts ``car`` (None: it
        does not move)."""
        if spaces <= 0 and not (spaces == 0 and self._zero_place):
            return None
        own = (car.position, car.racing_line)
        own_board = self._board(own[0], own[1])
        spots = self.spots
        spots.remove(own_board)
        spot = self._free_spot(car.position + spaces)
        spots.add(own_board)
        if spaces > 0 and self._own_stay and spot[0] == car.position:
            return own
        return spot

    # implements: move.exact, place.speed-unchanged, ruling.zero-move, finish.line
    def _move(self, index: int, spaces: int) -> None:
        """heatcore.heat.placement.move_car: only the landing space matters."""
        car = self.cars[index]
        if spaces > 0 and self._checked_setback:  # ruling.setback-corner "checked"
            self.reach = max(self.reach, car.position + spaces)
        if spaces > 0 and not self._own_stay:
            self._place(car, car.position + spaces)
            return
        spot = self._landing(car, spaces)
        if spot is not None:
            spots = self.spots
            spots.remove(self._board(car.position, car.racing_line))
            spots.add(self._board(spot[0], spot[1]))
            car.position, car.racing_line = spot

    # implements: ruling.blocked-extra-move
    def _extra_move_open(self, spaces: int) -> bool:
        """heatcore.heat.react.extra_move_open: under "must-gain" only a move that changes spot."""
        if not self._must_gain:
            return True
        car = self.cars[self.car]
        return self._landing(car, spaces) != (car.position, car.racing_line)

    # implements: slipstream.eligible, slipstream.not-past-finish, setup.board-space,
    # implements: slipstream.earlier-lap, ruling.finished-car-turn, ruling.blocked-extra-move
    def _can_slipstream(self) -> bool:
        """heatcore.heat.slipstream.can_slipstream: beside a car or one space behind one on the
        board (cars on any lap), and never across (or after) the final finish line."""
        me = self.cars[self.car]
        if me.position + SLIPSTREAM_SPACES > self.finish:
            return False
        taken = self.spots
        ahead = me.position + 1
        can = (self._board(me.position, not me.racing_line) in taken
               or self._board(ahead, True) in taken or self._board(ahead, False) in taken
               ) and self._extra_move_open(SLIPSTREAM_SPACES)
        if can:
            self._legal = SLIPSTREAM_ACTIONS(self.car)
        return can

    # implements: ruling.spin-discard, ruling.finished-car-discard-draw
    def _after_slipstream(self) -> None:
        """heatcore.heat.engine._after_slipstream: corners, then discard or replenish."""
        spun = self._check_corners()
        car = self.cars[self.car]
        if (DISCARDABLE.isdisjoint(car.hand)
                or (self._finished_skip and car.position > self.finish)
                or (self._spin_skip_discard and spun)):
            self._enter_replenish()
        else:
            self.stage = DISCARD

    # implements: corner.check, corner.pay-heat, corner.spin, speed.turn-total,
    # implements: slipstream.speed-unchanged, corner.after-finish-ignored, ruling.stress-supply,
    # implements: ruling.setback-corner
    def _check_corners(self) -> bool:
        """heatcore.heat.corners.check_corners: pay each crossed line's excess speed in Heat,
        or spin out at the first line the engine cannot pay. True if the car spun."""
        car = self.cars[self.car]
        lines = self.corner_lines
        index = bisect_left(self.corner_positions, self.start_position)
        end = max(car.position, self.reach) if self._checked_setback else car.position
        while index < len(lines) and lines[index][0] < end:  # crossed: start <= c < end
            line_position, limit, number = lines[index]
            index += 1
            excess = self._excess(limit, number)
            if excess > 0 and self._pay_or_spin(car, excess, line_position):
                return True
        return False

    # implements: corner.pay-heat
    def _excess(self, limit: int, number: int) -> int:
        """The Heat a crossed corner line costs: the speed over its printed ``limit`` (the
        corner is ``number``, counted from 1, for the modules that change it)."""
        return self.speed - limit

    # implements: corner.pay-heat, corner.spin, ruling.stress-supply
    def _pay_or_spin(self, car: FastCar, excess: int, line_position: int) -> bool:
        """heatcore.heat.corners.check_corners at one line: pay ``excess`` Heat from the engine,
        or (too little there) pay what is there and spin out behind the line: gear 1 and
        the Stress cards (as many as the supply has, unless unlimited). True if it spun."""
        if car.engine >= excess:
            car.engine -= excess
            car.discard += [HEAT] * excess
            return False
        car.discard += [HEAT] * car.engine
        car.engine = 0
        self._place(car, line_position)
        self.spins += 1
        stress = spin_stress(car.gear)
        if not self._stress_unlimited:
            stress = min(stress, self.supply)
        car.gear = 1
        car.hand = WITH_CARDS(car.hand, (STRESS,) * stress)
        self.supply -= stress
        return True

    # implements: replenish.cleanup, replenish.discard-before-draw
    def _enter_replenish(self) -> None:
        """heatcore.heat.cleanup.enter_replenish: played and flipped cards to the discard pile."""
        car = self.cars[self.car]
        car.discard += car.played
        car.discard += car.flipped
        car.played = ()
        car.flipped = []
        self.stage = REPLENISH

    # implements: replenish.draw, deck.reshuffle, ruling.replenish-empty, ruling.hand-over-limit,
    # implements: ruling.finished-car-discard-draw
    def _draw_to_hand_size(self) -> bool:
        """heatcore.heat.cleanup.draw_to_hand_size: draw to 7; False if a shuffle is awaited."""
        car = self.cars[self.car]
        if self._finished_skip and car.position > self.finish:
            return True
        need = HAND_SIZE - len(car.hand)
        if need <= 0:
            return True
        deck = car.deck
        if deck:
            car.hand = WITH_CARDS(car.hand, deck[:need])
            del deck[:need]
        if len(car.hand) >= HAND_SIZE or not car.discard:
            return True
        self.shuffle = self.car
        self._pool = None  # a new chance point: shuffle_pool's cards are made anew
        return False

    def _end_turn(self) -> None:
        """heatcore.heat.engine._end_turn: the next car's turn, or the end of the round."""
        self.cursor += 1
        if self.cursor < len(self.order):
            self._start_turn()
        else:
            self._end_round()

    def _standing(self, cars: list[int] | tuple[int, ...]) -> tuple[int, ...]:
        """heatcore.heat.rounds.standing: furthest first, racing line first in a space."""
        return tuple(sorted(cars, key=lambda i: (-self.cars[i].position,
                                                  not self.cars[i].racing_line)))

    # implements: finish.ranking, finish.removed, round.sequence, order.fixed-at-round-start
    def _end_round(self) -> None:
        """heatcore.heat.rounds.end_round and start_round: rank the finishers, then fix the next
        round's order (or end the race)."""
        finishers = self._standing([i for i in self.order if self.cars[i].position > self.finish])
        self.ranking += finishers
        for index in finishers:
            self.spots.remove(self._board(self.cars[index].position,
                                                    self.cars[index].racing_line))
        if len(self.ranking) == len(self.cars):
            self.phase = OVER
            self.order = ()
            self.cursor = 0
            return
        ranked = self.ranking
        self.order = self._standing([i for i in range(len(self.cars)) if i not in ranked])
        self.round += 1
        self.phase = PLAN
        self.cursor = 0
