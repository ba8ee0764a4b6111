"""Whole races, every step checked: a Hypothesis state machine and a seeded batch.

The machine (``RaceMachine``) sets up a one-lap race on any base track with 2-6 cars and
lets Hypothesis choose every action and every shuffle (a permutation); after each step
``heatcore.heat.strategies.RaceChecker`` checks the invariants of the rules (each failure names
its rule IDs). The seeded batch (fixture ``race_batch`` in conftest) drives further
complete races, with steering policies, through the same checker.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import event, settings, target
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    rule,
)

from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action
from heatcore.heat.driver import greedy_policy
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import RaceState
from heatcore.heat.validity import status

INVARIANT_RULES = (
    "setup.engine", "react.cooldown", "corner.pay-heat", "react.boost",  # heat
    "setup.stress-supply", "corner.spin", "ruling.stress-supply",  # stress
    "setup.deck", "deck.reshuffle", "replenish.draw", "ruling.replenish-empty",  # cards
    "gear.range", "gear.shift.free", "gear.shift.two-costs-heat", "gear.shift.no-three",
    "play.cluttered", "play.heat-not-playable",
    "order.fixed-at-round-start", "round.sequence", "adrenaline.who",
    "adrenaline.count-fixed", "adrenaline.effects",
    "place.racing-line-first", "place.blocked", "move.exact",
    "corner.check", "corner.after-finish-ignored", "speed.turn-total",
    "reveal.stress-flip", "reveal.speed",
    "finish.line", "finish.ranking", "finish.removed",
)

STYLES: dict[str, hs.Policy] = {
    "aggressive": hs.aggressive_policy,
    "clutter": hs.clutter_policy,
    "greedy": greedy_policy,
}

#: Complete races the machine played in this session (reported by the batch test).
MACHINE_RACES: list[int] = []


class RaceMachine(RuleBasedStateMachine):
    """One-lap races; Hypothesis picks setup, a steering style, each action and shuffle."""

    def __init__(self) -> None:
        super().__init__()
        self.state: RaceState | None = None
        self.checker = hs.RaceChecker()
        self.style = "uniform"
        self.races = 0
        self.seen: set[str] = set()

    def _begin(self, setup: RaceSetup, style: str) -> None:
        self.state, events = start_race(setup)
        self.checker = hs.RaceChecker()
        self.checker.start(self.state, events)
        self.style = style
        event(f"players={setup.players}")
        event(f"track={setup.track}")

    @initialize(setup=hs.race_setups(laps=st.just(1)),
                style=st.sampled_from(["uniform", *STYLES]))
    def begin(self, setup: RaceSetup, style: str) -> None:
        self._begin(setup, style)

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """One step: a legal action or a shuffle; after a finished race, a new race."""
        state = self.state
        assert state is not None
        if state.is_over():
            self._begin(data.draw(hs.race_setups(laps=st.just(1)), label="setup"),
                        data.draw(st.sampled_from(["uniform", *STYLES]), label="style"))
            return
        action: Action
        if state.is_chance():
            action = data.draw(hs.shuffles(state), label="shuffle")
        else:
            legal = legal_actions(state)
            steer = self.style != "uniform" and data.draw(st.integers(0, 3)) > 0
            if steer:
                action = STYLES[self.style](state, legal, random.Random(self.checker.steps))
            else:
                action = data.draw(st.sampled_from(legal), label="action")
        after, events = apply(state, action)
        for name in self.checker.step(state, action, after, events):
            event(name)
            self.seen.add(name)
        self.state = after
        if after.is_over():
            self.checker.finish()
            self.races += 1
            MACHINE_RACES.append(1)
            event("race completed")

    @invariant()
    def valid(self) -> None:
        if self.state is not None:
            assert not status(self.state)

    def teardown(self) -> None:
        # steer generation towards runs that reach many different rare situations
        target(float(len(self.seen)), label="distinct rare situations")
        target(float(self.races), label="complete races")


RaceMachine.TestCase.settings = settings(
    settings(), stateful_step_count=800,
    max_examples=settings().max_examples)


@pytest.mark.rules(*INVARIANT_RULES)
class TestRaceMachine(RaceMachine.TestCase):  # type: ignore[misc]
    """Hypothesis plays races; every invariant is checked after every step."""


@pytest.mark.rules(*INVARIANT_RULES)
def test_seeded_batch_of_complete_races(race_batch: hs.RaceBatch) -> None:
    """The default run checks at least 300 complete races, every step (seeded batch plus
    the races the machine completed)."""
    total = race_batch.races + len(MACHINE_RACES)
    print(f"complete races checked: batch {race_batch.races}, machine {len(MACHINE_RACES)};"
          f" steps checked in batch {race_batch.steps}")
    assert race_batch.races >= 300
    assert total >= 300
    assert race_batch.steps > 300 * 50
