"""The hand-written rule tests, run again on the fast engine (``heatcore.fast``).

Each rule test of the modules below builds a hand-made state, acts through
``heatcore.engine.apply`` / ``legal_actions`` and checks the rule's outcome against values
written by hand. Here the same test runs with those two functions answered by
:class:`heatcore.fast.FastRace` instead (a fresh fast race from the state, one action, its
state back), so it checks the fast engine's rules with the same hand-written expectations:
independent of the fast engine's code, and not a comparison with the reference engine.
Tests that read the reference engine's events are left out (the fast engine reports
none), as are tests that never reach the engine (they would pass without checking it).
"""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import pytest
import test_rules_edges
import test_rules_planning
import test_rules_turn
import test_rulings

from heatcore import engine
from heatcore.actions import Action
from heatcore.fast import FastRace
from heatcore.state import RaceState

MODULES = (test_rules_edges, test_rules_planning, test_rules_turn, test_rulings)

#: Rule tests left out, and why (they pass on the fast engine only by not asking it).
_INTERNAL = "calls a function of the reference engine itself, not apply or legal_actions"
LEFT_OUT: dict[str, str] = {
    "test_rules_edges.py::test_a_hand_over_seven_draws_nothing": _INTERNAL,
    "test_rules_edges.py::test_the_supply_is_the_boxs_37_stress_less_three_per_deck": _INTERNAL,
    "test_rules_turn.py::test_the_race_goes_on_until_every_car_has_finished": _INTERNAL,
    "test_rulings.py::test_draw_stops_short_when_nothing_is_left_and_never_over_seven":
        _INTERNAL,
    "test_rulings.py::test_races_of_other_lengths_than_the_board_play_to_the_end": _INTERNAL,
}


class FastCalls:
    """``apply`` and ``legal_actions`` answered by the fast engine; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def apply(self, state: RaceState, action: Action) -> tuple[RaceState, list[Any]]:
        """One action on a fast race made from ``state``: its state, and no events."""
        self.calls += 1
        race = FastRace(state)
        race.apply(action)
        return race.to_state(), []

    def legal_actions(self, state: RaceState) -> tuple[Action, ...]:
        """The fast race's legal actions at ``state``."""
        self.calls += 1
        return FastRace(state).legal_actions()


def _calls(test: Callable[..., None]) -> Iterator[dict[str, Any]]:
    """The keyword arguments of each parametrized case of ``test`` (one empty set if none)."""
    marks = [m for m in getattr(test, "pytestmark", []) if m.name == "parametrize"]
    axes = []
    for mark in marks:
        names = [n.strip() for n in mark.args[0].split(",")] if isinstance(
            mark.args[0], str) else list(mark.args[0])
        values = [v.values if hasattr(v, "values") else v for v in mark.args[1]]
        axes.append([dict(zip(names, v if len(names) > 1 else (v,), strict=True))
                     for v in values])
    for combo in itertools.product(*axes):
        yield {k: v for part in combo for k, v in part.items()}


def _rule_tests() -> list[Any]:
    """A pytest param per rule test that needs no fixture, carrying its rule marks."""
    params = []
    for module in MODULES:
        for name, test in inspect.getmembers(module, inspect.isfunction):
            marks = getattr(test, "pytestmark", [])
            rules = [m for m in marks if m.name == "rules"]
            key = f"{module.__name__}.py::{name}"
            if not name.startswith("test_") or not rules or key in LEFT_OUT:
                continue
            source = inspect.getsource(test)
            if "events" in source or "kinds(" in source:
                continue  # reads the reference engine's events
            wanted = set(inspect.signature(test).parameters)
            given = {k for case in _calls(test) for k in case}
            if wanted - given:
                continue  # needs a fixture
            params.append(pytest.param(module, test, id=key, marks=rules))
    return params


def run_on_fast(module: ModuleType, test: Callable[..., None],
                monkeypatch: pytest.MonkeyPatch) -> int:
    """Run ``test`` (every parametrized case) with the engine calls answered by the fast
    engine; the number of fast-engine calls it made."""
    fast = FastCalls()
    for name in ("apply", "legal_actions"):
        reference = getattr(engine, name)
        for where in (module, engine):
            if getattr(where, name, None) is reference:
                monkeypatch.setattr(where, name, getattr(fast, name))
    for case in _calls(test):
        test(**case)
    return fast.calls


@pytest.mark.parametrize(("module", "test"), _rule_tests())
def test_the_fast_engine_passes_the_rule_test(module: ModuleType, test: Callable[..., None],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_on_fast(module, test, monkeypatch) > 0, "the test never asked the engine"
