"""The checker: every state and step of a Rallyman GT race, given as canonical JSON, judged
against seed 004 as :mod:`heatcore.rallyman.oracle.printed` and
:mod:`heatcore.rallyman.oracle.choices` restate it; each finding names its rule."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from heatcore.rallyman.oracle.choices import legal
from heatcore.rallyman.oracle.printed import (
    JSON,
    TOKENS,
    corner_rule,
    corner_verdict,
    dashboard,
    gear_dice_allowed,
    gear_of,
    gear_step_ok,
    neighbours,
    number,
    options,
    order_key,
    printed_components,
    printed_track,
)

WHITE, BLACK = "white", "black"


@dataclass(frozen=True)
class Finding:
    """One broken rule: its ID and what was seen."""

    rule: str
    detail: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.detail}"


class Checker:
    """Checks states and steps of Rallyman GT races given as canonical JSON."""

    def __init__(self) -> None:
        comp = printed_components()
        self.full_bag = {t: int(comp["bag"][t]) for t in TOKENS}

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
        keys = [order_key(state, *by_id[i]) for i in waiting]
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
        gears, coast, brake, boost, _ = dashboard(state, car)
        lower = options(state)["dotted_limit"] == "lower"
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
            verdict = corner_verdict(track, at, step["to"], step["gear"], lower)
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
        if sum(n for d, n in dice.items() if d.startswith("G")) > gear_dice_allowed(state, car):
            out.append(Finding("rgt.damage.gear", f"{turn['car']} laid {dict(dice)}"))
        return out

    # ------------------------------------------------------------------ steps

    def check_step(self, before: JSON, action: str, after: JSON, events: list[JSON],
                   offered: list[str] | None = None) -> list[Finding]:
        """Every rule a step breaks (``offered``: the legal actions the engine offered in
        ``before``)."""
        out = self.check_state(after)
        if offered is not None:
            want, got = legal(before), set(offered)
            if want is not None and want != got:
                out.append(Finding(self._legal_rule(before, want ^ got),
                                   f"legal: missing {sorted(want - got)[:4]}, "
                                   f"extra {sorted(got - want)[:4]}"))
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
        limit = dashboard(before, before["cars"][number(turn["car"])])[4]
        rolled = [tuple(c == "!" for c in r) for r in turn["results"]] + new
        total, must, at = 0, False, turn["start"]
        for step, flags in zip(turn["plan"], rolled, strict=False):
            warnings, over = corner_verdict(track, at, step["to"], step["gear"],
                                            options(before)["dotted_limit"] == "lower")
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
        keys = [order_key(before, number(c), cars[c]) for c in order]
        if keys != sorted(keys):
            return [Finding("rgt.order.speed", f"round {after['round']} order {order}")]
        return []

    def _legal_rule(self, state: JSON, differ: set[str]) -> str:
        """The rule of the legal actions one side offers and the other does not: for laid
        dice, coast dice, overtaking (a space beside another car) or the gear steps."""
        verbs = {a.split()[1] for a in differ if len(a.split()) > 1}
        lays = [a.split() for a in differ if len(a.split()) == 4 and a.split()[1] == "lay"]
        if lays:
            beside = neighbours(state)
            me = state["turn"]["car"]
            cars = [c["space"] for c in state["cars"] if c["where"] == "track" and c["id"] != me]
            if all(beside[w[3]] & set(cars) for w in lays):
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
