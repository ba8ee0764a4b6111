"""What every reference binding shares: heatcore's own engine of a ruleset behind plain JSON.

A ruleset's binding subclasses :class:`ReferenceBinding` and names its engine's functions
(:class:`EngineFunctions`); the protocol-facing methods, the rule lists, the typed
refusals, the memo of the last state and the recording of seeded races are written once
here.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from heatcore.framework.conformance.binding import JSON, Rejected, Step
from heatcore.framework.errors import RulesError
from heatcore.framework.events import Event, event_to_dict
from heatcore.framework.playing import Engine, steps
from heatcore.framework.registry import ruleset


def rejected(error: RulesError) -> Rejected:
    """The protocol's refusal of an engine error (kind, rule, message)."""
    return Rejected(error.kind, error.rule, str(error))


@dataclass(frozen=True)
class EngineFunctions:
    """A ruleset's engine as its reference binding calls it."""

    state_from_dict: Callable[[JSON], Any]
    validate: Callable[[Any], Any]  # the state, or RulesError naming the broken rule
    state_to_dict: Callable[[Any], JSON]
    legal_actions: Callable[[Any], Iterable[object]]
    apply: Callable[[Any, Any], tuple[Any, Iterable[Event]]]
    parse_action: Callable[[str], Any]
    track_ids: Callable[[], Iterable[str]]
    #: ``apply`` of an action ``legal_actions`` listed for the state, without checking it
    #: again (None: the binding calls ``apply``).
    apply_listed: Callable[[Any, Any], tuple[Any, Iterable[Event]]] | None = None


class ReferenceBinding:
    """heatcore's engine of ``ruleset`` (its :class:`EngineFunctions`, ``engine``) behind
    plain JSON states, action strings and events."""

    name: str
    ruleset: str
    engine: EngineFunctions
    #: Its states, events and actions hold no float (integers only: the state schemas), so
    #: the server may write them with orjson (``jsontext.compact_line``).
    integer_json = True
    #: Whether a state it returns may share the JSON of its unchanged parts with the states
    #: it returned before (``heatcore serve`` turns it on: it only writes them out). Off,
    #: every state is new JSON that the caller may change.
    shared_json = False

    def __init__(self) -> None:
        from heatcore import __version__

        self.version = str(__version__)
        # The last state this binding produced or loaded, and its value: a session applies
        # actions to the state it was just given, so this skips re-reading and re-validating.
        self._memo: tuple[JSON, Any] | None = None
        # The state value ``legal`` last listed the actions of, and each action by its
        # string: a session applies one of them next, which needs neither reading the string
        # nor checking the action again. Keyed by the value (immutable), not by its JSON.
        self._listed: tuple[Any, dict[str, Any]] | None = None

    def tracks(self) -> list[str]:
        """The boards the reference plays."""
        return list(self.engine.track_ids())

    def rulings(self) -> list[str] | dict[str, str]:
        return [e.id for e in ruleset(self.ruleset) if e.kind == "ruling"]

    def rule_ids(self) -> list[str]:
        return list(ruleset(self.ruleset).rule_ids)

    def describe(self, rule: str) -> str:
        """A rule's one-line title ('' for an unknown ID)."""
        rules = ruleset(self.ruleset)
        return rules[rule].title if rule in rules else ""

    def parse(self, state: JSON) -> Any:
        """A validated state value, or Rejected."""
        if self._memo is not None and self._memo[0] is state:
            return self._memo[1]
        try:
            return self.engine.validate(self.engine.state_from_dict(state))
        except RulesError as error:
            raise rejected(error) from None

    def state_json(self, value: Any) -> JSON:
        """The JSON of the state ``value`` (see ``shared_json``)."""
        return self.engine.state_to_dict(value)

    def _remember(self, value: Any) -> JSON:
        data = self.state_json(value)
        self._memo = (data, value)
        return data

    def load(self, state: JSON) -> JSON:
        return self._remember(self.parse(state))

    def legal(self, state: JSON) -> list[str]:
        value = self.parse(state)
        actions = tuple(self.engine.legal_actions(value))
        strings = list(map(str, actions))
        self._listed = (value, dict(zip(strings, actions, strict=True)))
        return strings

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]:
        value = self.parse(state)
        listed = self._listed
        chosen = listed[1].get(action) if listed is not None and listed[0] is value else None
        try:
            if chosen is not None and self.engine.apply_listed is not None:
                after, events = self.engine.apply_listed(value, chosen)
            else:
                after, events = self.engine.apply(value, self.engine.parse_action(action))
        except RulesError as error:
            raise rejected(error) from None
        return self._remember(after), [event_to_dict(e) for e in events]


def record(engine: Engine[Any, Any], state: Any, policy: Callable[..., Any],
           rng: random.Random, max_steps: int, to_dict: Callable[[Any], JSON],
           ) -> tuple[JSON, list[Step]]:
    """A race played by the shared loop from ``state``, recorded as plain JSON: the start
    state and every step (before, action, after, events, the legal actions before it)."""
    start = before = to_dict(state)
    out: list[Step] = []
    for step in steps(engine, state, policy, rng, max_steps):
        after = to_dict(step.after)
        out.append(Step(before, str(step.action), after, [event_to_dict(e) for e in step.events],
                        [str(a) for a in step.legal]))
        before = after
    return start, out
