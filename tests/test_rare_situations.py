"""Rare situations are reached in the default run.

The seeded batch of complete races (fixture ``race_batch``: 300 one-lap races, steered by
the aggressive, clutter, mixed, greedy and uniform policies) is counted by
``RaceChecker``; the Hypothesis race machine also reports each situation with
``hypothesis.event`` (see ``--hypothesis-show-statistics``). A situation never reached
fails the test.
"""

from __future__ import annotations

import pytest

from heatcore.heat import strategies as hs

RULES_OF_SITUATION = {
    "spin-out": ("corner.spin",),
    "two-corners-one-move": ("corner.check",),
    "spin-at-second-corner-after-paying": ("corner.pay-heat", "corner.spin"),
    "cluttered-hand": ("play.cluttered", "play.cluttered-only-when-forced"),
    "adrenaline-two-cars": ("adrenaline.who", "adrenaline.count-fixed"),
    "slipstream-across-corner": ("slipstream.move", "slipstream.speed-unchanged"),
    "blocked-final-space": ("place.blocked", "ruling.blocked-extra-move"),
    "reshuffle-during-stress-flip": ("reveal.stress-flip", "deck.reshuffle"),
    "two-finish-one-round": ("finish.ranking",),
    "later-mover-wins": ("finish.ranking", "order.fixed-at-round-start"),
}


def test_the_situation_list_is_complete() -> None:
    assert set(RULES_OF_SITUATION) == set(hs.SITUATIONS)


@pytest.mark.parametrize("situation", hs.SITUATIONS)
@pytest.mark.rules("corner.spin", "corner.check", "corner.pay-heat", "play.cluttered",
                   "adrenaline.who", "slipstream.move", "place.blocked", "deck.reshuffle",
                   "reveal.stress-flip", "finish.ranking")
def test_situation_is_reached(race_batch: hs.RaceBatch, situation: str) -> None:
    seen = race_batch.situations[situation]
    print(f"{situation}: {seen} times in {race_batch.races} races")
    assert seen > 0, f"{situation} ({RULES_OF_SITUATION[situation]}) was never reached"
