"""A cluttered play leaves the car in its gear (the rule: back to 1st gear)."""

from heatcore.heat import engine
from heatcore.heat.conformance.mutants._serve import keep_gear_after, serve_mutant

keep_gear_after(engine, "reveal", "cluttered")

if __name__ == "__main__":
    raise SystemExit(serve_mutant("cluttered_keeps_gear"))
