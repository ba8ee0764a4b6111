"""A boost costs no Heat (the payment is removed)."""

from heatcore.framework.values import replace
from heatcore.heat import engine
from heatcore.heat.actions import Boost
from heatcore.heat.cards import HEAT, canonical, remove
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(engine, "apply_react")


def _apply_react(state, turn, action, events):  # type: ignore[no-untyped-def]
    state = _original(state, turn, action, events)
    if isinstance(action, Boost):
        events[:] = [e for e in events if e.kind != "paid-heat"]
        car = state.cars[turn.car]
        car = replace(car, engine=car.engine + 1,
                      discard=canonical(remove(car.discard, (HEAT,)) or car.discard))
        state = state.with_car(turn.car, car)
    return state


patch(engine, "apply_react", _apply_react)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("boost_free"))
