"""A readable play-by-play of a Rallyman GT race (:mod:`heatcore.tools.rallyman.story` tells it)."""

from __future__ import annotations

from heatcore.rallyman.driver import Race
from heatcore.tools.rallyman.story import race_story


def play_by_play(race: Race, legend: bool = True) -> str:
    """The race as text: a legend (unless ``legend`` is false), each round's turns (one
    line per turn's dice, and a line per loss of control, damage, pit stop and finish) and
    the standings after it, then the final ranking."""
    return race_story(race, legend)
