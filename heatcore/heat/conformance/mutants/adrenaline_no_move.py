"""Adrenaline never offers its +1 move (behaviour removed)."""

from heatcore.heat import engine
from heatcore.heat.actions import AdrenalineMove
from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant

_original = original(engine, "react_choices")


def _react_choices(state, turn):  # type: ignore[no-untyped-def]
    return [a for a in _original(state, turn) if not isinstance(a, AdrenalineMove)]


patch(engine, "react_choices", _react_choices)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("adrenaline_no_move"))
