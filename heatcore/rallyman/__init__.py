"""Rallyman GT (seed 004) on heatcore's framework: the same registry, rulings, explicit
chance, canonical JSON and validity contract as Heat, in a package of its own.

>>> from heatcore.rallyman.driver import random_race
>>> random_race("proving-ground", 2, seed=1, laps=1).final.is_over()
True
"""
