"""Adrenaline goes to the leader (first in turn order) instead of the last car."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant
from heatcore.heat.rounds import adrenaline_count


def _has_adrenaline(state, car):  # type: ignore[no-untyped-def]
    return state.order.index(car) < adrenaline_count(len(state.cars))


patch(engine, "has_adrenaline", _has_adrenaline)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("adrenaline_wrong_car"))
