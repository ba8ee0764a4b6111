"""``heatcore.fast``: the public name of Heat's fast engine, :mod:`heatcore.heat.fast`.

Only the public names are here (the engine, its driver and which build runs); its modules
(``race``, ``tables``, ``modules``, ``driver``, ``compiled``) live in :mod:`heatcore.heat.fast`.
"""

from heatcore.heat.fast import (
    BUILD,
    FAST_POLICIES,
    CollectorPaused,
    FastCar,
    FastRace,
    FastRaceResult,
    fast_random_race,
    play,
)

__all__ = ["BUILD", "FAST_POLICIES", "CollectorPaused", "FastCar", "FastRace", "FastRaceResult",
           "fast_random_race", "play"]
