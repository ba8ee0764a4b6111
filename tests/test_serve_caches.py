"""What ``heatcore serve`` remembers between requests changes no reply.

The server's binding keeps the actions ``legal`` listed for a state (an ``apply`` of one of
them is neither read nor checked again) and, with ``shared_json`` on, each car's JSON while
its value is unchanged. Here a long session (states loaded over others after ``legal``,
illegal and unreadable actions after ``legal``, ``legal`` twice, actions listed for another
state) is served by one binding with both on, and each reply is compared, byte for byte, with
the reply of a new binding that is given only the session's current state and the request.

Independent of: the caches (every expected reply comes from a binding that has seen nothing
before); not of the engine (both sides play it: what is checked is that remembering changes
nothing).
"""

from __future__ import annotations

import io
import json
import random
from typing import Any

from heatcore.framework.conformance import PROTOCOL
from heatcore.framework.conformance.protocol import handle, serve
from heatcore.heat.conformance.binding import HeatBinding
from heatcore.heat.modules.weather import MODULES


def _session(seeds: range) -> list[str]:
    """Requests of the races ``seeds`` (every module), with requests that could catch a
    remembered answer out mixed in."""
    races = HeatBinding()
    races.use_modules(MODULES)
    rng = random.Random(11)
    lines = [json.dumps({"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})]
    for seed in seeds:
        race = races.random_race(seed)
        lines.append(json.dumps({"op": "load", "state": race.start}))
        for step in race.steps:
            other = race.steps[rng.randrange(len(race.steps))]
            lines.append('{"op":"legal"}')
            draw = rng.random()
            if draw < 0.05:  # legal twice
                lines.append('{"op":"legal"}')
            elif draw < 0.10:  # another state loaded after legal: its action, then back
                lines += [json.dumps({"op": "load", "state": other.before}),
                          json.dumps({"op": "apply", "action": step.action}),
                          json.dumps({"op": "load", "state": step.before})]
            elif draw < 0.15:  # an action of another state, an unreadable one
                lines += [json.dumps({"op": "apply", "action": other.action}),
                          '{"op":"apply","action":"P1 fly"}']
                if other.action != step.action:  # it may have been legal here too
                    lines.append(json.dumps({"op": "load", "state": step.before}))
            lines.append(json.dumps({"op": "apply", "action": step.action}))
        lines.append('{"op":"legal"}')
    return lines


def _fresh_replies(lines: list[str]) -> bytes:
    """Each reply from a new binding given only the session's current state (none of the
    caches can answer)."""
    state: Any = None
    out = []
    for line in lines:
        binding = HeatBinding()
        session: dict[str, Any] = {}
        request = json.loads(line)
        if request["op"] != "start":
            handle(binding, session, {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})
            if state is not None:
                handle(binding, session, {"op": "load", "state": state})
        reply = handle(binding, session, request)
        state = session.get("state", state)
        out.append(json.dumps(reply, separators=(",", ":")) + "\n")
    return "".join(out).encode()


def test_remembered_legal_actions_and_car_json_change_no_reply() -> None:
    lines = _session(range(0, 56, 7))
    served = HeatBinding()
    served.shared_json = True
    output = io.BytesIO()
    serve(served, io.BufferedReader(io.BytesIO("\n".join(lines).encode())), output)
    expected = _fresh_replies(lines)
    got = output.getvalue().splitlines(keepends=True)
    want = expected.splitlines(keepends=True)
    assert len(got) == len(want) == len(lines)
    refused = sum(b'"ok":false' in line for line in want)
    assert refused > 20  # the traps were sprung: illegal and unreadable actions
    for index, (line, reply) in enumerate(zip(got, want, strict=True)):
        assert line == reply, (index, lines[index][:80])


def test_a_listed_action_is_checked_again_on_another_state() -> None:
    """``legal`` on one state, then a state loaded where that listed action is illegal: the
    apply is refused as a new binding refuses it (the listing is of the other state)."""
    races = HeatBinding()
    race = races.random_race(2)
    first, later = race.steps[0], next(
        s for s in race.steps[1:] if race.steps[0].action not in s.legal)
    binding = HeatBinding()
    session: dict[str, Any] = {}
    handle(binding, session, {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})
    handle(binding, session, {"op": "load", "state": first.before})
    assert first.action in handle(binding, session, {"op": "legal"})["actions"]
    handle(binding, session, {"op": "load", "state": later.before})
    reply = handle(binding, session, {"op": "apply", "action": first.action})
    fresh = HeatBinding()
    with_fresh: dict[str, Any] = {}
    handle(fresh, with_fresh, {"op": "start", "protocol": PROTOCOL, "ruleset": "heat"})
    handle(fresh, with_fresh, {"op": "load", "state": later.before})
    assert reply == handle(fresh, with_fresh, {"op": "apply", "action": first.action})
    assert reply["ok"] is False
