"""Not a bug: heatcore as an engine of the earlier protocol version, ``conform/1`` only (it
refuses a ``conform/2`` start as unsupported), so ``conform`` falls back to ``conform/1``
and checks it on the core race only (and must find nothing wrong)."""

from heatcore.framework.conformance import CORE_PROTOCOL, protocol
from heatcore.heat.conformance.mutants._serve import patch, serve_mutant

patch(protocol, "PROTOCOLS", (CORE_PROTOCOL,))

if __name__ == "__main__":
    raise SystemExit(serve_mutant("conform1_only"))
