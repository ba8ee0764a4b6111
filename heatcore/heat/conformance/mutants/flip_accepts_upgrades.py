"""A Stress (or boost) flip also stops on the 0 and 5 starting upgrades."""

from heatcore.heat import reveal
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant


def _is_basic(card):  # type: ignore[no-untyped-def]
    return card in ("1", "2", "3", "4", "U0", "U5")


patch(reveal, "is_basic", _is_basic)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("flip_accepts_upgrades"))
