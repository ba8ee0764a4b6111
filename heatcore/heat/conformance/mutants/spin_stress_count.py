"""A spin always takes 1 Stress card (the rule: 2 in 3rd and 4th gear)."""

from heatcore.heat import corners
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _spin_stress(gear):  # type: ignore[no-untyped-def]
    return 1


patch(corners, "spin_stress", _spin_stress)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("spin_stress_count"))
