"""An independent checker of Rallyman GT races, written apart from the engine.

:class:`Checker` reads the printed data itself (``spec/rallyman/tracks/*.json``,
``components.toml`` and the switches' defaults in ``rulings.toml``, with plain ``json`` and
``tomllib``) and judges plain JSON: the canonical state before and after each step, the
action string, the events and the legal actions offered. Each finding names its rule.

Per state: one car per space; damage tokens conserved between bag, dashboards and the
track's yellow flags; gear markers show the round's colour until their car has played and
the next round's after; the cars still to play in speed > distance > lane order and every
racing car in the round's order; the laid dice: each a forward move of the track from the
one before, a gear die one step from the last gear or paid with brake/boost dice, no gear
die twice, within the dashboard's dice, and the track's warnings and limits on it restated
from the corner rules. Per step: the legal actions against its own generator (laying dice,
rolling, focus, stopping, re-laying the rolled dice after a loss of control, the side after
00, pit lanes; chance points offer none); cars only move forward; the
warnings of the rolled dice and the track against the dashboard's limit decide the loss of
control; focus spent is 1 + 2 + ... + k for the k-th die fixed in the turn, focus earned
flat out is one per die laid, and nothing else changes focus; a round's whole order at its
start; a pit stop offered only when its conditions hold.

What it is independent of: every rule module of ``heatcore.rallyman`` (``moves``,
``planning``, ``control``, ``rounds``, ``order``, ``components``, ``track``, ``validity``,
``engine``), their tables and the engine's track object; it restates each rule from seed 004
and the rulings. It shares with the engine the canonical JSON of states and actions (the
format it reads) and the rulings' decisions (the printed numbers heatcore chose).
"""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Any

from heatcore.rallyman.spec import spec_folder

JSON = Any
WHITE, BLACK = "white", "black"
TOKENS = ("gear", "brake", "coast", "weather", "yellow", "green")
DIE_FACES = {"C": "coast", "B": "brake", "U": "boost"}


@dataclass(frozen=True)
class Finding:
    """One broken rule: its ID and what was seen."""

    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


@dataclass(frozen=True)
class Printed:
    """A track as printed: spaces, moves, tiles; with who is beside whom and the inside lane
    of the next corner, worked out here from the spaces' lanes and spans."""

    spaces: dict[str, dict[str, Any]]
    moves: dict[tuple[str, str], dict[str, Any]]
    ahead: dict[str, tuple[str, ...]]
    lap: int
    beside: dict[str, frozenset[str]]
    inside: dict[str, int]


def _centre2(space: dict[str, Any]) -> int:
    return int(space["span"][0]) + int(space["span"][1])


def _touch(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Two spaces side by side: adjacent lanes and overlapping spans."""
    adjacent = max(a["lanes"]) + 1 == min(b["lanes"]) or max(b["lanes"]) + 1 == min(a["lanes"])
    return bool(adjacent and a["span"][0] < b["span"][1] and b["span"][0] < a["span"][1])


@cache
def printed_track(track: str) -> Printed:
    """``spec/rallyman/tracks/<track>.json`` read with plain json."""
    data = json.loads((spec_folder() / "tracks" / f"{track}.json").read_text(encoding="utf-8"))
    spaces = {s["id"]: s for s in data["spaces"]}
    moves = {(m["from"], m["to"]): m for m in data["moves"]}
    ahead: dict[str, list[str]] = {}
    for src, dst in moves:
        ahead.setdefault(src, []).append(dst)
    corners = sorted((_centre2(s), s["corner"]["inside"]) for s in spaces.values()
                     if s.get("corner"))
    inside = {}
    for sid, s in spaces.items():
        later = [lane for c, lane in corners if c > _centre2(s)]
        inside[sid] = later[0] if later else corners[0][1]
    beside = {a: frozenset(b for b in spaces if _touch(spaces[a], spaces[b])) for a in spaces}
    return Printed(spaces, moves, {k: tuple(v) for k, v in ahead.items()},
                   int(data["lap_progress"]), beside, inside)


@cache
def printed_components() -> dict[str, Any]:
    """``components.toml``."""
    return tomllib.loads((spec_folder() / "components.toml").read_text(encoding="utf-8"))


@cache
def switch_defaults() -> dict[str, str]:
    """Each switch's default (heatcore's ruling), from ``rulings.toml``."""
    data = tomllib.loads((spec_folder() / "rulings.toml").read_text(encoding="utf-8"))
    return {r["switch"]["name"]: r["switch"]["default"] for r in data["ruling"] if "switch" in r}


def gear_of(text: Any) -> int:
    """A gear marker: ``"00"`` is -1 (below 0), else the number."""
    return -1 if str(text) == "00" else int(text)


def number(car_id: str) -> int:
    """``P3`` -> 2."""
    return int(car_id[1:]) - 1


def corner_verdict(track: Printed, src: str, dst: str, gear: int) -> tuple[int, bool]:
    """(warnings the track adds, whether a limit is exceeded) for ``src`` -> ``dst`` in
    ``gear``, by seed 004's corner rules: a corner's number, or a dotted line's number when
    entering straight across it; an exit dotted line limits the next space; a dangerous
    corner at exactly its number and each dotted line with a warning symbol add a warning."""
    move = track.moves[(src, dst)]
    warnings = int(move.get("entry_warning", 0)) + int(move.get("exit_warning", 0))
    over = "exit_limit" in move and gear > move["exit_limit"]
    corner = track.spaces[dst].get("corner")
    if corner:
        limit = move["entry_limit"] if move["kind"] == "straight" and "entry_limit" in move \
            else corner["limit"]
        over = over or gear > limit
        if corner["kind"] == "dangerous" and gear == corner["limit"] and not gear > limit:
            warnings += 1
    return warnings, over


def _takes(pool: Counter[str], kind: str, need: int) -> list[tuple[str, ...]]:
    """Ways to take ``need`` rolled dice of ``kind`` (B or U) from ``pool``: by how many of
    them show a warning."""
    safe, warn = pool[kind], pool[kind + "!"]
    return [(kind,) * (need - k) + (kind + "!",) * k
            for k in range(max(0, need - safe), min(need, warn) + 1)]


def corner_rule(track: Printed, src: str, dst: str, limit: bool) -> str:
    """The corner rule behind a verdict on ``src`` -> ``dst`` that differs: in its limit
    (``limit``) or in its warnings."""
    move = track.moves[(src, dst)]
    corner = track.spaces[dst].get("corner") or {}
    if not limit:
        if move.get("entry_warning") or move.get("exit_warning"):
            return "rgt.corner.steep-warning"
        return "rgt.corner.dangerous"
    if "exit_limit" in move:
        return "rgt.corner.steep-exit"
    if move["kind"] == "straight" and "entry_limit" in move:
        return "rgt.corner.steep-entry"
    if corner.get("kind") == "steep":
        return "rgt.corner.steep-diagonal"
    return f"rgt.corner.{corner.get('kind', 'standard')}"


def gear_step_ok(current: int, gear: int, brakes: int, boosts: int) -> bool:
    """Seed 004: a gear die within one gear of the last (from 0 or 00: of 0), two above with
    one boost die, or k >= 2 below with k - 1 brake dice."""
    change = gear - max(current, 0)
    if -1 <= change <= 1:
        return brakes == 0 and boosts == 0
    if change == 2:
        return brakes == 0 and boosts == 1
    return change < -1 and brakes == -change - 1 and boosts == 0


class Checker:
    """Checks states and steps of Rallyman GT races given as canonical JSON."""

    def __init__(self) -> None:
        comp = printed_components()
        self.full_bag = {t: int(comp["bag"][t]) for t in TOKENS}
        self.limit = int(comp["limits"]["warnings"])

    # ------------------------------------------------------------------ shared readings

    def options(self, state: JSON) -> dict[str, str]:
        """The race's switches, defaults filled in."""
        return {**switch_defaults(), **(state.get("options") or {})}

    def dashboard(self, state: JSON, car: JSON) -> tuple[tuple[int, ...], int, int, int, int]:
        """(gear dice, coast, brake, boost dice, warning limit) of ``car`` this turn."""
        comp = printed_components()
        gear, coast, brake, boost = comp["dashboards"][car["class"]][car["tyres"]][
            state["weather"]]
        tokens = Counter(car["tokens"])
        kept = max(0, gear - tokens["gear"])
        gears = tuple(range(1, kept + 1)) if self.options(state)["gear_damage_removes"] == \
            "highest" else tuple(range(gear - kept + 1, gear + 1))
        limit = self.limit
        if comp["limits"]["suited"][car["tyres"]] != state["weather"]:
            limit = min(limit, int(self.options(state)["mismatch_limit"]))
        return (gears, max(0, coast - tokens["coast"]), max(0, brake - tokens["brake"]), boost,
                limit)

    def key(self, state: JSON, index: int, car: JSON) -> tuple[int, int, int, int]:
        """Turn-order key (smaller plays first): speed, distance, lane, car number."""
        track = printed_track(state["track"])
        space = track.spaces[car["space"]]
        distance = int(car["laps"]) * 2 * track.lap + _centre2(space)
        gap = min(abs(lane - track.inside[car["space"]]) for lane in space["lanes"])
        return (-gear_of(car["gear"]), -distance, gap, index)

    # ------------------------------------------------------------------ states

    def check_state(self, state: JSON) -> list[Finding]:
        """Every rule a single state breaks."""
        out: list[Finding] = []
        cars = state["cars"]
        on_track = [c["space"] for c in cars if c["where"] == "track"]
        if len(on_track) != len(set(on_track)):
            out.append(Finding("rgt.move.one-car-per-space", f"two cars on a space: {on_track}"))
        held = Counter(t for c in cars for t in c["tokens"])
        held["yellow"] += len(state["yellow"])
        for t in TOKENS:
            if state["bag"][t] < 0 or state["bag"][t] + held[t] != self.full_bag[t]:
                out.append(Finding("rgt.ruling.damage-bag",
                                   f"{t}: bag {state['bag'][t]} + held {held[t]} "
                                   f"!= {self.full_bag[t]}"))
        if state["over"]:
            return out
        colour = WHITE if state["round"] % 2 == 1 else BLACK
        other = BLACK if colour == WHITE else WHITE
        order, cursor = state["order"], state["cursor"]
        played = set(order[:cursor])
        for c in cars:
            if c["where"] == "finished":
                continue
            if c["id"] not in order:
                out.append(Finding("rgt.turn.sequence", f"{c['id']} is not in the order"))
            elif c["colour"] != (other if c["id"] in played else colour):
                out.append(Finding("rgt.round.marker-colour",
                                   f"{c['id']} shows {c['colour']} in a {colour} round"))
        waiting = order[cursor + 1:]
        by_id = {c["id"]: (number(c["id"]), c) for c in cars}
        keys = [self.key(state, *by_id[i]) for i in waiting]
        if keys != sorted(keys):
            out.append(Finding("rgt.order.speed", f"cars still to play out of order: {waiting}"))
        if state.get("turn") and state["turn"]["stage"] == "plan":
            out += self.check_plan(state)
        return out

    def check_plan(self, state: JSON) -> list[Finding]:
        """The laid dice of the turn: forward moves, gear steps, dice available, track
        verdicts."""
        turn = state["turn"]
        track = printed_track(state["track"])
        car = state["cars"][number(turn["car"])]
        gears, coast, brake, boost, _ = self.dashboard(state, car)
        out: list[Finding] = []
        at, current = turn["start"], gear_of(turn["start_gear"])
        dice: Counter[str] = Counter()
        for step in turn["plan"]:
            where = f"{turn['car']} {step['die']} {at}->{step['to']}"
            if (at, step["to"]) not in track.moves:
                out.append(Finding("rgt.move.forward", f"{where} is not a move of the track"))
                break
            dice[step["die"]] += 1
            dice["B"] += step["brakes"]
            dice["U"] += step["boosts"]
            if step["die"] == "C":
                if step["gear"] != current or current < 1:
                    out.append(Finding("rgt.dice.coast", f"{where}: coast in {step['gear']}"))
            elif not gear_step_ok(current, step["gear"], step["brakes"], step["boosts"]) or \
                    step["die"] != f"G{step['gear']}":
                out.append(Finding("rgt.dice.gear-step", f"{where} from gear {current}"))
            verdict = corner_verdict(track, at, step["to"], step["gear"])
            if verdict != (step["track_warnings"], step["overspeed"]):
                out.append(Finding(corner_rule(track, at, step["to"],
                                               verdict[1] != step["overspeed"]),
                                   f"{where} in {step['gear']}: track says {verdict}, "
                                   f"laid {(step['track_warnings'], step['overspeed'])}"))
            at, current = step["to"], step["gear"]
        extra = [d for d, n in dice.items() if n > 1 and d.startswith("G")]
        if extra or any(d.startswith("G") and int(d[1:]) not in gears for d in dice) or \
                dice["C"] > coast or dice["B"] > brake or dice["U"] > boost:
            out.append(Finding("rgt.dice.dashboard", f"{turn['car']} laid {dict(dice)}"))
        return out

    # ------------------------------------------------------------------ legal actions

    def legal(self, state: JSON) -> set[str] | None:
        """The legal actions by this checker's own generator (None where it has none)."""
        turn = state.get("turn")
        if state["over"] or not turn or turn["stage"] in ("dice", "draw"):
            return set()
        me = turn["car"]
        car = state["cars"][number(me)]
        if turn["stage"] == "plan":
            out = {f"{me} lay {die} {dst}" for die, _, dst in self.lays(state)}
            if turn["plan"]:
                out |= {f"{me} go one", f"{me} go flat"}
            return out
        if turn["stage"] == "roll":
            out = {f"{me} roll"}
            if turn["results"]:
                out.add(f"{me} stop")
            rolled = len(turn["results"])
            if turn["mode"] == "one" and not turn["fix_next"] and rolled < len(turn["plan"]):
                step = turn["plan"][rolled]
                n = 1 + step["brakes"] + step["boosts"]
                if car["focus"] >= sum(range(turn["fixed"] + 1, turn["fixed"] + n + 1)):
                    out.add(f"{me} focus")
            return out
        if turn["stage"] == "relay":
            out = {f"{me} relay {' '.join(dice)} {dst}" for dice, dst in self.relays(state)}
            return out | ({f"{me} keep"} if not turn["relay"] else set())
        if turn["stage"] == "side":
            return {f"{me} off 1", f"{me} off 3"}
        if turn["stage"] == "pit":
            return {f"{me} pit {lane}" for lane in ("none", "tyres", "repair", "both")}
        return None

    def lays(self, state: JSON) -> list[tuple[str, int, str]]:
        """(die, gear, space) of every die the acting car may lay next."""
        turn = state["turn"]
        me = number(turn["car"])
        car = state["cars"][me]
        gears, coast, brake, boost, _ = self.dashboard(state, car)
        plan = turn["plan"]
        used = {s["die"] for s in plan}
        coast -= sum(1 for s in plan if s["die"] == "C")
        brake -= sum(s["brakes"] for s in plan)
        boost -= sum(s["boosts"] for s in plan)
        at = plan[-1]["to"] if plan else turn["start"]
        current = plan[-1]["gear"] if plan else gear_of(turn["start_gear"])
        jumps = self.options(state)["first_die_jumps"] == "yes" or bool(plan)
        choices = []
        for g in gears:
            change = g - max(current, 0)
            need_b, need_u = max(0, -change - 1), 1 if change == 2 else 0
            if f"G{g}" in used or change > 2 or ((need_b or need_u) and not jumps):
                continue
            if need_b <= brake and need_u <= boost:
                choices.append((f"G{g}", g))
        if coast > 0 and current >= 1:
            choices.append(("C", current))
        taken = {s["to"] for s in plan} | {turn["start"]}
        return [(die, g, dst) for die, g in choices for dst in self._entries(state, at, g, taken)]

    def relays(self, state: JSON) -> list[tuple[tuple[str, ...], str]]:
        """(dice, space) of every rolled die the car may re-lay next after a loss of
        control: a gear or coast die from the rolled dice (results kept) with the brake or
        boost dice its gear change needs, on a space it may enter, such that the re-laid
        dice can still make it lose control (seed 004: control is lost again)."""
        turn = state["turn"]
        me = number(turn["car"])
        limit = self.dashboard(state, state["cars"][me])[4]
        pool = Counter(turn["pool"])
        warnings = 0
        at, current = turn["start"], gear_of(turn["start_gear"])
        for step, flags in zip(turn["relay"], turn["relay_results"], strict=True):
            dice = [step["die"], *["B"] * step["brakes"], *["U"] * step["boosts"]]
            pool -= Counter(d + ("!" if f == "!" else "") for d, f in zip(dice, flags,
                                                                          strict=True))
            warnings += flags.count("!") + int(step["track_warnings"])
            at, current = step["to"], step["gear"]
        taken = frozenset({s["to"] for s in turn["relay"]} | {turn["start"]})
        memo: dict[tuple[Any, ...], bool] = {}

        def can_lose(at: str, current: int, pool: Counter[str], warnings: int,
                     taken: frozenset[str]) -> bool:
            key = (at, current, tuple(sorted(pool.elements())), warnings, taken)
            if key not in memo:
                memo[key] = any(
                    lost or can_lose(dst, gear, pool - Counter(dice), total, taken | {dst})
                    for dice, dst, gear, total, lost in self._relay_moves(
                        state, at, current, False, pool, warnings, taken, limit))
            return memo[key]

        return [(dice, dst) for dice, dst, gear, total, lost in self._relay_moves(
            state, at, current, not turn["relay"], pool, warnings, taken, limit)
            if lost or can_lose(dst, gear, pool - Counter(dice), total, taken | {dst})]

    def _relay_moves(self, state: JSON, at: str, current: int, first: bool,
                     pool: Counter[str], warnings: int, taken: frozenset[str], limit: int,
                     ) -> list[tuple[tuple[str, ...], str, int, int, bool]]:
        """(dice, space, gear, warnings after, control lost there) of each die from ``pool``
        that may be re-laid next from ``at`` in gear ``current``."""
        track = printed_track(state["track"])
        jumps = self.options(state)["first_die_jumps"] == "yes" or not first
        out = []
        for token in sorted(t for t in pool if pool[t] > 0 and t[0] in "GC"):
            if token[0] == "C":
                if current < 1:
                    continue
                gear, need_b, need_u = current, 0, 0
            else:
                gear = int(token[1:].rstrip("!"))
                change = gear - max(current, 0)
                need_b, need_u = max(0, -change - 1), 1 if change == 2 else 0
                if change > 2 or ((need_b or need_u) and not jumps):
                    continue
            for brakes in _takes(pool, "B", need_b):
                for boosts in _takes(pool, "U", need_u):
                    dice = (token, *brakes, *boosts)
                    rolled = sum(d.endswith("!") for d in dice)
                    for dst in self._entries(state, at, gear, taken):
                        added, over = corner_verdict(track, at, dst, gear)
                        total = warnings + rolled + added
                        out.append((dice, dst, gear, total, over or total >= limit))
        return out

    def _entries(self, state: JSON, at: str, gear: int, taken: frozenset[str] | set[str],
                 ) -> list[str]:
        """Spaces ahead of ``at`` the acting car may enter in ``gear``: free, not yet on its
        path, and beside another car only at that car's gear or higher (no car at all under a
        yellow flag; cars at 0 or 00 do not count), unless already beside it."""
        track = printed_track(state["track"])
        me = state["turn"]["car"]
        others = [(c["space"], gear_of(c["gear"])) for c in state["cars"]
                  if c["id"] != me and c["where"] == "track"]
        out = []
        for dst in track.ahead[at]:
            if dst in taken or any(dst == sp for sp, _ in others):
                continue
            if any(sp in track.beside[dst] and sp not in track.beside[at] and og >= 1
                   and (state["yellow"] or gear < og) for sp, og in others):
                continue
            out.append(dst)
        return out

    # ------------------------------------------------------------------ steps

    def check_step(self, before: JSON, action: str, after: JSON, events: list[JSON],
                   legal: list[str] | None = None) -> list[Finding]:
        """Every rule a step breaks (``legal``: the actions the engine offered in
        ``before``)."""
        out = self.check_state(after)
        if legal is not None:
            want = self.legal(before)
            if want is not None and want != set(legal):
                out.append(Finding(self._legal_rule(before, want ^ set(legal)),
                                   f"legal: missing {sorted(want - set(legal))[:4]}, "
                                   f"extra {sorted(set(legal) - want)[:4]}"))
        out += self._moves(before, after)
        out += self._focus(before, action, after)
        out += self._warnings(before, action, events)
        if after["round"] != before["round"] and not after["over"]:
            out += self._round_order(before, after, events)
        turn = after.get("turn")
        if turn and turn["stage"] == "pit" and not self._may_pit(after, turn["car"]):
            out.append(Finding("rgt.pit.conditions", f"{turn['car']} offered a pit stop"))
        return out

    def _moves(self, before: JSON, after: JSON) -> list[Finding]:
        """Cars on the track before and after only move forward along the track (the acting
        car from where its turn started: re-laid dice after a loss of control place it again
        from there)."""
        out = []
        track = printed_track(before["track"])
        turn = before.get("turn") or {}
        for a, b in zip(before["cars"], after["cars"], strict=True):
            if a["where"] != "track" or b["where"] not in ("track", "finished") or \
                    a["space"] == b["space"]:
                continue
            origin, laps = a["space"], a["laps"]
            if a["id"] == turn.get("car"):
                origin, laps = turn["start"], turn["start_laps"]
            frontier: set[str] = {origin}
            seen: set[str] = set()
            for _ in range(12):
                frontier = {d for s in frontier for d in track.ahead[s]} - seen
                seen |= frontier
            if b["space"] not in seen or not 0 <= b["laps"] - laps <= 1:
                out.append(Finding("rgt.move.forward",
                                   f"{a['id']} went {origin} -> {b['space']}"))
        return out

    def _focus(self, before: JSON, action: str, after: JSON) -> list[Finding]:
        """Focus spent 1 + 2 + ... per die fixed in the turn; earned one per die flat out."""
        words = action.split()
        out = []
        for a, b in zip(before["cars"], after["cars"], strict=True):
            change = b["focus"] - a["focus"]
            want = 0
            turn = before.get("turn")
            if turn and a["id"] == words[0] == turn["car"]:
                if words[1:] == ["focus"]:
                    step = turn["plan"][len(turn["results"])]
                    n = 1 + step["brakes"] + step["boosts"]
                    want = -sum(range(turn["fixed"] + 1, turn["fixed"] + n + 1))
                elif words[1:] == ["go", "flat"]:
                    want = len(turn["plan"])
            if change != want:
                rule = "rgt.focus.cost" if words[1:] == ["focus"] else "rgt.focus.gain"
                out.append(Finding(rule, f"{a['id']} focus {a['focus']} -> {b['focus']} "
                                         f"after `{action}`, expected {want:+d}"))
        return out

    def _warnings(self, before: JSON, action: str, events: list[JSON]) -> list[Finding]:
        """After dice are rolled, control is lost iff the warnings of the rolled dice and of
        the track reach the dashboard's limit, or a limit is exceeded."""
        turn = before.get("turn")
        words = action.split()
        if not turn or len(words) < 2 or words[0] != turn["car"]:
            return []
        if words[1] == "dice" and len(words) == 3:
            new = [tuple(c == "!" for c in g) for g in words[2].split("/")]
        elif words[1] == "roll" and turn["fix_next"]:
            step = turn["plan"][len(turn["results"])]
            new = [(False,) * (1 + step["brakes"] + step["boosts"])]
        else:
            return []
        track = printed_track(before["track"])
        limit = self.dashboard(before, before["cars"][number(turn["car"])])[4]
        rolled = [tuple(c == "!" for c in r) for r in turn["results"]] + new
        total, must, at = 0, False, turn["start"]
        for step, flags in zip(turn["plan"], rolled, strict=False):
            warnings, over = corner_verdict(track, at, step["to"], step["gear"])
            total += sum(flags) + warnings
            at = step["to"]
            if over or total >= limit:
                must = True
                break
        kinds = {e.get("kind") for e in events}
        if must and "control-lost" not in kinds and "finished" not in kinds:
            return [Finding("rgt.loc.trigger", f"`{action}`: {total} warnings (limit {limit}) "
                                               "or a limit exceeded, control kept")]
        if not must and "control-lost" in kinds:
            return [Finding("rgt.loc.trigger", f"`{action}`: {total} warnings (limit {limit}), "
                                               "control lost")]
        return []

    def _round_order(self, before: JSON, after: JSON, events: list[JSON]) -> list[Finding]:
        """At a round's start, every racing car by speed, distance and lane, each car as it
        was when the round began: as after the step if it acted before the round started
        (the events say so), else as before the step."""
        start = next((i for i, e in enumerate(events) if e.get("kind") == "round-started"),
                     len(events))
        acted = {e.get("car") for e in events[:start]}
        if before.get("turn"):
            acted.add(before["turn"]["car"])
        cars = {c["id"]: c for c in before["cars"]}
        cars.update({c["id"]: c for c in after["cars"] if c["id"] in acted})
        order = [c for c in after["order"] if cars[c]["where"] != "finished"]
        keys = [self.key(before, number(c), cars[c]) for c in order]
        if keys != sorted(keys):
            return [Finding("rgt.order.speed", f"round {after['round']} order {order}")]
        return []

    def _legal_rule(self, state: JSON, differ: set[str]) -> str:
        """The rule of the legal actions one side offers and the other does not: for laid
        dice, coast dice, overtaking (a space beside another car) or the gear steps."""
        verbs = {a.split()[1] for a in differ if len(a.split()) > 1}
        lays = [a.split() for a in differ if len(a.split()) == 4 and a.split()[1] == "lay"]
        if lays:
            track = printed_track(state["track"])
            me = state["turn"]["car"]
            cars = [c["space"] for c in state["cars"] if c["where"] == "track" and c["id"] != me]
            if all(track.beside[w[3]] & set(cars) for w in lays):
                return "rgt.move.overtake-gear"
            if all(w[2] == "C" for w in lays):
                return "rgt.dice.coast"
            return "rgt.dice.gear-step"
        for verb, rule in (("relay", "rgt.loc.relay"), ("keep", "rgt.loc.relay"),
                           ("focus", "rgt.focus.cost"), ("stop", "rgt.roll.one-by-one"),
                           ("pit", "rgt.pit.conditions"), ("off", "rgt.loc.double-zero")):
            if verb in verbs:
                return rule
        return "rgt.turn.sequence"

    def _may_pit(self, state: JSON, car_id: str) -> bool:
        """Seed 004: in gear 1, not on a corner space or the middle lane, with damage or
        tyres that do not suit the weather."""
        car = state["cars"][number(car_id)]
        space = printed_track(state["track"]).spaces[car["space"]]
        suited = printed_components()["limits"]["suited"][car["tyres"]] == state["weather"]
        damaged = any(t in ("gear", "brake", "coast") for t in car["tokens"])
        return gear_of(car["gear"]) == 1 and not space.get("corner") and \
            space["lanes"] != [2] and (damaged or not suited)




def check_recorded(start: JSON, steps: list[Any], checker: Checker | None = None,
                   ) -> list[tuple[int, Finding]]:
    """Every finding of a recorded race (``steps``: items with ``before``, ``action``,
    ``after``, ``events`` and ``legal``, as the conformance kit records them), with the
    index of its step (-1 for the start state)."""
    checker = checker or Checker()
    out = [(-1, f) for f in checker.check_state(start)]
    for i, step in enumerate(steps):
        out += [(i, f) for f in checker.check_step(step.before, step.action, step.after,
                                                   step.events, step.legal)]
    return out
