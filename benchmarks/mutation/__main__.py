"""Command line of :mod:`benchmarks.mutation`."""

from __future__ import annotations

import sys

from benchmarks.mutation.report import main

raise SystemExit(main(sys.argv[1:]))
