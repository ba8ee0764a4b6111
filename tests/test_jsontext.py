"""The server's compact JSON writer gives the standard library's text, byte for byte.

Independent of: the engine (the values are the recorded races' JSON, plus hand-made
values with the cases an encoder gets wrong: non-ASCII, escapes, floats, nesting).
"""

from __future__ import annotations

import json
from typing import Any

from heatcore.framework.conformance.jsontext import compact, compact_line, plain_compact
from heatcore.heat.conformance.binding import HeatBinding

ODD: list[Any] = [
    {}, [], "", "é\u2603\U0001f600", 'quote " back \\ slash\n\t\x00', 1.5, -0.0, 1e300,
    10**30, True, None, {"a": [1, {"b": None}], "c": "ü"}, [[[]]], "plain", 0,
]


def test_compact_writes_what_json_dumps_writes() -> None:
    binding = HeatBinding()
    race = binding.random_race(1)
    values: list[Any] = [race.start, *ODD]
    for step in race.steps[:200]:
        values += [step.after, {"ok": True, "state": step.after, "events": step.events},
                   {"ok": True, "actions": step.legal}]
    for value in values:
        expected = json.dumps(value, separators=(",", ":"))
        assert compact(value) == expected == plain_compact(value)


def test_a_planted_difference_is_seen() -> None:
    """The comparison above can fail: a writer with spaces after the separators differs."""
    spaced = json.JSONEncoder().encode
    assert any(spaced(v) != compact(v) for v in ODD)


def _floats(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_floats(v) for v in value.values())
    if isinstance(value, list):
        return any(_floats(v) for v in value)
    return isinstance(value, float)


def test_compact_line_writes_what_compact_writes_for_values_without_floats() -> None:
    binding = HeatBinding()
    race = binding.random_race(2)
    values: list[Any] = [v for v in ODD if not isinstance(v, float)]
    values += [10**20, {1: "int key"}, "\ud800 lone surrogate", race.start]
    for step in race.steps[:200]:
        values += [{"ok": True, "state": step.after, "events": step.events},
                   {"ok": True, "actions": step.legal}]
    for value in values:
        assert compact_line(value) == (compact(value) + "\n").encode()


def test_the_reference_bindings_json_holds_no_float() -> None:
    """Their ``integer_json`` (the server writes their replies with compact_line), on races
    of both rulesets and of every Heat module; a float would be written otherwise."""
    from heatcore.rallyman.binding import RallymanBinding

    modules = HeatBinding()
    modules.use_modules(modules.modules())
    races = [modules.random_race(seed) for seed in (1, 7, 14, 21, 28)]
    races.append(RallymanBinding().random_race(3))
    assert HeatBinding.integer_json and RallymanBinding.integer_json
    for race in races:
        assert not _floats(race.start)
        for step in race.steps:
            assert not _floats(step.after) and not _floats(step.events)
    assert any(compact_line(v) != (compact(v) + "\n").encode() for v in (1e-7, 1e16))
