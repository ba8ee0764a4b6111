"""An engine that answers a few requests, then garbage."""

from heatcore.heat.conformance.mutants._broken import misbehave

if __name__ == "__main__":
    raise SystemExit(misbehave("garbage"))
