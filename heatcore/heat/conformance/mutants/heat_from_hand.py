"""Corner Heat is paid from the Heat cards in hand first, the engine only for the rest."""

from dataclasses import replace

from heatcore.heat import engine
from heatcore.heat.cards import HEAT, remove
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(engine, "check_corners")


def _check_corners(state, turn, events):  # type: ignore[no-untyped-def]
    start = len(events)
    state = _original(state, turn, events)
    paid = sum(e.get("heat") or 0 for e in events[start:] if e.kind == "corner")
    car = state.cars[turn.car]
    from_hand = min(paid, car.hand.count(HEAT))
    if from_hand:
        hand = remove(car.hand, (HEAT,) * from_hand)
        car = replace(car, hand=hand, engine=car.engine + from_hand)
        state = state.with_car(turn.car, car)
    return state


patch(engine, "check_corners", _check_corners)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("heat_from_hand"))
