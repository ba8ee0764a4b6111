"""Shrinking a divergent race to a minimal repro: the shortest suffix of the race, started
from a state the reference computed, that still makes the other engine diverge."""

from __future__ import annotations

from collections.abc import Callable


def shortest_suffix(divergence: int, reproduces: Callable[[int], bool],
                    max_tries: int = 12) -> int | None:
    """The latest start index ``i <= divergence`` such that replaying steps ``i..divergence``
    from the reference's state before step ``i`` reproduces the divergence.

    Tries ``divergence`` itself first (one action from the last agreeing state), then starts
    further back at doubling distances, then bisects between the last failing and the first
    reproducing start. Returns None when no start reproduces it (not even the race start).
    """
    tries = 0
    if reproduces(divergence):
        return divergence
    tries += 1
    no, gap, yes = divergence, 1, None
    while yes is None and tries < max_tries:
        start = max(0, divergence - gap)
        tries += 1
        if reproduces(start):
            yes = start
        else:
            no = start
            if start == 0:
                return None
            gap *= 2
    if yes is None:
        return 0 if reproduces(0) else None
    while no - yes > 1 and tries < max_tries:
        middle = (no + yes + 1) // 2
        tries += 1
        if reproduces(middle):
            yes = middle
        else:
            no = middle
    return yes
