"""The fuzz harness (heatcore/tools/fuzz.py) finds nothing: ``heatcore serve`` never crashes and
answers every line with one typed reply, ``state_from_dict`` / ``state_from_json`` and
``apply`` of both rulesets raise only typed errors, an illegal action never changes its
state, and validation refuses impossible values with the rule they break.

The bounded run here sends ``HEATCORE_FUZZ_LINES`` protocol lines (4,000 by default); the
long run is ``python3 -m heatcore.tools.fuzz --lines 1000000`` (README, "Fuzzing"). Each crash
class the harness found has its own regression test below, so a finding that the random
choices stop reaching still fails here.
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from heatcore.framework.errors import InvalidState, MalformedInput, RulesError
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.engine import apply as heat_apply
from heatcore.heat.notation import parse_action as heat_parse_action
from heatcore.heat.notation import state_from_dict as heat_from_dict
from heatcore.heat.notation import state_from_json as heat_from_json
from heatcore.heat.validity import validate as heat_validate
from heatcore.rallyman.binding import RallymanBinding
from heatcore.rallyman.engine import apply as rgt_apply
from heatcore.rallyman.notation import parse_action as rgt_parse_action
from heatcore.rallyman.notation import state_from_dict as rgt_from_dict
from heatcore.rallyman.notation import state_from_json as rgt_from_json
from heatcore.rallyman.validity import validate as rgt_validate
from heatcore.tools import fuzz

ROOT = Path(__file__).resolve().parent.parent
LINES = int(os.environ.get("HEATCORE_FUZZ_LINES", "4000"))
HUGE_TEXT = "1" + "0" * 5000


@pytest.fixture(scope="module")
def corpus() -> fuzz.Corpus:
    """States of two seeded races per ruleset (Heat core, Heat with modules, Rallyman)."""
    return fuzz.corpus(races=2)


def _shown(tally: fuzz.Tally) -> str:
    return fuzz.report(tally, 0.0)


# ---------------------------------------------------------------- the runs

def test_a_bounded_fuzz_run_finds_nothing() -> None:
    tally = fuzz.run(LINES, seed=LINES, races=2)
    assert tally.lines >= LINES
    assert tally.outcomes["reply ok"] and tally.outcomes["state accepted"], _shown(tally)
    assert not tally.findings, _shown(tally)


class _Draws:
    """Hypothesis's choices as a :class:`heatcore.tools.fuzz.Chooser` (so failures shrink)."""

    def __init__(self, data: st.DataObject) -> None:
        self.data = data

    def randrange(self, stop: int) -> int:
        return self.data.draw(st.integers(0, stop - 1))


@settings(max_examples=150)
@given(data=st.data())
def test_mutated_states_raise_only_typed_errors(corpus: fuzz.Corpus,
                                                data: st.DataObject) -> None:
    c = _Draws(data)
    name = fuzz.pick(c, ("heat", "rallyman-gt"))
    state = fuzz.pick(c, corpus.states[name])
    original = copy.deepcopy(state)
    tally = fuzz.Tally()
    fuzz.check_api(fuzz.rulesets()[name], fuzz.mutate(c, state, corpus.strings_of(state)), c,
                   corpus.actions[name], tally, as_text=bool(c.randrange(2)))
    assert not tally.findings, tally.findings
    assert state == original  # the mutators copy


@settings(max_examples=40)
@given(data=st.data())
def test_fuzzed_protocol_sessions_get_one_typed_reply_per_line(corpus: fuzz.Corpus,
                                                               data: st.DataObject) -> None:
    tally = fuzz.Tally()
    fuzz.serve_session(_Draws(data), corpus, tally, 12)
    assert not tally.findings, tally.findings


def test_the_served_process_answers_fuzzed_lines_as_the_server_does(
        corpus: fuzz.Corpus) -> None:
    """The lines of fuzzed sessions piped into ``heatcore serve``: exit 0, nothing on
    stderr, the replies the in-process server gave, byte for byte."""
    import random

    tally = fuzz.Tally()
    serving = fuzz.serve_session(random.Random(7), corpus, tally, 150)
    assert not tally.findings, tally.findings
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-m", "heatcore", "serve"],
                          input=b"".join(serving.sent), capture_output=True, env=env,
                          cwd=ROOT, check=False)
    assert (done.returncode, done.stderr) == (0, b"")
    assert done.stdout == b"".join(serving.replies[:serving.until_stop])


# ---------------------------------------------------------------- the crash classes found

def _heat_state() -> dict[str, Any]:
    return copy.deepcopy(HeatBinding().random_race(0).start)


def _rgt_state() -> dict[str, Any]:
    """A Rallyman state in a turn with a die laid (round 1 or later)."""
    race = RallymanBinding().random_race(0)
    return copy.deepcopy(next(s.before for s in race.steps if s.before["turn"] is not None
                              and s.before["turn"]["plan"]))


def _serve(*lines: bytes) -> list[dict[str, Any]]:
    tally = fuzz.Tally()
    serving = fuzz.Serving(tally)
    replies = [serving.send(line) for line in lines]
    assert not tally.findings, tally.findings
    return replies


@pytest.mark.rules("round.sequence")
def test_serve_refuses_integers_of_over_4300_digits_and_deep_nesting() -> None:
    start = b'{"op":"start","protocol":"conform/2","ruleset":"heat"}\n'
    replies = _serve(start, HUGE_TEXT.encode() + b"\n",
                     b'{"op":"apply","action":"P1","n":' + HUGE_TEXT.encode() + b"}\n",
                     b"[" * 100_000 + b"]" * 100_000 + b"\n", b'{"op":"legal"}\n')
    assert [r["ok"] for r in replies] == [True, False, False, False, False]
    assert [r["error"]["kind"] for r in replies[1:]] == ["malformed"] * 3 + ["protocol"]
    assert "4,300 digits" in replies[1]["error"]["message"]


@pytest.mark.rules("round.sequence", "rgt.turn.sequence")
@pytest.mark.parametrize("read", [heat_from_json, rgt_from_json])
@pytest.mark.parametrize("text", [
    "[" * 100_000 + "]" * 100_000, '{"format":' + HUGE_TEXT + "}", "{", "\ud800", "NaN"],
    ids=["deep", "huge", "cut", "surrogate", "nan"])
def test_state_from_json_raises_malformed_input_only(read: Any, text: str) -> None:
    with pytest.raises(MalformedInput):
        read(text)


@pytest.mark.rules("round.sequence", "rgt.turn.sequence")
@pytest.mark.parametrize("ruleset", ["heat", "rallyman-gt"])
@pytest.mark.parametrize("where", ["round", "cars", "rulings", "turn"])
@pytest.mark.parametrize("value", [10 ** 5000, -(10 ** 5000), fuzz.nested(100_000)],
                         ids=["huge", "-huge", "deep"])
def test_state_from_dict_refuses_huge_integers_and_deep_nesting_anywhere(
        ruleset: str, where: str, value: Any) -> None:
    """An integer ``repr`` refuses, or a nesting that exhausts the stack, at any key: the
    readers' error messages used to repr them (ValueError, RecursionError)."""
    data = _heat_state() if ruleset == "heat" else _rgt_state()
    data[where] = value
    with pytest.raises(MalformedInput, match=r"4,000 digits|nests deeper"):
        (heat_from_dict if ruleset == "heat" else rgt_from_dict)(data)


@pytest.mark.rules("round.sequence", "rgt.turn.sequence")
@pytest.mark.parametrize("text", ["P1 cooldown " + "9" * 5000, "P" + "1" * 5000 + " boost",
                                  "P\u00b2 boost", "P1 speeds \u00b2", "P1 gear \u0663 play 1"],
                         ids=["long-count", "long-car", "superscript-car", "superscript-speed",
                              "arabic-gear"])
def test_parse_action_refuses_numbers_int_cannot_read(text: str) -> None:
    with pytest.raises(MalformedInput):
        heat_parse_action(text)
    with pytest.raises(MalformedInput):
        rgt_parse_action(text)


@pytest.mark.rules("rgt.turn.sequence", "round.sequence")
@pytest.mark.parametrize("action", ["text", "P1 roll", None, 3, ("P1",)])
def test_apply_of_a_value_that_is_not_an_action_is_malformed_input(action: Any) -> None:
    rgt = rgt_validate(rgt_from_dict(_rgt_state()))
    with pytest.raises(MalformedInput, match="must be an Action"):
        rgt_apply(rgt, action)
    heat = heat_validate(heat_from_dict(_heat_state()))
    with pytest.raises(MalformedInput, match="must be an Action"):
        heat_apply(heat, action)


def _heat_refusal(data: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        heat_validate(heat_from_dict(data))
    return caught.value


def _rgt_refusal(data: dict[str, Any]) -> RulesError:
    with pytest.raises(RulesError) as caught:
        rgt_validate(rgt_from_dict(data))
    return caught.value


@pytest.mark.rules("round.sequence", "play.card-count", "setup.track-laps")
def test_heat_validation_refuses_impossible_rounds_laps_and_cursors() -> None:
    data = _heat_state()  # round 1, planning, nobody has planned yet
    assert data["phase"] == "plan" and data["cursor"] == 0
    for key, value, rule in (("round", -3, "round.sequence"), ("round", 0, "round.sequence"),
                             ("laps", 0, "setup.track-laps")):
        bad = {**data, key: value}
        error = _heat_refusal(bad)
        assert isinstance(error, InvalidState) and error.rule == rule, (key, value, error)
    # a cursor past cars that have not planned: the first of them would be asked to have
    # planned (apply raised KeyError: 0); a cursor below the order raised IndexError
    skipping = {**data, "cursor": len(data["order"]) - 1}
    assert "PLAY_AREA (play.card-count)" in str(_heat_refusal(skipping))
    for cursor in (-1, -len(data["order"]) - 2):
        assert isinstance(_heat_refusal({**data, "cursor": cursor}), InvalidState)


@pytest.mark.rules("rgt.focus.gain", "rgt.turn.sequence", "rgt.finish.end",
                   "rgt.loc.double-zero", "rgt.pit.conditions", "rgt.move.forward",
                   "rgt.order.speed", "rgt.dice.gear", "rgt.dice.dashboard")
def test_rallyman_validation_refuses_impossible_values_with_their_rule() -> None:
    data = _rgt_state()
    turn = data["turn"]
    assert turn["plan"], "the state has a laid die to corrupt"

    def car(**change: Any) -> dict[str, Any]:
        return {**data, "cars": [{**data["cars"][0], **change}, *data["cars"][1:]]}

    def step(**change: Any) -> dict[str, Any]:
        return {**data, "turn": {**turn, "plan": [{**turn["plan"][0], **change}]}}

    cases: list[tuple[dict[str, Any], str]] = [
        (car(focus=1000), "rgt.focus.gain"), (car(focus=-1), "rgt.focus.gain"),
        ({**data, "turn": {**turn, "draws": -1}}, "rgt.turn.sequence"),
        ({**data, "turn": {**turn, "fixed": -2}}, "rgt.turn.sequence"),
        (step(boosts=-1), "rgt.turn.sequence"), (step(brakes=-1), "rgt.turn.sequence"),
        (step(gear=9), "rgt.dice.gear"),
        # found by the fuzz: 1,000 boost dice made check_action enumerate 2 ** 1001 outcomes
        (step(boosts=1000), "rgt.dice.dashboard"), (step(brakes=4), "rgt.dice.dashboard"),
        ({**data, "round": -3}, "rgt.turn.sequence"), ({**data, "round": 0}, "rgt.turn.sequence"),
        ({**data, "cursor": -1}, "rgt.turn.sequence"),
        ({**data, "cursor": len(data["order"])}, "rgt.turn.sequence"),
        ({**data, "laps": 0}, "rgt.finish.end"), (car(laps=-1), "rgt.finish.end"),
        (car(laps=data["laps"] + 5), "rgt.finish.end"),
        (car(laps=data["laps"]), "rgt.finish.end"),  # found by the fuzz: still racing
        (car(side=2), "rgt.loc.double-zero"), (car(pit_lane="tyres"), "rgt.pit.conditions"),
        (car(pit_lane="fuel"), "rgt.turn.sequence"),
        ({**data, "turn": {**turn, "start": "T9.L99.9"}}, "rgt.move.forward"),
        ({**data, "turn": {**turn, "loc_space": "yellow"}}, "rgt.move.forward"),
        (car(space="T9.L99.9"), "rgt.move.forward"), (car(tyres="slick"), "rgt.turn.sequence"),
        ({**data, "order": [*data["order"], data["order"][0]]}, "rgt.order.speed"),
    ]
    for bad, rule in cases:
        error = _rgt_refusal(bad)
        assert rule == error.rule or f"({rule})" in str(error), (bad, rule, str(error))
    rgt_validate(rgt_from_dict(data))  # the state they came from is valid


@pytest.mark.rules("rgt.order.speed")
def test_rallyman_order_lists_every_car_still_racing() -> None:
    data = _rgt_state()
    data["order"] = [data["turn"]["car"]]
    data["cursor"] = 0
    assert "TURN_ORDER" in str(_rgt_refusal(data))


def test_an_illegal_apply_leaves_the_served_state_as_it_was(corpus: fuzz.Corpus) -> None:
    state = corpus.states["rallyman-gt"][5]
    replies = _serve(b'{"op":"start","protocol":"conform/2","ruleset":"rallyman-gt"}\n',
                     fuzz.line_of({"op": "load", "state": state}),
                     b'{"op":"apply","action":"P9 roll"}\n', b'{"op":"apply","action":"x"}\n',
                     b'{"op":"legal"}\n')
    assert [r["ok"] for r in replies] == [True, True, False, False, True]
    assert json.loads(json.dumps(state)) == state  # the Serving checks compared the state


def test_the_long_run_is_a_command_with_a_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert fuzz.main(["--lines", "30", "--races", "1"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("30 protocol lines") or "protocol lines" in out.splitlines()[0]
    assert "0 findings" in out.splitlines()[0]


# ---------------------------------------------------------------- the harness catches bugs

def test_the_harness_catches_a_reader_that_lets_a_huge_integer_through(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the readers' first look (check_plain) removed; a huge integer in the
    rulings reaches the error message's repr, and the harness reports the ValueError."""
    import heatcore.heat.notation

    monkeypatch.setattr(heatcore.heat.notation, "check_plain", lambda *args: None)
    data = _heat_state()
    data["rulings"] = {"ruling.blocked-own-space": 10 ** 5000}
    tally = fuzz.Tally()
    fuzz.check_api(fuzz.rulesets()["heat"], data, fuzz.random_chooser(0), [], tally)
    assert list(tally.counts) == ["heat read/validate: ValueError in heat/rulings.py:make_rulings"]


def test_the_harness_catches_apply_of_a_string_and_a_changed_state(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: Rallyman's check that an action is an Action removed (AttributeError on a
    string, as before), and a server whose refused apply replaces the session's state."""
    import heatcore.framework.conformance.protocol as protocol
    import heatcore.rallyman.engine as engine

    real_check = engine.check_action

    def no_type_check(state: Any, action: Any) -> None:
        if isinstance(action, str):
            action.car  # noqa: B018 - what the engine did with a string
        real_check(state, action)

    monkeypatch.setattr(engine, "check_action", no_type_check)
    tally = fuzz.Tally()
    for seed in range(20):
        fuzz.check_api(fuzz.rulesets()["rallyman-gt"], _rgt_state(),
                       fuzz.random_chooser(seed), [], tally)
    assert any(k.startswith("rallyman-gt apply: AttributeError") for k in tally.counts)

    real = protocol._legal_or_apply

    def forgetful(binding: Any, session: dict[str, Any], op: str,
                  request: dict[str, Any]) -> Any:
        reply = real(binding, session, op, request)
        if not reply["ok"]:
            session["state"] = dict(session["state"], round=99)
        return reply

    monkeypatch.setattr(protocol, "_legal_or_apply", forgetful)
    tally = fuzz.Tally()
    serving = fuzz.Serving(tally)
    serving.send(b'{"op":"start","protocol":"conform/2","ruleset":"rallyman-gt"}\n')
    serving.send(fuzz.line_of({"op": "load", "state": _rgt_state()}))
    serving.send(b'{"op":"apply","action":"P9 roll"}\n')
    assert list(tally.counts) == ["serve: a refused apply changed the state"]


def test_the_harness_catches_a_server_that_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """Planted: the server's refusal of a 5,000-digit integer removed (json.loads's
    ValueError escapes, as it did)."""
    import heatcore.framework.conformance.protocol as protocol

    def answer(self: Any, raw: bytes) -> bytes:
        request = json.loads(raw.decode())  # no except ValueError, as before the fix
        return self.line(protocol.handle(self.binding, self.session, request))  # type: ignore

    monkeypatch.setattr(protocol._Server, "answer", answer)
    tally = fuzz.Tally()
    fuzz.Serving(tally).send(HUGE_TEXT.encode() + b"\n")
    assert [k.split(" in ")[0] for k in tally.counts] == ["serve crashed: ValueError"]


@pytest.mark.rules("round.sequence", "rgt.turn.sequence")
@pytest.mark.parametrize("ruleset", ["heat", "rallyman-gt"])
def test_the_schema_check_refuses_what_is_nested_too_deeply_to_describe(ruleset: str) -> None:
    """A request nested just less deeply than ``json.loads`` refuses (about 990 levels from
    the server) reached the schema check, whose error message (the repr of the value)
    raised RecursionError out of heatcore serve."""
    from heatcore.framework.conformance.schema import SchemaError, check

    binding = HeatBinding() if ruleset == "heat" else RallymanBinding()
    setup = binding.random_race(0).setup
    deep = fuzz.nested(sys.getrecursionlimit())
    for key in [*setup, "extra"]:
        # a key whose schema accepts anything passes; nothing else may escape
        with contextlib.suppress(SchemaError):
            check("request.setup", {"op": "setup", "setup": {**setup, key: deep}})
    with pytest.raises(SchemaError, match="nested too deeply"):
        check("request.start", {"op": "start", "protocol": "conform/2", "ruleset": ruleset,
                                "rulings": {"ruling.blocked-own-space": deep}})


@pytest.mark.rules("rgt.turn.sequence", "rgt.loc.trigger")
def test_rallyman_validation_refuses_a_stage_that_does_not_fit_the_turn() -> None:
    """Found by the fuzz: rolling with every laid die rolled (apply raised IndexError)."""
    data = _rgt_state()
    turn = data["turn"]
    rolled = ["-" * (1 + s["brakes"] + s["boosts"]) for s in turn["plan"]]
    cases = [
        {**turn, "stage": "roll", "mode": "one", "results": rolled, "fix_next": True},
        {**turn, "stage": "dice", "mode": "flat", "results": rolled},
        {**turn, "stage": "relay", "mode": "one", "results": [], "pool": []},
        {**turn, "stage": "draw", "mode": "one", "results": [], "draws": 0,
         "loc_space": turn["start"]},
        {**turn, "stage": "side", "mode": "one", "results": [], "loc_space": ""},
        {**turn, "stage": "plan", "mode": "flat"},
        # found by the fuzz: re-laid steps without their results (ValueError from zip)
        {**turn, "stage": "relay", "mode": "one", "pool": ["G1"], "relay": turn["plan"][:1],
         "relay_results": []},
        {**turn, "stage": "roll", "mode": "one", "results": ["-!!!!"]},
    ]
    for bad in cases:
        error = _rgt_refusal({**data, "turn": bad})
        assert "PHASE (rgt.turn.sequence)" in str(error), (bad["stage"], str(error))


@pytest.mark.rules("rgt.loc.trigger")
def test_resolving_a_loss_of_control_the_dice_do_not_show_is_invalid_state() -> None:
    """Found by the fuzz: re-laying dice without a loss of control (Keep raised
    AssertionError). Validity cannot see it without the engine's own rule (it must not
    share the engine's code), so the engine refuses it where it resolves the loss."""
    from heatcore.rallyman.actions import Keep

    data = _rgt_state()
    turn = {**data["turn"], "stage": "relay", "mode": "one", "results": [], "pool": ["G1"]}
    state = rgt_validate(rgt_from_dict({**data, "turn": turn}))
    with pytest.raises(InvalidState, match="loss of control") as caught:
        rgt_apply(state, Keep(state.turn.car))  # type: ignore[union-attr]
    assert caught.value.rule == "rgt.loc.trigger"
