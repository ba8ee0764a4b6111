"""Step 8 is never offered: no card is ever discardable (behaviour removed)."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _discardable(state, car):  # type: ignore[no-untyped-def]
    return ()


patch(engine, "discardable", _discardable)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("no_discard"))
