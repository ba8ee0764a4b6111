"""A two-gear shift costs no Heat (the payment is removed)."""

from heatcore.framework.values import replace
from heatcore.heat import engine
from heatcore.heat.cards import HEAT, canonical, remove
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(engine, "shift_gears")


def _shift_gears(state, events):  # type: ignore[no-untyped-def]
    before = len(events)
    state = _original(state, events)
    paid = [e.car for e in events[before:] if e.kind == "paid-heat"]
    events[before:] = [e for e in events[before:] if e.kind != "paid-heat"]
    for index in paid:
        car = state.cars[index]
        car = replace(car, engine=car.engine + 1,
                      discard=canonical(remove(car.discard, (HEAT,)) or car.discard))
        state = state.with_car(index, car)
    return state


patch(engine, "shift_gears", _shift_gears)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("two_shift_free"))
