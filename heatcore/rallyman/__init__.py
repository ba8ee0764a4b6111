"""Rallyman GT (seed 004) on heatcore's framework: the same registry, rulings, explicit
chance, canonical JSON and validity contract as Heat, in a package of its own.

Here: the track, components, state, actions and their notation, the set-up, the steps of a
turn (planning, control, rounds, pits, order) with ``engine`` over them, the drivers and
batches, the independent checker (:mod:`~heatcore.rallyman.oracle`), the conformance
binding, attribution, fixtures and planted engines.

May import: :mod:`heatcore.framework` and itself; never :mod:`heatcore.heat` or
:mod:`heatcore.tools`. Importing it fills the state's text form (``repr``).

>>> from heatcore.rallyman.driver import random_race
>>> random_race("proving-ground", 2, seed=1, laps=1).final.is_over()
True
"""

import heatcore.rallyman.notation  # noqa: F401 (fills RaceState's text form)
