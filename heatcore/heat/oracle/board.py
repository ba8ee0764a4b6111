"""The board as the seed describes it: spaces of two spots, placement, corner lines.

A position counts spaces from the start over all laps (the grid lies before 1). Two positions
one lap apart are the same physical space: cars stand on the board's spaces whatever lap they
are on, so a car a lap behind on the same space takes that spot, blocks it and gives
slipstream (seed 000, 公開、ストレスと移動 and スリップストリームとコーナー).
"""

from __future__ import annotations

from dataclasses import dataclass

from heatcore.heat.oracle.printed import PrintedTrack

Spot = tuple[int, bool]  # (physical space 1..L, on the racing line)


@dataclass(frozen=True)
class Board:
    """One track board raced over ``laps`` laps."""

    track: PrintedTrack
    laps: int

    @property
    def finish(self) -> int:
        """The last position before the final finish line."""
        return self.track.spaces_per_lap * self.laps

    def space(self, position: int) -> int:
        """The physical space (1..L) of a position."""
        return (position - 1) % self.track.spaces_per_lap + 1

    def spot(self, position: int, racing_line: bool) -> Spot:
        """The physical spot of a car."""
        return (self.space(position), racing_line)

    def place(self, target: int, taken: set[Spot]) -> tuple[int, bool]:
        """Where a car stops aiming at ``target``: its racing-line spot if free, else the
        other spot, else the nearest free spot behind, racing line first (place.*)."""
        position = target
        while True:
            for racing in (True, False):
                if self.spot(position, racing) not in taken:
                    return position, racing
            position -= 1

    def lines_crossed(self, start: int, end: int) -> list[tuple[int, int, int]]:
        """(position, limit, corner number) of every corner line crossed moving from
        ``start`` to ``end``, in crossing order; lines past the final finish line never count
        (corner.check, corner.after-finish-ignored)."""
        length = self.track.spaces_per_lap
        out = []
        for lap in range(-1, self.laps):
            for number, (after, limit) in enumerate(self.track.corners, start=1):
                line = after + length * lap
                if start <= line < end and line <= self.finish:
                    out.append((line, limit, number))
        return sorted(out)
