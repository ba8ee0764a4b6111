"""Divergences and their causes: every disagreement found, grouped by what caused it."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field

from heatcore.framework.conformance.binding import JSON


@dataclass
class Divergence:
    """One disagreement, with everything needed to reproduce it.

    ``check`` is what the last request checks: ``legal``, ``apply``, ``reject``, ``load`` or
    ``setup`` (then ``state`` is the race setup and ``actions`` is empty)."""

    where: str
    source: str  # "case" or "race"
    rules: list[str]
    what: str
    reason: str
    state: JSON
    actions: list[str]
    check: str
    expected: JSON
    actual: JSON
    step: int | None = None
    shrunk: bool = True
    race: str = ""  # the race's seed, for a race divergence

    @property
    def cause(self) -> tuple[str, str]:
        """The key divergences are grouped by: the rule charged and what differs."""
        return (self.rules[0] if self.rules else "?", self.what)

    def size(self) -> int:
        """How big the repro is (actions first, then the JSON length of its start)."""
        return len(self.actions) * 1_000_000 + len(json.dumps(self.state))

    def to_json(self, full: bool = True) -> JSON:
        out: JSON = {"where": self.where, "rules": self.rules, "what": self.what,
                     "reason": self.reason, "check": self.check}
        if full:
            out["repro"] = {"state": self.state, "actions": self.actions, "check": self.check,
                            "expected": self.expected, "actual": self.actual}
        return out


@dataclass
class Cause:
    """Divergences with one cause: the smallest repro, and where every other one was."""

    rule: str
    what: str
    example: Divergence
    cases: list[str] = field(default_factory=list)
    races: list[str] = field(default_factory=list)  # race seeds (one per race)
    occurrences: list[Divergence] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.occurrences)


def group(divergences: list[Divergence]) -> list[Cause]:
    """Causes, most occurrences first (then by rule); each keeps its smallest shrunk repro."""
    causes: dict[tuple[str, str], Cause] = {}
    for div in divergences:
        key = div.cause
        cause = causes.get(key)
        if cause is None:
            cause = causes[key] = Cause(key[0], key[1], div)
        elif div.shrunk and (not cause.example.shrunk or div.size() < cause.example.size()):
            cause.example = div
        cause.occurrences.append(div)
        if div.source == "case" and div.where not in cause.cases:
            cause.cases.append(div.where)
        if div.race and div.race not in cause.races:
            cause.races.append(div.race)
    return sorted(causes.values(), key=lambda c: (-len(c.cases) - len(c.races), -c.count,
                                                  c.rule, c.what))


def json_paths(want: JSON, got: JSON, where: str = "",
               itemised: Callable[[str, list[JSON], list[JSON]], bool] = lambda *_: False,
               empty: frozenset[str] = frozenset()) -> list[str]:
    """The paths at which two JSON values differ (``$`` for the whole), each once, in key
    order (every ruleset's attribution reads states through it). Objects are compared key by
    key (a key of ``empty`` counts as ``{}`` when absent); lists for which
    ``itemised(path, want, got)`` holds item by item under ``path[]``, and ``path`` itself
    when their lengths differ; anything else as a whole."""
    out: list[str] = []
    if want == got:
        return out
    if isinstance(want, dict) and isinstance(got, dict):
        for key in sorted(set(want) | set(got), key=str):
            sub = f"{where}.{key}" if where else str(key)
            a, b = want.get(key), got.get(key)
            if key in empty:
                a, b = {} if a is None else a, {} if b is None else b
            out.extend(p for p in json_paths(a, b, sub, itemised, empty) if p not in out)
    elif isinstance(want, list) and isinstance(got, list) and itemised(where, want, got):
        for a, b in zip(want, got, strict=False):
            out.extend(p for p in json_paths(a, b, f"{where}[]", itemised, empty)
                       if p not in out)
        if len(want) != len(got):
            out.append(where)
    else:
        out.append(where or "$")
    return out
