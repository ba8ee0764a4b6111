"""A spin leaves the car in its gear (the rule: back to 1st gear)."""

from heatcore import engine
from heatcore.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.values import replace

_original = original(engine, "check_corners")


def _check_corners(state, turn, events):  # type: ignore[no-untyped-def]
    gear = state.cars[turn.car].gear
    before = len(events)
    state = _original(state, turn, events)
    if any(e.kind == "spun-out" for e in events[before:]):
        state = state.with_car(turn.car, replace(state.cars[turn.car], gear=gear))
    return state


patch(engine, "check_corners", _check_corners)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("spin_keeps_gear"))
