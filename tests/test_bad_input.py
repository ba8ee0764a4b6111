"""Bad input is rejected with a typed error naming a rule, and the state is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from heatcore.framework.errors import IllegalAction, InvalidState, MalformedInput, RulesError
from heatcore.framework.registry import ruleset
from heatcore.heat import strategies as hs
from heatcore.heat.actions import Action, Plan
from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action, state_from_json, state_to_json
from heatcore.heat.racelog import read_json
from heatcore.heat.state import RaceState
from heatcore.heat.validity import RULE_OF, status, validate

SHORT_STATES = hs.race_states(max_steps=150)


RULE_IDS = frozenset(entry.id for entry in ruleset())


def _known_rule(rule: str) -> bool:
    return rule in RULE_IDS


@pytest.mark.rules("round.sequence", "gear.range", "gear.shift.no-three", "play.card-count",
                   "play.playable-cards", "react.cooldown", "discard.optional",
                   "deck.reshuffle")
@given(data=st.data(), state=SHORT_STATES)
def test_illegal_actions_are_rejected_and_change_nothing(data: st.DataObject,
                                                         state: RaceState) -> None:
    if state.is_over():
        return
    action: Action = data.draw(hs.illegal_actions(state))
    before = state_to_json(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, action)
    assert caught.value.rule and _known_rule(caught.value.rule)
    assert state_to_json(state) == before


@pytest.mark.rules("round.sequence", "setup.deck", "setup.engine", "setup.stress-supply",
                   "gear.range", "place.racing-line-first", "order.fixed-at-round-start",
                   "setup.board-space")
@given(hs.corrupted_states(SHORT_STATES))
def test_corrupted_states_parse_but_do_not_validate(case: tuple[str, str, RaceState]) -> None:
    name, text, original = case
    corrupted = state_from_json(text)
    assert status(corrupted) & hs.CORRUPTIONS[name], name
    with pytest.raises(InvalidState) as caught:
        validate(corrupted)
    assert caught.value.rule in RULE_OF.values()
    assert not status(original)  # the state it came from is untouched and valid


@pytest.mark.rules("round.sequence", "setup.deck", "gear.range")
@given(hs.malformed_state_json(SHORT_STATES))
def test_malformed_state_json_is_rejected(text: str) -> None:
    with pytest.raises(MalformedInput) as caught:
        state_from_json(text)
    assert caught.value.rule and caught.value.kind == "malformed"


@pytest.mark.rules("round.sequence")
@given(st.text(max_size=40) | st.sampled_from(["P1 gear", "P0 boost", "P1 gear x play 1",
                                                 "P1 discard 9", "P1 shuffle X", "Q1 boost"]))
def test_unreadable_action_text_is_malformed(text: str) -> None:
    try:
        action = parse_action(text)
    except MalformedInput as error:
        assert error.rule
        return
    assert parse_action(str(action)) == action  # readable text reads back canonically


@pytest.mark.rules("gear.range")
@given(SHORT_STATES, st.sampled_from([5, 0, -1, 10**9]))
def test_out_of_range_gear_in_a_plan(state: RaceState, gear: int) -> None:
    if state.is_over() or state.is_chance() or state.phase.value != "plan":
        return
    car = state.order[state.cursor]
    before = state_to_json(state)
    with pytest.raises(IllegalAction) as caught:
        apply(state, Plan(car, gear, state.cars[car].hand[:1]))
    assert caught.value.rule in ("gear.range", "gear.shift.no-three")
    assert state_to_json(state) == before


@pytest.mark.rules("round.sequence")
@pytest.mark.parametrize("value", [None, 3, [], {"format": 1}, "not json", b"\xff"])
def test_not_a_state_at_all(value: object) -> None:
    text = value if isinstance(value, str | bytes) else json.dumps(value)
    with pytest.raises(RulesError):
        state_from_json(text)  # type: ignore[arg-type]


@pytest.mark.rules("ruling.unreadable-input")
@pytest.mark.parametrize("content, words", [(None, "cannot read"), (b"{not json", "is not JSON"),
                                            (b"\xff\xfe", "is not JSON")])
def test_a_file_that_cannot_be_read_names_the_unreadable_input_ruling(
        tmp_path: Path, content: bytes | None, words: str) -> None:
    path = tmp_path / "log.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(MalformedInput) as caught:
        read_json(path)
    assert caught.value.rule == "ruling.unreadable-input"
    assert words in caught.value.detail and str(path) in caught.value.detail
