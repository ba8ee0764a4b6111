"""Which Heat rule a divergence is charged to, found from what differs and where.

The rule comes, in this order of preference, from: the rule the reference names when it
refuses an action the engine accepted; the stage where the two event lists part (a choice
one side waits for and the other runs past is charged to that choice, not to the knock-on
events after it); the event field that differs; the state field that differs; and last the
action's own rule. A plan's bookkeeping rules are only charged when nothing else differs.
``what`` names the difference without cars or positions, so equal causes compare equal.
"""

from __future__ import annotations

from typing import Any

from heatcore.framework.conformance.binding import JSON, Attribution
from heatcore.framework.conformance.causes import json_paths
from heatcore.framework.errors import RulesError
from heatcore.heat.actions import (
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
from heatcore.heat.engine import check_action, legal_actions
from heatcore.heat.notation import parse_action, state_from_dict

#: The rules an action kind exercises (most specific first).
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

#: The rule of an event kind that one side emits and the other does not.
EVENT_RULES: dict[str, str] = {
    "round-started": "round.sequence", "turn-started": "round.sequence",
    "played": "play.card-count", "shifted": "gear.shift.free",
    "revealed": "reveal.speed", "cluttered": "play.cluttered", "flipped": "reveal.stress-flip",
    "flip-found-nothing": "ruling.flip-no-basic", "deck-empty": "deck.reshuffle",
    "shuffled": "deck.reshuffle", "speed": "reveal.speed", "crossed-finish": "finish.line",
    "cooled": "react.cooldown", "adrenaline": "adrenaline.effects", "corner": "corner.check",
    "spun-out": "corner.check", "discarded": "discard.optional", "drew": "replenish.draw",
    "ranked": "finish.ranking", "race-over": "finish.ranking",
    "free-boost": "road.free-boost", "conditions": "weather.draw",
    "legend-card": "legend.card", "legend-deck-empty": "legend.deck",
    "legend-deck-shuffled": "legend.deck",
}

#: The rule of a field of an event (kind, field) whose value differs.
FIELD_RULES: dict[tuple[str, str], str] = {
    ("round-started", "order"): "order.fixed-at-round-start",
    ("turn-started", "adrenaline"): "adrenaline.who",
    ("played", "cards"): "play.card-count", ("shifted", "gear"): "gear.shift.free",
    ("revealed", "cards"): "reveal.speed", ("cluttered", "gear"): "play.cluttered",
    ("flipped", "card"): "reveal.stress-flip", ("flipped", "kept"): "reveal.stress-flip",
    ("deck-empty", "discard"): "deck.reshuffle", ("shuffled", "cards"): "deck.reshuffle",
    ("speed", "speed"): "reveal.speed", ("cooled", "amount"): "react.cooldown",
    ("adrenaline", "speed"): "adrenaline.effects",
    ("corner", "corner"): "corner.check", ("corner", "limit"): "corner.check",
    ("corner", "speed"): "speed.turn-total", ("corner", "heat"): "corner.pay-heat",
    ("spun-out", "corner"): "corner.check", ("spun-out", "limit"): "corner.check",
    ("spun-out", "speed"): "speed.turn-total", ("spun-out", "heat"): "corner.pay-heat",
    ("spun-out", "stress"): "corner.spin", ("spun-out", "position"): "corner.spin",
    ("spun-out", "racing_line"): "corner.spin",
    ("discarded", "cards"): "discard.optional", ("drew", "count"): "replenish.draw",
    ("ranked", "place"): "finish.ranking", ("race-over", "ranking"): "finish.ranking",
    # a Legend's move: how far its card takes it, and where it must stop before a corner
    ("legend", "spaces"): "legend.card", ("legend", "rule"): "legend.one-corner",
    ("legend", "diamond"): "legend.card", ("legend", "helmet"): "legend.card",
}

#: What a slipstream that changes the turn's speed is reported as.
SLIPSTREAM_SPEED = "the slipstream changes the turn's speed"

#: The step of a turn an event belongs to, and of a stage (the order of steps 3 to 9).
STEP_OF: dict[str, int] = {
    "revealed": 3, "cluttered": 3, "flipped": 3, "flip-found-nothing": 3, "speed": 3,
    "reveal": 3, "cooled": 5, "adrenaline": 5, "paid-heat": 5, "react": 5, "boost": 5,
    "free-boost": 5,
    "slipstream": 6, "corner": 7, "spun-out": 7, "discarded": 8, "discard": 8,
    "drew": 9, "replenish": 9, "turn-started": 10, "round-started": 10, "ranked": 10,
    "race-over": 10}

#: Two outcomes of a flip.
FLIP_KINDS = {"flipped", "flip-found-nothing"}

#: The two outcomes of a corner check.
CORNER_KINDS = {"corner", "spun-out"}

#: What moved a car, and the rule of how far.
MOVE_RULES = {"cards": "reveal.speed", "boost": "react.boost",
              "adrenaline": "adrenaline.effects", "slipstream": "slipstream.move"}

#: The rule of a state field (cars' fields under ``cars[]``).
STATE_RULES: dict[str, str] = {
    "supply": "ruling.stress-supply", "ranking": "finish.ranking",
    "order": "order.fixed-at-round-start", "shuffle": "deck.reshuffle",
    "round": "round.sequence", "phase": "round.sequence", "cursor": "round.sequence",
    "turn.speed": "speed.turn-total", "turn.adrenaline": "adrenaline.who",
    "turn.flips_left": "reveal.stress-flip", "turn.to_move": "reveal.speed",
    "turn.cooldown_used": "react.cooldown", "turn.boosted": "react.boost",
    "turn.adrenaline_move_used": "adrenaline.effects",
    "turn.adrenaline_cooldown_used": "adrenaline.effects",
    "turn.sector_cooldown_used": "weather.cooling-bonus",
    "cars[].engine": "corner.pay-heat", "cars[].hand": "replenish.draw",
    "cars[].deck": "deck.reshuffle", "cars[].discard": "replenish.cleanup",
    "cars[].gear": "gear.shift.free", "cars[].position": "move.exact",
    "cars[].racing_line": "place.racing-line-first", "cars[].played": "play.card-count",
    "cars[].flipped": "reveal.stress-flip",
}

#: The rule of a state field that differs after an action whose events include a kind:
#: the event says what happened, the field how it was carried out.
CONTEXT_RULES: dict[tuple[str, str], str] = {
    ("spun-out", "cars[].gear"): "corner.spin", ("spun-out", "cars[].hand"): "corner.spin",
    ("spun-out", "cars[].position"): "corner.spin",
    ("cluttered", "cars[].gear"): "play.cluttered",
    ("cluttered", "cars[].discard"): "play.cluttered",
    ("paid-heat", "cars[].engine"): "gear.shift.two-costs-heat",
    ("corner", "cars[].engine"): "corner.pay-heat", ("corner", "cars[].hand"): "corner.pay-heat",
    ("cooled", "cars[].engine"): "react.cooldown", ("cooled", "cars[].hand"): "react.cooldown",
    ("discarded", "cars[].hand"): "discard.optional",
    ("drew", "cars[].hand"): "replenish.draw", ("drew", "cars[].deck"): "replenish.draw",
}

#: Setup fields and their rules.
SETUP_RULES: dict[str, str] = {
    "cars[].hand": "setup.hand", "cars[].deck": "setup.deck", "cars[].engine": "setup.engine",
    "cars[].gear": "setup.gear", "cars[].position": "setup.grid",
    "cars[].racing_line": "setup.grid", "supply": "setup.stress-supply",
    "laps": "setup.track-laps", "track": "setup.track-laps",
    "order": "order.fixed-at-round-start", "round": "round.sequence",
}


class _Found:
    """An ordered set of rule IDs."""

    def __init__(self) -> None:
        self.rules: list[str] = []
        self.what = ""  # set when the rules were found with their own phrase

    def add(self, *ids: str) -> None:
        self.rules.extend(i for i in ids if i and i not in self.rules)


def _action_rules(action: str | None) -> tuple[str, ...]:
    if action is None:
        return ()
    try:
        return ACTION_RULES.get(type(parse_action(action)), ())
    except RulesError:
        return ()


def _verb(action: str) -> str:
    """The kind of an action string, without its car and arguments (``P2 gear 3 ...``: gear)."""
    words = action.split()[1:]
    if words[:2] in (["end", "react"], ["no", "slipstream"]):
        return " ".join(words[:2])
    if words[:1] == ["adrenaline"]:
        return " ".join(words[:2])
    return words[0] if words else action


def _plan_rule(state: JSON, text: str) -> str | None:
    """The rule that makes a plan legal, read from its gear change and cards (None for other
    actions): a two-gear shift, a cluttered play, a one-gear shift, or the card count."""
    words = text.split()
    if len(words) < 4 or words[1] != "gear" or not words[2].isdigit():
        return None
    car = next((c for c in (state.get("cars") or []) if isinstance(c, dict)
                and c.get("id") == words[0]), None) if isinstance(state, dict) else None
    if car is None:
        return None
    delta = abs(int(words[2]) - int(car.get("gear", 0)))
    if "H" in words[4:]:
        return "play.cluttered"
    return {2: "gear.shift.two-costs-heat", 1: "gear.shift.free"}.get(delta, "play.card-count")


def legal_attribution(state: JSON, want: set[str], got: set[str]) -> Attribution:
    """An engine missing legal actions (charged first: the rule of what it should offer) or
    offering actions the rules refuse (the rule the reference names when refusing them). The
    phrase names only the side charged first, so each side makes a cause of its own."""
    missing_rules, extra_rules = _Found(), _Found()
    try:
        value = state_from_dict(state)
    except RulesError:
        value = None
    extra, missing = sorted(got - want), sorted(want - got)
    for text in missing:
        missing_rules.add(_plan_rule(state, text) or "", *_action_rules(text))
    for text in extra:
        try:
            if value is not None:
                check_action(value, parse_action(text))
        except RulesError as error:
            extra_rules.add(error.rule)
    rules = _Found()
    rules.add(*missing_rules.rules, *extra_rules.rules)
    if missing:
        what = "does not offer legal " + ", ".join(sorted({f"`{_kind(a)}`" for a in missing}))
    elif extra:
        what = "offers " + ", ".join(sorted({f"`{_kind(a)}`" for a in extra})) + \
            " the rules refuse"
    else:
        what = "legal actions differ"
    return Attribution(rules.rules or ["round.sequence"], what)


def _kind(action: str) -> str:
    """An action's kind for a phrase: its verb, adrenaline's two choices as one."""
    verb = _verb(action)
    return "adrenaline" if verb.startswith("adrenaline") else verb


def paths(want: JSON, got: JSON) -> list[str]:
    """The differing paths of two Heat states
    (:func:`~heatcore.framework.conformance.causes.json_paths`): the cars item by item (``cars[]``),
    the rulings left out counting as the defaults."""
    return json_paths(want, got, itemised=lambda path, _a, _b: path == "cars",
                      empty=frozenset({"rulings"}))


#: State paths, the most telling first: a state playing other rulings than the race is
#: charged to those rulings, a difference in the ranking or the round's order before the
#: card piles that differ along with it.
PRIORITY = ("rulings.", "ranking", "phase", "order", "round", "cursor", "supply", "shuffle",
            "turn.",
            "cars[].gear", "cars[].engine", "cars[].position", "cars[].hand", "cars[].deck",
            "cars[].flipped", "cars[].discard", "cars[].played", "cars[].racing_line")


def _priority(path: str) -> int:
    return next((i for i, p in enumerate(PRIORITY) if path.startswith(p)), len(PRIORITY))


def _state_rules(want: JSON, got: JSON, action: str | None, table: dict[str, str],
                 events: list[JSON] | None = None) -> _Found:
    found = _Found()
    differing = paths(want, got)
    kinds = {str(e.get("kind")) for e in events or [] if isinstance(e, dict)}
    for (kind, path), rule in CONTEXT_RULES.items():
        if kind in kinds and path in differing:
            found.add(rule)
    shuffle_pending = isinstance(want, dict) and want.get("shuffle") is not None
    slipstream = action is not None and _verb(action) == "slipstream"
    if "turn.stage" in differing and isinstance(want, dict) and isinstance(got, dict):
        ours, theirs = _stage(want), _stage(got)
        if theirs in ("react", "slipstream", "discard") and \
                STEP_OF.get(theirs, 0) < STEP_OF.get(str(ours), 0):
            rules, choice = _skipped_rules(got)
            found.add(*rules)
            found.what = f"stops at {choice} the reference runs past"
        elif ours in ("react", "slipstream", "discard"):
            rules, choice = _waiting_rules(want, ours)
            found.add(*rules)
            found.what = f"runs past {choice}"
    for path in sorted(differing, key=_priority):
        if slipstream and path == "turn.speed":
            found.add("slipstream.speed-unchanged")
        if shuffle_pending and path in ("cars[].discard", "cars[].played", "cars[].flipped"):
            found.add("replenish.discard-before-draw", "deck.reshuffle")
        if path.startswith("rulings."):  # the engine plays another alternative of it
            found.add(path.removeprefix("rulings."))
        found.add(table.get(path, ""))
    return found


def _event_rules(a: JSON, b: JSON) -> tuple[list[str], str]:
    """Rules and phrase for two events of the same kind that differ."""
    kind = str(a.get("kind"))
    fields = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k) and k != "car")
    if a.get("kind") != b.get("kind"):  # a corner passed on one side, spun on the other
        fields = sorted(k for k in ("corner", "limit", "speed", "heat")
                        if a.get(k) != b.get(k)) or ["kind"]
    found = _Found()
    if "speed" in fields:  # a different speed explains the heat, spin and placement
        found.add(FIELD_RULES.get((kind, "speed"), "speed.turn-total"))
    if kind == "paid-heat":
        found.add("react.boost" if a.get("cause") == "boost" else "gear.shift.two-costs-heat")
    if kind == "moved":
        by = str(a.get("by"))
        if "spaces" in fields or "by" in fields:
            found.add(MOVE_RULES.get(by, "move.exact"))
        elif "position" in fields:
            found.add("place.blocked", "move.exact")
        elif "racing_line" in fields:
            found.add("place.racing-line-first")
    for name in fields:
        found.add(FIELD_RULES.get((kind, name), ""))
    found.add(EVENT_RULES.get(kind, ""))
    label = "corner" if kind in CORNER_KINDS else kind
    field = "speed" if "speed" in fields else (fields or ["?"])[0]
    return found.rules, f"`{label}.{field}` differs"


def _waiting_rules(state: JSON, turn_stage: str | None) -> tuple[list[str], str]:
    """The rules of the choice a state waits for (it is the reference's after-state)."""
    if not isinstance(state, dict):
        return ["round.sequence"], "a choice"
    if state.get("shuffle") is not None:
        return ["deck.reshuffle"], "a shuffle"
    if state.get("phase") == "plan":
        return ["round.sequence"], "the next plan"
    stage = turn_stage or "?"
    rules = {"react": _react_rules(state), "slipstream": ["slipstream.eligible"],
             "discard": ["discard.optional"]}.get(stage, ["round.sequence"])
    return rules, f"the {stage} choice"


def _react_rules(state: JSON) -> list[str]:
    """The rules of the react choices the reference offers in ``state``, the rarer first
    (adrenaline, then cooldown, then boost)."""
    try:
        offered = {type(a) for a in legal_actions(state_from_dict(state))}
    except RulesError:
        offered = set()
    found = _Found()
    for kind, rule in ((AdrenalineMove, "adrenaline.effects"),
                       (AdrenalineCooldown, "adrenaline.effects"),
                       (Cooldown, "react.cooldown"), (Boost, "react.boost")):
        if kind in offered:
            found.add(rule)
    found.add("react.any-order")
    return found.rules


def _skipped_rules(state: JSON) -> tuple[list[str], str]:
    """The rules of a choice the engine waits for that the reference skips (``state`` is the
    engine's after-state)."""
    turn = state.get("turn") if isinstance(state, dict) else None
    stage = turn.get("stage") if isinstance(turn, dict) else None
    if stage == "slipstream":
        try:
            value = state_from_dict(state)
            car = value.turn.car if value.turn is not None else 0
            if value.cars[car].position + 2 > value.finish_position:
                return ["slipstream.not-past-finish", "slipstream.eligible"], \
                    "a slipstream choice"
        except (RulesError, AttributeError, IndexError, KeyError, TypeError):
            pass
        return ["slipstream.eligible"], "a slipstream choice"
    if stage == "discard":
        return ["discard.optional"], "a discard choice"
    if stage == "react":
        assert isinstance(state, dict) and isinstance(turn, dict)
        me: dict[str, Any] = next(
            (c for c in state.get("cars", []) if c.get("id") == turn.get("car")), {})
        if "H" in me.get("hand", []):
            return ["react.cooldown", "react.any-order"], "a react choice"
        if turn.get("adrenaline"):
            return ["adrenaline.effects", "react.any-order"], "a react choice"
        return ["react.any-order"], "a react choice"
    return ["round.sequence"], f"a {stage or 'plan'} choice"


def _stage(state: JSON) -> str | None:
    turn = state.get("turn") if isinstance(state, dict) else None
    return str(turn.get("stage")) if isinstance(turn, dict) else None


def events_attribution(want: list[JSON], got: list[JSON], want_state: JSON,
                       got_state: JSON) -> tuple[list[str], str] | None:
    """Rules and phrase where two event lists part (None when they are equal)."""
    k = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
             min(len(want), len(got)))
    if k == len(want) == len(got):
        return None
    a = want[k] if k < len(want) else None
    b = got[k] if k < len(got) else None
    if a is None and isinstance(b, dict):
        waiting = _stage(want_state)
        if waiting in STEP_OF and STEP_OF.get(str(b.get("kind")), 9) < STEP_OF[waiting]:
            return [_kind_rule(b)], f"emits an extra `{b.get('kind')}`"
        rules, choice = _waiting_rules(want_state, waiting)
        return rules, f"runs past {choice}"
    if b is None and isinstance(a, dict):
        waiting = _stage(got_state)
        if waiting in STEP_OF and STEP_OF.get(str(a.get("kind")), 9) >= STEP_OF[waiting]:
            rules, choice = _skipped_rules(got_state)
            return [*rules, _kind_rule(a)], f"stops at {choice} the reference runs past"
        return [_kind_rule(a)], f"omits `{a.get('kind')}`"
    assert isinstance(a, dict) and isinstance(b, dict)
    if a.get("kind") == b.get("kind") or {a.get("kind"), b.get("kind")} == CORNER_KINDS:
        return _event_rules(a, b)
    if {a.get("kind"), b.get("kind")} == FLIP_KINDS:
        return ["reveal.stress-flip", "ruling.flip-no-basic"], "`flipped` differs"
    later_got = [e.get("kind") for e in got[k + 1:]]
    later_want = [e.get("kind") for e in want[k + 1:]]
    if a.get("kind") in later_got and b.get("kind") not in later_want:
        return [_kind_rule(b)], f"emits an extra `{b.get('kind')}`"
    if b.get("kind") in later_want and a.get("kind") not in later_got:
        return [_kind_rule(a, want[:k])], f"omits `{a.get('kind')}`"
    return [_kind_rule(a, want[:k]), _kind_rule(b, got[:k])], \
        f"`{a.get('kind')}` expected, got `{b.get('kind')}`"


def _kind_rule(ev: JSON, before: list[JSON] | None = None) -> str:
    """The rule of an event one side has and the other lacks (``before``: the events of
    that side before it)."""
    kind = str(ev.get("kind"))
    if kind == "deck-empty" and any(e.get("kind") == "drew" for e in before or []):
        return "replenish.draw"  # a draw that ran out on one side only
    if kind == "legend":
        return str(ev.get("rule") or "legend.card")
    if kind == "moved":
        return MOVE_RULES.get(str(ev.get("by")), "move.exact")
    if kind == "paid-heat":
        return "react.boost" if ev.get("cause") == "boost" else "gear.shift.two-costs-heat"
    return EVENT_RULES.get(kind, "round.sequence")


def attribute(check: str, state: JSON, action: str | None, expected: JSON,
              actual: JSON, rule_ids: bool = False) -> Attribution:
    """The cause of a Heat divergence (see the module docstring); with ``rule_ids`` the rule
    an engine names when it refuses a legal action is charged first."""
    if check == "legal":
        return legal_attribution(state, set(expected.get("actions") or []),
                                 set(actual.get("actions") or []))
    found = _Found()
    verb = _verb(action) if action else None
    if check == "setup":
        found = _state_rules(expected.get("state"), actual.get("state"), None, SETUP_RULES)
        rules = found.rules or ["setup"]
        return Attribution(rules, _paths_phrase(expected.get("state"), actual.get("state"),
                                                "start state", SETUP_RULES, rules[0]))
    if "error" in expected:
        err = expected["error"] or {}
        found.add(str(err.get("rule") or ""), *_action_rules(action))
        if "error" not in actual:
            return Attribution(found.rules or ["round.sequence"],
                               f"accepts `{verb}` the rules refuse")
        got_err: Any = actual.get("error") or {}
        if got_err.get("kind") != err.get("kind"):
            return Attribution(found.rules or ["round.sequence"],
                               f"refuses `{verb}` as {got_err.get('kind')}, not "
                               f"{err.get('kind')}")
        return Attribution(found.rules or ["round.sequence"],
                           f"refuses `{verb}` naming {got_err.get('rule')}")
    if "error" in actual:
        got_err = actual.get("error") or {}
        if rule_ids and got_err.get("rule"):
            found.add(str(got_err["rule"]))
        found.add(*_action_rules(action))
        return Attribution(found.rules or ["round.sequence"],
                           f"refuses legal `{verb}` ({got_err.get('kind')})")
    if check == "load":
        return Attribution(["round.sequence"], "refuses a valid state")
    want_events, got_events = expected.get("events"), actual.get("events")
    if isinstance(want_events, list) and isinstance(got_events, list):
        parted = events_attribution(want_events, got_events, expected.get("state"),
                                    actual.get("state"))
        if parted is not None:
            rules, what = parted
            if what == "`drew.count` differs" and "cars[].engine" in paths(
                    expected.get("state"), actual.get("state")):
                found.add("corner.pay-heat", "react.cooldown")  # the hand size was changed
            found.add(*rules)
            if verb == "slipstream" and found.rules[0] == "speed.turn-total":
                found.rules.insert(0, "slipstream.speed-unchanged")
                what = SLIPSTREAM_SPEED
            return Attribution(found.rules, what)
    if "state" in expected:
        found = _state_rules(expected.get("state"), actual.get("state"), action, STATE_RULES,
                             expected.get("events"))
        if not found.rules:
            found.add(*_action_rules(action))
        rules = found.rules or ["round.sequence"]
        if rules[0] == "slipstream.speed-unchanged":
            return Attribution(rules, SLIPSTREAM_SPEED)
        if found.what:
            return Attribution(rules, found.what)
        return Attribution(rules, _paths_phrase(expected.get("state"), actual.get("state"),
                                                "next state", STATE_RULES, rules[0]))
    found.add(*_action_rules(action))
    return Attribution(found.rules or ["round.sequence"], "differs")


def _paths_phrase(want: JSON, got: JSON, what: str, table: dict[str, str],
                  rule: str) -> str:
    """``what differs at `PATH```: the first differing path charged to ``rule`` (else the
    first differing path), so equal causes read the same whatever else differs."""
    differing = sorted(paths(want, got), key=_priority)
    if not differing:
        return f"{what} differs"
    path = next((p for p in differing if table.get(p) == rule), differing[0])
    return f"{what} differs at `{path}`"
