"""Negative controls for the race checker: a deliberately broken rule must be caught."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import pytest

import heatcore.heat.engine
from heatcore.heat.actions import Cooldown
from heatcore.heat.cards import HEAT, canonical, remove
from heatcore.heat.driver import greedy_policy
from heatcore.heat.race_checker import RuleViolation, check_race
from heatcore.heat.setup import random_setup

ORIGINAL_REACT = heatcore.heat.engine.apply_react


def _cooldown_from_discard(state: Any, turn: Any, action: Any, events: list[Any]) -> Any:
    """Broken rule: cooldown takes Heat from the discard pile instead of the hand."""
    after = ORIGINAL_REACT(state, turn, action, events)
    if isinstance(action, Cooldown):
        car = after.cars[turn.car]
        taken = (HEAT,) * action.amount
        discard = remove(car.discard, taken)
        if discard is not None:
            car = replace(car, hand=canonical(car.hand + taken), discard=discard)
            after = after.with_car(turn.car, car)
    return after


def _caught(seeds: range) -> RuleViolation | None:
    for seed in seeds:
        rng = random.Random(seed)
        try:
            check_race(random_setup("usa", 3, rng, laps=1), greedy_policy, rng)
        except RuleViolation as violation:
            return violation
    return None


@pytest.mark.rules("react.cooldown")
def test_checker_catches_cooldown_from_the_discard_pile(monkeypatch: pytest.MonkeyPatch) -> None:
    assert _caught(range(3)) is None  # the real rules pass
    monkeypatch.setattr(heatcore.heat.engine, "apply_react", _cooldown_from_discard)
    violation = _caught(range(20))
    assert violation is not None
    assert "react.cooldown" in violation.rules
