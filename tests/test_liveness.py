"""Liveness: the engine never stops in a state with no legal action, and no bound on the
rounds of a race exists (a lasso of legal play along which a car never finishes), so the
race's end rests on ruling.no-round-limit.

Independent of: the no-deadlock check reads only ``legal_actions`` and the state's own
flags; the lasso is replayed through ``apply``, which refuses any illegal action.
"""

from __future__ import annotations

import json

import pytest

from heatcore.heat.conformance.corpus import fixtures_dir
from heatcore.heat.engine import legal_actions
from heatcore.heat.notation import state_from_dict
from proofs.lasso import STALLER, check_lasso, find_lasso
from proofs.refine import refine


def _states(case: dict[str, object]) -> list[dict[str, object]]:
    out = [case["state"]] if isinstance(case.get("state"), dict) else []
    expect = case.get("expect")
    if isinstance(expect, dict):
        for step in expect.get("steps", []) or []:
            if isinstance(step, dict) and isinstance(step.get("state"), dict):
                out.append(step["state"])
    return out  # type: ignore[return-value]


@pytest.mark.rules("round.sequence")
def test_no_fixture_state_is_a_deadlock() -> None:
    checked = 0
    for path in sorted(fixtures_dir().glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            for data in _states(case):
                state = state_from_dict(data)
                checked += 1
                assert state.is_over() or state.is_chance() or legal_actions(state), \
                    (path.name, case["id"])
    assert checked > 400


@pytest.mark.rules("round.sequence")
def test_every_sampled_race_reaches_its_end() -> None:
    report = refine(200)
    assert report.races["races"] >= 2 and report.races["states"] > 1000
    assert report.races["unfinished"] == 0


@pytest.mark.rules("ruling.no-round-limit", "finish.removed", "corner.spin",
                   "discard.optional")
def test_a_lasso_keeps_a_car_from_finishing_for_ever() -> None:
    lasso = find_lasso()
    assert lasso is not None
    assert lasso.rounds >= 1 and lasso.position <= lasso.finish
    assert check_lasso(lasso, times=3) == []


@pytest.mark.rules("ruling.no-round-limit")
def test_the_lasso_check_rejects_a_loop_that_does_not_return() -> None:
    lasso = find_lasso()
    assert lasso is not None
    broken = type(lasso)(lasso.setup, lasso.prefix, lasso.loop[:-3], lasso.start_round,
                         lasso.rounds, lasso.position, lasso.finish)
    assert check_lasso(broken, times=1) != []
    assert STALLER == 0
