"""Serve heatcore with one variant of :mod:`heatcore.heat.conformance.variants` planted:
``python -m heatcore.heat.conformance.mutants.planted RULE#N`` (the benchmark's planted engines,
``benchmarks/bench_attribution.py``)."""

from __future__ import annotations

import sys

from heatcore.framework.conformance.variants import Patcher
from heatcore.heat.conformance.mutants._serve import serve_mutant
from heatcore.heat.conformance.variants import VARIANTS


def main(argv: list[str]) -> int:
    """Plant the variant named by ``argv[0]`` and serve (``--ruling`` options may follow)."""
    named = {v.name: v for v in VARIANTS}
    if not argv or argv[0] not in named:
        print("planted: name a variant of heatcore.heat.conformance.variants (RULE#N)",
              file=sys.stderr)
        return 2
    named[argv[0]].plant(Patcher())
    return serve_mutant(f"planted:{argv[0]}", argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
