"""Issue 26, Heat: the rules where the seeds and heatcore disagreed, checked in every part
(the bug-report transcripts under ``heatcore serve``, both engines, the independent
checker, the Z3 encoding and the crafted fixtures)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from typing import Any

import pytest
from test_bug_reports import ROOT, TRANSCRIPTS

from heatcore.heat import hooks
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.fidelity_cases import fidelity_cases, slipstream_near_finish
from heatcore.heat.engine import legal_actions
from heatcore.heat.fast import FastRace
from heatcore.heat.modules import weather
from heatcore.heat.notation import state_from_dict
from heatcore.heat.race_checker import RaceChecker, RuleViolation
from heatcore.heat.rulings import SLIPSTREAM_BONUS_PART
from heatcore.heat.state import RaceState
from proofs import slipstream_bonus as sb
from proofs.track_graph import BASE_TRACKS

BONUS_RULES = ("slipstream.not-past-finish", "weather.slipstream-boost",
               "road.slipstream-boost")
ANY_PART = {SLIPSTREAM_BONUS_PART: "any-part"}


@cache
def _binding() -> HeatBinding:
    return HeatBinding()


def _replies(name: str, *args: str) -> list[dict[str, Any]]:
    """The replies of ``heatcore serve ARGS`` (this checkout) to a kept transcript, whose
    last request may be refused."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "heatcore", "serve", *args],
                          input=(TRANSCRIPTS / name).read_text(encoding="utf-8"),
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120,
                          check=True)
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert all(r["ok"] for r in replies[:-1]), replies
    return replies


@pytest.mark.rules(*BONUS_RULES)
@pytest.mark.parametrize(("name", "action"), [
    ("weather-slipstream-bonus-past-finish.jsonl", "P1 slipstream +2"),
    ("road-slipstream-plus1-past-finish.jsonl", "P1 slipstream +1")])
def test_a_bug_report_bonus_across_the_final_line_is_neither_offered_nor_taken(
        name: str, action: str) -> None:
    replies = _replies(name)
    assert replies[2]["actions"] == ["P1 slipstream", "P1 no slipstream"]
    assert replies[3]["ok"] is False
    assert replies[3]["error"]["rule"] == "slipstream.not-past-finish"


def _state(token: str, behind: int, before: int = 2,
           rulings: dict[str, str] | None = None) -> RaceState:
    return state_from_dict(slipstream_near_finish(_binding(), token, behind, rulings, before))


SPOTS = [(token, behind, before, rulings) for token in ("weather", "slipstream-plus-1")
         for behind in (0, 1) for before in (2, 3, 4) for rulings in (None, ANY_PART)]


@pytest.mark.rules(*BONUS_RULES, "ruling.slipstream-bonus-all-or-nothing")
@pytest.mark.parametrize(("token", "behind", "before", "rulings"), SPOTS)
def test_both_engines_and_the_checker_hold_the_bonus_to_the_final_line(
        token: str, behind: int, before: int, rulings: dict[str, str] | None) -> None:
    state = _state(token, behind, before, rulings)
    me = state.cars[1]
    assert weather.slipstream_bonus(state, 1) == (2 if token == "weather" else 1)
    extras = {getattr(a, "extra", 0) for a in legal_actions(state)
              if type(a).__name__ == "Slipstream"}
    assert extras and all(me.position + 2 + e <= state.finish_position for e in extras)
    assert set(FastRace(state).legal_actions()) == set(legal_actions(state))
    RaceChecker().resume(state)  # the independent model offers the same choices


@pytest.mark.rules("slipstream.not-past-finish")
def test_the_checker_catches_a_bonus_offered_across_the_final_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted bug (the engine before issue 26): the bonus is not held to the line."""
    def unchecked(state: RaceState, car: int) -> tuple[int, ...]:
        bonus = weather.slipstream_bonus(state, car)
        return (bonus,) if bonus else ()

    state = _state("weather", 1)
    RaceChecker().resume(state)
    monkeypatch.setattr(hooks.slipstream_extras, "call", unchecked)
    with pytest.raises(RuleViolation) as caught:
        RaceChecker().resume(state)
    assert "slipstream.not-past-finish" in caught.value.rules


@pytest.mark.rules(*BONUS_RULES, "ruling.slipstream-bonus-all-or-nothing")
def test_z3_no_offered_slipstream_bonus_crosses_the_final_line() -> None:
    for track in BASE_TRACKS:
        assert sb.prove_within_finish(track) == sb.z3.unsat, track
        for control in sb.CONTROLS:
            assert sb.prove_within_finish(track, control) == sb.z3.sat, (track, control)


def _engine_extras(finish: int, position: int, bonus: int, any_part: bool) -> set[int] | None:
    """The extras the engines offer a car beside another ``finish - position`` spaces
    before the final line, in a sector with ``bonus``."""
    state = _state("weather" if bonus == 2 else "slipstream-plus-1", 0, finish - position,
                   ANY_PART if any_part else None)
    assert state.cars[1].position == position and state.finish_position == finish
    legal = legal_actions(state)
    assert set(FastRace(state).legal_actions()) == set(legal)
    return {getattr(a, "extra", 0) for a in legal if type(a).__name__ == "Slipstream"}


@pytest.mark.rules(*BONUS_RULES, "ruling.slipstream-bonus-all-or-nothing")
def test_the_encoding_offers_the_engines_extras() -> None:
    finish = _state("weather", 0).finish_position
    samples = [(finish, finish - d, bonus, part) for d in (2, 3, 4, 5)
               for bonus in (1, 2) for part in (False, True)]
    assert sb.refines_extras(samples, _engine_extras) == []
    # the refinement check itself catches an engine that ignores the line
    assert sb.refines_extras(samples[:1], lambda f, p, b, a: {0, b})


@pytest.mark.rules(*BONUS_RULES)
def test_the_crafted_cases_show_the_bonus_stopped_at_the_line() -> None:
    cases: dict[str, object] = {}
    fidelity_cases(_binding(), lambda rule, cid, text, state, expect, source, also=(): (
        cases.__setitem__(cid, expect)))
    legal = cases["crafted.storm-slipstream-bonus-stops-at-finish"]
    assert legal == {"legal": ["P2 slipstream", "P2 no slipstream"]}
    assert cases["crafted.any-part-slipstream-bonus-stops-at-finish"] == {
        "legal": ["P2 slipstream", "P2 slipstream +1", "P2 no slipstream"]}
