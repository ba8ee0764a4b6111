"""A cluttered play leaves the car in its gear (the rule: back to 1st gear)."""

from heatcore import engine
from heatcore.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.values import replace

_original = original(engine, "reveal")


def _reveal(state, turn, events):  # type: ignore[no-untyped-def]
    gear = state.cars[turn.car].gear
    before = len(events)
    state = _original(state, turn, events)
    if any(e.kind == "cluttered" for e in events[before:]):
        state = state.with_car(turn.car, replace(state.cars[turn.car], gear=gear))
    return state


patch(engine, "reveal", _reveal)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("cluttered_keeps_gear"))
