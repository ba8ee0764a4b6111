"""Rallyman GT fixtures (spec/rallyman/fixtures): at least three cases per rule and ruling,
each valid against the shared case schema and replayed exactly by the engine; a planted
engine bug makes cases fail; the miner finds its rare situations."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import jsonschema
import pytest

from heatcore.rallyman import fixtures, miner, moves
from heatcore.rallyman.spec import rules

SCHEMAS = Path(__file__).resolve().parent.parent / "spec" / "schemas"


def test_every_rule_and_ruling_has_three_fixtures() -> None:
    counts: Counter[str] = Counter()
    for case in fixtures.cases():
        counts.update(set(case["rules"] + case["rulings"]))
    short = {e.id: counts[e.id] for e in rules() if counts[e.id] < fixtures.PER_RULE}
    assert not short, short


def test_suites_name_their_ruleset_and_cases_fit_the_shared_schema() -> None:
    case_schema = json.loads((SCHEMAS / "case.schema.json").read_text(encoding="utf-8"))
    suite_schema = json.loads((SCHEMAS / "suite.schema.json").read_text(encoding="utf-8"))
    for path in sorted(fixtures.folder().glob("*.json")):
        suite = json.loads(path.read_text(encoding="utf-8"))
        assert suite["ruleset"] == "rallyman-gt"
        jsonschema.validate({**suite, "cases": []}, suite_schema)
        for case in suite["cases"]:
            jsonschema.validate(case, case_schema)


@pytest.mark.rules("rgt.turn.sequence")
def test_every_fixture_replays_exactly() -> None:
    bad = [(c["id"], why) for c in fixtures.cases() if (why := fixtures.run_case(c))]
    assert not bad, bad[:5]


def test_fixtures_catch_a_planted_bug(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: an engine whose dangerous corners add no warning fails cases."""
    real = moves.arrive

    def no_danger(track, move, gear):  # type: ignore[no-untyped-def]
        warnings, over = real(track, move, gear)
        corner = track.spaces[move.dst].corner
        if corner is not None and corner.kind == "dangerous" and gear == corner.limit:
            warnings -= 1
        return warnings, over

    monkeypatch.setattr(moves, "arrive", no_danger)
    failed = [c["id"] for c in fixtures.cases() if fixtures.run_case(c)]
    assert any(f.startswith("corner.dangerous") for f in failed), failed[:5]


@pytest.mark.rules("rgt.loc.relay", "rgt.move.blocked", "rgt.damage.yellow-flag",
                   "rgt.pit.repair")
def test_the_miner_finds_its_rare_situations() -> None:
    found = miner.mine(range(60))
    assert set(found) == {s.name for s in miner.SITUATIONS}
    relay = found["relay-moves-the-loss"]["expect"]["steps"][0]
    assert relay["action"].split()[1] == "relay"
    for case in found.values():
        del case["ruleset"]
        assert fixtures.run_case(case) is None
