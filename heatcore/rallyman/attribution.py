"""Which Rallyman GT rule a conformance divergence is charged to.

The rule comes, in this order of preference, from: the rule the reference names when it
refuses an action; the laid dice of the turn (a step's track warnings or limit that differ
are charged to the corner rule the track data says applies to that move in that gear); the
actions one side offers and the other does not (what makes the missing action legal, or the
rule the reference names when refusing the extra one); the first events that differ; the
state field that differs (:data:`STATE_RULES`); and last the turn's sequence. ``what``
names the difference without cars or spaces, so equal causes compare equal.
"""

from __future__ import annotations

from typing import Any

from heatcore.framework.conformance.binding import JSON, Attribution, Rejected
from heatcore.framework.conformance.causes import json_paths
from heatcore.framework.errors import RulesError
from heatcore.rallyman.actions import Focus, Go, Keep, Lay, Pit, Relay, Side, Stop
from heatcore.rallyman.track import Track, beside_map, load_track

#: The rule of a state field (list items written ``[]``).
STATE_RULES: dict[str, str] = {
    "round": "rgt.round.alternate", "order": "rgt.order.speed", "cursor": "rgt.turn.sequence",
    "bag": "rgt.ruling.damage-bag", "yellow": "rgt.damage.yellow-flag",
    "ranking": "rgt.finish.end", "over": "rgt.finish.end", "weather": "rgt.damage.weather",
    "turn": "rgt.turn.sequence", "turn.stage": "rgt.turn.sequence",
    "turn.mode": "rgt.roll.flat-out", "turn.results": "rgt.dice.warning-faces",
    "turn.fixed": "rgt.focus.cost", "turn.fix_next": "rgt.focus.spend",
    "turn.pool": "rgt.loc.relay", "turn.relay": "rgt.loc.relay",
    "turn.relay_results": "rgt.loc.relay", "turn.marker": "rgt.loc.table",
    "turn.loc_space": "rgt.loc.trigger", "turn.draws": "rgt.loc.table",
    "turn.plan": "rgt.move.forward", "turn.plan[].die": "rgt.dice.gear",
    "turn.plan[].gear": "rgt.dice.gear-step", "turn.plan[].brakes": "rgt.dice.brake",
    "turn.plan[].boosts": "rgt.dice.boost", "turn.plan[].to": "rgt.move.forward",
    "turn.plan[].finish": "rgt.finish.end",
    "cars[].space": "rgt.move.forward", "cars[].laps": "rgt.finish.end",
    "cars[].gear": "rgt.end.marker", "cars[].colour": "rgt.round.marker-colour",
    "cars[].where": "rgt.loc.double-zero", "cars[].tyres": "rgt.pit.tyres",
    "cars[].focus": "rgt.focus.gain", "cars[].tokens": "rgt.ruling.damage-bag",
    "cars[].side": "rgt.loc.double-zero", "cars[].pit_lane": "rgt.pit.conditions",
}

#: Fields of a laid step that the track decides (charged to a corner rule).
TRACK_FIELDS = ("track_warnings", "overspeed")

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

#: The rule that makes an action of a kind legal (charged when an engine does not offer it).
ACTION_RULES: dict[type, str] = {
    Lay: "rgt.move.forward", Relay: "rgt.loc.relay", Keep: "rgt.loc.relay",
    Focus: "rgt.focus.cost", Stop: "rgt.roll.one-by-one", Go: "rgt.turn.sequence",
    Pit: "rgt.pit.conditions", Side: "rgt.loc.double-zero",
}


class _Found:
    """An ordered set of rule IDs."""

    def __init__(self) -> None:
        self.rules: list[str] = []

    def add(self, *ids: str) -> None:
        self.rules.extend(i for i in ids if i and i not in self.rules)


def paths(want: JSON, got: JSON) -> list[str]:
    """The differing paths of two Rallyman GT states
    (:func:`~heatcore.framework.conformance.causes.json_paths`): lists of objects of the same length
    item by item (``cars[]``, ``turn.plan[]``)."""
    return json_paths(want, got, itemised=_same_shape_objects)


def _same_shape_objects(_path: str, want: list[JSON], got: list[JSON]) -> bool:
    return len(want) == len(got) and all(isinstance(x, dict) for x in want + got)


def state_field(path: str) -> str:
    """The field of :data:`STATE_RULES` that holds a differing state path (``bag.yellow``:
    ``bag``); '' when none."""
    while path and path not in STATE_RULES:
        path = path.rpartition(".")[0]
    return path


def state_rule(path: str) -> str:
    """The rule of a differing state path ('' when none)."""
    return STATE_RULES.get(state_field(path), "")


def corner_rules(track: Track, src: str, dst: str, gear: int) -> list[str]:
    """The corner rules the track data applies to a car moving ``src`` -> ``dst`` in
    ``gear``: the ones that bite first (a limit exceeded, a warning added), then the rest."""
    move = track.move(src, dst)
    if move is None:
        return ["rgt.move.forward"]
    biting, present = _Found(), _Found()
    if move.entry_warning or move.exit_warning:
        biting.add("rgt.corner.steep-warning")
    if move.exit_limit is not None:
        (biting if gear > move.exit_limit else present).add("rgt.corner.steep-exit")
    corner = track.spaces[dst].corner
    if corner is not None:
        limit = corner.limit
        if move.kind == "straight" and move.entry_limit is not None:
            limit = move.entry_limit
            (biting if gear > limit else present).add("rgt.corner.steep-entry")
        elif move.kind == "diagonal" and corner.kind == "steep":
            present.add("rgt.corner.steep-diagonal")
        kind = f"rgt.corner.{'standard' if corner.kind == 'steep' else corner.kind}"
        if gear > limit or (corner.kind == "dangerous" and gear == corner.limit):
            biting.add(kind)
        else:
            present.add(kind)
    biting.add(*present.rules)
    return biting.rules or ["rgt.move.forward"]


def _track(state: JSON) -> Track | None:
    try:
        return load_track(str(state["track"]))
    except (RulesError, KeyError, TypeError, OSError):
        return None


def _steps(state: JSON, field: str) -> list[dict[str, Any]]:
    turn = state.get("turn") if isinstance(state, dict) else None
    steps = turn.get(field) if isinstance(turn, dict) else None
    return [s for s in steps if isinstance(s, dict)] if isinstance(steps, list) else []


def step_rules(before: JSON, want: JSON, got: JSON) -> list[str]:
    """Corner rules of the first laid (or re-laid) step whose track verdict differs."""
    track = _track(want)
    turn = want.get("turn") if isinstance(want, dict) else None
    if track is None or not isinstance(turn, dict):
        return []
    for field in ("plan", "relay"):
        ours, theirs = _steps(want, field), _steps(got, field)
        at = str(turn.get("start"))
        for a, b in zip(ours, theirs, strict=False):
            if any(a.get(f) != b.get(f) for f in TRACK_FIELDS) and a.get("to") == b.get("to"):
                return corner_rules(track, at, str(a.get("to")), int(a.get("gear", 0)))
            at = str(a.get("to"))
    return []


def legal_rules(binding: Any, state: JSON, want: set[str], got: set[str]) -> list[str]:
    """Rules behind differing legal actions: what makes each missing action legal (see
    :func:`action_rules`), then what refuses each extra one (the reference's refusal, after
    the overtaking rule when the extra die enters a space beside another car)."""
    from heatcore.rallyman.engine import check_action
    from heatcore.rallyman.notation import parse_action

    found = _Found()
    value = binding.parse(state)
    for text in sorted(want - got):
        found.add(*action_rules(value, text))
    for text in sorted(got - want):
        try:
            action = parse_action(text)
            if isinstance(action, Lay) and _beside_car(value, action.to):
                found.add("rgt.move.overtake-gear")
            check_action(value, action)
        except RulesError as error:
            found.add(error.rule)
    return found.rules


def action_rules(state: Any, text: str) -> list[str]:
    """The rules that make an action legal in ``state``, most telling first: for a laid die,
    the die's own kind (coast, brake, boost), the corner it meets, overtaking; for a re-laid
    die, the corner it meets; else the action kind's rule."""
    from heatcore.rallyman.notation import parse_action

    try:
        action = parse_action(text)
    except RulesError:
        return []
    found = _Found()
    step = _step_of(state, action)
    if isinstance(action, Lay) and step is not None:
        if action.die == "C":
            found.add("rgt.dice.coast")
        if step.brakes:
            found.add("rgt.dice.brake")
        if step.boosts:
            found.add("rgt.dice.boost")
    if step is not None and (step.overspeed or step.track_warnings):
        found.add(*corner_rules(state.track, _step_start(state, action), step.to, step.gear))
    if isinstance(action, Lay) and _beside_car(state, action.to):
        found.add("rgt.move.overtake-gear")
    found.add(ACTION_RULES.get(type(action), ""))
    return found.rules


def _beside_car(state: Any, space: str) -> bool:
    """Whether another car stands beside ``space``."""
    turn = state.turn
    near = beside_map(state.track, state.options.beside)[space]
    return any(c.where == "track" and c.space in near
               for i, c in enumerate(state.cars) if turn is None or i != turn.car)


def _step_start(state: Any, action: Any) -> str:
    from heatcore.rallyman.planning import path_end

    turn = state.turn
    return str(path_end(turn, turn.relay if isinstance(action, Relay) else turn.plan)[0])


def _step_of(state: Any, action: Any) -> Any:
    """The reference's step for a lay or re-lay action (None otherwise)."""
    from heatcore.rallyman import control
    from heatcore.rallyman.planning import next_steps

    turn = state.turn
    if turn is None:
        return None
    if isinstance(action, Lay) and turn.stage == "plan":
        return next((s for s in next_steps(state, turn)
                     if (s.die, s.to) == (action.die, action.to)), None)
    if isinstance(action, Relay) and turn.stage == "relay":
        return next((s for a, s, _ in control.relay_options(state, turn) if a == action), None)
    return None


def event_rules(want: list[JSON], got: list[JSON]) -> tuple[list[str], str] | None:
    """Rules and phrase where two event lists part (None when equal)."""
    k = next((i for i, (a, b) in enumerate(zip(want, got, strict=False)) if a != b),
             min(len(want), len(got)))
    if k == len(want) == len(got):
        return None
    found = _Found()
    kinds = []
    for ev in (want[k] if k < len(want) else None, got[k] if k < len(got) else None):
        if isinstance(ev, dict):
            found.add(*EVENT_RULES.get(str(ev.get("kind")), ()))
            kinds.append(str(ev.get("kind")))
    if len(kinds) == 2 and kinds[0] == kinds[1]:
        a, b = want[k], got[k]
        fields = sorted(f for f in set(a) | set(b) if a.get(f) != b.get(f) and f != "car")
        return found.rules, f"`{kinds[0]}.{(fields or ['?'])[0]}` differs"
    if len(kinds) == 2:
        return found.rules, f"`{kinds[0]}` expected, got `{kinds[1]}`"
    side = "omits" if k < len(want) else "emits an extra"
    return found.rules, f"{side} `{kinds[0] if kinds else '?'}`"


def attribute(binding: Any, check: str, state: JSON, action: str | None, expected: JSON,
              actual: JSON) -> Attribution:
    """The cause of a Rallyman GT divergence (see the module docstring)."""
    verb = action.split()[1] if action and len(action.split()) > 1 else "?"
    if check == "setup":
        return setup_attribution(expected, actual)
    if check == "legal" or "actions" in expected:
        want, got = set(expected.get("actions") or []), set(actual.get("actions") or [])
        rules = legal_rules(binding, state, want, got) or ["rgt.turn.sequence"]
        if want - got:
            kinds = sorted({f"`{a.split()[1]}`" for a in want - got if len(a.split()) > 1})
            return Attribution(rules, "does not offer legal " + ", ".join(kinds))
        kinds = sorted({f"`{a.split()[1]}`" for a in got - want if len(a.split()) > 1})
        return Attribution(rules, "offers " + ", ".join(kinds) + " the rules refuse")
    if "error" in expected:
        err = expected.get("error") or {}
        rules = [str(err["rule"])] if err.get("rule") else ["rgt.turn.sequence"]
        if "error" not in actual:
            return Attribution(rules, f"accepts `{verb}` the rules refuse")
        return Attribution(rules, f"refuses `{verb}` naming {(actual['error'] or {}).get('rule')}")
    if "error" in actual:
        try:
            rules = action_rules(binding.parse(state), action or "")
        except Rejected:
            rules = []
        # an engine that refuses a legal action for an inconsistent state names the rule it
        # found broken (InvalidState): that rule first
        named = (actual.get("error") or {}).get("rule")
        if (actual.get("error") or {}).get("kind") == "invalid-state" and \
                named in binding.rule_ids() and named not in rules:
            rules = [str(named), *rules]
        return Attribution(rules or ["rgt.turn.sequence"], f"refuses legal `{verb}`")
    if check == "load":
        return Attribution(["rgt.turn.sequence"], "refuses a valid state")
    want_state, got_state = expected.get("state"), actual.get("state")
    differing = paths(want_state, got_state)
    corner = step_rules(state, want_state, got_state)
    if corner:
        field = next(p for p in differing if p.split(".")[-1] in TRACK_FIELDS)
        return Attribution(corner, f"next state differs at `{field}`")
    want_events, got_events = expected.get("events"), actual.get("events")
    if isinstance(want_events, list) and isinstance(got_events, list):
        parted = event_rules(want_events, got_events)
        if parted is not None and parted[0]:
            return Attribution(*parted)
    found = _Found()
    for path in differing:
        found.add(state_rule(path))
    if found.rules:
        path = next(p for p in differing if state_rule(p) == found.rules[0])
        return Attribution(found.rules, f"next state differs at `{state_field(path)}`")
    return Attribution(["rgt.turn.sequence"], "differs")


def setup_attribution(expected: JSON, actual: JSON) -> Attribution:
    """The cause of a start state built from a setup that differs from the reference's (or
    a valid setup refused): the rules of the state fields that differ, else the race's
    start (``rgt.round.alternate``)."""
    if "error" in actual:
        return Attribution(["rgt.round.alternate"], "refuses a valid setup")
    differing = paths(expected.get("state"), actual.get("state"))
    found = _Found()
    for path in differing:
        found.add(state_rule(path))
    if not found.rules:
        return Attribution(["rgt.round.alternate"], "start state differs")
    path = next(p for p in differing if state_rule(p) == found.rules[0])
    return Attribution(found.rules, f"start state differs at `{state_field(path)}`")
