"""``python3 -m benchmarks``: run the benchmark suite."""

from benchmarks.run import main

raise SystemExit(main())
