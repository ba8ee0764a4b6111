"""Slipstream is offered across (and after) the final finish line."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant
from heatcore.heat.placement import occupied


def _can_slipstream(state, car):  # type: ignore[no-untyped-def]
    me = state.cars[car]
    taken = occupied(state, car)
    return ((me.position, not me.racing_line) in taken
            or (me.position + 1, True) in taken
            or (me.position + 1, False) in taken)


patch(engine, "can_slipstream", _can_slipstream)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("slipstream_past_finish"))
