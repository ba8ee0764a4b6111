#!/usr/bin/env python3
"""A Rallyman GT conformance adapter for `heatcore conform`, to copy and fill in.

It speaks the JSON-lines protocol conform/2 on stdin/stdout (spec/schemas/HOWTO.md, section
12: the rallyman-gt ruleset) and hands each request to your engine through the functions
marked FILL IN. States are rallyman-gt-state.schema.json, actions rallyman-gt-action, events
rallyman-gt-event, setups rallyman-gt-setup. Anything you leave unimplemented answers
`unsupported`, which the harness counts as a skip with the reason you give.

Run it:  heatcore conform --ruleset rallyman-gt --impl "python3 rallyman_template.py" --report out/
"""

from __future__ import annotations

import json
import sys
from typing import Any

JSON = Any


class Unsupported(Exception):
    """Raise this (with a reason) for a request your engine does not handle."""


class Refused(Exception):
    """Raise this when your engine refuses an action or a state: kind is illegal-action,
    invalid-state or malformed (HOWTO section 1); rule is a heatcore rule ID or None."""

    def __init__(self, kind: str, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        self.kind, self.message, self.rule = kind, message, rule


# ----------------------------------------------------------------------------- declare
#: The `start` reply (HOWTO section 2). Declare only what your engine really does.
HELLO: JSON = {
    "ok": True,
    "protocol": "conform/2",
    "implementation": {"name": "my-engine", "version": "0.1"},
    "ruleset": "rallyman-gt",
    # What the harness compares: drop "events" if your engine has no event vocabulary.
    "compare": ["state", "legal", "events"],
    # Rulings (spec/rallyman/rulings.toml, rgt.ruling.*) your engine decides as heatcore does.
    "rulings": [],
    "tracks": ["proving-ground"],
    "modules": [],
    "rule_ids": False,
}


class Adapter:
    """Holds the current state between requests. Convert between heatcore's Rallyman JSON
    (HOWTO section 12) and your engine's own structures here."""

    def __init__(self) -> None:
        self.state: Any = None  # your engine's current state

    # ------------------------------------------------------------------------ FILL IN
    def setup(self, setup: JSON) -> JSON:
        """Build the start state from a setup (rallyman-gt-setup.schema.json: the grid
        order is given), make it current, return it as heatcore JSON."""
        raise Unsupported("setup is not implemented")

    def load(self, state: JSON) -> None:
        """Make a state (rallyman-gt-state.schema.json) current. It can be any state of a
        race: a plan being laid, dice being rolled (`turn.stage`), a token to draw."""
        raise Unsupported("load is not implemented")

    def legal(self) -> list[str]:
        """Every legal action of the current state, as canonical strings
        (rallyman-gt-action.schema.json); [] at a chance point (`turn.stage` dice or draw)
        or when the race is over."""
        raise Unsupported("legal is not implemented")

    def apply(self, action: str) -> tuple[JSON, list[JSON]]:
        """Apply an action; return (next state as heatcore JSON, events). A `dice` action
        gives the dice results and a `draw` action the damage token: use them instead of
        your random generator. Raise Refused if the action is not legal (the state must
        stay); name the rgt.* rule that refuses it when you can."""
        raise Unsupported("apply is not implemented")

    # ------------------------------------------------------------------------ protocol
    def handle(self, request: JSON) -> JSON:
        """The reply to one request."""
        op = request.get("op") if isinstance(request, dict) else None
        try:
            if op == "start":
                if request.get("ruleset") != HELLO["ruleset"]:
                    raise Unsupported(f"this engine plays {HELLO['ruleset']}")
                return HELLO
            if op == "stop":
                return {"ok": True}
            if op == "setup":
                return {"ok": True, "state": self.setup(request["setup"])}
            if op == "load":
                self.load(request["state"])
                return {"ok": True}
            if op == "legal":
                return {"ok": True, "actions": self.legal()}
            if op == "apply":
                state, events = self.apply(request["action"])
                reply: JSON = {"ok": True, "state": state}
                if "events" in HELLO["compare"]:
                    reply["events"] = events
                return reply
            return _error("protocol", f"unknown op {op!r}")
        except Unsupported as why:
            return _error("unsupported", str(why))
        except Refused as refused:
            return _error(refused.kind, refused.message, refused.rule)


def _error(kind: str, message: str, rule: str | None = None) -> JSON:
    error: JSON = {"kind": kind, "message": message}
    if rule:
        error["rule"] = rule
    return {"ok": False, "error": error}


def main(adapter: Adapter) -> int:
    """Answer requests line by line until `stop` or end of input. Logs go to stderr."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except json.JSONDecodeError as error:
            reply = _error("malformed", f"not JSON: {error}")
            request = None
        else:
            reply = adapter.handle(request)
        sys.stdout.write(json.dumps(reply, separators=(",", ":")) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("op") == "stop":
            break
    return 0


if __name__ == "__main__":
    raise SystemExit(main(Adapter()))
