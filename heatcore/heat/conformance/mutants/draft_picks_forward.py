"""A Garage round whose cars pick from the pole backwards (championship.garage-round): the
engine refuses a round picked from the last car on the grid, as the rules have it."""

from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.heat.modules.championship import garage

_original = original(garage, "apply_round")


def _apply_round(pool, upgrades, grid, rnd):  # type: ignore[no-untyped-def]
    return _original(pool, upgrades, tuple(reversed(grid)), rnd)


patch(garage, "apply_round", _apply_round)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("draft_picks_forward"))
