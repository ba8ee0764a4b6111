"""Deliberately wrong Rallyman GT engines speaking the conformance protocol, to prove that
``heatcore conform --ruleset rallyman-gt`` catches bugs.

``python -m heatcore.rallyman.mutants NAME`` serves heatcore.rallyman with one rule broken;
``BROKEN`` maps each NAME to the rule it breaks.
"""

from __future__ import annotations

import sys
from typing import Any

from heatcore.rallyman import moves

BROKEN: dict[str, str] = {
    "dangerous_no_warning": "rgt.corner.dangerous",
    "steep_entry_ignored": "rgt.corner.steep-entry",
}

_arrive = moves.arrive


def _no_danger(track: Any, move: Any, gear: int) -> tuple[int, bool]:
    warnings, over = _arrive(track, move, gear)
    corner = track.spaces[move.dst].corner
    if corner is not None and corner.kind == "dangerous" and gear == corner.limit:
        warnings -= 1
    return warnings, over


def _no_steep_entry(track: Any, move: Any, gear: int) -> tuple[int, bool]:
    from dataclasses import replace

    return _arrive(track, replace(move, entry_limit=None), gear)


PATCHES = {"dangerous_no_warning": _no_danger, "steep_entry_ignored": _no_steep_entry}


def main(argv: list[str]) -> int:
    """Serve the mutant named in ``argv``."""
    if len(argv) != 1 or argv[0] not in PATCHES:
        print(f"mutants: name one of {', '.join(sorted(PATCHES))}", file=sys.stderr)
        return 2
    vars(moves)["arrive"] = PATCHES[argv[0]]
    from heatcore.conformance.serve import run
    from heatcore.rallyman.binding import RallymanBinding

    binding = RallymanBinding()
    binding.name = f"mutant:{argv[0]}"
    return run(binding)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
