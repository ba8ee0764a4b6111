"""Press corners counted from 0 (press.corners): every press corner is the one before."""

from heatcore.heat.conformance.mutants._serve import original, patch, serve_mutant
from heatcore.heat.modules.championship import press

_original = original(press, "press_corners")


def _press_corners(track, event):  # type: ignore[no-untyped-def]
    count = len(track.corners)
    return frozenset((n - 2) % count + 1 for n in _original(track, event))


patch(press, "press_corners", _press_corners)

if __name__ == "__main__":
    raise SystemExit(serve_mutant("press_off_by_one"))
