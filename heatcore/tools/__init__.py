"""Tools for people: the ``heatcore`` command line, and the reports, pictures and pages made
from races (``heat`` for Heat's, ``rallyman`` for Rallyman GT's).

May import: everything in heatcore. Nothing outside this package imports it (the rules
never depend on how they are shown).
"""
