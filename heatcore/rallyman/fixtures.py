"""Rallyman GT fixtures: cases cut from seeded races, at least three per rule and ruling.

Each step of a seeded race is tagged with the rules it shows (read from the action, the
laid step and the events), and the first three distinct steps of each rule become cases in
the shared case format (``spec/schemas/case.schema.json``): the state before, the action,
the state and events after. Edge cases that a race's own choices seldom show are cut from
the same races' states (:data:`EDGES`): a lay refused by overtaking (as a rejection and as
the legal actions there) and a re-lay after a loss of control that changes the dice. Suites
are written to ``spec/rallyman/fixtures/<chapter>.json`` with ``"ruleset": "rallyman-gt"``.

``python -m heatcore.rallyman.fixtures generate`` rewrites them; ``check`` replays them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from heatcore.framework.conformance import SUITE_FORMAT
from heatcore.framework.errors import RulesError
from heatcore.framework.events import Event, event_to_dict
from heatcore.framework.files import write_atomic
from heatcore.rallyman.actions import (
    Action,
    Dice,
    Draw,
    Focus,
    Go,
    Keep,
    Lay,
    Pit,
    Relay,
    Roll,
    Side,
    Stop,
)
from heatcore.rallyman.control import relay_options
from heatcore.rallyman.driver import play, random_policy, sensible_policy
from heatcore.rallyman.engine import apply, legal_actions
from heatcore.rallyman.notation import parse_action, state_from_dict, state_to_dict
from heatcore.rallyman.options import Options
from heatcore.rallyman.order import order_key
from heatcore.rallyman.planning import car_dashboard, overtakes_refused
from heatcore.rallyman.setup import RaceSetup, random_setup
from heatcore.rallyman.spec import rules, spec_folder
from heatcore.rallyman.state import PLAN, RELAY, RaceState

PER_RULE = 3
DRAWN = {"gear": "rgt.damage.gear", "brake": "rgt.damage.brake", "coast": "rgt.damage.coast",
         "weather": "rgt.damage.weather", "yellow": "rgt.damage.yellow-flag",
         "green": "rgt.damage.green-flag"}


def _lay_tags(before: RaceState, action: Lay, after: RaceState) -> set[str]:
    turn, new = before.turn, after.turn
    assert turn is not None and new is not None
    step = new.plan[-1]
    tags = {"rgt.turn.sequence", "rgt.move.forward", "rgt.dice.dashboard",
            "rgt.move.one-car-per-space", "rgt.ruling.planning"}
    tags.add("rgt.dice.coast" if step.die == "C" else "rgt.dice.gear")
    if step.die != "C":
        tags.add("rgt.dice.gear-step")
    if step.brakes:
        tags.add("rgt.dice.brake")
        if not turn.plan:
            tags.add("rgt.ruling.first-die-brake")
    if step.boosts:
        tags.add("rgt.dice.boost")
    track = before.track
    at = turn.plan[-1].to if turn.plan else turn.start
    move = track.move(at, step.to)
    corner = track.spaces[step.to].corner
    if corner is not None and corner.kind != "steep" and step.gear >= corner.limit:
        tags.add(f"rgt.corner.{corner.kind}")
    src = track.spaces[at].corner
    steep = (corner is not None and corner.kind == "steep") or (src is not None
                                                                and src.kind == "steep")
    if steep and move is not None and move.kind == "diagonal":
        tags.add("rgt.corner.steep-diagonal")
    # dotted lines are tagged where they decide: over the line, within every other limit
    within = corner is None or step.gear <= corner.limit
    if move is not None and move.entry_limit is not None and move.entry_limit < step.gear \
            and within:
        tags.add("rgt.corner.steep-entry")
    if move is not None and move.exit_limit is not None and move.exit_limit < step.gear \
            and within and move.entry_limit is None:
        tags.add("rgt.corner.steep-exit")
    if move is not None and (move.entry_warning or move.exit_warning):
        tags.add("rgt.corner.steep-warning")
    others = [c for i, c in enumerate(before.cars) if i != turn.car and c.where == "track"]
    beside = [c for c in others if c.space in track.beside[step.to]]
    if beside:
        tags.add("rgt.move.overtake-gear")
        if before.yellow:
            tags.add("rgt.damage.yellow-flag")
    if len(beside) >= 2:
        tags.add("rgt.move.overtake-between")
    me = before.cars[turn.car]
    if "gear" in me.tokens:
        tags.add("rgt.ruling.gear-damage-die")
    board = car_dashboard(before, turn.car)
    if not board.coast or not board.brake or not board.gears:
        tags.add("rgt.damage.no-dice-left")
    return tags


def tags_of(before: RaceState, action: Action, after: RaceState,
            events: tuple[Event, ...]) -> set[str]:
    """The rules a step shows."""
    kinds = {e.kind for e in events}
    tags: set[str] = set()
    if isinstance(action, Lay):
        tags |= _lay_tags(before, action, after)
    elif isinstance(action, Go):
        tags |= {"rgt.roll.flat-out", "rgt.focus.gain"} if action.mode == "flat" \
            else {"rgt.roll.one-by-one", "rgt.turn.must-move"}
    elif isinstance(action, Focus):
        tags |= {"rgt.focus.spend", "rgt.focus.cost"}
        turn = before.turn
        if turn is not None and turn.plan[len(turn.results)].brakes:
            tags.add("rgt.focus.brake-group")
    elif isinstance(action, Dice):
        tags |= {"rgt.dice.warning-faces", "rgt.ruling.warning-faces", "rgt.ruling.dashboards"}
        turn = before.turn
        assert turn is not None
        tags.add("rgt.roll.flat-out" if turn.mode == "flat" else "rgt.roll.one-by-one")
        rolled = turn.plan[len(turn.results):len(turn.results) + len(action.results)]
        if any(s.track_warnings for s in rolled):
            tags.add("rgt.roll.track-warnings")
            if turn.fix_next:
                tags.add("rgt.focus.not-track")
        if "control-lost" in kinds:
            tags |= {"rgt.loc.trigger", "rgt.roll.flat-out-loc" if turn.mode == "flat"
                     else "rgt.roll.one-by-one-loc"}
    elif isinstance(action, Roll):
        turn = before.turn
        assert turn is not None
        tags.add("rgt.roll.one-by-one")
        if turn.fix_next:
            tags.add("rgt.focus.spend")
            if turn.plan[len(turn.results)].track_warnings:
                tags.add("rgt.focus.not-track")
    elif isinstance(action, Stop):
        tags |= {"rgt.roll.one-by-one", "rgt.end.marker"}
    elif isinstance(action, Keep | Relay):
        tags.add("rgt.loc.relay")
    elif isinstance(action, Side):
        tags.add("rgt.loc.double-zero")
    elif isinstance(action, Draw):
        tags |= {DRAWN[action.token], "rgt.ruling.damage-bag"}
    elif isinstance(action, Pit):
        tags.add("rgt.pit.conditions")
        if action.lane != "none":
            tags |= {f"rgt.pit.{action.lane}", "rgt.ruling.pit-exit"}
    if kinds & {"spin", "off-track"}:
        tags |= {"rgt.loc.table", "rgt.ruling.loc-table",
                 "rgt.loc.zero" if "spin" in kinds else "rgt.loc.double-zero"}
    if "turn-ended" in kinds:
        tags |= {"rgt.end.turn", "rgt.end.marker", "rgt.round.marker-colour"}
    if "round-started" in kinds:
        tags |= {"rgt.round.alternate", "rgt.order.speed"}
        gears = [c.gear for i, c in enumerate(after.cars) if i in after.order]
        if len(gears) != len(set(gears)):
            tags |= {"rgt.order.distance", "rgt.ruling.distance"}
        if -1 in gears and 0 in gears:
            tags.add("rgt.ruling.order-zero")
        keys = [order_key(after, i)[:2] for i in after.order]
        if len(keys) != len(set(keys)):
            tags.add("rgt.order.position")
    if "blocked" in kinds:
        tags |= {"rgt.move.blocked", "rgt.turn.must-move"}
    if "cannot-return" in kinds:
        tags.add("rgt.pit.blocked-return")
    if "back-on-track" in kinds:
        tags |= {"rgt.ruling.off-track-return", "rgt.loc.double-zero"}
    if "yellow-flag-lifted" in kinds:
        tags |= {"rgt.damage.yellow-flag", "rgt.ruling.yellow-flag-ends"}
    if "finished" in kinds:
        tags |= {"rgt.finish.end", "rgt.ruling.finished-cars"}
    return tags


def _case(rule: str, n: int, before: RaceState, action: Action, after: RaceState,
          events: tuple[Event, ...], source: str) -> dict[str, Any]:
    entry = rules()[rule]
    return {"id": f"{rule.removeprefix('rgt.')}.{n}",
            "description": f"{entry.title}: {action} (from a seeded race)",
            "rules": [rule] if entry.kind == "rule" else list(entry.refines[:1]) or [rule],
            "rulings": [rule] if entry.kind == "ruling" else [],
            "source": source, "state": state_to_dict(before),
            "expect": {"steps": [{"action": str(action), "state": state_to_dict(after),
                                  "events": [event_to_dict(e) for e in events]}]}}


def _refused_overtake(state: RaceState, n: int, source: str) -> list[dict[str, Any]]:
    """A lay refused by the overtaking rule in ``state``: a rejection case and a case of the
    legal actions there (none when no lay is refused so, or a yellow flag is out)."""
    turn = state.turn
    if turn is None or turn.stage != PLAN or state.yellow or state.is_chance():
        return []
    refused = overtakes_refused(state, turn)
    if not refused:
        return []
    lay, entry = refused[0], rules()["rgt.move.overtake-gear"]
    common = {"rules": ["rgt.move.overtake-gear"], "rulings": [], "source": source,
              "state": state_to_dict(state)}
    return [
        {"id": f"move.overtake-gear.refused.{n}",
         "description": f"{entry.title}: {lay} is refused, a car beside that space is in a "
                        "higher gear", **common,
         "expect": {"rejection": {"action": str(lay), "kind": "illegal-action",
                                  "rule": "rgt.move.overtake-gear"}}},
        {"id": f"move.overtake-gear.legal.{n}",
         "description": f"{entry.title}: the legal actions leave out {lay} (a car beside "
                        "that space is in a higher gear)", **common,
         "expect": {"legal": [str(a) for a in legal_actions(state)]}},
    ]


def _changed_relay(state: RaceState, n: int, source: str) -> list[dict[str, Any]]:
    """A re-lay in ``state`` that lays another die or another space than the planned step
    it replaces, as a step case (none when ``state`` awaits no re-lay or has none such)."""
    turn = state.turn
    if turn is None or turn.stage != RELAY:
        return []
    planned = turn.plan[len(turn.relay)] if len(turn.relay) < len(turn.plan) else None
    for action, step, _ in relay_options(state, turn):
        if planned is None or (step.die, step.to) != (planned.die, planned.to):
            after, events = apply(state, action)
            case = _case("rgt.loc.relay", n, state, action, after, events, source)
            case["id"] = f"loc.relay.changed.{n}"
            case["description"] = (f"{rules()['rgt.loc.relay'].title}: {action} lays the "
                                   "rolled dice otherwise than planned")
            return [case]
    return []


#: Edge cases cut from the states of seeded races (name, rule, cutter): ``PER_RULE`` states
#: of each, a cutter's cases from one state.
EDGES = (("refused-overtake", "rgt.move.overtake-gear", _refused_overtake),
         ("changed-relay", "rgt.loc.relay", _changed_relay))


def focused_policy(state: RaceState, legal: tuple[Action, ...], rng: random.Random) -> Action:
    """The sensible driver, but it spends focus whenever it can (fixtures need such turns)."""
    for action in legal:
        if isinstance(action, Focus):
            return action
    return sensible_policy(state, legal, rng)


def collect(seeds: range) -> dict[str, list[dict[str, Any]]]:
    """Up to ``PER_RULE`` cases for every rule and ruling from seeded races, and after them
    ``PER_RULE`` of each edge case (:data:`EDGES`) under its rule."""
    wanted = {e.id for e in rules()}
    found: dict[str, list[dict[str, Any]]] = {r: [] for r in wanted}
    edges: dict[str, list[list[dict[str, Any]]]] = {name: [] for name, _, _ in EDGES}
    for seed in seeds:
        rng = random.Random(seed)
        track = ("albert-park", "proving-ground")[seed % 2]
        policy = (sensible_policy, random_policy, focused_policy)[seed % 3]
        options = Options(gear3_warnings="1") if seed % 7 == 6 else Options()
        setup = random_setup(track, 2 + seed % 5, rng, 1, options)
        if seed % 4 == 3:
            setup = RaceSetup(setup.track, setup.players, setup.laps, setup.grid,
                              car_class="GT5", options=options)
        index = [0]

        def watch(before: RaceState, action: Action, after: RaceState,
                  events: tuple[Event, ...], seed: int = seed,
                  index: list[int] = index) -> None:
            index[0] += 1
            for rule in sorted(tags_of(before, action, after, events)):
                if len(found[rule]) < PER_RULE:
                    found[rule].append(_case(rule, len(found[rule]) + 1, before, action,
                                             after, events, f"race:{seed}:{index[0]}"))
            for name, _, cut in EDGES:
                if len(edges[name]) < PER_RULE:
                    cut_cases = cut(before, len(edges[name]) + 1, f"race:{seed}:{index[0]}")
                    if cut_cases:
                        edges[name].append(cut_cases)

        play(setup, policy, rng, watch)
        if all(len(v) >= PER_RULE for v in found.values()) \
                and all(len(v) >= PER_RULE for v in edges.values()):
            break
    for name, rule, _ in EDGES:
        found[rule] += [case for cut in edges[name] for case in cut]
    return found


def suites(found: dict[str, list[dict[str, Any]]]) -> dict[str, dict[str, Any]]:
    """Cases grouped by chapter (rulings in their own suite)."""
    out: dict[str, dict[str, Any]] = {}
    rs = rules()
    for chapter in [*rs.chapters, None]:
        ids = chapter.rule_ids if chapter else tuple(e.id for e in rs if e.kind == "ruling")
        name = chapter.id.removeprefix("rgt.") if chapter else "rulings"
        cases = [c for rule in ids for c in found.get(rule, [])]
        out[name] = {"format": SUITE_FORMAT, "ruleset": "rallyman-gt", "cases": cases}
    return out


def folder() -> Path:
    """``spec/rallyman/fixtures``."""
    return spec_folder() / "fixtures"


def run_case(case: dict[str, Any]) -> str | None:
    """Replay one case against the engine: None if it matches, else what differs."""
    state = state_from_dict(case["state"])
    expect = case["expect"]
    if "legal" in expect:
        got = [str(a) for a in legal_actions(state)]
        return None if sorted(got) == sorted(expect["legal"]) else "legal actions differ"
    if "rejection" in expect:
        want = expect["rejection"]
        try:
            apply(state, parse_action(want["action"]))
        except RulesError as error:
            if (error.kind, error.rule) != (want["kind"], want.get("rule", error.rule)):
                return f"{want['action']}: refused as {error.kind} naming {error.rule}"
            return None
        return f"{want['action']}: accepted"
    for step in expect["steps"]:
        try:
            state, events = apply(state, parse_action(step["action"]))
        except RulesError as error:
            return f"{step['action']}: {error}"
        if state_to_dict(state) != step["state"]:
            return f"{step['action']}: state differs"
        if [event_to_dict(e) for e in events] != step["events"]:
            return f"{step['action']}: events differ"
    return None


def cases() -> Iterator[dict[str, Any]]:
    """Every shipped case."""
    for path in sorted(folder().glob("*.json")):
        yield from json.loads(path.read_text(encoding="utf-8"))["cases"]


def main(argv: list[str] | None = None) -> int:
    """``generate`` or ``check`` the fixtures."""
    parser = argparse.ArgumentParser(prog="heatcore.rallyman.fixtures")
    parser.add_argument("command", choices=["generate", "check"])
    parser.add_argument("--seeds", type=int, default=400)
    args = parser.parse_args(argv)
    if args.command == "generate":
        found = collect(range(args.seeds))
        for name, suite in suites(found).items():
            write_atomic(folder() / f"{name}.json", json.dumps(suite, indent=1) + "\n")
        short = sorted(r for r, v in found.items() if len(v) < PER_RULE)
        print(f"{sum(len(v) for v in found.values())} cases"
              + (f"; fewer than {PER_RULE} for: {', '.join(short)}" if short else ""),
              file=sys.stderr)
        return 0
    bad = [(c["id"], why) for c in cases() if (why := run_case(c)) is not None]
    for ident, why in bad:
        print(f"{ident}: {why}")
    print(f"{sum(1 for _ in cases())} cases, {len(bad)} failed", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
