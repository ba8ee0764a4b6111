"""Rallyman GT for people: ``heatcore race --game rallyman-gt`` and its play-by-play.

May import: :mod:`heatcore.framework`, ``heatcore.rallyman`` and :mod:`heatcore.tools`.
"""
