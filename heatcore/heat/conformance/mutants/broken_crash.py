"""An engine that answers a few requests, then crash."""

from heatcore.heat.conformance.mutants._broken import misbehave

if __name__ == "__main__":
    raise SystemExit(misbehave("crash"))
