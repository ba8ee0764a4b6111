"""Play races and rounds through the independent checker (heatcore.heat.race_checker) for the
module tests; a :class:`RuleViolation` the checker raises reaches the caller."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import strategies as st

from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action
from heatcore.heat.engine import apply, legal_actions
from heatcore.heat.race_checker import RaceChecker, RuleViolation
from heatcore.heat.setup import RaceSetup, start_race
from heatcore.heat.state import RaceState


def play_drawn_race(setup: RaceSetup, data: st.DataObject, max_steps: int = 3000) -> None:
    """Start ``setup`` and play it with actions (and shuffles) Hypothesis draws from ``data``,
    every step checked; the finish is checked too if the race ends within ``max_steps``."""
    state, events = start_race(setup)
    checker = RaceChecker()
    checker.start(state, events)
    while not state.is_over() and checker.steps < max_steps:
        action = (data.draw(hs.shuffles(state)) if state.is_chance()
                  else data.draw(st.sampled_from(legal_actions(state))))
        after, evs = apply(state, action)
        checker.step(state, action, after, evs)
        state = after
    if state.is_over():
        checker.finish()


def checked_round(state: RaceState, choose: Callable[[RaceState], Action]) -> list[str]:
    """Play the rest of ``state``'s round (or until the race ends) with the actions ``choose``
    picks, through the checker; returns the violation's text if it finds one, else []."""
    checker = RaceChecker()
    checker.resume(state)
    start = state.round
    try:
        while state.round == start and not state.is_over():
            action = choose(state)
            after, events = apply(state, action)
            checker.step(state, action, after, events)
            state = after
    except RuleViolation as violation:
        return [str(violation)]
    return []
