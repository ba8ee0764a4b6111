"""Step 9 draws up to 6 cards instead of 7."""

from heatcore.heat import cleanup
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant

patch(cleanup, "HAND_SIZE", 6)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("draw_to_six"))
