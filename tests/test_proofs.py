"""The Z3 proofs hold on all four base tracks and every negative control is caught.

The whole suite runs once (module fixture, two worker processes); each test below checks
the rows of one proof and names that proof's rule IDs.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from heatcore.framework.registry import ruleset
from heatcore.heat.track import load_track
from proofs import runner
from proofs.catalogue import PROOFS, PROVED_MAX_SPEED, PROVED_MAX_SPIN_BACK, Ctx, by_id
from proofs.encoding import encode_turn
from proofs.miner import SITUATIONS
from proofs.runner import Row, run_all
from proofs.symbols import MUTATIONS
from proofs.track_graph import BASE_TRACKS, PROOF_RUNS, track_facts

#: The rows as ``run_all`` streamed them (``heatcore prove --progress``), task by task.
STREAMED: list[Row] = []


@pytest.fixture(scope="module")
def suite() -> list[Row]:
    STREAMED.clear()
    return run_all(list(PROOF_RUNS), [p.id for p in PROOFS], jobs=2, on_rows=STREAMED.extend)


def test_every_result_is_streamed_once(suite: list[Row]) -> None:
    """Each row reaches the progress stream exactly once, as its task finishes."""
    assert sorted(map(repr, STREAMED)) == sorted(map(repr, suite))


def check(suite: list[Row], proof_id: str, request: pytest.FixtureRequest) -> None:
    """Every track proves it, every control is caught on every track, and the test's
    rule marks are exactly the proof's rule IDs."""
    proof = by_id(proof_id)
    marker = request.node.get_closest_marker("rules")
    assert marker is not None and set(marker.args) == set(proof.rules)
    rows = [r for r in suite if r.proof == proof_id]
    proved = {r.track for r in rows if r.control is None and r.ok}
    assert proved == set(PROOF_RUNS), [r.result for r in rows if r.control is None]
    for bug in proof.controls:
        caught = {r.track for r in rows if r.control == bug and r.ok}
        assert caught == set(PROOF_RUNS), f"control {bug} missed on {set(PROOF_RUNS) - caught}"


@pytest.mark.rules("setup.engine", "setup.deck", "gear.shift.two-costs-heat", "react.cooldown",
                   "react.boost", "corner.pay-heat", "corner.spin", "play.cluttered",
                   "replenish.cleanup", "deck.reshuffle")
def test_heat_conservation(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "heat-conservation", request)


@pytest.mark.rules("corner.pay-heat", "gear.shift.two-costs-heat", "react.boost",
                   "react.cooldown", "discard.optional", "play.heat-not-playable")
def test_heat_from_engine(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "heat-from-engine", request)


@pytest.mark.rules("setup.stress-supply", "setup.deck", "corner.spin", "ruling.stress-supply",
                   "reveal.stress-flip")
def test_stress_conservation(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "stress-conservation", request)


@pytest.mark.rules("setup.deck", "setup.hand", "reveal.stress-flip", "deck.reshuffle",
                   "replenish.cleanup", "replenish.draw", "discard.optional",
                   "replenish.discard-before-draw", "ruling.replenish-empty",
                   "ruling.flip-no-basic")
def test_deck_integrity(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "deck-integrity", request)


@pytest.mark.rules("gear.range", "gear.shift.free", "gear.shift.two-costs-heat",
                   "gear.shift.no-three", "corner.spin", "play.cluttered",
                   "ruling.cluttered-gear")
def test_gear_shifts(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "gear-shifts", request)


@pytest.mark.rules("play.card-count", "play.playable-cards", "play.heat-not-playable",
                   "play.cluttered", "play.cluttered-only-when-forced", "ruling.cluttered-gear")
def test_play_legal(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "play-legal", request)


@pytest.mark.rules("order.fixed-at-round-start", "finish.ranking")
def test_turn_order(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "turn-order", request)


@pytest.mark.rules("order.fixed-at-round-start", "round.sequence", "adrenaline.who",
                   "adrenaline.count-fixed")
def test_round_order(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "round-order", request)


@pytest.mark.rules("corner.check", "corner.pay-heat", "corner.spin", "speed.turn-total",
                   "slipstream.speed-unchanged", "place.speed-unchanged", "adrenaline.effects")
def test_corner_payment(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "corner-payment", request)


@pytest.mark.rules("move.exact", "place.racing-line-first", "place.blocked", "ruling.zero-move",
                   "slipstream.move", "corner.spin", "setup.grid", "setup.board-space")
def test_placement(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "placement", request)


@pytest.mark.rules("move.exact", "place.blocked", "place.speed-unchanged", "slipstream.move",
                   "adrenaline.effects", "corner.spin", "ruling.blocked-extra-move")
def test_movement(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "movement", request)


@pytest.mark.rules("slipstream.eligible", "slipstream.move", "slipstream.not-past-finish",
                   "slipstream.earlier-lap", "setup.board-space")
def test_slipstream(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "slipstream", request)


@pytest.mark.rules("corner.after-finish-ignored", "finish.line")
def test_finish_corners(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "finish-corners", request)


@pytest.mark.rules("reveal.stress-flip", "react.boost", "deck.reshuffle", "ruling.flip-no-basic")
def test_flip_always_finds(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "flip-always-finds", request)


@pytest.mark.rules("react.cooldown", "react.boost", "react.any-order", "adrenaline.effects",
                   "adrenaline.who")
def test_react(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "react", request)


@pytest.mark.rules("discard.optional")
def test_discard(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "discard", request)


@pytest.mark.rules("round.sequence", "play.cluttered", "play.cluttered-only-when-forced",
                   "ruling.cluttered-gear", "react.any-order", "discard.optional", "corner.spin",
                   "deck.reshuffle")
def test_no_deadlock(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "no-deadlock", request)


@pytest.mark.rules("reveal.stress-flip", "deck.reshuffle", "replenish.draw",
                   "ruling.replenish-empty", "ruling.flip-no-basic")
def test_totality(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "totality", request)


@pytest.mark.rules("gear.shift.free", "gear.shift.two-costs-heat", "play.card-count",
                   "react.cooldown", "react.boost", "adrenaline.effects", "slipstream.eligible",
                   "slipstream.not-past-finish", "discard.optional")
def test_choices(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "choices", request)


@pytest.mark.rules("speed.turn-total", "reveal.speed", "reveal.stress-flip", "react.boost",
                   "adrenaline.effects", "slipstream.speed-unchanged")
def test_bound_speed(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "bound-speed", request)
    found = {r.bound for r in suite if r.proof == "bound-speed" and r.control is None}
    assert found == {PROVED_MAX_SPEED}  # the value the miner aims at


@pytest.mark.rules("corner.pay-heat", "corner.spin", "react.boost", "gear.shift.two-costs-heat")
def test_bound_heat_cost(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "bound-heat-cost", request)
    rows = [r for r in suite if r.proof == "bound-heat-cost" and r.control is None]
    assert all(r.bound == track_facts(r.track).heat + 1 for r in rows)


@pytest.mark.rules("corner.check", "corner.pay-heat", "speed.turn-total")
def test_bound_heat_demand(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "bound-heat-demand", request)


@pytest.mark.rules("corner.spin", "place.blocked")
def test_bound_spin_back(suite: list[Row], request: pytest.FixtureRequest) -> None:
    check(suite, "bound-spin-back", request)
    found = {r.bound for r in suite if r.proof == "bound-spin-back" and r.control is None}
    assert found == {PROVED_MAX_SPIN_BACK}


def test_no_proof_holds_vacuously(suite: list[Row]) -> None:
    rows = [r for r in suite if r.proof == runner.PREMISES]
    assert {r.track for r in rows if r.ok} == set(PROOF_RUNS), [r.result for r in rows]
    assert all("10 cases reachable" in r.result for r in rows)


def test_every_proof_runs_on_one_two_and_three_laps() -> None:
    assert {track_facts(run).laps for run in PROOF_RUNS} == {1, 2, 3}
    assert {run.partition("@")[0] for run in PROOF_RUNS} == set(BASE_TRACKS)
    assert track_facts("usa@3").finish == 3 * track_facts("usa").spaces_per_lap


def test_every_proof_has_a_test_and_a_control() -> None:
    names = {name for name in globals() if name.startswith("test_")}
    for proof in PROOFS:
        assert f"test_{proof.id.replace('-', '_')}" in names, proof.id
        assert proof.controls, proof.id
        assert all(bug in MUTATIONS for bug in proof.controls)
    assert {bug for p in PROOFS for bug in p.controls} == set(MUTATIONS), "unused mutation"


@pytest.mark.rules("setup.spaces-and-spots", "setup.grid", "setup.track-laps")
def test_track_graph_facts_agree_with_the_engine_track() -> None:
    for track_id in BASE_TRACKS:
        facts, track = track_facts(track_id), load_track(track_id)
        assert facts.finish == track.finish_position(track.laps)
        engine_lines = track.corner_lines(-10, facts.finish + 1, track.laps)
        mine = [(ln.at, ln.limit) for ln in facts.lines if ln.at <= facts.finish]
        assert mine == [(ln.position, ln.limit) for ln in engine_lines if ln.position >= 0]
        for space in range(1, facts.spaces_per_lap + 1):
            assert facts.racing_lane[space - 1] == track.racing_lane(space)
        assert facts.grid == track.grid_positions()


def test_proofs_name_only_known_rule_ids() -> None:
    known = set(ruleset().rule_ids)
    turn = encode_turn(track_facts("usa"))
    tags = {rule for rule, _ in turn.enc.constraints} - {"domain"}
    assert tags and tags <= known, sorted(tags - known)
    named = {r for p in PROOFS for r in p.rules} | {r for r, _ in MUTATIONS.values()}
    named |= {r for s in SITUATIONS for r in s.rules}
    assert named <= known, sorted(named - known)


def test_main_fails_when_a_control_is_missed(monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    discard = by_id("discard")
    wrong = type(discard)(discard.id, discard.claim, discard.rules, ("draw-to-six",),
                          discard.build)
    monkeypatch.setattr(runner, "by_id", lambda pid: wrong if pid == "discard" else by_id(pid))
    assert runner.main(["--proof", "discard", "--track", "usa", "--jobs", "1"]) == 1
    assert "MISSED" in capsys.readouterr().out


def test_main_passes_and_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--proof", "discard", "--track", "italia", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "discard" in out and "caught" in out and "proved" in out




def _lemma_fails(track: str, proof_id: str, ctx: Ctx, controls: bool) -> list[Row]:
    """``runner.run_task`` with a planted bug: the movement lemma's proof fails."""
    rows = RUN_TASK(track, proof_id, ctx, controls)
    if proof_id == "movement":
        rows[0] = replace(rows[0], ok=False, result="FAILED: planted")
    return rows


RUN_TASK = runner.run_task


def test_a_proof_that_rests_on_a_failed_lemma_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    """A proof that assumes a lemma fails when the lemma failed on its track (the scheduler
    waits for the lemma's row; the forked workers run the planted task)."""
    monkeypatch.setattr(runner, "run_task", _lemma_fails)
    rows = run_all(["usa@1"], ["bound-spin-back"], jobs=2, controls=False)
    assert [(r.proof, r.ok) for r in rows] == [("premises", True), ("bound-spin-back", False)]
    assert rows[1].result == "FAILED: lemma movement not proved"
