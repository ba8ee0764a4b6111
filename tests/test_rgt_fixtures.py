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

    def no_danger(track, move, gear, *rest):  # type: ignore[no-untyped-def]
        warnings, over = real(track, move, gear, *rest)
        corner = track.spaces[move.dst].corner
        if corner is not None and corner.kind == "dangerous" and gear == corner.limit:
            warnings -= 1
        return warnings, over

    monkeypatch.setattr(moves, "arrive", no_danger)
    failed = [c["id"] for c in fixtures.cases() if fixtures.run_case(c)]
    assert any(f.startswith("corner.dangerous") for f in failed), failed[:5]


@pytest.mark.rules("rgt.move.overtake-gear", "rgt.loc.relay")
def test_the_corpus_has_refused_overtakes_and_re_lays_that_change_the_dice() -> None:
    """The edge cases a race's own choices seldom show, ``PER_RULE`` of each: a lay refused
    by the overtaking rule (a rejection naming it, and the legal actions that leave it out)
    and a re-lay that lays the rolled dice otherwise than planned."""
    from heatcore.rallyman.notation import state_from_dict

    by_id = {c["id"]: c for c in fixtures.cases()}
    for n in range(1, fixtures.PER_RULE + 1):
        refused = by_id[f"move.overtake-gear.refused.{n}"]["expect"]["rejection"]
        assert refused["rule"] == "rgt.move.overtake-gear"
        legal = by_id[f"move.overtake-gear.legal.{n}"]["expect"]["legal"]
        assert refused["action"] not in legal and legal
        relay = by_id[f"loc.relay.changed.{n}"]
        action = relay["expect"]["steps"][0]["action"].split()
        turn = state_from_dict(relay["state"]).turn
        assert action[1] == "relay" and turn is not None
        planned = turn.plan[len(turn.relay)]
        assert (action[2].rstrip("!"), action[-1]) != (planned.die, planned.to)


@pytest.mark.parametrize(("mutant", "prefixes"), [
    ("overtake_any_gear", ("move.overtake-gear.refused.", "move.overtake-gear.legal.")),
    ("no_relay", ("loc.relay.changed.",)),
])
def test_the_edge_fixtures_catch_the_broken_engines(mutant: str,
                                                    prefixes: tuple[str, ...]) -> None:
    """Negative controls: the engine that lets a car overtake in any gear, and the one that
    offers no re-lay, each fail every case of their edge fixtures (and no seeded race is
    needed)."""
    from heatcore.rallyman.mutants import patched

    edge = [c for c in fixtures.cases() if c["id"].startswith(prefixes)]
    assert len(edge) == fixtures.PER_RULE * len(prefixes)
    assert all(fixtures.run_case(c) is None for c in edge)
    with patched(mutant):
        assert all(fixtures.run_case(c) is not None for c in edge)


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
