"""Slipstream is never offered (behaviour removed)."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _can_slipstream(state, car):  # type: ignore[no-untyped-def]
    return False


patch(engine, "can_slipstream", _can_slipstream)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("no_slipstream"))
