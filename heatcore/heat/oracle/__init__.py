"""An independent model of the core race, written apart from the engine, for checking it.

It reads the printed data in ``spec/`` itself (:mod:`heatcore.heat.oracle.printed`: card values,
track corners) and never calls the engine's rule modules, its card tables
(:mod:`heatcore.heat.cards`), its track object or its events.
:mod:`heatcore.heat.race_checker` drives it beside the engine and compares states, events
and the sets of legal actions.
"""
