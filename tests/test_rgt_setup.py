"""The conformance kit's ``setup`` request for Rallyman GT: ``heatcore serve`` builds the
start state of a setup, refuses a bad one naming the rule (the session's state unchanged),
and ``heatcore conform`` sends each race's setup and compares the start state it gets back.

The grid check reads the track file itself (``spec/rallyman/tracks``), not the engine's
setup code; the conform run compares the served state with the recorded start of a race
the reference played."""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import pytest

from heatcore.framework.conformance.harness import run as conform_run
from heatcore.framework.conformance.protocol import handle
from heatcore.framework.conformance.schema import check
from heatcore.rallyman.attribution import setup_attribution
from heatcore.rallyman.binding import RallymanBinding
from heatcore.rallyman.notation import setup_to_dict
from heatcore.rallyman.options import Options
from heatcore.rallyman.setup import random_setup
from heatcore.rallyman.spec import spec_folder

START = {"op": "start", "protocol": "conform/2", "ruleset": "rallyman-gt"}


def _session() -> tuple[RallymanBinding, dict[str, Any]]:
    binding, session = RallymanBinding(), {}
    assert handle(binding, session, START)["ok"] is True
    return binding, session


@pytest.mark.rules("rgt.round.alternate")
@pytest.mark.parametrize("track", ["albert-park", "proving-ground"])
def test_a_setup_puts_each_car_on_its_grid_space_in_gear_0(track: str) -> None:
    grid_spaces = json.loads((spec_folder() / "tracks" / f"{track}.json").read_text())["grid"]
    binding, session = _session()
    for players in (2, 4, 6):
        setup = setup_to_dict(random_setup(track, players, random.Random(players), laps=2,
                                           options=Options(gear3_warnings="1")))
        reply = handle(binding, session, {"op": "setup", "setup": setup})
        check("response.setup", reply)
        state = reply["state"]
        assert (state["track"], state["laps"], state["round"]) == (track, 2, 1)
        assert state["options"] == {"gear3_warnings": "1"}
        spaces = {f"P{i + 1}": car["space"] for i, car in enumerate(state["cars"])}
        assert [spaces[name] for name in setup["grid"]] == grid_spaces[:players]
        assert {car["gear"] for car in state["cars"]} == {"0"}  # gear 0 is written "0"
        assert sorted(state["order"]) == sorted(setup["grid"])
        assert handle(binding, session, {"op": "legal"})["actions"]  # the state is current


@pytest.mark.rules("rgt.order.speed")
@pytest.mark.parametrize(("change", "rule"), [
    ({"grid": ["P1", "P1"]}, "rgt.order.speed"),
    ({"players": 1, "grid": ["P1"]}, "rgt.round.alternate"),
    ({"track": "usa"}, "rgt.move.forward"),
    ({"options": {"gear3_warnings": "9"}}, "rgt.ruling.warning-faces"),
    ({"tyres": ["rain"]}, "rgt.ruling.dashboards"),
])
def test_a_bad_setup_is_refused_naming_the_rule_and_the_state_stays(
        change: dict[str, Any], rule: str) -> None:
    binding, session = _session()
    good = setup_to_dict(random_setup("proving-ground", 2, random.Random(1), laps=1))
    before = handle(binding, session, {"op": "setup", "setup": good})["state"]
    reply = handle(binding, session, {"op": "setup", "setup": {**good, **change}})
    check("response.setup", reply)
    assert reply["ok"] is False and reply["error"]["rule"] == rule, reply
    assert session["state"] == before


def test_a_setup_that_breaks_the_schema_is_a_protocol_error() -> None:
    binding, session = _session()
    good = setup_to_dict(random_setup("proving-ground", 2, random.Random(1), laps=1))
    for bad in ({k: v for k, v in good.items() if k != "weather"}, {**good, "decks": []},
                {**good, "class": "GT9"}):
        reply = handle(binding, session, {"op": "setup", "setup": bad})
        assert reply["ok"] is False and reply["error"]["kind"] == "protocol", reply


@pytest.mark.rules("rgt.round.alternate")
def test_conform_checks_each_race_start_built_from_its_setup() -> None:
    argv = [sys.executable, "-m", "heatcore", "serve", "--ruleset", "rallyman-gt"]
    outcome = conform_run(RallymanBinding(), argv, 3, None)
    assert outcome.ok and outcome.setups == {"pass": 3}


@pytest.mark.rules("rgt.order.speed")
def test_conform_catches_a_start_in_the_wrong_order() -> None:
    """Negative control: an engine that orders the first round by car number fails the
    setup check of race 10002 (grid P3 P1 P2), charged to the turn order."""
    argv = [sys.executable, "-m", "heatcore.rallyman.mutants", "order_by_number"]
    assert RallymanBinding().random_race(10002).setup["grid"] == ["P3", "P1", "P2"]
    outcome = conform_run(RallymanBinding(), argv, 1, None, seed_base=10002)
    assert outcome.setups["fail"] == 1
    setup_div = next(d for d in outcome.divergences if d.check == "setup")
    assert setup_div.rules[0] == "rgt.order.speed", setup_div


def test_setup_differences_are_charged_to_the_fields_rules() -> None:
    state = {"order": ["P2", "P1"], "cars": [{"space": "a"}, {"space": "b"}], "round": 1}
    moved = {**state, "cars": [{"space": "b"}, {"space": "a"}]}
    assert setup_attribution({"state": state}, {"state": moved}).rules == ["rgt.move.forward"]
    assert setup_attribution({"state": state}, {"state": {**state, "order": ["P1", "P2"]}}
                             ).rules == ["rgt.order.speed"]
    refused = setup_attribution({"state": state}, {"error": {"kind": "malformed"}})
    assert refused.rules == ["rgt.round.alternate"] and "refuses" in refused.what
