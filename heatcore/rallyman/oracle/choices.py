"""The checker's own generator of legal actions: the dice a car may lay, the rolled dice it
may re-lay after a loss of control (with its own search for a reachable loss), rolling,
focus, stopping, the side after 00 and the pit lanes. Written from seed 004 over the printed
data (:mod:`heatcore.rallyman.oracle.printed`), not from the engine's ``planning``, ``moves``
or ``control``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from heatcore.rallyman.oracle.printed import (
    JSON,
    corner_verdict,
    dashboard,
    gear_dice_allowed,
    gear_of,
    neighbours,
    number,
    options,
    printed_track,
)


def legal(state: JSON) -> set[str] | None:
    """The legal actions by this checker's own generator (None where it has none)."""
    turn = state.get("turn")
    if state["over"] or not turn or turn["stage"] in ("dice", "draw"):
        return set()
    me = turn["car"]
    car = state["cars"][number(me)]
    if turn["stage"] == "plan":
        out = {f"{me} lay {die} {dst}" for die, _, dst in lays(state)}
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
        out = {f"{me} relay {' '.join(dice)} {dst}" for dice, dst in relays(state)}
        return out | ({f"{me} keep"} if not turn["relay"] else set())
    if turn["stage"] == "side":
        return {f"{me} off 1", f"{me} off 3"}
    if turn["stage"] == "pit":
        return {f"{me} pit {lane}" for lane in ("none", "tyres", "repair", "both")}
    return None

def lays(state: JSON) -> list[tuple[str, int, str]]:
    """(die, gear, space) of every die the acting car may lay next."""
    turn = state["turn"]
    me = number(turn["car"])
    car = state["cars"][me]
    gears, coast, brake, boost, _ = dashboard(state, car)
    plan = turn["plan"]
    used = {s["die"] for s in plan}
    coast -= sum(1 for s in plan if s["die"] == "C")
    brake -= sum(s["brakes"] for s in plan)
    boost -= sum(s["boosts"] for s in plan)
    if options(state)["dice_after_loss"] == "stop" and (
            any(s["overspeed"] for s in plan)
            or sum(s["track_warnings"] for s in plan) >= dashboard(state, car)[4]):
        return []  # rgt.ruling.dice-after-loss "stop": the plan ends at a certain loss
    at = plan[-1]["to"] if plan else turn["start"]
    current = plan[-1]["gear"] if plan else gear_of(turn["start_gear"])
    jumps = options(state)["first_die_jumps"] == "yes" or bool(plan)
    if sum(1 for s in plan if s["die"] != "C") >= gear_dice_allowed(state, car):
        gears = ()
    choices = []
    for g in gears:
        change = g - max(current, 0)
        need_b, need_u = max(0, -change - 1), 1 if change == 2 else 0
        if f"G{g}" in used or change > 2 or ((need_b or need_u) and not jumps):
            continue
        if not plan and current <= 0 and g != 1 and options(state)["zero_start"] == "gear1":
            continue
        if need_b <= brake and need_u <= boost:
            choices.append((f"G{g}", g))
    if coast > 0 and current >= 1:
        choices.append(("C", current))
    taken = {s["to"] for s in plan} | {turn["start"]}
    return [(die, g, dst) for die, g in choices for dst in _entries(state, at, g, taken)]

def relays(state: JSON) -> list[tuple[tuple[str, ...], str]]:
    """(dice, space) of every rolled die the car may re-lay next after a loss of
    control: a gear or coast die from the rolled dice (results kept) with the brake or
    boost dice its gear change needs, on a space it may enter, such that the re-laid
    dice can still make it lose control (seed 004: control is lost again)."""
    turn = state["turn"]
    me = number(turn["car"])
    limit = dashboard(state, state["cars"][me])[4]
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
    # rgt.ruling.relay-finish "before-line": no re-laid die crosses the line that ends the race
    cross = options(state)["relay_finish"] == "finishes" or \
        int(turn["start_laps"]) + 1 < int(state["laps"])
    memo: dict[tuple[Any, ...], bool] = {}

    def can_lose(at: str, current: int, pool: Counter[str], warnings: int,
                 taken: frozenset[str]) -> bool:
        key = (at, current, tuple(sorted(pool.elements())), warnings, taken)
        if key not in memo:
            memo[key] = any(
                lost or can_lose(dst, gear, pool - Counter(dice), total, taken | {dst})
                for dice, dst, gear, total, lost in _relay_moves(
                    state, at, current, False, pool, warnings, taken, limit, cross))
        return memo[key]

    return [(dice, dst) for dice, dst, gear, total, lost in _relay_moves(
        state, at, current, not turn["relay"], pool, warnings, taken, limit, cross)
        if lost or can_lose(dst, gear, pool - Counter(dice), total, taken | {dst})]

def _relay_moves(state: JSON, at: str, current: int, first: bool,
                 pool: Counter[str], warnings: int, taken: frozenset[str], limit: int,
                 cross: bool = True) -> list[tuple[tuple[str, ...], str, int, int, bool]]:
    """(dice, space, gear, warnings after, control lost there) of each die from ``pool``
    that may be re-laid next from ``at`` in gear ``current``."""
    track = printed_track(state["track"])
    jumps = options(state)["first_die_jumps"] == "yes" or not first
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
            if first and current <= 0 and gear != 1 and options(state)["zero_start"] == "gear1":
                continue
        for brakes in _takes(pool, "B", need_b):
            for boosts in _takes(pool, "U", need_u):
                dice = (token, *brakes, *boosts)
                rolled = sum(d.endswith("!") for d in dice)
                for dst in _entries(state, at, gear, taken):
                    if not cross and track.moves[(at, dst)].get("finish"):
                        continue
                    added, over = corner_verdict(track, at, dst, gear,
                                                 options(state)["dotted_limit"] == "lower")
                    total = warnings + rolled + added
                    out.append((dice, dst, gear, total, over or total >= limit))
    return out

def _entries(state: JSON, at: str, gear: int, taken: frozenset[str] | set[str],
             ) -> list[str]:
    """Spaces ahead of ``at`` the acting car may enter in ``gear``: free, not yet on its
    path, and beside another car only at that car's gear or higher (no car at all under a
    yellow flag other than its own, which leaves the track as it moves off; cars at 0 or 00
    do not count), unless already beside it (under a yellow flag only when the switch
    ``yellow_beside`` says so)."""
    track = printed_track(state["track"])
    me = state["turn"]["car"]
    others = [(c["space"], gear_of(c["gear"])) for c in state["cars"]
              if c["id"] != me and c["where"] == "track"]
    flag = any(holder != me for holder in state["yellow"])
    keep = options(state)["yellow_beside"] == "already-beside"
    beside = neighbours(state)
    out = []
    for dst in track.ahead[at]:
        if dst in taken or any(dst == sp for sp, _ in others):
            continue
        if any(sp in beside[dst] and og >= 1
               and ((flag and not (keep and sp in beside[at]))
                    or (sp not in beside[at] and gear < og)) for sp, og in others):
            continue
        out.append(dst)
    return out


def _takes(pool: Counter[str], kind: str, need: int) -> list[tuple[str, ...]]:
    """Ways to take ``need`` rolled dice of ``kind`` (B or U) from ``pool``: by how many of
    them show a warning."""
    safe, warn = pool[kind], pool[kind + "!"]
    return [(kind,) * (need - k) + (kind + "!",) * k
            for k in range(max(0, need - safe), min(need, warn) + 1)]
