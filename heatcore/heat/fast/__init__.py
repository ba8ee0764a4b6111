"""The fast engine: the same rules as :mod:`heatcore.heat.engine`, on one mutable race object.

:class:`FastRace` keeps a race in plain mutable fields and changes them in place; its legal
actions come from tables built once per situation (a hand, a gear, the react options
left). It takes and returns the reference engine's action values, lists legal actions in
the same order, and raises the reference engine's typed errors (naming the same rule) and
leaves the race unchanged when an action is not legal. It records no events.

``FastRace.to_state()`` gives the reference :class:`~heatcore.heat.state.RaceState` of the race
at any moment and ``FastRace.from_state`` starts from one, so the two engines are compared
step by step (``tests/test_fast_engine.py``). Use the fast engine for volume (fuzzing,
mining, simulation) and the reference engine to read the rules, for events and reports.

``race`` and ``driver`` are compiled by mypyc when the package is installed on a machine
with a C compiler (``setup.py``); :data:`BUILD` says which build runs (``compiled``, or
``pure`` and why: see :mod:`heatcore.heat.fast.compiled`). Both builds are the same source.
"""

from heatcore.framework.registry import implements_marked
from heatcore.heat.fast.compiled import COMPILED, select, source_path

#: The build that runs: ``compiled``, or ``pure (reason)``.
BUILD = select()
# the rule IDs of the compiled modules are ``# implements:`` comments
# (heatcore.framework.registry.MARK)
for _module in COMPILED:
    implements_marked(_module, source_path(_module))

from heatcore.heat.fast.driver import (  # noqa: E402 (after the build is chosen)
    FAST_POLICIES,
    CollectorPaused,
    FastRaceResult,
    fast_random_race,
    play,
)
from heatcore.heat.fast.race import FastCar, FastRace  # noqa: E402

__all__ = ["BUILD", "FAST_POLICIES", "CollectorPaused", "FastCar", "FastRace", "FastRaceResult",
           "fast_random_race", "play"]
