"""Validity: a named set of invariant checks. ``status(state)`` returns every problem."""

from __future__ import annotations

from collections import Counter
from enum import Flag, auto

from heatcore.framework.errors import InvalidState
from heatcore.framework.registry import implements
from heatcore.heat.cards import BOX_STRESS, HEAT, KNOWN_CARDS, STRESS, canonical, fixed_cards
from heatcore.heat.modules.garage.data import is_sponsor, sponsor_cards
from heatcore.heat.modules.garage.turn import garage_cards
from heatcore.heat.modules.weather import heat_per_car, stress_per_deck
from heatcore.heat.planning import HIGHEST_GEAR, LOWEST_GEAR
from heatcore.heat.rounds import standing
from heatcore.heat.rulings import STRESS_SUPPLY
from heatcore.heat.state import Garage, Phase, RaceState, Stage


class Problem(Flag):
    """Each flag names one broken invariant (with the rule it comes from)."""

    NONE = 0
    UNKNOWN_CARD = auto()  # setup.deck
    CARD_COUNT = auto()  # setup.deck: each car's non-Heat, non-Stress cards never change
    #   (garage.module: 12 basic cards and the car's own upgrades)
    HEAT_COUNT = auto()  # setup.engine: engine+hand+deck+discard+play area = track heat + 1
    #   (weather.setup-change: Fog +1, Snow -1)
    STRESS_COUNT = auto()  # setup.stress-supply: stress in decks + supply = the box's 37
    GEAR_RANGE = auto()  # gear.range
    SPOT_OCCUPANCY = auto()  # setup.board-space: no board spot holds two cars, on any lap
    TURN_ORDER = auto()  # order.fixed-at-round-start
    PHASE = auto()  # round.sequence: phase, cursor, turn and shuffle agree
    PLAY_AREA = auto()  # play.card-count: played cards only between plan and replenish
    RANKING = auto()  # finish.ranking: ranked cars have finished, once each
    NOT_CANONICAL = auto()  # hand and discard in canonical order
    LEGEND = auto()  # legend.setup: a Legend holds no cards, no Heat, gear 1; the module is on
    LAPS = auto()  # setup.track-laps: a race runs one lap or more


RULE_OF: dict[Problem, str] = {
    Problem.UNKNOWN_CARD: "setup.deck",
    Problem.CARD_COUNT: "setup.deck",
    Problem.HEAT_COUNT: "setup.engine",
    Problem.STRESS_COUNT: "setup.stress-supply",
    Problem.GEAR_RANGE: "gear.range",
    Problem.SPOT_OCCUPANCY: "setup.board-space",
    Problem.TURN_ORDER: "order.fixed-at-round-start",
    Problem.PHASE: "round.sequence",
    Problem.PLAY_AREA: "play.card-count",
    Problem.RANKING: "finish.ranking",
    Problem.NOT_CANONICAL: "round.sequence",
    Problem.LEGEND: "legend.setup",
    Problem.LAPS: "setup.track-laps",
}


@implements("sponsor.deck", "sponsor.one-time")
def sponsors_fit(garage: Garage) -> bool:
    """Whether the Sponsorship cards held and used in the race fit the box (the rest are in
    the Sponsorship deck, outside the race), each of them a Sponsorship card."""
    cards = [*garage.spent, *(c for h in garage.sponsors for c in h)]
    box = Counter({t: s.copies for t, s in sponsor_cards().items()})
    return all(is_sponsor(c) for c in cards) and not Counter(cards) - box


def _cards_problems(state: RaceState) -> Problem:
    found = Problem.NONE
    fixed = fixed_cards()
    stress_total = state.supply
    heat, stress = heat_per_car(state), stress_per_deck(state)
    for index, car in enumerate(state.cars):
        every = car.hand + car.deck + car.discard + car.played + car.flipped
        if state.garage is not None:  # garage.module: the car's own upgrades, its Heat
            fixed, heat = garage_cards(state, index)
        if car.legend is not None:
            if every or car.engine or car.gear != 1 or state.legends is None:
                found |= Problem.LEGEND
            continue
        if any(c not in KNOWN_CARDS for c in every):
            found |= Problem.UNKNOWN_CARD
        counts = Counter(every)
        if Counter({c: n for c, n in counts.items() if c not in (HEAT, STRESS)}) != fixed:
            found |= Problem.CARD_COUNT
        if counts[HEAT] + car.engine != heat or car.engine < 0:
            found |= Problem.HEAT_COUNT
        stress_total += counts[STRESS]
        if counts[STRESS] < stress:
            found |= Problem.STRESS_COUNT
        if car.hand != canonical(car.hand) or car.discard != canonical(car.discard):
            found |= Problem.NOT_CANONICAL
    if state.garage is not None and not sponsors_fit(state.garage):
        found |= Problem.CARD_COUNT
    unlimited = state.rulings.chose(STRESS_SUPPLY, "unlimited")  # ruling.stress-supply
    if stress_total != BOX_STRESS or (state.supply < 0 and not unlimited):
        found |= Problem.STRESS_COUNT
    return found


def _order_problems(state: RaceState) -> Problem:
    found = Problem.NONE
    racing = state.on_track()
    if state.phase is Phase.OVER:
        if racing or state.turn is not None or state.order or state.cursor != 0:
            found |= Problem.PHASE
        return found
    # a car eliminated in its turn stays in this round's order (event.sponsor-withdraws)
    if sorted(i for i in state.order if i not in state.out) != sorted(racing) \
            or not 0 <= state.cursor < max(1, len(state.order)):
        return found | Problem.TURN_ORDER | Problem.PHASE
    waiting = state.order[state.cursor + (1 if state.phase is Phase.TURN else 0):]
    if state.phase is Phase.PLAN:
        waiting = state.order
    if standing(state, waiting) != waiting:
        found |= Problem.TURN_ORDER
    return found


def _phase_problems(state: RaceState) -> Problem:
    found = Problem.NONE
    if (state.phase is Phase.TURN) != (state.turn is not None):
        found |= Problem.PHASE
    if state.turn is not None and (not 0 <= state.cursor < len(state.order)
                                   or state.turn.car != state.order[state.cursor]):
        found |= Problem.PHASE
    salvage = state.garage is not None and state.garage.salvage  # upgrade.salvage
    if salvage and state.shuffle is None:
        found |= Problem.PHASE
    if state.shuffle is not None and (
            state.shuffle >= len(state.cars) or (state.cars[state.shuffle].deck
                                                 and not salvage)):
        found |= Problem.PHASE
    elif state.shuffle is not None and state.is_legend(state.shuffle) and (
            state.legends is None or state.legends.deck):
        found |= Problem.PHASE  # legend.deck: the Legend deck is reshuffled only when empty
    if (state.phase is Phase.PLAN and 0 <= state.cursor < len(state.order)
            and state.is_legend(state.order[state.cursor])):
        found |= Problem.PHASE  # legend.turn-order: Legends do not plan
    for position, index in enumerate(state.order):
        car = state.cars[index]
        if car.legend is not None:
            continue
        planned = (state.phase is Phase.PLAN and position < state.cursor) or (
            state.phase is Phase.TURN and position >= state.cursor)
        acting = state.turn is not None and state.turn.car == index
        if acting and state.turn is not None and state.turn.stage is Stage.REPLENISH:
            planned = False
        if not planned and (car.played or car.flipped) and not acting:
            found |= Problem.PLAY_AREA
        if planned and state.phase is Phase.PLAN:
            # ruling.simultaneous-planning: the gear changes once every plan is in, so the
            # cards played name a gear reachable from the current one (one card or more:
            # a car before the cursor has planned)
            step = abs(len(car.played) - car.gear)
            if car.flipped or step > 2 or (step == 2 and car.engine < 1) or (
                    not car.played and index not in state.out):
                found |= Problem.PLAY_AREA
        elif planned and not acting and len(car.played) != car.gear:
            found |= Problem.PLAY_AREA
    return found


def status(state: RaceState) -> Problem:
    """Every invariant the state breaks (``Problem.NONE`` when valid)."""
    found = _cards_problems(state) | _order_problems(state) | _phase_problems(state)
    turn = state.turn
    if state.round < 1 or (turn is not None and min(turn.speed, turn.to_move,
                                                     turn.flips_left, turn.reach) < 0):
        found |= Problem.PHASE  # round.sequence: rounds count from 1, a turn's counts from 0
    if state.laps < 1:
        found |= Problem.LAPS
    for car in state.cars:
        if not LOWEST_GEAR <= car.gear <= HIGHEST_GEAR:
            found |= Problem.GEAR_RANGE
    board = state.track.board_spot
    spots = [board(state.cars[i].position, state.cars[i].racing_line) for i in state.on_track()]
    if len(spots) != len(set(spots)):
        found |= Problem.SPOT_OCCUPANCY
    ranked = state.ranking
    if len(set(ranked)) != len(ranked) or any(not state.has_finished(i) for i in ranked):
        found |= Problem.RANKING
    return found


def validate(state: RaceState) -> RaceState:
    """Return the state if valid; else raise InvalidState naming every problem and rule."""
    problems = status(state)
    if problems:
        names = [f"{p.name} ({RULE_OF[p]})" for p in Problem if p and p in problems]
        first = next(p for p in Problem if p and p in problems)
        raise InvalidState(RULE_OF[first], "invalid state: " + ", ".join(names))
    return state
