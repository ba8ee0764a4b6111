"""Plays every state under the default rulings, whatever its ``rulings`` object chooses."""

from heatcore.heat import notation
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant
from heatcore.heat.rulings import DEFAULT_RULINGS, Rulings


def _rulings_from(data, path) -> Rulings:  # type: ignore[no-untyped-def]
    return DEFAULT_RULINGS


patch(notation, "rulings_from", _rulings_from)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("rulings_ignored"))
