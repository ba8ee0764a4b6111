"""Heat for people: the play-by-play (``report``), pictures (``svg``), the race page
(``racepage``), many races' outcomes (``outcomes``), the rulebook's module pages, the golden
playthroughs, and the ``perft``, ``explore`` and ``championship`` commands.

May import: :mod:`heatcore.framework`, :mod:`heatcore.heat` and :mod:`heatcore.tools`.
"""
