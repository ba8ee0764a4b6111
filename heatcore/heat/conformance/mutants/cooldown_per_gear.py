"""Wrong cooldown table: 2nd gear cools 2 and 3rd gear 1 (the rule: 3, 1, 0, 0)."""

from heatcore.heat import react
from heatcore.heat.conformance.mutants._serve import serve_mutant

react.COOLDOWN.update({1: 3, 2: 2, 3: 1, 4: 0})

if __name__ == "__main__":
    raise SystemExit(serve_mutant("cooldown_per_gear"))
