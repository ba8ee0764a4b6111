"""Heat in the conformance kit: the binding (heatcore as the reference engine over plain
JSON), attribution of divergences to rules, the fixture corpus (``corpus``, ``cases`` and the
case generators), steering policies and the planted engines (``mutants``).

May import: :mod:`heatcore.framework` and :mod:`heatcore.heat`.
"""
