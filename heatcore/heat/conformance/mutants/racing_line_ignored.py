"""A car stops on the spot off the racing line when it is free, ignoring the racing line."""

from heatcore.heat import placement
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _free_spot_from(position, taken):  # type: ignore[no-untyped-def]
    while True:
        if (position, False) not in taken:
            return (position, False)
        if (position, True) not in taken:
            return (position, True)
        position -= 1


patch(placement, "free_spot_from", _free_spot_from)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("racing_line_ignored"))
