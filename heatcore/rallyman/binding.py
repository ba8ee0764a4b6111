"""The Rallyman GT binding: heatcore.rallyman as a reference engine of the conformance kit
(``heatcore serve --ruleset rallyman-gt``, ``heatcore conform --ruleset rallyman-gt``)."""

from __future__ import annotations

import random
from typing import Any

from heatcore.conformance.binding import JSON, Attribution, RandomRace, Rejected, Step
from heatcore.errors import RulesError
from heatcore.notation import event_to_dict
from heatcore.rallyman.driver import POLICIES, sample_chance
from heatcore.rallyman.engine import apply, check_action, legal_actions
from heatcore.rallyman.notation import parse_action, state_from_dict, state_to_dict
from heatcore.rallyman.setup import random_setup, start_race
from heatcore.rallyman.spec import rules
from heatcore.rallyman.track import track_ids
from heatcore.rallyman.validity import validate

#: The rules an event kind shows (first is the most specific).
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "round-started": ("rgt.order.speed", "rgt.round.alternate"),
    "laid": ("rgt.move.forward", "rgt.dice.gear-step"),
    "rolls": ("rgt.roll.one-by-one", "rgt.roll.flat-out"),
    "focus-gained": ("rgt.focus.gain",),
    "focus-spent": ("rgt.focus.cost", "rgt.focus.spend"),
    "dice": ("rgt.dice.warning-faces",),
    "moved": ("rgt.move.forward",),
    "control-lost": ("rgt.loc.trigger", "rgt.roll.track-warnings"),
    "relaid": ("rgt.loc.relay",),
    "spin": ("rgt.loc.table", "rgt.loc.zero"),
    "off-track": ("rgt.loc.table", "rgt.loc.double-zero"),
    "damage-drawn": ("rgt.ruling.damage-bag",),
    "weather-changed": ("rgt.damage.weather",),
    "yellow-flag-lifted": ("rgt.damage.yellow-flag",),
    "blocked": ("rgt.move.blocked",),
    "back-on-track": ("rgt.ruling.off-track-return",),
    "cannot-return": ("rgt.pit.blocked-return",),
    "pit-stop": ("rgt.pit.conditions",),
    "stopped": ("rgt.roll.one-by-one",),
    "finished": ("rgt.finish.end",),
    "turn-ended": ("rgt.end.marker", "rgt.end.turn"),
    "race-over": ("rgt.finish.end",),
}


def _rejected(error: RulesError) -> Rejected:
    return Rejected(error.kind, error.rule, str(error))


class RallymanBinding:
    """heatcore.rallyman behind plain JSON states, action strings and event objects."""

    name = "heatcore-rallyman-gt"
    ruleset = "rallyman-gt"

    def __init__(self) -> None:
        from heatcore import __version__

        self.version = str(__version__)

    def rulings(self) -> list[str]:
        return [e.id for e in rules() if e.kind == "ruling"]

    def tracks(self) -> list[str]:
        return list(track_ids())

    def rule_ids(self) -> list[str]:
        return list(rules().rule_ids)

    def parse(self, state: JSON) -> Any:
        """A validated state value, or Rejected."""
        try:
            return validate(state_from_dict(state))
        except RulesError as error:
            raise _rejected(error) from None

    def load(self, state: JSON) -> JSON:
        return state_to_dict(self.parse(state))

    def legal(self, state: JSON) -> list[str]:
        return [str(a) for a in legal_actions(self.parse(state))]

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]:
        value = self.parse(state)
        try:
            after, events = apply(value, parse_action(action))
        except RulesError as error:
            raise _rejected(error) from None
        return state_to_dict(after), [event_to_dict(e) for e in events]

    def random_race(self, seed: int) -> RandomRace:
        """Race ``seed``: track, car count and policy drawn from the seed, one lap."""
        tracks = self.tracks()
        track = tracks[seed % len(tracks)]
        players = 2 + (seed // len(tracks)) % 5
        rng = random.Random(seed)
        setup = random_setup(track, players, rng, laps=1)
        policy = POLICIES["sensible" if seed % 2 else "random"]
        state, _ = start_race(setup)
        start = state_to_dict(state)
        steps: list[Step] = []
        before = start
        while not state.is_over() and len(steps) < 20_000:
            legal = legal_actions(state)
            action = sample_chance(state, rng) if state.is_chance() else policy(state, legal,
                                                                                   rng)
            state, events = apply(state, action)
            after = state_to_dict(state)
            steps.append(Step(before, str(action), after, [event_to_dict(e) for e in events],
                              [str(a) for a in legal]))
            before = after
        return RandomRace(seed, f"{track} {players} cars", start, steps)

    def modules(self) -> list[str]:
        """Rallyman GT has no optional modules here."""
        return []

    def describe(self, rule: str) -> str:
        """A rule's one-line title ('' for an unknown ID)."""
        known = rules()
        return known[rule].title if rule in known else ""

    def setup(self, setup: JSON) -> JSON:
        """Setups are not compared for Rallyman GT yet: its races carry no setup."""
        raise Rejected("unsupported", "", "setup requests are not served for rallyman-gt; "
                       "its races start from a loaded state")

    def attribute(self, check: str, state: JSON, action: str | None, expected: JSON,
                  actual: JSON, rule_ids: bool = False) -> Attribution:
        """The rules behind a difference, most likely first, and what differs."""
        found = self._rules_of(state, expected, actual)
        return Attribution(found, f"{check}: {found[0]}")

    def _rules_of(self, state: JSON, expected: JSON, actual: JSON) -> list[str]:
        """Rule IDs behind a difference (refused actions name their rule)."""
        found: list[str] = []

        def add(*ids: str) -> None:
            found.extend(i for i in ids if i not in found)

        if "actions" in expected:
            value = self.parse(state)
            for text in sorted(set(actual.get("actions") or []) - set(expected["actions"])):
                try:
                    check_action(value, parse_action(text))
                except RulesError as error:
                    add(error.rule)
            return found or ["rgt.turn.sequence"]
        if "error" in expected and expected["error"].get("rule"):
            add(expected["error"]["rule"])
        want: list[JSON] = expected.get("events", []) or []
        got: list[JSON] = actual.get("events", []) or []
        for a, b in zip(want + [None] * len(got), got + [None] * len(want), strict=False):
            if a != b:
                for ev in (a, b):
                    if isinstance(ev, dict):
                        add(*EVENT_RULES.get(str(ev.get("kind")), ()))
                break
        return found or ["rgt.turn.sequence"]
