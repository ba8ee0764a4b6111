"""Step 7: check every corner line crossed this turn; pay Heat or spin out."""

from __future__ import annotations

from heatcore.framework.events import Event, event
from heatcore.framework.registry import implements
from heatcore.framework.values import replace
from heatcore.heat import hooks
from heatcore.heat.cards import HEAT, STRESS, canonical
from heatcore.heat.placement import free_spot_from, occupied
from heatcore.heat.rulings import SETBACK_CORNER, STRESS_SUPPLY
from heatcore.heat.state import RaceState, Turn


@implements("corner.spin", "ruling.stress-supply")
def spin_stress(gear: int) -> int:
    """Stress cards a spin costs: 1 in gear 1-2, 2 in gear 3-4."""
    return 1 if gear <= 2 else 2


@implements("corner.check", "corner.pay-heat", "corner.spin", "speed.turn-total",
            "slipstream.speed-unchanged", "corner.after-finish-ignored", "ruling.stress-supply",
            "ruling.setback-corner")
def check_corners(state: RaceState, turn: Turn, events: list[Event]) -> RaceState:
    """Compare the turn's speed with each corner line crossed since the reveal, in crossing
    order. Pay the excess from engine to discard; if the engine cannot pay, pay it all,
    go back before that line, take Stress, drop to gear 1, and check no further."""
    car = state.cars[turn.car]
    end = car.position
    if state.rulings.chose(SETBACK_CORNER, "checked"):  # ruling.setback-corner
        end = max(end, turn.reach)
    lines = state.track.corner_lines(turn.start_position, end, state.laps)
    if not lines:
        return state
    for line in lines:
        limit = hooks.corner_limit(state, line.number, line.limit)  # road conditions
        if state.garage is not None:
            limit = hooks.adjust_limit(state, turn.car, limit)  # the Garage's Adjust
        excess = hooks.corner_heat(state, line.number, turn.speed - limit)
        if excess <= 0:
            events.append(event("corner", turn.car, corner=line.number, limit=limit,
                                speed=turn.speed, heat=0))
            continue
        if car.engine >= excess:
            events.append(event("corner", turn.car, corner=line.number, limit=limit,
                                speed=turn.speed, heat=excess))
            car = replace(car, engine=car.engine - excess,
                          discard=canonical(car.discard + (HEAT,) * excess))
            continue
        paid = car.engine
        position, racing = free_spot_from(line.position, occupied(state, turn.car))
        stress = spin_stress(car.gear)
        if not state.rulings.chose(STRESS_SUPPLY, "unlimited"):
            stress = min(stress, state.supply)
        events.append(event("spun-out", turn.car, corner=line.number, limit=limit,
                            speed=turn.speed, heat=paid, stress=stress, position=position,
                            racing_line=racing))
        car = replace(car, engine=0, discard=canonical(car.discard + (HEAT,) * paid),
                      position=position, racing_line=racing, gear=1,
                      hand=canonical(car.hand + (STRESS,) * stress))
        state = eliminate(replace(state, supply=state.supply - stress), turn.car, events)
        break
    return state.with_car(turn.car, car)


@implements("event.sponsor-withdraws", "ruling.eliminated-turn")
def eliminate(state: RaceState, car: int, events: list[Event]) -> RaceState:
    """Under an event whose spins eliminate, the car that just spun leaves the track (it
    joins ``out``); otherwise ``state`` unchanged."""
    if not state.changes.eliminate or car in state.out:
        return state
    events.append(event("eliminated", car))
    return replace(state, out=(*state.out, car))
