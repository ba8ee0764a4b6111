"""Steps 1-2: shift gears and play cards (including the cluttered hand)."""

from __future__ import annotations

from itertools import combinations

from heatcore.framework.errors import IllegalAction
from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat.actions import Plan
from heatcore.heat.cards import HEAT, PLAYABLE, canonical, remove
from heatcore.heat.rulings import CLUTTERED_GEAR
from heatcore.heat.state import Car, RaceState

LOWEST_GEAR = 1
HIGHEST_GEAR = 4


@implements("gear.range", "gear.shift.free")
def free_gears(car: Car) -> tuple[int, ...]:
    """Gears reachable for free: stay, one up, one down, within 1-4."""
    return tuple(g for g in (car.gear - 1, car.gear, car.gear + 1)
                 if LOWEST_GEAR <= g <= HIGHEST_GEAR)


@implements("gear.range", "gear.shift.two-costs-heat", "gear.shift.no-three")
def reachable_gears(car: Car) -> tuple[int, ...]:
    """Every gear this round: the free ones, and two steps if the engine can pay one Heat."""
    paid = (car.gear - 2, car.gear + 2) if car.engine >= 1 else ()
    return tuple(sorted(set(free_gears(car)) | {g for g in paid
                                                 if LOWEST_GEAR <= g <= HIGHEST_GEAR}))


@implements("play.playable-cards", "play.heat-not-playable")
def playable_in_hand(car: Car) -> tuple[str, ...]:
    """The hand's cards that may be played normally (all but Heat)."""
    return tuple(c for c in car.hand if c in PLAYABLE)


@implements("play.cluttered-only-when-forced", "ruling.cluttered-gear")
def is_cluttered(car: Car) -> bool:
    """True when no reachable gear allows a play of only non-Heat cards."""
    return len(playable_in_hand(car)) < min(reachable_gears(car))


@implements("play.cluttered", "ruling.cluttered-gear")
def cluttered_play(car: Car, gear: int) -> tuple[str, ...] | None:
    """The forced play in ``gear``: all playable cards plus Heat to make up the number."""
    playable = playable_in_hand(car)
    heat_needed = gear - len(playable)
    if heat_needed < 0 or car.hand.count(HEAT) < heat_needed:
        return None
    return canonical(playable + (HEAT,) * heat_needed)


@implements("play.cluttered", "ruling.cluttered-gear")
def cluttered_gears(car: Car, free_only: bool = False) -> tuple[int, ...]:
    """The gears a cluttered car may choose: every reachable gear, the paid two-step shift
    included, as for any other player (only the free shifts under the alternative
    free-shifts-only)."""
    return free_gears(car) if free_only else reachable_gears(car)


def legal_plans(state: RaceState, index: int) -> list[Plan]:
    """Every legal plan of the car, ordered by gear then cards."""
    car = state.cars[index]
    if is_cluttered(car):
        plans = []
        free_only = state.rulings.chose(CLUTTERED_GEAR, "free-shifts-only")
        for gear in cluttered_gears(car, free_only):
            cards = cluttered_play(car, gear)
            if cards is not None:
                plans.append(Plan(index, gear, cards))
        return plans
    playable = playable_in_hand(car)
    plans = []
    for gear in reachable_gears(car):
        for cards in dict.fromkeys(combinations(playable, gear)):
            plans.append(Plan(index, gear, cards))
    return plans


@implements("play.card-count", "play.playable-cards", "play.heat-not-playable",
            "gear.shift.two-costs-heat")
def check_plan(state: RaceState, plan: Plan) -> None:
    """Raise IllegalAction naming the rule if ``plan`` is not legal for its car now."""
    car = state.cars[plan.car]
    if not LOWEST_GEAR <= plan.gear <= HIGHEST_GEAR:
        raise IllegalAction("gear.range", f"gear {plan.gear} is outside 1-4")
    step = abs(plan.gear - car.gear)
    if step > 2:
        raise IllegalAction("gear.shift.no-three", f"shift from {car.gear} to {plan.gear}")
    if step == 2 and car.engine < 1:
        raise IllegalAction("gear.shift.two-costs-heat",
                            "a two-gear shift needs a Heat in the engine")
    if remove(car.hand, plan.cards) is None:
        raise IllegalAction("play.playable-cards",
                            f"cards {' '.join(plan.cards)} are not all in the hand")
    if len(plan.cards) != plan.gear:
        raise IllegalAction("play.card-count",
                            f"gear {plan.gear} plays {plan.gear} cards, not {len(plan.cards)}")
    if tuple(plan.cards) != canonical(plan.cards):
        raise IllegalAction("play.card-count", "cards must be listed in canonical order")
    if HEAT in plan.cards:
        if not is_cluttered(car):
            raise IllegalAction("play.heat-not-playable",
                                "Heat cannot be played while a legal play exists")
        if plan.gear not in cluttered_gears(
                car, state.rulings.chose(CLUTTERED_GEAR, "free-shifts-only")):
            raise IllegalAction("ruling.cluttered-gear",
                                "a cluttered hand may only stay or shift by one")
        if plan.cards != cluttered_play(car, plan.gear):
            raise IllegalAction("play.cluttered",
                                "a cluttered hand plays all its playable cards plus Heat")
    elif is_cluttered(car):
        raise IllegalAction("play.cluttered", "the hand is cluttered")


@implements("play.card-count", "info.plan-simultaneous", "ruling.simultaneous-planning")
def apply_plan(state: RaceState, plan: Plan, events: list[Event]) -> RaceState:
    """Take one car's plan: its cards go face down into the play area, and nothing else
    changes until every plan is in (``shift_gears``). The gear chosen is the number of
    cards played."""
    car = state.cars[plan.car]
    hand = remove(car.hand, plan.cards)
    assert hand is not None
    events.append(event("played", plan.car, cards=plan.cards))
    return state.with_car(plan.car, replace(car, hand=hand, played=plan.cards),
                          cursor=state.cursor + 1)


def planned_gear(car: Car) -> int:
    """The gear a car chose this round, once its plan is taken: as many as its cards."""
    return len(car.played)


@implements("gear.shift.free", "gear.shift.two-costs-heat", "info.gears-shown",
            "ruling.simultaneous-planning")
def shift_gears(state: RaceState, events: list[Event]) -> RaceState:
    """When every plan is in: every normal gear change (stay, up or down one) takes effect
    at once, then the two-gear shifts are declared and each pays one Heat from its
    engine to its discard pile, in turn order."""
    cars = list(state.cars)
    two_step = []
    for index in state.order:
        car = cars[index]
        if car.legend is not None:  # a Legend plans nothing
            continue
        gear = planned_gear(car)
        if abs(gear - car.gear) == 2:
            two_step.append(index)
        elif gear != car.gear:
            events.append(event("shifted", index, gear=gear))
            cars[index] = replace(car, gear=gear)
    for index in two_step:
        car = cars[index]
        gear = planned_gear(car)
        events.append(event("paid-heat", index, amount=1, cause="shift"))
        events.append(event("shifted", index, gear=gear))
        cars[index] = replace(car, gear=gear, engine=car.engine - 1,
                              discard=canonical((*car.discard, HEAT)))
    return replace(state, cars=tuple(cars))

