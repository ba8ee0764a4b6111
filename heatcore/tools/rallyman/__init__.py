"""Rallyman GT for people: ``heatcore race --game rallyman-gt`` and its play-by-play.

May import: :mod:`heatcore.framework`, :mod:`heatcore.rallyman` and :mod:`heatcore.tools`.
"""
