"""The fuzz harness: ``heatcore serve``, ``state_from_json`` / ``state_from_dict`` and
``apply`` of both rulesets fed mutated real states and malformed lines.

Real states come from seeded races (the conformance bindings' ``random_race``: Heat core,
Heat with every module, Rallyman GT). Each is mutated (a value replaced by a wrong type, a
number nudged or made huge, a key dropped or added, a list shuffled, a string swapped for
another one of the state, ...) and fed to:

- the Python API: ``state_from_dict`` (or ``state_from_json`` of its text), ``validate``,
  ``legal_actions`` and ``apply`` with listed, mutated and wrong-type actions;
- the protocol server (``heatcore serve``'s own ``_Server``, in process): lines of
  ``start``, ``load``, ``setup``, ``legal``, ``apply``, ``stop`` and junk (bad UTF-8, bad
  JSON, nesting 100,000 deep, integers of 5,000 digits, wrong types).

A finding is any of: an exception other than ``RulesError`` (the typed
MalformedInput / InvalidState / IllegalAction ...) out of the API; any exception out of the
server, or a reply that is not one JSON line with ``ok`` and, when false, an error of a
protocol kind; an illegal action that changes the state it was applied to; a listed action
refused (other than with InvalidState: an inconsistency only the engine sees); a state the
engine produced that fails its own validation.

The mutators take their choices from a ``Chooser`` (``randrange``): ``random.Random``
for long runs (``python3 -m heatcore.tools.fuzz --lines 1000000``), Hypothesis's ``data.draw`` in
the tests (tests/test_fuzz.py), so a finding there shrinks to a short list of choices.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from heatcore.framework.conformance.jsontext import orjson_dumps
from heatcore.framework.errors import InvalidState, RulesError

JSON = Any
Path = tuple[str | int, ...]

#: The error kinds a protocol reply may carry (spec/schemas/error.schema.json).
REPLY_KINDS = frozenset({"malformed", "invalid-state", "illegal-action", "unsupported",
                         "protocol"})

# A stand-in for an integer too long for ``int(str)`` (over 4,300 digits): JSON text of it
# is written by ``dumps``; in a dict it is the integer itself (private: autodoc cannot show it).
_HUGE = 10 ** 5000
_HUGE_MARK = "\u0000huge-integer\u0000"
#: Integers this long or longer are written as ``_HUGE`` (``str`` refuses them).
_LONG = 10 ** 4000
#: Nesting deep enough to exhaust any recursive reader (a list of lists ...).
DEEP = 100_000


class Chooser(Protocol):
    """Where the mutators take their choices from (``random.Random`` has it)."""

    def randrange(self, stop: int, /) -> int: ...


def random_chooser(seed: int) -> Chooser:
    """The choices of ``random.Random(seed)``."""
    import random

    return random.Random(seed)


def pick(c: Chooser, items: list[Any] | tuple[Any, ...]) -> Any:
    """One of ``items`` (not empty)."""
    return items[c.randrange(len(items))]


# ---------------------------------------------------------------- JSON values and paths

def paths(value: JSON, prefix: Path = ()) -> Iterator[Path]:
    """Every path in ``value`` (the root first), keys and list indices."""
    yield prefix
    if isinstance(value, list) and _depth(value):
        return  # a deep nesting is one node (see nested)
    if isinstance(value, dict):
        for key, item in value.items():
            yield from paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from paths(item, (*prefix, index))


def at(value: JSON, path: Path) -> JSON:
    """The value at ``path``."""
    for step in path:
        value = value[step]
    return value


def replaced(value: JSON, path: Path, make: Callable[[JSON], JSON]) -> JSON:
    """A copy of ``value`` with the node at ``path`` replaced by ``make(node)`` (only the
    containers on the path are copied; ``make`` may return ``DROP`` to remove it)."""
    if not path:
        return make(value)
    head, rest = path[0], path[1:]
    if isinstance(value, dict):
        out: Any = dict(value)
    else:
        out = list(value)
    new = replaced(value[head], rest, make)
    if new is DROP:
        del out[head]
    else:
        out[head] = new
    return out


class _Drop:
    def __repr__(self) -> str:
        return "DROP"


#: Returned by a ``make`` of ``replaced``: remove the node.
DROP: Any = _Drop()


#: The nestings ``nested`` made, by id, with their depth (never changed: the mutators
#: copy only the containers on a path, and a nesting is one node to them).
_NESTED: dict[int, tuple[int, JSON]] = {}


def nested(depth: int) -> JSON:
    """``0`` inside ``depth`` lists (made once per depth)."""
    for known, value in _NESTED.values():
        if known == depth:
            return value
    value = 0
    for _ in range(depth):
        value = [value]
    _NESTED[id(value)] = (depth, value)
    return value


def dumps(value: JSON) -> str:
    """JSON text of ``value``, with ``_HUGE`` written out in full (``json.dumps`` refuses
    it) and lists nested past the recursion limit written iteratively."""
    if _orjson_dumps is not None:
        try:  # the fast path: orjson refuses integers past 64 bits and deep nesting
            return _orjson_dumps(value).decode()
        except TypeError:  # orjson.JSONEncodeError
            pass
    text = json.dumps(_marked(value), separators=(",", ":"))
    text = text.replace(json.dumps(_HUGE_MARK), "1" + "0" * 5000)
    while "\\u0000deep:" in text:
        start = text.index('"\\u0000deep:')
        end = text.index('\\u0000"', start) + len('\\u0000"')
        depth = int(text[start + len('"\\u0000deep:'):end - len('\\u0000"')])
        text = text[:start] + "[" * depth + "0" + "]" * depth + text[end:]
    return text


_orjson_dumps = orjson_dumps()


def _marked(value: JSON) -> JSON:
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= _LONG:
        return _HUGE_MARK
    if isinstance(value, dict):
        return {k: _marked(v) for k, v in value.items()}
    if isinstance(value, list):
        if _depth(value):
            return _DeepText(_depth(value))
        return [_marked(v) for v in value]
    return value


def _depth(value: JSON) -> int:
    known = _NESTED.get(id(value))
    return 0 if known is None or known[1] is not value else known[0]


class _DeepText(str):
    """A placeholder that ``json.dumps`` writes as a string; see ``dumps``."""

    def __new__(cls, depth: int) -> _DeepText:
        return super().__new__(cls, f"\u0000deep:{depth}\u0000")


def line_of(request: JSON) -> bytes:
    """A request as one protocol line (deep lists and huge integers written out)."""
    return (dumps(request) + "\n").encode()


# ---------------------------------------------------------------- mutators

#: Wrong or extreme values put in place of a node.
ODD_VALUES: tuple[JSON, ...] = (
    None, True, False, 0, -1, 1, -3, 7, 99, 1000, 10 ** 9, -(10 ** 9), 2 ** 63, -(2 ** 63) - 1,
    2 ** 64 + 1, _HUGE, -_HUGE, 0.5, -0.0, 1e308, "", "x", "P0", "P1", "P9", "P-1", "P99",
    "T9.L99.9", "T1.L1.9", "slick", "rain", "snow", "gravel", "-1", "0", "null", "\u00e9",
    "\ud800", [], {}, [None], [0], ["P1", "P1"], {"a": 1}, [[[]]],
)


def odd_value(c: Chooser, strings: list[str]) -> JSON:
    """A wrong value: one of ``ODD_VALUES``, a string of the same state (a space, a
    tyre, a car, a card ...: right type, wrong place) or a deep nesting."""
    roll = c.randrange(10)
    if roll < 6 or not strings:
        return pick(c, ODD_VALUES)
    if roll < 9:
        return pick(c, strings)
    return nested(pick(c, (50, 254, 256, 900, 980, 985, 990, 995, 2_000, DEEP)))


def strings_in(value: JSON) -> list[str]:
    """The distinct strings in ``value`` (keys and values), in a stable order."""
    seen: dict[str, None] = {}
    for path in paths(value):
        node = at(value, path)
        if isinstance(node, str):
            seen.setdefault(node)
        if path and isinstance(path[-1], str):
            seen.setdefault(path[-1])
    return list(seen)


#: The paths and the scalar paths of the states mutated most (the corpus's), by id, with
#: the state itself (kept alive, so its id is not reused).
_PATHS: dict[int, tuple[JSON, list[Path], list[Path]]] = {}


def _paths_of(state: JSON) -> tuple[list[Path], list[Path]]:
    """Every path of ``state``, and those of its numbers and strings (remembered for the
    first 5,000 states asked about: the corpus's, asked about again and again)."""
    known = _PATHS.get(id(state))
    if known is not None and known[0] is state:
        return known[1], known[2]
    all_paths = list(paths(state))
    scalars = [p for p in all_paths if isinstance(at(state, p), int | str)
               and not isinstance(at(state, p), bool)]
    if len(_PATHS) < 5_000:
        _PATHS[id(state)] = (state, all_paths, scalars)
    return all_paths, scalars


def mutate_once(c: Chooser, state: JSON, strings: list[str]) -> JSON:
    """``state`` with one mutation at one random node."""
    all_paths, scalars = _paths_of(state)
    path = pick(c, all_paths)
    kind = c.randrange(9)
    # a third of the time a number or a string of the state: the likeliest mutations to keep
    # a state readable and reach validation and the engine
    if c.randrange(3) == 0 and scalars:
        path = pick(c, scalars)
        kind = 1 if isinstance(at(state, path), int) else pick(c, (4, 5))
    node = at(state, path)
    if kind == 0 and path:  # drop the node
        return replaced(state, path, lambda _: DROP)
    if kind == 1 and isinstance(node, int) and not isinstance(node, bool):  # nudge a number
        delta = pick(c, (-1, 1, -2, 2, -node - 1, -2 * node, 10, 100))
        return replaced(state, path, lambda n: n + delta)
    if kind == 2 and isinstance(node, list) and node and not _depth(node):  # reorder
        how = c.randrange(3)
        i, j = c.randrange(len(node)), c.randrange(len(node))

        def reorder(items: JSON) -> JSON:
            out = list(items)
            if how == 0:
                out.insert(j, out[i])
            elif how == 1:
                del out[i]
            else:
                out[i], out[j] = out[j], out[i]
            return out

        return replaced(state, path, reorder)
    if kind == 3 and isinstance(node, dict):  # an unknown key
        extra = pick(c, ("x", "cursor", "unknown", *strings[:20])) if strings else "x"
        value = odd_value(c, strings)
        return replaced(state, path, lambda d: {**d, extra: value})
    if kind == 4 and isinstance(node, str):  # another string of the state, or a corrupted one
        if c.randrange(2) and strings:
            other = pick(c, strings)
        else:
            cut = c.randrange(len(node) + 1)
            other = node[:cut] + pick(c, ("9", "X", ".", "", "\u0000", "99")) + node[cut + 1:]
        return replaced(state, path, lambda _: other)
    if kind == 5 and path:  # another node of the state (right shape, wrong place)
        other = at(state, pick(c, all_paths))
        return replaced(state, path, lambda _: other)
    value = odd_value(c, strings)
    return replaced(state, path, lambda _: value)


def mutate(c: Chooser, state: JSON, strings: list[str] | None = None) -> JSON:
    """``state`` with one to three mutations (the input is never changed)."""
    strings = strings_in(state) if strings is None else strings
    for _ in range(pick(c, (1, 1, 1, 2, 3))):
        state = mutate_once(c, state, strings)
    return state


def mutate_action(c: Chooser, action: str, actions: list[str]) -> str:
    """An action string near ``action``: a token changed, dropped or doubled, another car,
    a number changed, or another action of the pool."""
    tokens = action.split(" ")
    roll = c.randrange(6)
    if roll == 0 and actions:
        return str(pick(c, actions))
    i = c.randrange(len(tokens))
    if roll == 1:
        del tokens[i]
    elif roll == 2:
        tokens.insert(i, tokens[i])
    elif roll == 3:
        tokens[i] = pick(c, ("P0", "P9", "P1", "-1", "0", "99", "x", "", "=", "speed=-1",
                             "1" + "0" * 5000, "G9", "T9.L99.9"))
    elif roll == 4:
        digits = [k for k, ch in enumerate(action) if ch.isdigit()]
        if digits:
            k = pick(c, digits)
            return action[:k] + str(pick(c, ("0", "9", "99", "-1", ""))) + action[k + 1:]
    else:
        return str(pick(c, ("", " ", "P1", "P1 ", "pass", "x" * 1000, "P1 speed", "\u0000")))
    return " ".join(tokens)


# ---------------------------------------------------------------- the engines under test

@dataclass(frozen=True)
class Ruleset:
    """One ruleset's Python API as the fuzzer calls it."""

    name: str
    from_dict: Callable[[JSON], Any]
    from_json: Callable[[str], Any]
    validate: Callable[[Any], Any]
    to_dict: Callable[[Any], JSON]
    legal: Callable[[Any], tuple[Any, ...]]
    apply: Callable[[Any, Any], tuple[Any, Any]]
    parse_action: Callable[[str], Any]


def rulesets() -> dict[str, Ruleset]:
    """Heat and Rallyman GT (``heatcore.heat.notation`` / ``heatcore.heat.engine`` and
    ``heatcore.rallyman.notation`` / ``heatcore.rallyman.engine``)."""
    from heatcore.heat import engine, notation, validity
    from heatcore.rallyman import engine as r_engine
    from heatcore.rallyman import notation as r_notation
    from heatcore.rallyman import validity as r_validity

    return {
        "heat": Ruleset("heat", notation.state_from_dict, notation.state_from_json,
                        validity.validate, notation.state_to_dict, engine.legal_actions,
                        engine.apply, notation.parse_action),
        "rallyman-gt": Ruleset("rallyman-gt", r_notation.state_from_dict,
                               r_notation.state_from_json, r_validity.validate,
                               r_notation.state_to_dict, r_engine.legal_actions,
                               r_engine.apply, r_notation.parse_action),
    }


@dataclass
class Corpus:
    """Real states of seeded races, per ruleset, with the actions listed in them."""

    states: dict[str, list[JSON]] = field(default_factory=dict)
    actions: dict[str, list[str]] = field(default_factory=dict)
    setups: dict[str, list[JSON]] = field(default_factory=dict)
    strings: dict[int, list[str]] = field(default_factory=dict)

    def strings_of(self, state: JSON) -> list[str]:
        """The strings of ``state`` (remembered per state)."""
        key = id(state)
        if key not in self.strings:
            self.strings[key] = strings_in(state)
        return self.strings[key]


def corpus(races: int = 4, every: int = 1) -> Corpus:
    """States of ``races`` seeded races of each of Heat (core), Heat (every module) and
    Rallyman GT, every ``every``-th state of each race kept."""
    from heatcore.heat.conformance.binding import HeatBinding
    from heatcore.rallyman.binding import RallymanBinding

    out = Corpus()
    modular = HeatBinding()
    modular.use_modules(modular.modules())
    sources = (("heat", HeatBinding()), ("heat", modular), ("rallyman-gt", RallymanBinding()))
    for name, binding in sources:
        states = out.states.setdefault(name, [])
        actions: dict[str, None] = dict.fromkeys(out.actions.get(name, []))
        setups = out.setups.setdefault(name, [])
        for seed in range(races):
            race = binding.random_race(seed)
            if race.setup is not None:
                setups.append(race.setup)
            states.append(race.start)
            for n, step in enumerate(race.steps):
                if n % every == 0:
                    states.append(step.before)
                actions.update(dict.fromkeys(step.legal))
        out.actions[name] = list(actions)
    return out


# ---------------------------------------------------------------- findings

@dataclass
class Tally:
    """What a run did and found."""

    lines: int = 0
    states: int = 0
    calls: int = 0
    findings: list[str] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)

    #: Findings per class (what failed and the exception's type), with one example each.
    classes: dict[str, str] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)

    def find(self, what: str, kind: str) -> None:
        """Record a finding of class ``kind`` (the first 200 are kept whole)."""
        self.outcomes["finding"] += 1
        self.counts[kind] += 1
        self.classes.setdefault(kind, what)
        if len(self.findings) < 200:
            self.findings.append(what)


def _short(value: Any) -> str:
    try:
        text = dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = "<unprintable>"
    return text if len(text) < 300 else text[:300] + "..."


def _where(error: BaseException) -> str:
    """Where ``error`` was raised: the innermost heatcore function of its traceback."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "heatcore" in f.filename
              and not f.filename.endswith("fuzz.py")]
    if not frames:
        return "?"
    frame = frames[-1]
    return f"{frame.filename.rsplit('heatcore/', 1)[-1]}:{frame.name}"


class _Shown:
    """A state as a finding names it, written only if a finding does."""

    def __init__(self, ruleset: str, data: JSON) -> None:
        self.ruleset, self.data = ruleset, data

    def __format__(self, spec: str) -> str:
        return f"{self.ruleset} state {_short(self.data)}"


def _error_name(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error)[:200]}"


def check_api(rs: Ruleset, data: JSON, c: Chooser, pool: list[str], tally: Tally,
              as_text: bool = False) -> None:
    """Feed one (mutated) state to ``rs``'s API: read it (from its JSON text when
    ``as_text``), validate it, and if it is valid list its actions and apply some of them,
    some mutated action strings and some values that are not actions."""
    tally.states += 1
    what = _Shown(rs.name, data)
    try:
        if as_text:
            text = data if isinstance(data, str) else dumps(data)
            value = rs.from_json(text)
        else:
            value = rs.from_dict(data)
        value = rs.validate(value)
    except RulesError:
        tally.outcomes["state refused"] += 1
        return
    except Exception as error:
        tally.find(f"read/validate raised {_error_name(error)} on {what}",
                   f"{rs.name} read/validate: {type(error).__name__} in {_where(error)}")
        return
    tally.outcomes["state accepted"] += 1
    try:
        before = dumps(rs.to_dict(value))
        actions = rs.legal(value)
    except Exception as error:
        tally.find(f"state_to_dict/legal_actions raised {_error_name(error)} on {what}",
                   f"{rs.name} state_to_dict/legal_actions: {type(error).__name__} in "
                   f"{_where(error)}")
        return
    tries: list[tuple[str, Any, bool]] = []
    for _ in range(min(2, len(actions))):
        action = pick(c, actions)
        tries.append((str(action), action, True))
    for _ in range(2):
        text = mutate_action(c, str(pick(c, actions)) if actions else "P1", pool)
        try:
            tries.append((text, rs.parse_action(text), False))
        except RulesError:
            tally.outcomes["action refused"] += 1
        except Exception as error:
            tally.find(f"parse_action raised {_error_name(error)} on {text!r}",
                       f"{rs.name} parse_action: {type(error).__name__} in {_where(error)}")
    odd = pick(c, ("text", "P1 pass", None, 3, ("P1",), b"P1"))
    tries.append((repr(odd), odd, False))
    for label, action, listed in tries:
        tally.calls += 1
        try:
            after, _ = rs.apply(value, action)
        except InvalidState:  # an inconsistency validity cannot see without the engine's
            tally.outcomes["action refused: invalid state"] += 1  # code (rgt.loc.trigger)
        except RulesError:
            tally.outcomes["action refused"] += 1
            if listed:
                tally.find(f"listed action {label!r} refused on {what}",
                           f"{rs.name} listed action refused")
        except Exception as error:
            tally.find(f"apply({label}) raised {_error_name(error)} on {what}",
                       f"{rs.name} apply: {type(error).__name__} in {_where(error)}")
        else:
            tally.outcomes["action applied"] += 1
            try:
                rs.validate(after)
            except RulesError as error:
                tally.find(f"apply({label}) made an invalid state ({error}) from {what}",
                           f"{rs.name} apply made an invalid state: {error.rule}")
            except Exception as error:
                tally.find(f"validate raised {_error_name(error)} after apply({label}) "
                           f"on {what}", f"{rs.name} validate after apply: "
                           f"{type(error).__name__} in {_where(error)}")
        if dumps(rs.to_dict(value)) != before:
            tally.find(f"apply({label}) changed the state it was applied to: {what}",
                       f"{rs.name} apply changed its state")


# ---------------------------------------------------------------- the protocol server

def junk_line(c: Chooser) -> bytes:
    """A line that is not a good request: bad UTF-8, bad JSON, deep nesting, a huge
    integer, wrong types, unknown ops."""
    line: bytes = pick(c, (
        b"\xff\xfe\n", b"{\n", b"[\n", b"null\n", b"42\n", b'"legal"\n', b"\n", b"   \n",
        b"{}\n", b'{"op":1}\n', b'{"op":"nope"}\n', b'{"op":"legal","x":1}\n',
        b'{"op":"apply"}\n', b'{"op":"apply","action":5}\n', b'{"op":"apply","action":""}\n',
        b'{"op":"apply","action":null}\n', b'{"op":"load"}\n', b'{"op":"load","state":[]}\n',
        b'{"op":"load","state":{}}\n', b'{"op":"setup","setup":{}}\n',
        b'{"op":"setup","setup":' + b"1" * 5000 + b"}\n",
        b'{"op":"apply","action":"P1","n":' + b"9" * 5000 + b"}\n",
        b"1" * 5000 + b"\n", b"-" + b"1" * 4400 + b"\n", b"1e400\n", b"NaN\n",
        b'{"op":"legal","x":NaN}\n', b"[" * DEEP + b"]" * DEEP + b"\n",
        b'{"op":"load","state":' + b"[" * DEEP + b"]" * DEEP + b"}\n",
        b'{"a":' * 5000 + b"1" + b"}" * 5000 + b"\n",
        b'{"op":"start","protocol":"conform/2","ruleset":"nope"}\n',
        b'{"op":"start","protocol":"conform/9","ruleset":"heat"}\n',
        b'{"op":"start","protocol":"conform/2","ruleset":"heat","rulings":{"x":"y"}}\n',
        b'{"op":"start","protocol":"conform/2","ruleset":"heat","rulings":' + b"1" * 5000
        + b"}\n",
        b'{"op":"stop","x":1}\n', b'{"op":"legal"}\r\n', b"\x00\n", b'{"op":"\xc3\x28"}\n',
        b'{"op":"legal","op":"apply"}\n', b'{"op":"apply","action":"\\ud800"}\n',
    ))
    return line


class Serving:
    """``heatcore serve``'s server object in this process, with checks on each reply."""

    def __init__(self, tally: Tally) -> None:
        from heatcore.framework.conformance.protocol import _Server
        from heatcore.framework.conformance.serve import _known, _serving
        from heatcore.heat.conformance.binding import HeatBinding

        self.tally = tally
        self.server = _Server(_serving(HeatBinding()), _known)
        #: Every line sent, and every reply line (blank lines get none).
        self.sent: list[bytes] = []
        self.replies: list[bytes] = []
        #: The replies before the server first stopped (``heatcore serve`` exits there).
        self.until_stop: int | None = None

    def send(self, raw: bytes) -> JSON:
        """The reply to the line ``raw`` (None for a blank line), each finding tallied."""
        tally = self.tally
        tally.lines += 1
        session = self.server.session
        had = "state" in session
        state = session.get("state")
        before = dumps(state) if had and _is_apply(raw) else None
        self.sent.append(raw)
        try:
            out = self.server.answer(raw)
        except Exception as error:
            tally.find(f"serve crashed with {_error_name(error)} on line {raw[:300]!r}",
                       f"serve crashed: {type(error).__name__} in {_where(error)}")
            self.server.session.clear()
            return None
        if out:
            self.replies.append(out)
        if self.server.stopped and self.until_stop is None:
            self.until_stop = len(self.replies)
        if out == b"":
            if raw.strip() and raw.strip() != b"\x00":
                tally.find(f"serve answered nothing to line {raw[:300]!r}", "serve: no reply")
            return None
        try:
            reply = json.loads(out)
        except (ValueError, RecursionError) as error:
            tally.find(f"serve's reply is not JSON ({error}) to line {raw[:300]!r}",
                       "serve: reply not JSON")
            return None
        if not out.endswith(b"\n") or out.count(b"\n") != 1:
            tally.find(f"serve's reply is not one line, to line {raw[:300]!r}",
                       "serve: reply not one line")
        if not isinstance(reply, dict) or not isinstance(reply.get("ok"), bool):
            tally.find(f"serve's reply has no ok: {out[:300]!r}", "serve: reply without ok")
            return reply
        if reply["ok"] is False:
            error_obj = reply.get("error")
            if not isinstance(error_obj, dict) or error_obj.get("kind") not in REPLY_KINDS \
                    or not isinstance(error_obj.get("message"), str):
                tally.find(f"serve's error reply is untyped: {out[:300]!r}",
                           "serve: untyped error reply")
            else:
                tally.outcomes[f"reply {error_obj['kind']}"] += 1
            if before is not None and (session.get("state") is not state
                                       or dumps(session.get("state")) != before):
                tally.find(f"a refused apply changed the state: line {raw[:300]!r}",
                           "serve: a refused apply changed the state")
        else:
            tally.outcomes["reply ok"] += 1
        return reply


def _is_apply(raw: bytes) -> bool:
    return b'"apply"' in raw


def serve_session(c: Chooser, pool: Corpus, tally: Tally, lines: int) -> Serving:
    """One protocol session of about ``lines`` lines: a start (Heat or Rallyman GT, now and
    then a bad one), loads of real and mutated states, setups, legal, apply of listed and
    mutated actions, junk lines and a stop."""
    serving = Serving(tally)
    name = pick(c, ("heat", "rallyman-gt"))
    serving.send(line_of({"op": "start", "protocol": "conform/2", "ruleset": name}))
    states, actions = pool.states[name], pool.actions[name]
    listed: list[str] = []
    sent = 1
    while sent < lines:
        sent += 1
        roll = c.randrange(20)
        if roll < 4:
            state = pick(c, states)
            if c.randrange(4):
                state = mutate(c, state, pool.strings_of(state))
            reply = serving.send(line_of({"op": "load", "state": state}))
            listed = []
            if isinstance(reply, dict) and reply.get("ok"):
                legal = serving.send(b'{"op":"legal"}\n')
                sent += 1
                if isinstance(legal, dict) and legal.get("ok"):
                    listed = list(legal["actions"])
        elif roll < 5 and pool.setups.get(name):
            setup = pick(c, pool.setups[name])
            if c.randrange(3):
                setup = mutate(c, setup)
            serving.send(line_of({"op": "setup", "setup": setup}))
            listed = []
        elif roll < 10 and listed:
            serving.send(line_of({"op": "apply", "action": pick(c, listed)}))
            reply = serving.send(b'{"op":"legal"}\n')
            sent += 1
            listed = list(reply["actions"]) if isinstance(reply, dict) and reply.get("ok") \
                else []
        elif roll < 14:
            base = pick(c, listed) if listed else pick(c, actions)
            serving.send(line_of({"op": "apply", "action": mutate_action(c, base, actions)}))
        elif roll < 15:
            serving.send(b'{"op":"legal"}\n')
        elif roll < 19:
            serving.send(junk_line(c))
        else:
            request = pick(c, ({"op": "legal"}, {"op": "apply", "action": "P1"},
                               {"op": "load", "state": pick(c, states)},
                               {"op": "start", "protocol": "conform/2", "ruleset": name}))
            serving.send(line_of(mutate(c, request)))
    serving.send(b'{"op":"stop"}\n')
    return serving


# ---------------------------------------------------------------- a run

def run(lines: int, seed: int = 0, races: int = 4, session_lines: int = 200,
        progress: Callable[[Tally], None] | None = None) -> Tally:
    """A fuzz run of about ``lines`` protocol lines (sessions of ``session_lines``), with
    one API check (a mutated state, read from a dict or from text) every 4 lines, from the
    ``random.Random(seed)`` choices and the states of ``races`` seeded races per ruleset."""
    import random

    c = random.Random(seed)
    pool = corpus(races)
    tally = Tally()
    apis = rulesets()
    while tally.lines < lines:
        serve_session(c, pool, tally, min(session_lines, lines - tally.lines))
        for _ in range(session_lines // 4):
            name = pick(c, ("heat", "rallyman-gt"))
            state = pick(c, pool.states[name])
            mutated = mutate(c, state, pool.strings_of(state))
            check_api(apis[name], mutated, c, pool.actions[name], tally,
                      as_text=c.randrange(4) == 0)
        if progress is not None:
            progress(tally)
    return tally


def report(tally: Tally, seconds: float) -> str:
    """The run's summary lines."""
    lines = [f"{tally.lines:,} protocol lines, {tally.states:,} mutated states through the "
             f"API ({tally.calls:,} apply calls) in {seconds:,.0f} s: "
             f"{tally.outcomes['finding']} findings"]
    lines += [f"  {key}: {count:,}" for key, count in sorted(tally.outcomes.items())
              if key != "finding"]
    lines += [f"CLASS {kind} x{tally.counts[kind]:,}: {tally.classes[kind][:600]}"
              for kind in sorted(tally.classes)]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """``python3 -m heatcore.tools.fuzz [--lines N] [--seed S]``: exit 0 with no findings, 1
    with findings (listed), 2 on bad arguments."""
    parser = argparse.ArgumentParser(prog="python3 -m heatcore.tools.fuzz",
                                     description="Fuzz heatcore serve and the state API of "
                                                 "both rulesets with mutated real states.")
    parser.add_argument("--lines", type=int, default=100_000,
                        help="protocol lines to send (default 100,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the choices")
    parser.add_argument("--races", type=int, default=4,
                        help="seeded races per ruleset whose states are mutated")
    args = parser.parse_args(argv)
    if args.lines < 1 or args.races < 1:
        parser.error("--lines and --races are 1 or more")
    started = time.monotonic()
    step = max(args.lines // 20, 1)
    marks = iter(range(step, args.lines + step, step))
    mark = next(marks)

    shown: set[str] = set()

    def progress(tally: Tally) -> None:
        nonlocal mark
        for kind in tally.classes.keys() - shown:  # each new class of finding at once
            shown.add(kind)
            print(f"NEW {kind}: {tally.classes[kind][:2000]}", file=sys.stderr, flush=True)
        if tally.lines >= mark:
            print(f"... {tally.lines:,} lines, {tally.outcomes['finding']} findings, "
                  f"{time.monotonic() - started:,.0f} s", file=sys.stderr, flush=True)
            mark = next(marks, args.lines * 2)

    tally = run(args.lines, args.seed, args.races, progress=progress)
    print(report(tally, time.monotonic() - started))
    return 1 if tally.findings else 0


if __name__ == "__main__":
    sys.exit(main())
