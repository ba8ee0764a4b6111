"""An engine that answers a few requests, then closes."""

from heatcore.heat.conformance.mutants._broken import misbehave

if __name__ == "__main__":
    raise SystemExit(misbehave("closes"))
