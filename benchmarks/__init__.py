"""heatcore benchmarks: ``python3 -m benchmarks [--tiny] [--json FILE]``."""
