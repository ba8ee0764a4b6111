"""``heatcore conform --perft``: an engine's perft counts over the protocol, compared with
the published reference counts, and on a mismatch divided down to the first differing
action sequence.

The tree is walked through ``load``, ``legal`` and ``apply`` requests only, on plain JSON
states and action strings; chance points are resolved by the ruleset's rule (the binding's
``perft_chance``). The same walk runs on the reference binding in this process, so both
sides are counted by one piece of code and only the engines differ. Counts are memoised by
canonical state JSON (sorted keys) and depth.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from heatcore.framework.conformance.binding import JSON, Binding, Rejected
from heatcore.framework.conformance.protocol import EngineFailure, EngineProcess

#: Children whose ``load`` and ``apply`` requests are sent before their replies are read.
WINDOW = 16


class Refused(Exception):
    """A side refused a request of the walk (``action`` None: a ``load`` or ``legal``)."""

    def __init__(self, action: str | None, message: str) -> None:
        super().__init__(message)
        self.action = action
        self.message = message


class Side(Protocol):
    """An engine seen by the walk: legal actions of a state, the states after actions."""

    def legal(self, state: JSON) -> list[str]: ...

    def after(self, state: JSON, actions: list[str]) -> list[JSON]: ...


class LocalSide:
    """The reference binding, in this process."""

    def __init__(self, binding: Binding) -> None:
        self.binding = binding

    def legal(self, state: JSON) -> list[str]:
        try:
            return self.binding.legal(self.binding.load(state))
        except Rejected as error:
            raise Refused(None, error.message) from None

    def after(self, state: JSON, actions: list[str]) -> list[JSON]:
        out = []
        for action in actions:
            try:
                out.append(self.binding.apply(self.binding.load(state), action)[0])
            except Rejected as error:
                raise Refused(action, error.message) from None
        return out


class RemoteSide:
    """An engine subprocess, driven by pipelined requests."""

    def __init__(self, engine: EngineProcess) -> None:
        self.engine = engine
        self.requests = 0

    def _reply(self, op: str, action: str | None) -> JSON:
        reply = self.engine.receive(op)
        self.requests += 1
        if not reply.get("ok"):
            err = reply.get("error") or {}
            raise Refused(action, f"{err.get('kind')}: {str(err.get('message'))[:200]}")
        return reply

    def legal(self, state: JSON) -> list[str]:
        self.engine.send({"op": "load", "state": state})
        self.engine.send({"op": "legal"})
        self._reply("load", None)
        return list(self._reply("legal", None)["actions"])

    def after(self, state: JSON, actions: list[str]) -> list[JSON]:
        out: list[JSON] = []
        for first in range(0, len(actions), WINDOW):
            batch = actions[first:first + WINDOW]
            for action in batch:
                self.engine.send({"op": "load", "state": state})
                self.engine.send({"op": "apply", "action": action})
            problem: Refused | None = None
            for action in batch:  # read every reply, so the session stays in step
                try:
                    self._reply("load", None)
                    out.append(self._reply("apply", action)["state"])
                except Refused as error:
                    problem = problem or error
            if problem is not None:
                raise problem
        return out


def canonical(state: JSON) -> str:
    """The canonical JSON text of a state (sorted keys, no spaces)."""
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


@dataclass
class Walk:
    """perft and divide on one side, memoised by canonical state and depth."""

    side: Side
    chance: Callable[[JSON], str | None]
    memo: dict[tuple[str, int], int] = field(default_factory=dict)

    def children(self, state: JSON, actions: list[str]) -> list[JSON]:
        """The nodes after each action (chance points resolved)."""
        out = self.side.after(state, actions)
        for k, child in enumerate(out):
            outcome = self.chance(child)
            while outcome is not None:
                child = self.side.after(child, [outcome])[0]
                outcome = self.chance(child)
            out[k] = child
        return out

    def count(self, state: JSON, depth: int) -> int:
        """perft(state, depth)."""
        if depth == 0:
            return 1
        key = (canonical(state), depth)
        known = self.memo.get(key)
        if known is not None:
            return known
        actions = self.side.legal(state)
        if depth == 1:
            total = len(actions)
        else:
            total = sum(self.count(c, depth - 1) for c in self.children(state, actions))
        self.memo[key] = total
        return total

    def divide(self, state: JSON, depth: int) -> list[tuple[str, int, JSON]]:
        """(action, perft(child, depth - 1), child) for each legal action of ``state``."""
        actions = self.side.legal(state)
        return [(a, self.count(c, depth - 1), c)
                for a, c in zip(actions, self.children(state, actions), strict=True)]


@dataclass
class Finding:
    """Where an engine's tree first differs from the reference's."""

    path: list[str]  # the actions from the start to the differing node
    state: JSON  # the reference's state at that node
    extra: list[str] = field(default_factory=list)  # offered by the engine only
    missing: list[str] = field(default_factory=list)  # offered by the reference only
    refused: str | None = None  # the engine refused this request there
    counts: tuple[int, int] | None = None  # (reference, engine) below the node, if known

    def lines(self) -> list[str]:
        """The finding for people."""
        shown = " | ".join(self.path) if self.path else "(the start)"
        out = [f"    first difference after: {shown}"]
        if self.refused is not None:
            out.append(f"    the engine refused: {self.refused}")
        if self.extra:
            out.append(f"    the engine offers, the rules do not: {', '.join(self.extra[:8])}")
        if self.missing:
            out.append(f"    the rules offer, the engine does not: {', '.join(self.missing[:8])}")
        if self.counts is not None and not (self.extra or self.missing or self.refused):
            out.append(f"    counts below it: reference {self.counts[0]}, engine "
                       f"{self.counts[1]}")
        return out


def first_difference(ours: Walk, theirs: Walk, ref_state: JSON, their_state: JSON,
                     depth: int, path: list[str] | None = None) -> Finding | None:
    """Descend the divides of both sides to the first node whose legal actions differ (or
    whose subtree counts differ with no deeper cause); None when the trees agree."""
    path = path or []
    try:
        their_actions = theirs.side.legal(their_state)
    except Refused as error:
        return Finding(path, ref_state, refused=f"legal ({error.message})")
    our_actions = ours.side.legal(ref_state)
    if set(our_actions) != set(their_actions):
        return Finding(path, ref_state, extra=sorted(set(their_actions) - set(our_actions)),
                       missing=sorted(set(our_actions) - set(their_actions)))
    if depth <= 1:
        return None
    mine = ours.divide(ref_state, depth)
    try:
        children = dict(zip(their_actions, theirs.children(their_state, their_actions),
                            strict=True))
    except Refused as error:
        return Finding(path, ref_state, refused=f"apply {error.action} ({error.message})")
    for action, count, child in mine:
        try:
            other = theirs.count(children[action], depth - 1)
        except Refused as error:
            return Finding([*path, action], child, refused=f"{error.action or 'legal'} "
                           f"({error.message})")
        if other != count:
            deeper = first_difference(ours, theirs, child, children[action], depth - 1,
                                      [*path, action])
            return deeper or Finding([*path, action], child, counts=(count, other))
    return None


@dataclass
class EntryResult:
    """One reference entry checked on the engine."""

    label: str
    depth: int
    expected: int
    got: int | None
    finding: Finding | None = None
    failure: str | None = None

    @property
    def ok(self) -> bool:
        return self.failure is None and self.got == self.expected


class PerftRules(Protocol):
    """What a binding offers for perft: its chance rule and its reference entries."""

    def perft_chance(self, state: JSON, seed: int) -> str | None: ...

    def perft_entries(self) -> list[dict[str, Any]]: ...


def check_entry(binding: Binding, rules: PerftRules, engine: EngineProcess,
                entry: dict[str, Any], depth: int) -> EntryResult:
    """The engine's perft of ``entry`` at ``depth`` against the reference count."""
    seed = int(entry["seed"])
    label = f"{entry['track']}, {entry['players']} cars, seed {seed}"
    expected = int(entry["counts"][depth])

    def chance(state: JSON) -> str | None:
        return rules.perft_chance(state, seed)

    theirs = Walk(RemoteSide(engine), chance)
    try:
        got = theirs.count(entry["start"], depth)
    except Refused as error:
        got = None
        refused = f"{error.action or 'load/legal'}: {error.message}"
    except EngineFailure as error:
        return EntryResult(label, depth, expected, None, failure=str(error))
    if got == expected:
        return EntryResult(label, depth, expected, got)
    ours = Walk(LocalSide(binding), chance)
    try:
        finding = first_difference(ours, theirs, entry["start"], entry["start"], depth)
    except EngineFailure as error:
        return EntryResult(label, depth, expected, got, failure=str(error))
    if finding is None and got is None:
        finding = Finding([], entry["start"], refused=refused)
    return EntryResult(label, depth, expected, got, finding)


def result_lines(results: list[EntryResult]) -> list[str]:
    """Each entry's verdict, and where a wrong one first differs."""
    out = []
    for r in results:
        if r.ok:
            out.append(f"  perft {r.label}, depth {r.depth}: {r.got} (ok)")
            continue
        got = "no count" if r.got is None else str(r.got)
        out.append(f"  perft {r.label}, depth {r.depth}: {got}, the reference "
                   f"counts {r.expected} (DIFFERS)")
        if r.failure is not None:
            out.append(f"    engine failure: {r.failure}")
        if r.finding is not None:
            out += r.finding.lines()
    bad = sum(not r.ok for r in results)
    out.append(f"perft: {len(results) - bad} of {len(results)} entries agree")
    return out
