"""``heatcore serve`` reads requests in batches and writes replies in batches, with orjson:
its replies are byte for byte those of answering one line at a time with ``json``.

Independent of: the server's reading and writing (the expected lines are built here from
``handle``, one request at a time, written by the standard library's ``json.dumps``); the
engine (both sides call the same binding: what is checked is the server's I/O, not the
rules).
"""

from __future__ import annotations

import io
import json
import sys
from typing import Any

from heatcore.framework.conformance import PROTOCOL
from heatcore.framework.conformance.binding import Binding, RandomRace
from heatcore.framework.conformance.protocol import EngineProcess, handle, request_batches, serve
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.rallyman.binding import RallymanBinding

SERVE = [sys.executable, "-m", "heatcore.tools.cli", "serve"]
#: Seconds per reply before the engine counts as hung: a guard only, never reached by a
#: working engine however loaded the machine (no test depends on wall time).
HANG_GUARD = 3600.0


def _requests(ruleset: str, races: list[RandomRace]) -> list[str]:
    lines = [json.dumps({"op": "start", "protocol": PROTOCOL, "ruleset": ruleset})]
    for race in races:
        lines.append(json.dumps({"op": "load", "state": race.start}))
        for step in race.steps:
            lines += ['{"op":"legal"}', json.dumps({"op": "apply", "action": step.action})]
    lines += ['{"op":"apply","action":"P9 boost"}', '{"op":"fly"}', "not json", "",
              '{"op":"apply","action":"\u00e9t\u00e9"}',
              # read by json, not orjson (numbers; a lone surrogate orjson refuses)
              '{"op":"apply","action":"P1 boost","n":123456789012345678901234567890}',
              '{"op":"legal","n":1e400}', '{"op":"apply","action":"\\ud800"}',
              '{"op":"apply","action":["P1 boost"]}', '{"op":"legal"} ',
              '{"op":"stop"}', '{"op":"legal"}']
    return lines


def _one_at_a_time(binding: Binding, lines: list[str]) -> bytes:
    """The replies as the server wrote them before: each line read, answered and written by
    ``json.dumps`` on its own, up to ``stop``."""
    session: dict[str, Any] = {}
    out = []
    for line in lines:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            reply: Any = {"ok": False, "error": {"kind": "malformed",
                                                 "message": f"not JSON: {error}"}}
        else:
            reply = handle(binding, session, request)
        out.append(json.dumps(reply, separators=(",", ":")) + "\n")
        if isinstance(request, dict) and request.get("op") == "stop":
            break
    return "".join(out).encode()


class _Trickle(io.BytesIO):
    """A stream whose ``read1`` gives at most ``size`` bytes (a pipe's reads)."""

    def __init__(self, data: bytes, size: int) -> None:
        super().__init__(data)
        self.size = size

    def read1(self, size: int = -1) -> bytes:
        return super().read1(self.size)


def _served(binding: Binding, data: bytes, size: int = 1000) -> bytes:
    out = io.BytesIO()
    serve(binding, _Trickle(data, size), out)
    return out.getvalue()


def test_replies_are_those_of_one_line_at_a_time_for_recorded_races() -> None:
    heat = HeatBinding()
    modules = HeatBinding()
    modules.use_modules(modules.modules())
    cases: list[tuple[str, Binding, list[RandomRace]]] = [
        ("heat", heat, [heat.random_race(seed) for seed in (1, 2)]),
        ("heat", modules, [modules.random_race(seed) for seed in (7, 14, 21)]),
        ("rallyman-gt", RallymanBinding(), [RallymanBinding().random_race(3)]),
    ]
    for ruleset, binding, races in cases:
        lines = _requests(ruleset, races)
        expected = _one_at_a_time(type(binding)(), lines)
        assert expected.isascii() and expected.count(b"\n") > 200
        for end in ("\n", "\r\n"):
            assert _served(binding, end.join(lines).encode()) == expected, (ruleset, end)


def test_a_real_server_gives_the_same_bytes_and_answers_a_waiting_client() -> None:
    """Through pipes: all requests at once give the expected bytes; a client that sends one
    request and waits gets each reply (a server that kept replies until more input came, or
    until the end, would time out here)."""
    binding = HeatBinding()
    race = binding.random_race(5)
    lines = _requests("heat", [race])
    import subprocess

    done = subprocess.run(SERVE, input="\n".join(lines).encode(), capture_output=True,
                          check=True)
    assert done.stdout == _one_at_a_time(HeatBinding(), lines)
    with EngineProcess(SERVE, timeout=HANG_GUARD) as engine:
        assert engine.request({"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})["ok"]
        assert engine.request({"op": "load", "state": race.start}) == {"ok": True}
        for step in race.steps[:20]:
            assert engine.request({"op": "legal"})["actions"] == step.legal
            assert engine.request({"op": "apply", "action": step.action})["state"] == step.after


def test_lines_are_split_as_text_mode_splits_them() -> None:
    data = b'a\nb\r\nc\rd\n\ne'
    lines = [line for batch in request_batches(_Trickle(data, 3)) for line in batch]
    assert [line.rstrip(b"\r\n") for line in lines] == [b"a", b"b", b"c", b"d", b"", b"e"]
    assert b"".join(lines) == data


def test_a_line_that_is_not_utf8_is_refused_and_the_session_goes_on() -> None:
    data = b'{"op":"start","protocol":"' + PROTOCOL.encode() + b'","ruleset":"heat"}\n' \
        b'{"op":"legal\xff"}\n{"op":"legal"}\n'
    replies = [json.loads(line) for line in _served(HeatBinding(), data).splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False]
    assert replies[1]["error"]["kind"] == "malformed" and "UTF-8" in replies[1]["error"]["message"]
    assert replies[2]["error"]["message"] == "no state loaded"


def test_a_line_nested_too_deeply_is_refused_and_the_session_goes_on() -> None:
    """json raises RecursionError (not a decoding error) on deep nesting: still one
    ``malformed`` reply, never a crash of the server."""
    data = b'{"op":"start","protocol":"' + PROTOCOL.encode() + b'","ruleset":"heat"}\n' \
        + b"[" * 200_000 + b"\n" + b'{"op":"legal"}\n'
    replies = [json.loads(line) for line in _served(HeatBinding(), data).splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False]
    assert replies[1]["error"]["kind"] == "malformed"
    assert "nested too deeply" in replies[1]["error"]["message"]
    assert replies[2]["error"]["message"] == "no state loaded"
