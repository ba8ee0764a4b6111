"""The server's compact JSON writer gives the standard library's text, byte for byte.

Independent of: the engine (the values are the recorded races' JSON, plus hand-made
values with the cases an encoder gets wrong: non-ASCII, escapes, floats, nesting).
"""

from __future__ import annotations

import json
from typing import Any

from heatcore.conformance.heat import HeatBinding
from heatcore.conformance.jsontext import compact, plain_compact

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
