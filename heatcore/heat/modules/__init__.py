"""Heat's modules, each a named option of a race's setup layered on the core race: weather
and road conditions (``weather``), Legends (``legends``), the Garage (``garage``), the
Championship (``championship``) and its Sponsorship cards in a race (``sponsorship``).

A module changes a step of the core race only through the hook points the core declares
(:mod:`heatcore.heat.hooks`), which it fills when imported. May import:
:mod:`heatcore.framework`, the core of :mod:`heatcore.heat` and each other; the core steps
never import a module.
"""
