"""Slipstream adds its two spaces to the speed checked at corners."""

from dataclasses import replace

from heatcore.heat import engine
from heatcore.heat.actions import Slipstream
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(engine, "apply_slipstream")


def _apply_slipstream(state, turn, action, events):  # type: ignore[no-untyped-def]
    state = _original(state, turn, action, events)
    if isinstance(action, Slipstream) and state.turn is not None:
        state = replace(state, turn=replace(state.turn, speed=state.turn.speed + 2))
    return state


patch(engine, "apply_slipstream", _apply_slipstream)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("slipstream_adds_speed"))
