"""A two-gear shift costs no Heat (the payment is removed)."""

from heatcore import engine
from heatcore.cards import HEAT, canonical, remove
from heatcore.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.values import replace

_original = original(engine, "apply_plan")


def _apply_plan(state, plan, events):  # type: ignore[no-untyped-def]
    before = len(events)
    state = _original(state, plan, events)
    if any(e.kind == "paid-heat" for e in events[before:]):
        events[before:] = [e for e in events[before:] if e.kind != "paid-heat"]
        car = state.cars[plan.car]
        car = replace(car, engine=car.engine + 1,
                      discard=canonical(remove(car.discard, (HEAT,)) or car.discard))
        state = state.with_car(plan.car, car)
    return state


patch(engine, "apply_plan", _apply_plan)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("two_shift_free"))
