"""Heat: Pedal to the Metal, the game: its core race and its modules.

Here: the track, cards, state, actions and their notation, the set-up, and the steps of a
round (planning, reveal, corners, react, slipstream, placement, cleanup, rounds), with
``engine`` (``legal_actions``, ``apply``) over them; :mod:`~heatcore.heat.hooks`, the points
where a module changes a step; :mod:`~heatcore.heat.modules` (weather and road conditions,
Legends, the Garage, the Championship); the fast engine (:mod:`~heatcore.heat.fast`); the
independent model and checkers (:mod:`~heatcore.heat.oracle`, ``race_checker``,
``championship_check``); and the conformance kit's Heat binding and fixture cases
(:mod:`~heatcore.heat.conformance`).

May import: :mod:`heatcore.framework` and itself; never :mod:`heatcore.rallyman` or
:mod:`heatcore.tools`. The core steps import no module of :mod:`heatcore.heat.modules`.

Importing this package fills the hook points (each module fills its own when imported) and
the state's text forms (``repr`` and ``str``), so any import of Heat plays every module.
"""

import heatcore.heat.modules.garage.turn
import heatcore.heat.modules.legends
import heatcore.heat.modules.sponsorship
import heatcore.heat.modules.weather
import heatcore.heat.notation
import heatcore.heat.summary  # noqa: F401
