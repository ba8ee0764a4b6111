"""A car whose final space is full goes on to the next free space instead of stopping behind."""

from heatcore.heat import placement
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _free_spot_from(position, taken):  # type: ignore[no-untyped-def]
    while True:
        if (position, True) not in taken:
            return (position, True)
        if (position, False) not in taken:
            return (position, False)
        position += 1


patch(placement, "free_spot_from", _free_spot_from)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("blocked_moves_forward"))
