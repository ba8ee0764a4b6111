"""Refinement: turns of sampled real races agree with the Z3 model of a turn (the model
admits the engine's outcome, it is the only one, and the legal choices are the same at
every decision), and the check catches planted bugs, in the encoding (bugs that remove
behaviour included) and in the engine.

Independent of: the encoding never imports the engine; the check compares the engine's
results with the model's, so it shares neither side's code. It relies on the engine's
records (events, actions) only to pin the model's inputs.
"""

from __future__ import annotations

import os

import pytest
import z3

import heatcore.cards
import heatcore.engine
from heatcore.state import RaceState
from proofs import runner
from proofs.pinning import model
from proofs.refine import Report, confirm_unique, describe, refine
from proofs.symbols import MUTATIONS
from proofs.turns import TRACKS, race_turns

#: Turns of the default sample (about half a minute on one core).
SAMPLE_TURNS = 1500
#: Bugs that remove behaviour from the model: "for all" proofs pass them; refinement must not.
REMOVING = ("replenish-no-reshuffle", "slipstream-no-beside", "cooldown-2-in-gear-1",
            "boost-needs-two-heat", "no-spin-in-gear-2")
#: Bugs in the encoding of the race setup or of the round order, not of a turn.
NOT_TURN = ("setup-upgrade-heat-in-engine", "setup-hand-six", "order-ignores-racing-line",
            "order-ascending", "order-resorted-each-turn")


@pytest.fixture(scope="module")
def sample() -> object:
    return refine(SAMPLE_TURNS)


@pytest.mark.rules("round.sequence", "speed.turn-total", "deck.reshuffle", "slipstream.eligible",
                   "react.boost", "react.cooldown", "corner.spin", "play.cluttered",
                   "place.blocked")
def test_sampled_turns_agree_with_the_model(sample: object) -> None:
    assert isinstance(sample, Report)
    assert sample.turns == SAMPLE_TURNS
    assert not sample.disagreements, "\n".join(describe(sample))
    for situation in ("spin", "reshuffle", "cluttered", "slipstream", "boost", "adrenaline",
                      "lapped", "lapped-near"):
        assert sample.coverage[situation] >= 5, (situation, sample.coverage)
    assert {c[0] for c in sample.configs} == set(TRACKS)
    assert {c[1] for c in sample.configs} == {2, 3, 4, 5, 6}
    assert {c[2] for c in sample.configs} == {1, 2, 3}


@pytest.mark.rules("round.sequence")
def test_the_solver_confirms_the_outcome_is_the_only_one() -> None:
    for rec in race_turns(3)[:15]:
        assert confirm_unique(rec) == z3.unsat, rec.label


@pytest.mark.rules("play.cluttered-only-when-forced")
def test_a_model_with_an_open_choice_is_not_unique() -> None:
    report = refine(50, bugs=frozenset({"cluttered-when-not-forced"}), stop_at=1)
    assert report.disagreements and report.disagreements[0].what == "unique"
    assert "cluttered.choice" in report.disagreements[0].detail


@pytest.mark.parametrize("bug", [pytest.param(b, marks=pytest.mark.rules(MUTATIONS[b][0]))
                                 for b in REMOVING])
def test_refinement_catches_a_bug_that_removes_behaviour(bug: str) -> None:
    report = refine(800, bugs=frozenset({bug}), stop_at=1)
    assert report.disagreements, f"{bug} not caught in {report.turns} turns"
    rule = MUTATIONS[bug][0]
    assert any(rule in d.rules for d in report.disagreements), report.disagreements


@pytest.mark.rules("reveal.speed", "speed.turn-total")
def test_refinement_catches_an_engine_where_u5_is_worth_4(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(heatcore.cards.VALUE, "U5", 4)
    report = refine(300, stop_at=1)
    assert report.disagreements
    assert any({"reveal.speed", "speed.turn-total"} & set(d.rules)
               for d in report.disagreements), report.disagreements


@pytest.mark.rules("slipstream.eligible")
def test_refinement_catches_an_engine_without_slipstream_beside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    right = heatcore.engine.can_slipstream

    def only_ahead(state: RaceState, car: int) -> bool:
        me = state.cars[car]
        beside = any(o.position == me.position and o.racing_line != me.racing_line
                     for i, o in enumerate(state.cars) if i != car and i in state.on_track())
        ahead = any(o.position == me.position + 1
                    for i, o in enumerate(state.cars) if i != car and i in state.on_track())
        return right(state, car) and (ahead or not beside)

    monkeypatch.setattr(heatcore.engine, "can_slipstream", only_ahead)
    report = refine(1500, stop_at=1)
    assert report.disagreements
    assert all("slipstream.eligible" in d.rules for d in report.disagreements), \
        report.disagreements


def test_the_model_compiles_every_track_and_lap_count() -> None:
    for track in TRACKS:
        for laps in (1, 2, 3):
            m = model(track, laps)
            assert m.facts.laps == laps and m.facts.finish == laps * m.facts.spaces_per_lap
            assert m.full.needs <= m.symbols  # every symbol is an input the check pins


@pytest.mark.rules("ruling.no-round-limit")
def test_the_full_run_reports_refinement_and_termination() -> None:
    rows = runner.run_all(["usa"], ["discard"], jobs=1, controls=False, refine_turns=30)
    by_proof = {r.proof: r for r in rows}
    assert by_proof["refinement"].ok and "30 turns, 0 disagreements" in \
        by_proof["refinement"].result
    assert by_proof["termination"].ok and "refuted" in by_proof["termination"].result
    assert [r.proof for r in rows][-2:] == ["refinement", "termination"]


def test_prove_refine_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert runner.main(["--refine", "40", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "refinement: 40 turns" in out and "0 disagreements" in out


@pytest.mark.skipif(not os.environ.get("HEATCORE_REFINE_DEEP"),
                    reason="every mutation: set HEATCORE_REFINE_DEEP=1 (a few minutes)")
@pytest.mark.parametrize("bug", [b for b in MUTATIONS if b not in NOT_TURN])
def test_refinement_catches_every_turn_mutation(bug: str) -> None:
    report = refine(3000, bugs=frozenset({bug}), stop_at=1)
    assert report.disagreements, f"{bug} not caught in {report.turns} turns"
