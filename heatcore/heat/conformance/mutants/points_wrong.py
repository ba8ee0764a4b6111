"""A championship that scores the last place 1 point too many (championship.points)."""

from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.heat.modules.championship import standings

_original = original(standings, "race_points")


def _race_points(order, eliminated, event, players):  # type: ignore[no-untyped-def]
    points = list(_original(order, eliminated, event, players))
    if order and order[-1] not in eliminated:
        points[order[-1]] += 1
    return tuple(points)


patch(standings, "race_points", _race_points)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("points_wrong"))
