"""The edge-case miner: every named situation yields 5 distinct witnesses that replay in the
engine to the outcome the Z3 encoding predicts, and export as valid conformance cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import heatcore.heat.corners
import heatcore.heat.hooks
from heatcore.framework.conformance.fixtures import load_cases, run_case
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.notation import state_from_dict
from heatcore.heat.validity import Problem, status
from proofs import runner
from proofs.miner import SITUATIONS, mine
from proofs.mining import mine_situation
from proofs.witness import cross_check, replay, start_state


@pytest.fixture(scope="module")
def mined(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("mined")
    assert runner.main(["--mine", "all", "--count", "5", "--out", str(out)]) == 0
    return out


@pytest.mark.rules("corner.check", "corner.pay-heat", "corner.spin", "speed.turn-total",
                   "slipstream.move", "slipstream.speed-unchanged", "react.boost",
                   "adrenaline.effects", "place.blocked", "place.speed-unchanged",
                   "play.cluttered", "play.cluttered-only-when-forced", "ruling.cluttered-gear",
                   "reveal.stress-flip", "deck.reshuffle", "replenish.discard-before-draw",
                   "finish.line", "finish.ranking", "finish.removed",
                   "order.fixed-at-round-start", "ruling.stress-supply",
                   "corner.after-finish-ignored", "ruling.finished-car-turn", "react.any-order",
                   "react.cooldown", "ruling.blocked-extra-move",
                   "slipstream.earlier-lap", "setup.board-space", "slipstream.eligible")
def test_every_situation_exports_five_agreeing_witnesses(
        mined: Path, request: pytest.FixtureRequest) -> None:
    marker = request.node.get_closest_marker("rules")
    assert marker is not None
    assert {r for s in SITUATIONS for r in s.rules} <= set(marker.args)
    assert len(SITUATIONS) >= 10
    binding = HeatBinding()
    for sit in SITUATIONS:
        suite = json.loads((mined / f"{sit.id}.json").read_text(encoding="utf-8"))
        cases = suite["cases"]
        assert len(cases) == 5, sit.id
        starts = {json.dumps(c["state"], sort_keys=True) for c in cases}
        assert len(starts) == 5, f"{sit.id}: witnesses are not distinct"
    for case in load_cases(mined):
        assert run_case(binding, case) is None, case["id"]


@pytest.mark.rules("setup.board-space", "setup.spaces-and-spots")
def test_every_mined_start_state_is_valid(mined: Path) -> None:
    """No witness starts from an invalid state, such as two cars on one spot of the board
    a lap apart."""
    for case in load_cases(mined):
        assert status(state_from_dict(case["state"])) == Problem.NONE, case["id"]


@pytest.mark.rules("corner.spin", "ruling.stress-supply")
def test_cross_check_names_the_rules_when_the_engine_disagrees(
        monkeypatch: pytest.MonkeyPatch) -> None:
    scene = next(s for s in mine("spin-second-corner", 5) if s.expected.stress_taken > 0)
    assert cross_check(scene, replay(scene)) == []
    monkeypatch.setattr(heatcore.heat.corners, "spin_stress", lambda gear: 0)  # a wrong engine
    problems = cross_check(scene, replay(scene))
    assert any("corner.spin" in p and "stress" in p for p in problems), problems


@pytest.mark.rules("move.exact", "place.blocked")
def test_cross_check_catches_a_wrong_prediction() -> None:
    scene = mine("blocked-behind-corner", 1)[0]
    scene.expected.position += 1
    problems = cross_check(scene, replay(scene))
    assert any(p.startswith("position") and "place.blocked" in p for p in problems)


def test_witness_start_states_are_valid_engine_states() -> None:
    for sit in SITUATIONS[:6]:
        for scene in mine(sit.id, 2):
            state, orders = start_state(scene)
            assert status(state) == Problem.NONE, sit.id
            assert orders and orders[0] == list(state.cars[0].deck)


def test_mining_reports_too_few_witnesses() -> None:
    lines, failures = mine_situation("cluttered", 1, None, ("usa",))
    assert failures == 0 and any("agrees" in line for line in lines)


@pytest.mark.rules("road.where-the-car-is", "weather.no-cooldown", "road.overheat",
                   "corner.spin")
def test_module_situations_export_agreeing_witnesses_on_every_track(mined: Path) -> None:
    """The module miner: a car leaving a Cloud sector in the same turn (two cases per
    witness), an Overheat that makes a car spin; witnesses on every base track, each case
    passing in the engine."""
    from proofs.module_miner import MINERS

    binding = HeatBinding()
    for name in MINERS:
        cases = json.loads((mined / f"{name}.json").read_text(encoding="utf-8"))["cases"]
        tracks = {c["state"]["track"] for c in cases}
        assert tracks == {"usa", "italia", "france", "great-britain"}, name
        assert len({json.dumps(c["state"], sort_keys=True) for c in cases}) >= 8, name
        for case in cases:
            assert run_case(binding, case) is None, case["id"]


@pytest.mark.rules("weather.no-cooldown", "road.overheat")
def test_the_module_miner_catches_an_engine_that_breaks_the_rule(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Controls (both remove behaviour): an engine that ignores the Cloud, and one without
    the Overheat's extra Heat, disagree with the encoding on the witnesses."""
    import heatcore.heat.corners
    import heatcore.heat.react
    from proofs import module_miner

    def problems(name: str) -> list[str]:
        witness = module_miner.mine(name, 1, ("usa",))[0]
        return module_miner.CASES[name](witness, 1, lambda *args, **kwargs: None)

    assert problems("leave-no-cooldown") == [] and problems("overheat-spin") == []
    monkeypatch.setattr(heatcore.heat.hooks.cooldown_allowed, "call", lambda state, car: True)
    assert any("weather.no-cooldown" in p for p in problems("leave-no-cooldown"))
    monkeypatch.setattr(heatcore.heat.hooks.corner_heat, "call",
                        lambda state, number, excess: max(0, excess))
    assert any("road.overheat" in p for p in problems("overheat-spin"))


@pytest.mark.rules("weather.slipstream-boost", "road.slipstream-boost", "road.placement")
def test_no_sector_gives_slipstream_plus_three() -> None:
    """The +3 slipstream (sector +2 and road token +1 together) has no witness: one road
    token per sector; the control (two tokens in a sector) finds one."""
    from proofs.module_miner import prove_no_slipstream_plus_three

    for track in ("usa", "italia", "france", "great-britain"):
        assert str(prove_no_slipstream_plus_three(track)) == "unsat", track
        assert str(prove_no_slipstream_plus_three(track, "stacked-tokens")) == "sat", track
