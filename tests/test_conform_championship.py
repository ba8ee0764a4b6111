"""Protocol conform/3: the Championship between races, served by heatcore and checked by
``conform`` (season, event changes, the draft, press corners, Sponsorship cards earned,
points and standings)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from heatcore.framework.conformance import CHAMPIONSHIP_PROTOCOL, PROTOCOL
from heatcore.framework.conformance.harness import main as conform_main
from heatcore.framework.conformance.protocol import handle
from heatcore.framework.conformance.schema import check
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.conformance.championship_protocol import ASKS, checks
from heatcore.heat.conformance.mutants import CHAMPIONSHIP
from heatcore.heat.modules.championship.season import play_championship

ONE = ((1961, 3, 1),)


@pytest.mark.rules("championship.season", "championship.points", "championship.standings",
                   "championship.grid", "championship.garage-round", "press.corners",
                   "sponsor.given-at-once", "event.setup-changes")
def test_every_ask_of_a_championship_matches_its_schemas_and_the_played_championship() -> None:
    found = checks(ONE)
    assert {c.request["ask"] for c in found} == set(ASKS)
    champ = play_championship(1961, 3, 1)
    points = [c.expected for c in found if c.request["ask"] == "points"]
    assert [p["points"] for p in points] == [list(r.points) for r in champ.races]
    last = [c.expected for c in found if c.request["ask"] == "standings"][-1]
    assert last["standings"] == [f"P{c + 1}" for c in champ.standings]
    for c in found:
        check("request.championship", c.request)
        check("response.championship", {"ok": True, **c.expected})


@pytest.mark.rules("championship.season")
def test_championship_requests_are_served_in_conform_3_only() -> None:
    binding = HeatBinding()
    request = {"op": "championship", "ask": "season", "year": 1961}
    old: dict[str, object] = {}
    assert handle(binding, old, {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})["ok"]
    assert handle(binding, old, request)["error"]["kind"] == "unsupported"
    new: dict[str, object] = {}
    hello = handle(binding, new, {"op": "start", "protocol": CHAMPIONSHIP_PROTOCOL,
                                  "ruleset": "heat"})
    assert hello["protocol"] == CHAMPIONSHIP_PROTOCOL and "championship" in hello["modules"]
    reply = handle(binding, new, request)
    assert reply["ok"] and [r["event"] for r in reply["races"]] == [1, 2, 3]
    bad = handle(binding, new, {"op": "championship", "ask": "points", "event": 1,
                                "players": 3, "ranking": ["P9"], "eliminated": []})
    assert bad["ok"] is False and bad["error"]["kind"] == "malformed"


@pytest.mark.rules("championship.points", "championship.garage-round", "press.corners")
@pytest.mark.parametrize("name", sorted(CHAMPIONSHIP))
def test_a_championship_engine_that_gets_the_championship_wrong_fails_conform(
        name: str, tmp_path: Path) -> None:
    code = conform_main(["--impl", f"{sys.executable} -m heatcore.heat.conformance.mutants.{name}",
                         "--no-fixtures", "--races", "0", "--report", str(tmp_path)])
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 1 and report["causes"][0]["rule"] == CHAMPIONSHIP[name], report["causes"][:2]
    assert [d["rule"] for d in report["defects"]] == [CHAMPIONSHIP[name]]
    assert '"protocol":"conform/3"' in (tmp_path / "report.md").read_text()


@pytest.mark.rules("championship.points")
def test_heatcore_serve_passes_the_championship_checks(tmp_path: Path) -> None:
    code = conform_main(["--impl", f"{sys.executable} -m heatcore.tools.cli serve",
                         "--no-fixtures", "--races", "0", "--report", str(tmp_path)])
    report = json.loads((tmp_path / "report.json").read_text())
    assert code == 0 and report["cases"]["pass"] == len(checks()) and not report["skipped"]
