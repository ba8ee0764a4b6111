"""An engine that answers a few requests, then huge."""

from heatcore.heat.conformance.mutants._broken import misbehave

if __name__ == "__main__":
    raise SystemExit(misbehave("huge"))
