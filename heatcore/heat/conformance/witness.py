"""Replaying the cases of a fixture suite (the corpus in ``spec/fixtures``, or witnesses
mined by ``heatcore prove --mine``) as text, each checked against what the case expects."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.errors import RulesError
from heatcore.heat.engine import apply
from heatcore.heat.notation import parse_action, state_from_dict


def is_suite(data: Any) -> bool:
    """Whether ``data`` is a fixture suite."""
    return isinstance(data, dict) and data.get("format") == SUITE_FORMAT \
        and isinstance(data.get("cases"), list)


def case_lines(case: dict[str, Any]) -> Iterator[str]:
    """A case as text: its id and description, the start, then each action and its events."""
    yield f"== {case.get('id')}: {case.get('description')}"
    try:
        state = state_from_dict(case.get("state"))
    except RulesError as error:
        yield f"  start state refused: {error}"
        return
    yield f"  start: {state}"
    expect = case.get("expect", {})
    if "legal" in expect:
        yield f"  expects {len(expect['legal'])} legal action(s)"
    if "rejection" in expect:
        rejection = expect["rejection"]
        yield f"  > {rejection.get('action')}  (expects a rejection: {rejection.get('kind')})"
    for step in expect.get("steps", []):
        yield f"  > {step.get('action')}"
        try:
            state, events = apply(state, parse_action(step.get("action")))
        except RulesError as error:
            yield f"    refused: {error}"
            return
        for ev in events:
            yield f"    {ev}"


def verify_suite(data: dict[str, Any]) -> Iterator[tuple[dict[str, Any], str | None]]:
    """Each case with None if heatcore does what it expects, else why not."""
    from heatcore.framework.conformance.fixtures import run_case
    from heatcore.heat.conformance.binding import HeatBinding

    binding = HeatBinding()
    for case in data["cases"]:
        yield case, run_case(binding, case)
