"""Refinement: turns of sampled real races agree with the Z3 model of a turn (the model
admits the engine's outcome, it is the only one, and the legal choices are the same at
every decision), and the check catches planted bugs, in the encoding (bugs that remove
behaviour included) and in the engine.

Independent of: the encoding never imports the engine; the check compares the engine's
results with the model's, so it shares neither side's code. It relies on the engine's
records (events, actions) only to pin the model's inputs.
"""

from __future__ import annotations

import dataclasses
import os
import random

import pytest
import z3
from scenario import bot_choice, make_car, make_state

import heatcore.heat.cards
import heatcore.heat.engine
from heatcore.heat.driver import random_shuffle
from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action
from heatcore.heat.rulings import DEFAULT_RULINGS, KNOWN_ALTERNATIVES, MODULE_RULINGS, make_rulings
from heatcore.heat.state import RaceState
from proofs import runner
from proofs.pinning import model
from proofs.refine import Report, check_turn, confirm_unique, describe, refine
from proofs.symbols import MUTATIONS
from proofs.turns import TRACKS, Recorder, TurnRecord, race_turns, sample_races

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
    monkeypatch.setitem(heatcore.heat.cards.VALUE, "U5", 4)
    report = refine(300, stop_at=1)
    assert report.disagreements
    assert any({"reveal.speed", "speed.turn-total"} & set(d.rules)
               for d in report.disagreements), report.disagreements


@pytest.mark.rules("slipstream.eligible")
def test_refinement_catches_an_engine_without_slipstream_beside(
        monkeypatch: pytest.MonkeyPatch) -> None:
    right = heatcore.heat.engine.can_slipstream

    def only_ahead(state: RaceState, car: int) -> bool:
        me = state.cars[car]
        beside = any(o.position == me.position and o.racing_line != me.racing_line
                     for i, o in enumerate(state.cars) if i != car and i in state.on_track())
        ahead = any(o.position == me.position + 1
                    for i, o in enumerate(state.cars) if i != car and i in state.on_track())
        return right(state, car) and (ahead or not beside)

    monkeypatch.setattr(heatcore.heat.engine, "can_slipstream", only_ahead)
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


# ---- every ruling alternative -------------------------------------------------------------

#: Turns sampled under each alternative (a few seconds each).
ALTERNATIVE_TURNS = 300
#: Alternatives whose difference from the default shows within that sample.
SHOWN_IN_SAMPLE = frozenset({("ruling.blocked-extra-move", "must-gain"),
                             ("ruling.finished-car-discard-draw", "skip"),
                             ("ruling.spin-discard", "straight-to-replenish"),
                             ("ruling.stress-supply", "unlimited")})


#: The alternatives the Z3 turn encoding covers: those of the core race (the modules'
#: rulings change nothing in a core race, the only race the encoding plays; their checks are
#: tests/test_module_rulings.py and proofs/modules.py).
CORE_ALTERNATIVES = frozenset(p for p in KNOWN_ALTERNATIVES if p[0] not in MODULE_RULINGS)


def _alternative(pair: tuple[str, str]) -> object:
    return pytest.param(pair, marks=pytest.mark.rules(pair[0]), id=f"{pair[0]}={pair[1]}")


@pytest.mark.parametrize("pair", [_alternative(p) for p in sorted(CORE_ALTERNATIVES)])
def test_races_under_each_alternative_agree_with_the_model_of_it(pair: tuple[str, str]) -> None:
    """The model compiled under the alternative admits every sampled turn of races played
    under it; where the sample shows the alternative at work, the default model does not
    (so the check sees the switch)."""
    rulings = make_rulings(dict([pair]))
    records = list(sample_races(ALTERNATIVE_TURNS, rulings=rulings))
    assert len(records) == ALTERNATIVE_TURNS
    wrong = [d for rec in records for d in check_turn(rec)]
    assert not wrong, wrong[:3]
    default = [rec.label for rec in records
               if check_turn(dataclasses.replace(rec, rulings=DEFAULT_RULINGS))]
    assert bool(default) == (pair in SHOWN_IN_SAMPLE), default[:3]


def _recorded(state: RaceState, *actions: str) -> list[TurnRecord]:
    """The completed turns of one hand-made round: ``actions`` are taken in order when their
    car must choose, the other choices are the background cars' (``scenario.bot_choice``)."""
    rng = random.Random(0)
    recorder = Recorder("hand-made", state.laps)
    todo = [parse_action(a) for a in actions]
    first = state.round
    while not state.is_over() and state.round == first:
        if state.is_chance():
            action = random_shuffle(state, rng)
        elif todo and state.actor() == todo[0].car:
            action = todo.pop(0)
        else:
            action = bot_choice(state)
        after, events = apply(state, action)
        recorder.on_step(state, action, after, tuple(events))
        state = after
    assert not todo, todo
    return [t for t in recorder.turns if t.post is not None]


def _handmade() -> dict[tuple[str, str], tuple[RaceState, tuple[str, ...], int]]:
    """For each alternative that sampled races rarely show: a round where it matters
    (the state, the acting car's choices, and that car)."""
    still = "U0 U5 S S S H H"
    return {
        ("ruling.cluttered-gear", "free-shifts-only"): (  # the paid shift is not offered
            make_state(make_car(0, gear=4, hand="3 H H H H H H", engine=1),
                       make_car(20, hand="1 1 1 2 2 2 3")), ("P1 gear 3 play 3 H H",), 0),
        ("ruling.zero-move", "place"): (  # a move of 0 takes the free racing-line spot
            make_state(make_car(5, racing_line=False, hand=still),
                       make_car(20, hand="1 1 1 2 2 2 3")), ("P1 gear 1 play U0",), 0),
        ("ruling.blocked-own-space", "stay"): (  # blocked back to its own space: stays
            make_state(make_car(6, True, hand=still), make_car(6, False, hand=still),
                       make_car(5, False, hand="1 1 1 2 2 2 3")), ("P3 gear 1 play 1",), 2),
        ("ruling.setback-corner", "checked"): (  # set back before a corner line: checked
            make_state(make_car(34, True, hand=still), make_car(34, False, hand=still),
                       make_car(30, hand="4 1 1 2 2 3 3")), ("P3 gear 1 play 4",), 2),
    }


@pytest.mark.parametrize("pair", [_alternative(p) for p in sorted(
    CORE_ALTERNATIVES - SHOWN_IN_SAMPLE)])
def test_a_handmade_turn_under_a_rare_alternative_agrees_with_its_model_only(
        pair: tuple[str, str]) -> None:
    state, actions, car = _handmade()[pair]
    turns = _recorded(dataclasses.replace(state, rulings=make_rulings(dict([pair]))),
                      *actions)
    mine = [t for t in turns if t.car == car]
    assert mine and all(not check_turn(t) for t in turns)
    assert check_turn(dataclasses.replace(mine[0], rulings=DEFAULT_RULINGS))
