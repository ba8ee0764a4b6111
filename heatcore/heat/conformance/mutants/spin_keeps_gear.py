"""A spin leaves the car in its gear (the rule: back to 1st gear)."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import keep_gear_after, serve_mutant

keep_gear_after(engine, "check_corners", "spun-out")

if __name__ == "__main__":
    raise SystemExit(serve_mutant("spin_keeps_gear"))
