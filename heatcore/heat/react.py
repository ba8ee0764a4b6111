"""Steps 4-5: adrenaline and react (cooldown, boost), each resolved once, in any order."""

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
    Cooldown,
    EndReact,
    SectorCooldown,
    UseSymbol,
)
from heatcore.heat.cards import HEAT, canonical, remove
from heatcore.heat.placement import landing, move_car
from heatcore.heat.rulings import BLOCKED_EXTRA_MOVE, COOLING_BONUS_COOLDOWN
from heatcore.heat.state import RaceState, Stage, Turn

#: Cooldown by gear (``react.cooldown``).
COOLDOWN = {1: 3, 2: 1, 3: 0, 4: 0}


@implements("ruling.blocked-extra-move")
def extra_move_open(state: RaceState, car: int, spaces: int) -> bool:
    """Whether an optional extra move (adrenaline +1, slipstream) may be taken: always
    (the default "allowed"), or under the alternative "must-gain" only when placement would
    leave the car on another spot than its own."""
    if not state.rulings.chose(BLOCKED_EXTRA_MOVE, "must-gain"):
        return True
    return landing(state, car, spaces) != state.cars[car].spot


def react_choices(state: RaceState, turn: Turn) -> list[Action]:
    """The react actions open now, in canonical order (``end react`` last)."""
    car = state.cars[turn.car]
    heat_in_hand = car.hand.count(HEAT) if hooks.cooldown_allowed(state, turn.car) else 0
    out: list[Action] = []
    if not turn.cooldown_used:
        gear_cooldown = COOLDOWN[car.gear] + hooks.gear_cooldown_bonus(state, turn.car)
        out += [Cooldown(turn.car, n) for n in range(1, min(gear_cooldown, heat_in_hand) + 1)]
    if turn.adrenaline and not turn.adrenaline_cooldown_used and heat_in_hand:
        out.append(AdrenalineCooldown(turn.car))
    if not turn.sector_cooldown_used and heat_in_hand and hooks.cooling_bonus(state, turn.car):
        out.append(SectorCooldown(turn.car))
    if (turn.adrenaline and not turn.adrenaline_move_used
            and extra_move_open(state, turn.car, 1)):
        out.append(AdrenalineMove(turn.car))
    if not turn.boosted and hooks.boost_open(state, turn.car, car.engine):
        out.append(Boost(turn.car))
    if state.garage is not None:
        out += hooks.symbol_choices(state, turn)
        if hooks.mandatory_pending(state, turn):
            return out
    out.append(EndReact(turn.car))
    return out


def check_react(state: RaceState, turn: Turn, action: Action) -> None:
    """Raise IllegalAction naming the rule if the react action is not open now."""
    car = state.cars[turn.car]
    if isinstance(action, UseSymbol):
        if state.garage is None:
            raise IllegalAction("garage.module", "upgrade symbols need the Garage module")
        hooks.check_symbol(state, turn, action)
    elif (isinstance(action, EndReact) and state.garage is not None
          and hooks.mandatory_pending(state, turn)):
        raise IllegalAction("garage.mandatory", "a mandatory symbol (Heat, Scrap) is still unused")
    cooling = isinstance(action, Cooldown | AdrenalineCooldown | SectorCooldown)
    if cooling and not hooks.cooldown_allowed(state, turn.car):
        raise IllegalAction("weather.no-cooldown", "no cooldown in this weather sector")
    if isinstance(action, SectorCooldown):
        if state.rulings.chose(COOLING_BONUS_COOLDOWN, "gear-plus-one"):
            raise IllegalAction(COOLING_BONUS_COOLDOWN, "under gear-plus-one the cooling bonus "
                                "is part of the gear's cooldown")
        if not hooks.cooling_bonus(state, turn.car):
            raise IllegalAction("weather.cooling-bonus",
                                "the car is not in a cooling-bonus sector")
        if turn.sector_cooldown_used:
            raise IllegalAction("weather.cooling-bonus", "the cooling bonus was already used")
        if not car.hand.count(HEAT):
            raise IllegalAction("react.cooldown", "cooldown takes Heat only from the hand")
    elif isinstance(action, Cooldown):
        if turn.cooldown_used:
            raise IllegalAction("react.any-order", "the gear's cooldown was already used")
        most = COOLDOWN[car.gear] + hooks.gear_cooldown_bonus(state, turn.car)
        if action.amount < 1 or action.amount > most:
            raise IllegalAction("react.cooldown", f"gear {car.gear} gives cooldown {most}")
        if action.amount > car.hand.count(HEAT):
            raise IllegalAction("react.cooldown", "cooldown takes Heat only from the hand")
    elif isinstance(action, AdrenalineCooldown | AdrenalineMove):
        if not turn.adrenaline:
            raise IllegalAction("adrenaline.who", "this car has no adrenaline this round")
        used = (turn.adrenaline_cooldown_used if isinstance(action, AdrenalineCooldown)
                else turn.adrenaline_move_used)
        if used:
            raise IllegalAction("react.any-order", "each adrenaline effect is used once")
        if isinstance(action, AdrenalineCooldown) and not car.hand.count(HEAT):
            raise IllegalAction("react.cooldown", "cooldown takes Heat only from the hand")
        if isinstance(action, AdrenalineMove) and not extra_move_open(state, turn.car, 1):
            raise IllegalAction("ruling.blocked-extra-move",
                                "under must-gain a blocked adrenaline move is not offered")
    elif isinstance(action, Boost):
        if turn.boosted:
            raise IllegalAction("react.boost", "boost is allowed once per turn")
        if not hooks.boost_open(state, turn.car, car.engine):
            raise IllegalAction("react.boost", "boost needs a Heat in the engine")


@implements("react.any-order", "react.cooldown", "react.boost", "adrenaline.effects",
            "speed.turn-total", "ruling.blocked-extra-move")
def apply_react(state: RaceState, turn: Turn, action: Action, events: list[Event]) -> RaceState:
    """Resolve one react action (already checked)."""
    car = state.cars[turn.car]
    if isinstance(action, Cooldown | AdrenalineCooldown | SectorCooldown):
        amount = action.amount if isinstance(action, Cooldown) else 1
        hand = remove(car.hand, (HEAT,) * amount)
        assert hand is not None
        events.append(event("cooled", turn.car, amount=amount))
        new_car = replace(car, hand=hand, engine=car.engine + amount)
        if isinstance(action, Cooldown):
            return state.with_car(turn.car, new_car, turn=replace(turn, cooldown_used=True))
        if isinstance(action, SectorCooldown):
            return state.with_car(turn.car, new_car,
                                  turn=replace(turn, sector_cooldown_used=True))
        return state.with_car(turn.car, new_car,
                              turn=replace(turn, adrenaline_cooldown_used=True))
    if isinstance(action, AdrenalineMove):
        events.append(event("adrenaline", turn.car, speed=turn.speed + 1))
        return move_car(state, turn.car, 1, "adrenaline", events,
                        turn=replace(turn, adrenaline_move_used=True, speed=turn.speed + 1))
    if isinstance(action, Boost):
        boost = replace(turn, boosted=True, stage=Stage.BOOST, flips_left=1)
        if hooks.free_boost(state, turn.car):
            events.append(event("free-boost", turn.car))
            return replace(state, turn=boost)
        events.append(event("paid-heat", turn.car, amount=1, cause="boost"))
        new_car = replace(car, engine=car.engine - 1, discard=canonical((*car.discard, HEAT)))
        return state.with_car(turn.car, new_car, turn=boost)
    if isinstance(action, UseSymbol):
        return hooks.apply_symbol(state, turn, action, events)
    assert isinstance(action, EndReact)
    return replace(state, turn=replace(turn, stage=Stage.SLIPSTREAM))
