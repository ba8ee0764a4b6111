"""Only the first corner line crossed in a turn is checked."""

from heatcore.heat.conformance.mutants._serve import serve_mutant
from heatcore.heat.track import Track

_original = Track.corner_lines


def _corner_lines(self, start, end, laps):  # type: ignore[no-untyped-def]
    return _original(self, start, end, laps)[:1]


Track.corner_lines = _corner_lines  # type: ignore[method-assign]

if __name__ == "__main__":
    raise SystemExit(serve_mutant("one_corner_check"))
