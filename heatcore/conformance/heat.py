"""The Heat binding: heatcore as the reference engine of the conformance kit.

This is the only module of the kit that knows Heat's nouns (cars, cards, corners, ...).
"""

from __future__ import annotations

import random
from typing import Any

from heatcore.actions import (
    AdrenalineCooldown,
    AdrenalineMove,
    Boost,
    Cooldown,
    DeclineSlipstream,
    Discard,
    EndReact,
    LegendShuffle,
    Plan,
    SectorCooldown,
    Shuffle,
    Slipstream,
)
from heatcore.conformance.binding import JSON, RandomRace, Rejected, Step
from heatcore.driver import Policy, greedy_policy, random_policy, random_shuffle
from heatcore.engine import apply, check_action, legal_actions
from heatcore.errors import IllegalAction, RulesError
from heatcore.notation import event_to_dict, parse_action, state_from_dict, state_to_dict
from heatcore.registry import ruleset
from heatcore.setup import RaceSetup, random_setup, start_race
from heatcore.state import RaceState
from heatcore.track import track_ids
from heatcore.validity import validate

#: The rules an event kind shows (first is the most specific).
EVENT_RULES: dict[str, tuple[str, ...]] = {
    "round-started": ("order.fixed-at-round-start", "round.sequence"),
    "turn-started": ("adrenaline.who", "ruling.adrenaline-order", "round.sequence"),
    "played": ("play.card-count", "play.playable-cards"),
    "shifted": ("gear.shift.free", "gear.range"),
    "paid-heat": ("gear.shift.two-costs-heat", "react.boost"),
    "revealed": ("reveal.speed",),
    "flipped": ("reveal.stress-flip", "react.boost"),
    "flip-found-nothing": ("ruling.flip-no-basic", "reveal.stress-flip"),
    "deck-empty": ("deck.reshuffle", "ruling.reshuffle-includes-played"),
    "shuffled": ("deck.reshuffle",),
    "speed": ("reveal.speed", "reveal.stress-flip"),
    "moved": ("move.exact", "place.racing-line-first", "place.blocked"),
    "crossed-finish": ("finish.line",),
    "cooled": ("react.cooldown",),
    "free-boost": ("road.free-boost", "react.boost"),
    "conditions": ("weather.draw", "road.draw"),
    "legend": ("legend.past-line", "legend.before-line", "legend.one-corner"),
    "legend-card": ("legend.deck", "legend.card"),
    "legend-deck-empty": ("legend.deck",),
    "legend-deck-shuffled": ("legend.deck",),
    "adrenaline": ("adrenaline.effects", "speed.turn-total"),
    "corner": ("corner.check", "corner.pay-heat", "speed.turn-total"),
    "spun-out": ("corner.spin", "corner.check", "ruling.stress-supply"),
    "cluttered": ("play.cluttered",),
    "discarded": ("discard.optional",),
    "drew": ("replenish.draw", "replenish.cleanup"),
    "ranked": ("finish.ranking",),
    "race-over": ("finish.removed", "finish.ranking"),
}

#: The rules an action kind exercises.
ACTION_RULES: dict[type, tuple[str, ...]] = {
    Plan: ("gear.shift.free", "play.card-count"),
    Cooldown: ("react.cooldown",),
    AdrenalineMove: ("adrenaline.effects",),
    AdrenalineCooldown: ("adrenaline.effects",),
    SectorCooldown: ("weather.cooling-bonus", "react.cooldown"),
    Boost: ("react.boost",),
    EndReact: ("react.any-order",),
    Slipstream: ("slipstream.eligible", "slipstream.move"),
    DeclineSlipstream: ("slipstream.eligible",),
    Discard: ("discard.optional",),
    Shuffle: ("deck.reshuffle",),
    LegendShuffle: ("legend.deck",),
}


def _rejected(error: RulesError) -> Rejected:
    return Rejected(error.kind, error.rule, str(error))


class HeatBinding:
    """heatcore behind plain JSON states, action strings and event objects."""

    name = "heatcore"

    def __init__(self) -> None:
        from heatcore import __version__

        self.version = str(__version__)
        # The last state this binding produced or loaded, and its value: a session applies
        # actions to the state it was just given, so this skips re-reading and re-validating.
        self._memo: tuple[JSON, RaceState] | None = None

    def rulings(self) -> list[str]:
        return [e.id for e in ruleset() if e.kind == "ruling"]

    def tracks(self) -> list[str]:
        return list(track_ids())

    def rule_ids(self) -> list[str]:
        return list(ruleset().rule_ids)

    def parse(self, state: JSON) -> RaceState:
        """A validated state value, or Rejected."""
        if self._memo is not None and self._memo[0] is state:
            return self._memo[1]
        try:
            value = validate(state_from_dict(state))
        except RulesError as error:
            raise _rejected(error) from None
        return value

    def _remember(self, value: RaceState) -> JSON:
        data = state_to_dict(value)
        self._memo = (data, value)
        return data

    def load(self, state: JSON) -> JSON:
        return self._remember(self.parse(state))

    def legal(self, state: JSON) -> list[str]:
        return [str(a) for a in legal_actions(self.parse(state))]

    def apply(self, state: JSON, action: str) -> tuple[JSON, list[JSON]]:
        value = self.parse(state)
        try:
            after, events = apply(value, parse_action(action))
        except RulesError as error:
            raise _rejected(error) from None
        return self._remember(after), [event_to_dict(e) for e in events]

    def random_race(self, seed: int) -> RandomRace:
        """Race ``seed``: track, car count and policy drawn from the seed, one lap."""
        tracks = self.tracks()
        track = tracks[seed % len(tracks)]
        players = 2 + (seed // len(tracks)) % 5
        rng = random.Random(seed)
        setup = random_setup(track, players, rng, laps=1 if seed % 3 else 2)
        policy = greedy_policy if seed % 2 else random_policy
        return record_race(seed, setup, policy, policy.__name__, rng)

    def attribute(self, state: JSON, action: str | None, expected: JSON,
                  actual: JSON) -> list[str]:
        """Rule IDs behind a difference. ``expected``/``actual`` are either
        {"actions": [...]}, {"state": ..., "events": [...]} or {"error": {"kind", "rule"?}}."""
        found: list[str] = []

        def add(*ids: str) -> None:
            found.extend(i for i in ids if i not in found)

        if "actions" in expected:
            want, got = set(expected["actions"]), set(actual.get("actions") or [])
            value = self.parse(state)
            for text in sorted(got - want):
                try:
                    check_action(value, parse_action(text))
                except RulesError as error:
                    add(error.rule)
            for text in sorted(want - got):
                add(*ACTION_RULES.get(type(parse_action(text)), ()))
            return found or ["round.sequence"]
        if action is not None:
            try:
                act = parse_action(action)
                add_action = ACTION_RULES.get(type(act), ())
            except RulesError:
                add_action = ()
        else:
            add_action = ()
        if "error" in expected:
            rule = expected["error"].get("rule")
            if rule:
                add(rule)
            add(*add_action)
            return found or ["round.sequence"]
        if "error" in actual:
            add(*add_action)
            return found or ["round.sequence"]
        want_events: list[JSON] = expected.get("events", [])
        got_events: list[JSON] = actual.get("events") or []
        for index in range(max(len(want_events), len(got_events))):
            a = want_events[index] if index < len(want_events) else None
            b = got_events[index] if index < len(got_events) else None
            if a != b:
                for ev in (a, b):
                    if isinstance(ev, dict):
                        add(*_event_rules(ev))
                break
        if not found:
            add(*_state_rules(expected.get("state"), actual.get("state")))
        add(*add_action)
        return found or ["round.sequence"]


def record_race(seed: int, setup: RaceSetup, policy: Policy, name: str,
                rng: random.Random, max_steps: int = 5000) -> RandomRace:
    """Play ``setup`` with ``policy`` (chance outcomes from ``rng``), recording every step
    as plain JSON; ``name`` labels the policy."""
    state, _ = start_race(setup)
    start = state_to_dict(state)
    steps: list[Step] = []
    before = start
    while not state.is_over() and len(steps) < max_steps:
        legal = legal_actions(state)
        action = random_shuffle(state, rng) if state.is_chance() else policy(state, legal, rng)
        state, events = apply(state, action)
        after = state_to_dict(state)
        steps.append(Step(before, str(action), after, [event_to_dict(e) for e in events],
                          [str(a) for a in legal]))
        before = after
    label = f"{setup.track}, {setup.players} cars, {setup.laps} lap(s), {name}"
    return RandomRace(seed, label, start, steps)


def _event_rules(ev: JSON) -> tuple[str, ...]:
    kind = ev.get("kind")
    if kind == "paid-heat":
        return ("react.boost",) if ev.get("cause") == "boost" else ("gear.shift.two-costs-heat",)
    if kind == "corner" and ev.get("heat"):
        return ("corner.pay-heat", "corner.check")
    if kind == "moved" and ev.get("by") == "slipstream":
        return ("slipstream.move", "place.blocked")
    if kind == "legend":
        return (str(ev.get("rule")), "legend.no-heat")
    if kind == "moved" and ev.get("by") == "adrenaline":
        return ("adrenaline.effects", "place.blocked")
    return EVENT_RULES.get(str(kind), ("round.sequence",))


def _state_rules(want: JSON, got: JSON) -> list[str]:
    if not isinstance(want, dict) or not isinstance(got, dict):
        return ["round.sequence"]
    out: list[str] = []
    fields = {"supply": "ruling.stress-supply", "ranking": "finish.ranking",
              "order": "order.fixed-at-round-start", "shuffle": "deck.reshuffle",
              "turn": "round.sequence", "phase": "round.sequence"}
    for key, rule in fields.items():
        if want.get(key) != got.get(key):
            out.append(rule)
    car_fields = {"engine": "corner.pay-heat", "hand": "replenish.draw", "deck": "deck.reshuffle",
                  "discard": "replenish.cleanup", "gear": "gear.shift.free",
                  "position": "move.exact", "racing_line": "place.racing-line-first",
                  "played": "play.card-count", "flipped": "reveal.stress-flip"}
    for a, b in zip(want.get("cars") or [], got.get("cars") or [], strict=False):
        if isinstance(a, dict) and isinstance(b, dict):
            for key, rule in car_fields.items():
                if a.get(key) != b.get(key) and rule not in out:
                    out.append(rule)
    return out or ["round.sequence"]


def illegal_rule(state: RaceState, text: str) -> str | None:
    """The rule heatcore names when refusing ``text`` in ``state`` (None if legal)."""
    try:
        check_action(state, parse_action(text))
    except IllegalAction as error:
        return error.rule
    return None


def as_any(value: Any) -> JSON:
    """Identity, typed as JSON (for mypy)."""
    return value
